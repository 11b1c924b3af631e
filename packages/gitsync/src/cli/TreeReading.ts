/** Reading a commit's tree from a cache repository: listed with `ls-tree`, blobs read with `cat-file --batch`. */
import { Effect } from "effect"
import { GitFailed } from "../domain/GitErrors.ts"
import { checkLimits, type FetchOptions, type GitBlob, isUnder } from "../GitTransport.ts"
import type { GitProcess } from "./GitProcess.ts"
import type { Prepared } from "./Remotes.ts"

/** About how many bytes of blobs one `cat-file --batch` reads (a larger blob is read alone). */
const readBatchBytes = 16 * 1024 * 1024

/**
 * The files of `commit` under `options.directory` with their blob ids and bytes (submodules are
 * skipped: they hold no bytes here). Sizes come from the listing and are checked against
 * `options.limits` before any blob is read; blobs are then read a batch of about `readBatchBytes`
 * at a time, so neither git's output nor the runner holds more than that at once.
 */
export const readTree = (git: GitProcess, prepared: Prepared, repository: string, commit: string, options: FetchOptions) =>
  Effect.gen(function*() {
    const listing = (yield* git.local(prepared, repository, ["ls-tree", "-r", "-l", "-z", "--full-tree", commit])).toString("utf8")
    const entries: Array<{ path: string; oid: string; size: number }> = []
    for (const record of listing.split("\0")) {
      if (record === "") continue
      const tab = record.indexOf("\t")
      const [, type, oid, size] = record.slice(0, tab).split(/ +/)
      const path = record.slice(tab + 1)
      if (type !== "blob" || oid === undefined || !isUnder(options.directory ?? "", path)) continue
      entries.push({ path, oid, size: Number(size) })
    }
    const tooLarge = checkLimits(prepared.url, entries, options.limits)
    if (tooLarge !== undefined) return yield* tooLarge
    const sizes = new Map(entries.map((entry) => [entry.oid, entry.size]))
    const batches: Array<Array<string>> = [[]]
    let batchBytes = 0
    for (const [oid, size] of sizes) {
      if (batchBytes > 0 && batchBytes + size > readBatchBytes) {
        batches.push([])
        batchBytes = 0
      }
      batches.at(-1)!.push(oid)
      batchBytes += size
    }
    const blobs = new Map<string, Uint8Array>()
    for (const oids of batches) {
      if (oids.length === 0) continue
      const output = yield* git.local(prepared, repository, ["cat-file", "--batch"], { input: oids.map((oid) => `${oid}\n`).join("") })
      let position = 0
      for (const oid of oids) {
        const newline = output.indexOf(10, position)
        const header = output.toString("latin1", position, newline).split(" ")
        const size = Number(header[2])
        if (header[0] !== oid || header[1] !== "blob" || !Number.isFinite(size)) {
          return yield* new GitFailed({ url: prepared.redacted, detail: `cannot read blob ${oid} of ${commit}` })
        }
        blobs.set(oid, new Uint8Array(output.buffer, output.byteOffset + newline + 1, size))
        position = newline + 1 + size + 1
      }
    }
    const files = new Map<string, GitBlob>()
    for (const entry of entries) files.set(entry.path, { oid: entry.oid, bytes: blobs.get(entry.oid)! })
    return files
  })
