/**
 * A PGlite cluster dumped to a gzipped tarball (`PGlite.dumpDataDir("gzip")`), written back into a
 * data directory by plain file writes: the build ships the database of a new installation this
 * way, so that the first start of the embedded database runs neither initdb nor the migrations.
 */
import { existsSync } from "node:fs"
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { dirname, join, resolve, sep } from "node:path"
import { promisify } from "node:util"
import { gunzip, gzip } from "node:zlib"

/** The file whose presence makes a directory a cluster, for PostgreSQL and PGlite alike. */
const marker = "PG_VERSION"

/** Whether `dataDir` holds a cluster, by PGlite's own test (a `PG_VERSION` file at its root). */
export const holdsCluster = (dataDir: string): boolean => existsSync(join(dataDir, marker))

interface Entry {
  readonly path: string
  readonly directory: boolean
  readonly data: Uint8Array
}

const block = 512

const text = (header: Uint8Array, start: number, length: number) => {
  const bytes = header.subarray(start, start + length)
  const end = bytes.indexOf(0)
  return Buffer.from(end === -1 ? bytes : bytes.subarray(0, end)).toString("utf8")
}

/** The regular files and directories of a ustar archive, as paths inside `root`. */
const entries = (tar: Uint8Array, root: string): Array<Entry> => records(tar, root).map(({ entry }) => entry)

/** Each entry of a ustar archive with the bytes it spans (its header and padded data). */
const records = (tar: Uint8Array, root: string): Array<{ readonly name: string; readonly entry: Entry; readonly bytes: Uint8Array }> => {
  const found: Array<{ readonly name: string; readonly entry: Entry; readonly bytes: Uint8Array }> = []
  for (let offset = 0; offset + block <= tar.length;) {
    const header = tar.subarray(offset, offset + block)
    // Two zero blocks end the archive.
    if (header.every((byte) => byte === 0)) break
    if (!text(header, 257, 6).startsWith("ustar")) throw new Error(`Not a ustar header at byte ${offset}`)
    const name = [text(header, 345, 155), text(header, 0, 100)].filter((part) => part !== "").join("/")
    const size = Number.parseInt(text(header, 124, 12).trim() || "0", 8)
    const type = String.fromCharCode(header[156] ?? 0)
    const path = resolve(root, `.${name.startsWith("/") ? "" : "/"}${name}`)
    if (!Number.isSafeInteger(size) || (path !== root && !path.startsWith(root.endsWith(sep) ? root : root + sep))) {
      throw new Error(`Bad entry "${name}" at byte ${offset}`)
    }
    if (type !== "0" && type !== "\0" && type !== "5") throw new Error(`Entry "${name}" has unsupported type "${type}"`)
    const start = offset + block
    const end = start + Math.ceil(size / block) * block
    found.push({ name, entry: { path, directory: type === "5", data: tar.subarray(start, start + size) }, bytes: tar.subarray(offset, end) })
    offset = end
  }
  return found
}

/**
 * Writes the cluster dumped in the gzipped tarball `dump` into `dataDir`, overwriting any file of
 * the same name. `PG_VERSION` comes last, so a restore that stops half-way leaves a directory that
 * holds no cluster yet, which the next start restores again.
 */
export const restore = async (dump: string, dataDir: string): Promise<void> => {
  const root = resolve(dataDir)
  const all = entries(await promisify(gunzip)(await readFile(dump)), root)
  const markerPath = join(root, marker)
  const files = all.filter((entry) => !entry.directory)
  const last = files.find((entry) => entry.path === markerPath)
  if (last === undefined) throw new Error(`${dump} holds no ${marker}: it is not a cluster`)
  const directories = new Set([root, ...all.filter((entry) => entry.directory).map((entry) => entry.path)])
  for (const file of files) directories.add(dirname(file.path))
  for (const directory of [...directories].toSorted()) await mkdir(directory, { recursive: true })
  // A thousand files, a few at a time: all at once could run out of file descriptors.
  const pending = files.filter((file) => file !== last)
  const writer = async () => {
    for (let file = pending.pop(); file !== undefined; file = pending.pop()) await writeFile(file.path, file.data)
  }
  await Promise.all(Array.from({ length: 8 }, writer))
  await writeFile(last.path, last.data)
}

/**
 * What PostgreSQL keeps at the top of a cluster's directory. The embedded database's directory is
 * also the data directory, which holds the instance secret (`secret`) and the file bytes
 * (`blobs/`): neither belongs in a snapshot of the cluster.
 */
const clusterEntry = /^(PG_VERSION|base|global|pg_[a-z_]+|postgresql(\.auto)?\.conf|pg_hba\.conf|pg_ident\.conf|postmaster\.(pid|opts))$/

/** The top-level names of the gzipped tarball `dump` that are not PostgreSQL's, as `clusterOnly` leaves them out. */
export const foreignEntries = async (dump: Uint8Array): Promise<ReadonlyArray<string>> =>
  records(await promisify(gunzip)(dump), "/").map(({ name }) => name.replace(/^\/+/, "").split("/")[0] ?? "")
    .filter((top, index, all) => !clusterEntry.test(top) && all.indexOf(top) === index)

/**
 * The tarball `dump` of a cluster (gzipped or not) with only PostgreSQL's own files
 * (`clusterEntry`), gzipped: what else shares the directory (the instance secret, the file bytes)
 * is left out.
 */
export const clusterOnly = async (dump: Uint8Array): Promise<Uint8Array> => {
  const gzipped = dump[0] === 0x1f && dump[1] === 0x8b
  const kept = records(gzipped ? await promisify(gunzip)(dump) : dump, "/")
    .filter(({ name }) => clusterEntry.test(name.replace(/^\/+/, "").split("/")[0] ?? ""))
    .map(({ bytes }) => bytes)
  return new Uint8Array(await promisify(gzip)(Buffer.concat([...kept, new Uint8Array(block * 2)])))
}
