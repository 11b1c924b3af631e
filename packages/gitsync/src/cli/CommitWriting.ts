/**
 * Writing the commit of a push in a cache repository: blobs stored in one pack by `fast-import`,
 * the tree built on a temporary index over the parent's, then `commit-tree` (nothing when the
 * tree is the parent's).
 */
import { Effect } from "effect"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { join } from "node:path"
import { GitFailed } from "../domain/GitErrors.ts"
import type { GitPush } from "../GitTransport.ts"
import type { GitProcess } from "./GitProcess.ts"
import type { Prepared } from "./Remotes.ts"

const zeroOid = "0000000000000000000000000000000000000000"

/** Whether `path` is a file path git can hold: relative, `/`-separated, no `.`, `..` or `.git` component. */
const isTreePath = (path: string): boolean =>
  path !== "" && !path.includes("\0") &&
  path.split("/").every((part) => part !== "" && part !== "." && part !== ".." && part.toLowerCase() !== ".git")

/**
 * Stores `blobs` in one pack with `git fast-import` (a thousand loose objects take seconds) and
 * answers their ids in order.
 */
const writeBlobs = (git: GitProcess, prepared: Prepared, repository: string, scratch: string, blobs: ReadonlyArray<Uint8Array>) =>
  Effect.gen(function*() {
    if (blobs.length === 0) return []
    const marks = join(scratch, "marks")
    const stream: Array<Uint8Array> = []
    blobs.forEach((bytes, i) => {
      stream.push(Buffer.from(`blob\nmark :${i + 1}\ndata ${bytes.byteLength}\n`), bytes, Buffer.from("\n"))
    })
    stream.push(Buffer.from("done\n"))
    yield* git.local(prepared, repository, ["fast-import", "--quiet", "--done", `--export-marks=${marks}`], { input: Buffer.concat(stream) })
    const oids = new Map<string, string>()
    for (const line of (yield* Effect.promise(() => readFile(marks, "utf8"))).split("\n")) {
      const [mark, oid] = line.split(" ")
      if (mark !== undefined && oid !== undefined) oids.set(mark, oid)
    }
    return blobs.map((_, i) => oids.get(`:${i + 1}`) ?? "")
  })

/** Builds the commit of `push` in `repository` and answers it, or the parent when nothing changes. */
export const buildCommit = (git: GitProcess, prepared: Prepared, repository: string, push: GitPush) =>
  Effect.acquireUseRelease(
    Effect.promise(() => mkdtemp(join(git.scratchDir, "push-"))),
    (scratch) =>
      Effect.gen(function*() {
        for (const path of push.changes.keys()) {
          if (!isTreePath(path)) return yield* new GitFailed({ url: prepared.redacted, detail: `${JSON.stringify(path)} is not a valid file path` })
        }
        const index = { GIT_INDEX_FILE: join(scratch, "index") }
        const writes = [...push.changes].filter((entry): entry is [string, Uint8Array] => entry[1] !== null)
        const oids = yield* writeBlobs(git, prepared, repository, scratch, writes.map(([, bytes]) => bytes))
        yield* git.local(prepared, repository, push.parent === undefined ? ["read-tree", "--empty"] : ["read-tree", push.parent], { env: index })
        // Keep the mode of files that exist (an executable stays executable).
        const modes = new Map<string, string>()
        if (push.parent !== undefined && writes.length > 0) {
          const staged = (yield* git.local(prepared, repository, ["ls-files", "-s", "-z"], { env: index })).toString("utf8")
          for (const record of staged.split("\0")) {
            const tab = record.indexOf("\t")
            if (tab > 0) modes.set(record.slice(tab + 1), record.slice(0, record.indexOf(" ")))
          }
        }
        const lines: Array<string> = []
        writes.forEach(([path], i) => lines.push(`${modes.get(path) === "100755" ? "100755" : "100644"} ${oids[i]}\t${path}\0`))
        for (const [path, bytes] of push.changes) if (bytes === null) lines.push(`0 ${zeroOid}\t${path}\0`)
        if (lines.length > 0) yield* git.local(prepared, repository, ["update-index", "-z", "--index-info"], { input: lines.join(""), env: index })
        const tree = (yield* git.local(prepared, repository, ["write-tree"], { env: index })).toString("utf8").trim()
        if (push.parent !== undefined) {
          const parentTree = (yield* git.local(prepared, repository, ["rev-parse", `${push.parent}^{tree}`])).toString("utf8").trim()
          if (parentTree === tree) return push.parent
        }
        const identity = {
          GIT_AUTHOR_NAME: push.author.name,
          GIT_AUTHOR_EMAIL: push.author.email,
          GIT_COMMITTER_NAME: push.author.name,
          GIT_COMMITTER_EMAIL: push.author.email
        }
        const args = push.parent === undefined ? ["commit-tree", tree, "-F", "-"] : ["commit-tree", tree, "-p", push.parent, "-F", "-"]
        return (yield* git.local(prepared, repository, args, { input: push.message, env: identity })).toString("utf8").trim()
      }),
    (scratch) => Effect.promise(() => rm(scratch, { recursive: true, force: true }))
  )
