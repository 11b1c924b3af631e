/**
 * Reads an uploaded zip within bounds, before a byte is inflated: the file count, the total
 * expanded size and the expansion ratio come from the archive's directory, and no entry may point
 * outside the archive (`..`, an absolute path, a drive letter). An entry never inflates past the
 * size its directory declares, so the declared sizes bound the memory used.
 */
import { unzipSync } from "fflate"

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

/** Why an archive was refused, in words for the person who uploaded it. */
export class ArchiveRefused extends Error {
  override readonly name = "ArchiveRefused"
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

/** The files of a zip archive within `limits`; throws `ArchiveRefused` naming the bound it passes. */
export const readArchive = (bytes: Uint8Array, limits: ArchiveLimits = defaultArchiveLimits): ArchiveFiles => {
  if (bytes.byteLength > limits.maxArchiveBytes) {
    throw new ArchiveRefused(`The archive is ${describe(bytes.byteLength)}; an import takes at most ${describe(limits.maxArchiveBytes)}`)
  }
  if (!isZip(bytes)) throw new ArchiveRefused("The file is not a zip archive")
  let count = 0
  let expanded = 0
  let unzipped: Record<string, Uint8Array>
  try {
    unzipped = unzipSync(bytes, {
      filter: (file) => {
        const path = safePath(file.name)
        if (file.name.endsWith("/") || path === "") return false
        count++
        if (count > limits.maxFiles) throw new ArchiveRefused(`The archive holds more than ${limits.maxFiles} files, the most an import takes`)
        expanded += file.originalSize
        if (expanded > limits.maxExpandedBytes) {
          throw new ArchiveRefused(`The archive expands to more than ${describe(limits.maxExpandedBytes)}, the most an import takes`)
        }
        if (file.originalSize > Math.max(file.size, 1024) * limits.maxRatio) {
          throw new ArchiveRefused(`The archive's entry “${file.name}” expands more than ${limits.maxRatio} times; it looks like a zip bomb`)
        }
        return !isClutter(path)
      }
    })
  } catch (error) {
    if (error instanceof ArchiveRefused) throw error
    throw new ArchiveRefused(`The archive cannot be read: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (expanded > Math.max(bytes.byteLength, 64 * 1024) * limits.maxRatio) {
    throw new ArchiveRefused(`The archive expands more than ${limits.maxRatio} times its size; it looks like a zip bomb`)
  }
  const files = new Map<string, Uint8Array>()
  for (const [name, data] of Object.entries(unzipped)) files.set(safePath(name), data)
  return files
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
