/** Image dimensions from headers: PNG, GIF, JPEG and the three WebP flavours. */
import { assert, describe, it } from "@effect/vitest"
import { imageDimensions } from "../../src/domain/ImageSize.ts"

const from = (...parts: ReadonlyArray<string | ReadonlyArray<number>>) =>
  Uint8Array.from(parts.flatMap((part) => typeof part === "string" ? Array.from(part, (c) => c.charCodeAt(0)) : Array.from(part)))

const u32be = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]
const u16le = (n: number) => [n & 255, (n >>> 8) & 255]
const u16be = (n: number) => [(n >>> 8) & 255, n & 255]
const u24le = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255]

// A real 96×32 PNG (the product-docs template's banner).
const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAGAAAAAgCAIAAABiouoDAAAASklEQVR42u3QAREAIAzEsImaLRQjhjlAwD69Kkj1uf5cCAABAgQIEKA4oBcWIECAAAECBAgQIECAAAECBAhQOpABAQIECBAgQMsfs8tWeAiU0BEAAAAASUVORK5CYII=",
  "base64"
)

describe("imageDimensions", () => {
  it("reads a PNG's IHDR", () => {
    assert.deepStrictEqual(imageDimensions(png), { width: 96, height: 32 })
    assert.deepStrictEqual(
      imageDimensions(from([0x89], "PNG\r\n\x1a\n", u32be(13), "IHDR", u32be(4000), u32be(3000), [8, 6, 0, 0, 0])),
      { width: 4000, height: 3000 }
    )
  })

  it("reads a GIF's logical screen", () => {
    assert.deepStrictEqual(imageDimensions(from("GIF89a", u16le(640), u16le(480), [0, 0, 0])), { width: 640, height: 480 })
    assert.deepStrictEqual(imageDimensions(from("GIF87a", u16le(1), u16le(1), [0])), { width: 1, height: 1 })
  })

  it("finds a JPEG's frame after the segments before it", () => {
    const app0 = [0xff, 0xe0, ...u16be(16), ...Array.from("JFIF\0", (c) => c.charCodeAt(0)), 1, 1, 0, 0, 1, 0, 1, 0, 0]
    const dqt = [0xff, 0xdb, ...u16be(5), 0, 1, 2]
    const sof2 = [0xff, 0xc2, ...u16be(17), 8, ...u16be(1080), ...u16be(1920), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
    assert.deepStrictEqual(imageDimensions(from([0xff, 0xd8], app0, dqt, [0xff], sof2)), { width: 1920, height: 1080 })
    // A DHT (C4) in the start-of-frame range carries no size.
    const dht = [0xff, 0xc4, ...u16be(4), 0, 0]
    const sof0 = [0xff, 0xc0, ...u16be(11), 8, ...u16be(20), ...u16be(30), 1, 1, 0x11, 0]
    assert.deepStrictEqual(imageDimensions(from([0xff, 0xd8], dht, sof0)), { width: 30, height: 20 })
  })

  it("reads lossy, lossless and extended WebP", () => {
    const riff = (chunk: ReadonlyArray<number>) => from("RIFF", [0, 0, 0, 0], "WEBP", chunk)
    const lossy = riff([...from("VP8 "), 0, 0, 0, 0, 0, 0, 0, 0x9d, 0x01, 0x2a, ...u16le(800), ...u16le(600)])
    assert.deepStrictEqual(imageDimensions(lossy), { width: 800, height: 600 })
    const bits = (300 - 1) | ((200 - 1) << 14)
    const lossless = riff([...from("VP8L"), 0, 0, 0, 0, 0x2f, bits & 255, (bits >>> 8) & 255, (bits >>> 16) & 255, (bits >>> 24) & 255])
    assert.deepStrictEqual(imageDimensions(lossless), { width: 300, height: 200 })
    const extended = riff([...from("VP8X"), 0, 0, 0, 0, 0, 0, 0, 0, ...u24le(5000 - 1), ...u24le(70 - 1)])
    assert.deepStrictEqual(imageDimensions(extended), { width: 5000, height: 70 })
  })

  it("has no size for other formats and truncated headers", () => {
    assert.isUndefined(imageDimensions(from("<svg xmlns='http://www.w3.org/2000/svg'/>")))
    assert.isUndefined(imageDimensions(png.subarray(0, 20)))
    assert.isUndefined(imageDimensions(from([0xff, 0xd8, 0xff, 0xc0, 0, 11])))
    assert.isUndefined(imageDimensions(new Uint8Array(0)))
  })
})
