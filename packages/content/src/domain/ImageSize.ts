/**
 * The pixel size of an image read from its header: PNG, JPEG, GIF and WebP (lossy, lossless and
 * extended). Pure and dependency-free; anything else, or a truncated header, has no size.
 */

export interface Dimensions {
  readonly width: number
  readonly height: number
}

const ascii = (bytes: Uint8Array, offset: number, text: string): boolean => {
  if (offset + text.length > bytes.length) return false
  for (let i = 0; i < text.length; i++) if (bytes[offset + i] !== text.charCodeAt(i)) return false
  return true
}

const u16be = (b: Uint8Array, o: number) => (b[o]! << 8) | b[o + 1]!
const u16le = (b: Uint8Array, o: number) => b[o]! | (b[o + 1]! << 8)
const u24le = (b: Uint8Array, o: number) => b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16)
const u32be = (b: Uint8Array, o: number) => ((b[o]! << 24) >>> 0) + ((b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!)

const sized = (width: number, height: number): Dimensions | undefined =>
  width > 0 && height > 0 ? { width, height } : undefined

const png = (b: Uint8Array): Dimensions | undefined =>
  b.length >= 24 && ascii(b, 1, "PNG\r\n\x1a\n") && b[0] === 0x89 && ascii(b, 12, "IHDR")
    ? sized(u32be(b, 16), u32be(b, 20))
    : undefined

const gif = (b: Uint8Array): Dimensions | undefined =>
  b.length >= 10 && (ascii(b, 0, "GIF87a") || ascii(b, 0, "GIF89a")) ? sized(u16le(b, 6), u16le(b, 8)) : undefined

const webp = (b: Uint8Array): Dimensions | undefined => {
  if (!ascii(b, 0, "RIFF") || !ascii(b, 8, "WEBP")) return undefined
  if (ascii(b, 12, "VP8 ") && b.length >= 30 && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) {
    return sized(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff)
  }
  if (ascii(b, 12, "VP8L") && b.length >= 25 && b[20] === 0x2f) {
    const bits = (b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)) >>> 0
    return sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1)
  }
  if (ascii(b, 12, "VP8X") && b.length >= 30) return sized(u24le(b, 24) + 1, u24le(b, 27) + 1)
  return undefined
}

// Start-of-frame markers carry the size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc

const jpeg = (b: Uint8Array): Dimensions | undefined => {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return undefined
  let i = 2
  while (i + 3 < b.length) {
    if (b[i] !== 0xff) return undefined
    const marker = b[i + 1]!
    if (marker === 0xff) {
      i++ // fill byte
      continue
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2 // markers without a length
      continue
    }
    if (marker === 0xd9 || marker === 0xda) return undefined // end of image, or the scan before any frame
    if (isStartOfFrame(marker)) return i + 8 < b.length ? sized(u16be(b, i + 7), u16be(b, i + 5)) : undefined
    i += 2 + u16be(b, i + 2)
  }
  return undefined
}

/** The size of a PNG, JPEG, GIF or WebP image from its first bytes; undefined for anything else. */
export const imageDimensions = (bytes: Uint8Array): Dimensions | undefined =>
  png(bytes) ?? gif(bytes) ?? webp(bytes) ?? jpeg(bytes)
