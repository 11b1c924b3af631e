/**
 * Reads an uploaded zip within bounds. Before a byte is inflated, the archive's directory gives the
 * file count, the total expanded size and the expansion ratio, and no entry may point outside the
 * archive (`..`, an absolute path, a drive letter). Then each entry is inflated as a stream that
 * stops as soon as it passes the size its directory declares: a directory that lies about sizes
 * (a zip bomb) is refused once the bound is crossed, never after inflating what the lie hid.
 */
import { Inflate } from "fflate"

/** The bounds of an archive. */
export interface ArchiveLimits {
  /** Bytes of the archive itself (default 50 MiB). */
  readonly maxArchiveBytes: number
  /** Files in it, folders aside (default 5,000). */
  readonly maxFiles: number
  /** Bytes of all its files once expanded (default 200 MiB). */
  readonly maxExpandedBytes: number
  /** Expanded bytes per archived byte, for the whole archive and for each file (default 100). */
  readonly maxRatio: number
}

export const defaultArchiveLimits: ArchiveLimits = {
  maxArchiveBytes: 50 * 1024 * 1024,
  maxFiles: 5000,
  maxExpandedBytes: 200 * 1024 * 1024,
  maxRatio: 100
}

/** Why an archive was refused, in words for the person who uploaded it; `inflatedBytes`: how many bytes were inflated before it was. */
export class ArchiveRefused extends Error {
  override readonly name = "ArchiveRefused"
  constructor(message: string, readonly inflatedBytes: number = 0) {
    super(message)
  }
}

/** An archive's files by path (`/`-separated, no leading slash, no folders). */
export type ArchiveFiles = ReadonlyMap<string, Uint8Array>

/** Whether `bytes` start as a zip archive does. */
export const isZip = (bytes: Uint8Array): boolean =>
  bytes.byteLength >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 0x03 || bytes[2] === 0x05) && (bytes[3] === 0x04 || bytes[3] === 0x06)

/** The path of an entry inside the archive, or why it is refused. */
export const safePath = (name: string): string => {
  const path = name.replace(/\\/g, "/")
  if (path.startsWith("/") || /^[a-z]:/i.test(path) || path.includes("\0")) {
    throw new ArchiveRefused(`The archive's entry “${name}” has an absolute path; entries must stay inside the archive`)
  }
  const segments = path.split("/").filter((segment) => segment !== "" && segment !== ".")
  if (segments.includes("..")) throw new ArchiveRefused(`The archive's entry “${name}” leads outside the archive (“..”); entries must stay inside it`)
  return segments.join("/")
}

const describe = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(bytes < 1024 * 1024 ? 2 : 0)} MB`

/** Files macOS and Windows add to an archive that are not part of the content. */
const isClutter = (path: string) => path.startsWith("__MACOSX/") || /(^|\/)(\.DS_Store|Thumbs\.db|desktop\.ini)$/i.test(path)

/** An entry of the archive's central directory, as it declares itself. */
interface Entry {
  readonly name: string
  readonly flags: number
  readonly method: number
  readonly size: number
  readonly originalSize: number
  readonly localOffset: number
}

const u16 = (view: DataView, at: number) => view.getUint16(at, true)
const u32 = (view: DataView, at: number) => view.getUint32(at, true)
const u64 = (view: DataView, at: number) => Number(view.getBigUint64(at, true))

/** The entries of the central directory (zip64 included); throws on a malformed archive. */
const centralDirectory = (bytes: Uint8Array): ReadonlyArray<Entry> => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let end = -1
  for (let at = bytes.byteLength - 22; at >= Math.max(0, bytes.byteLength - 22 - 0xffff); at--) {
    if (u32(view, at) === 0x06054b50) {
      end = at
      break
    }
  }
  if (end < 0) throw new Error("no end of central directory")
  let count = u16(view, end + 10)
  let offset = u32(view, end + 16)
  if ((count === 0xffff || offset === 0xffffffff) && end >= 20 && u32(view, end - 20) === 0x07064b50) {
    const zip64End = u64(view, end - 12)
    if (zip64End + 56 > bytes.byteLength || u32(view, zip64End) !== 0x06064b50) throw new Error("bad zip64 end of central directory")
    count = u64(view, zip64End + 32)
    offset = u64(view, zip64End + 48)
  }
  const decoder = new TextDecoder()
  const entries: Array<Entry> = []
  for (let index = 0, at = offset; index < count; index++) {
    if (at + 46 > bytes.byteLength || u32(view, at) !== 0x02014b50) throw new Error("bad central directory entry")
    const nameLength = u16(view, at + 28)
    const extraLength = u16(view, at + 30)
    const commentLength = u16(view, at + 32)
    let size = u32(view, at + 20)
    let originalSize = u32(view, at + 24)
    let localOffset = u32(view, at + 42)
    // Zip64: the sizes and offset that did not fit are in the extra field 0x0001, in this order.
    for (let extra = at + 46 + nameLength; extra + 4 <= at + 46 + nameLength + extraLength;) {
      const id = u16(view, extra)
      const length = u16(view, extra + 2)
      if (id === 1) {
        let field = extra + 4
        if (originalSize === 0xffffffff) {
          originalSize = u64(view, field)
          field += 8
        }
        if (size === 0xffffffff) {
          size = u64(view, field)
          field += 8
        }
        if (localOffset === 0xffffffff) localOffset = u64(view, field)
      }
      extra += 4 + length
    }
    entries.push({
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      flags: u16(view, at + 8),
      method: u16(view, at + 10),
      size,
      originalSize,
      localOffset
    })
    at += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

/** The most bytes one byte of deflate can expand to (a run of 258 from 2 bits): input is fed in steps this bounds. */
const deflateMaxRatio = 1032

/**
 * The bytes of an entry, inflated as a stream that stops once they pass `bound` (its declared
 * size): each step feeds as few compressed bytes as can at most fill what the bound leaves, so what
 * is inflated past the bound is at most one small step.
 */
const inflateBounded = (entry: Entry, data: Uint8Array, bound: number, inflatedBefore: number): Uint8Array => {
  const chunks: Array<Uint8Array> = []
  let produced = 0
  const inflate = new Inflate((chunk) => {
    produced += chunk.byteLength
    if (produced > bound) {
      throw new ArchiveRefused(
        `The archive's entry “${entry.name}” declares ${bound} bytes but inflates to more; it looks like a zip bomb`,
        inflatedBefore + produced
      )
    }
    chunks.push(chunk)
  })
  for (let at = 0; at < data.byteLength;) {
    const step = Math.min(64 * 1024, Math.max(64, Math.ceil((bound - produced) / deflateMaxRatio)))
    const next = Math.min(data.byteLength, at + step)
    inflate.push(data.subarray(at, next), next === data.byteLength)
    at = next
  }
  if (produced !== bound) throw new Error(`the entry “${entry.name}” declares ${bound} bytes but holds ${produced}`)
  const out = new Uint8Array(produced)
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.byteLength
  }
  return out
}

