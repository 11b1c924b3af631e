/**
 * A zip archive of files, written whole: each file deflated (or stored, when deflating does not
 * make it smaller), names in UTF-8, one fixed timestamp so that the same files give the same bytes.
 * No ZIP64: an archive holds at most 65,535 files and 4 GiB, which `zip` refuses past.
 */
import { crc32, deflateRawSync } from "node:zlib"

/** Why an archive cannot be written. */
export class ZipTooLarge extends Error {
  override readonly name = "ZipTooLarge"
}

const maxEntries = 0xffff
const maxBytes = 0xffffffff

// 1980-01-01 00:00, the first instant the format can say: the archive's bytes depend on the files alone.
const dosTime = 0
const dosDate = (0 << 9) | (1 << 5) | 1

/** UTF-8 names (general purpose bit 11). */
const utf8Flag = 0x0800

/** The zip archive of `files` (path → bytes), in the order given. */
export const zip = (files: ReadonlyArray<readonly [path: string, bytes: Uint8Array]>): Uint8Array => {
  if (files.length > maxEntries) throw new ZipTooLarge(`An archive holds at most ${maxEntries} files; this one would hold ${files.length}`)
  const parts: Array<Uint8Array> = []
  const central: Array<Uint8Array> = []
  let offset = 0
  for (const [path, bytes] of files) {
    const name = Buffer.from(path, "utf8")
    const deflated = deflateRawSync(bytes)
    const method = deflated.byteLength < bytes.byteLength ? 8 : 0
    const data = method === 8 ? deflated : bytes
    const crc = crc32(bytes)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(utf8Flag, 6)
    local.writeUInt16LE(method, 8)
    local.writeUInt16LE(dosTime, 10)
    local.writeUInt16LE(dosDate, 12)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(data.byteLength, 18)
    local.writeUInt32LE(bytes.byteLength, 22)
    local.writeUInt16LE(name.byteLength, 26)
    local.writeUInt16LE(0, 28)
    const entry = Buffer.alloc(46)
    entry.writeUInt32LE(0x02014b50, 0)
    // Made by Unix (3), so that the external attributes below are a file's mode.
    entry.writeUInt16LE((3 << 8) | 20, 4)
    entry.writeUInt16LE(20, 6)
    entry.writeUInt16LE(utf8Flag, 8)
    entry.writeUInt16LE(method, 10)
    entry.writeUInt16LE(dosTime, 12)
    entry.writeUInt16LE(dosDate, 14)
    entry.writeUInt32LE(crc, 16)
    entry.writeUInt32LE(data.byteLength, 20)
    entry.writeUInt32LE(bytes.byteLength, 24)
    entry.writeUInt16LE(name.byteLength, 28)
    // Extra field, comment, disk number, internal attributes: none; a regular file readable by all.
    entry.writeUInt32LE((0o100644 << 16) >>> 0, 38)
    entry.writeUInt32LE(offset, 42)
    parts.push(local, name, data)
    central.push(entry, name)
    offset += local.byteLength + name.byteLength + data.byteLength
    if (offset > maxBytes) throw new ZipTooLarge("An archive holds at most 4 GiB")
  }
  const centralSize = central.reduce((sum, part) => sum + part.byteLength, 0)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(files.length, 8)
  end.writeUInt16LE(files.length, 10)
  end.writeUInt32LE(centralSize, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...parts, ...central, end])
}