/** The files of a zip archive within `limits`; throws `ArchiveRefused` naming the bound it passes. */
export const readArchive = (bytes: Uint8Array, limits: ArchiveLimits = defaultArchiveLimits): ArchiveFiles => {
  if (bytes.byteLength > limits.maxArchiveBytes) {
    throw new ArchiveRefused(`The archive is ${describe(bytes.byteLength)}; an import takes at most ${describe(limits.maxArchiveBytes)}`)
  }
  if (!isZip(bytes)) throw new ArchiveRefused("The file is not a zip archive")
  let inflated = 0
  try {
    // The declared sizes first, before a byte is inflated.
    const wanted: Array<{ readonly entry: Entry; readonly path: string }> = []
    let count = 0
    let expanded = 0
    for (const entry of centralDirectory(bytes)) {
      const path = safePath(entry.name)
      if (entry.name.endsWith("/") || path === "") continue
      count++
      if (count > limits.maxFiles) throw new ArchiveRefused(`The archive holds more than ${limits.maxFiles} files, the most an import takes`)
      expanded += entry.originalSize
      if (expanded > limits.maxExpandedBytes) {
        throw new ArchiveRefused(`The archive expands to more than ${describe(limits.maxExpandedBytes)}, the most an import takes`)
      }
      if (entry.originalSize > Math.max(entry.size, 1024) * limits.maxRatio) {
        throw new ArchiveRefused(`The archive's entry “${entry.name}” expands more than ${limits.maxRatio} times; it looks like a zip bomb`)
      }
      if (!isClutter(path)) wanted.push({ entry, path })
    }
    if (expanded > Math.max(bytes.byteLength, 64 * 1024) * limits.maxRatio) {
      throw new ArchiveRefused(`The archive expands more than ${limits.maxRatio} times its size; it looks like a zip bomb`)
    }
    // Then each entry, never inflated past its declared size, so that their sum bounds the whole.
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    const files = new Map<string, Uint8Array>()
    for (const { entry, path } of wanted) {
      if ((entry.flags & 1) !== 0) throw new ArchiveRefused(`The archive's entry “${entry.name}” is encrypted; imports read only unencrypted archives`)
      const local = entry.localOffset
      if (local + 30 > bytes.byteLength || u32(view, local) !== 0x04034b50) throw new Error(`no local header for “${entry.name}”`)
      const start = local + 30 + u16(view, local + 26) + u16(view, local + 28)
      if (start + entry.size > bytes.byteLength) throw new Error(`the entry “${entry.name}” runs past the end of the archive`)
      const data = bytes.subarray(start, start + entry.size)
      let content: Uint8Array
      if (entry.method === 0) {
        if (entry.size !== entry.originalSize) {
          throw new ArchiveRefused(`The archive's entry “${entry.name}” declares ${entry.originalSize} bytes but holds ${entry.size}`, inflated)
        }
        content = data.slice()
      } else if (entry.method === 8) {
        content = inflateBounded(entry, data, entry.originalSize, inflated)
      } else {
        throw new ArchiveRefused(`The archive's entry “${entry.name}” is compressed with a method imports do not read (${entry.method}); zip it with deflate`)
      }
      inflated += content.byteLength
      files.set(path, content)
    }
    return files
  } catch (error) {
    if (error instanceof ArchiveRefused) throw error
    throw new ArchiveRefused(`The archive cannot be read: ${error instanceof Error ? error.message : String(error)}`, inflated)
  }
}

/**
 * The files under one folder when every file of the archive is in it (`export/…`, as most tools
 * zip a folder), else the files as they are.
 */
export const withoutCommonFolder = (files: ArchiveFiles): ArchiveFiles => {
  let current = files
  for (;;) {
    const firsts = new Set<string>()
    let allNested = true
    for (const path of current.keys()) {
      const slash = path.indexOf("/")
      if (slash < 0) allNested = false
      else firsts.add(path.slice(0, slash))
    }
    if (!allNested || firsts.size !== 1) return current
    const prefix = `${[...firsts][0]}/`
    current = new Map([...current].map(([path, data]) => [path.slice(prefix.length), data]))
  }
}
