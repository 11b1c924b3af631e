/**
 * The bare cache repository of each remote URL, under `<cacheDir>/repos`: one job at a time uses
 * it, within this process (a semaphore) and across processes sharing the cache (a lock directory).
 */
import { Clock, Effect, Semaphore } from "effect"
import { createHash } from "node:crypto"
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises"
import { hostname } from "node:os"
import { join } from "node:path"
import { type GitError, GitFailed } from "../domain/GitErrors.ts"
import type { GitProcess } from "./GitProcess.ts"
import type { Prepared } from "./Remotes.ts"

const lockOwner = `${hostname()} ${process.pid}`

/** Whether a cache lock was left by a process of this machine that is gone, or is older than `maxAge` ms at `now`. */
const isAbandoned = async (lock: string, maxAge: number, now: number): Promise<boolean> => {
  const age = await stat(lock).then((s) => now - s.mtimeMs, () => 0)
  if (age > maxAge) return true
  const owner = await readFile(join(lock, "owner"), "utf8").catch(() => "")
  const [host, pid] = owner.split(" ")
  if (host !== hostname() || pid === undefined || Number(pid) === process.pid) return false
  try {
    process.kill(Number(pid), 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH"
  }
}

/** Runs `use` on the bare cache repository of a prepared remote's URL, holding its lock. */
export type WithCache = <A>(prepared: Prepared, use: (repository: string) => Effect.Effect<A, GitError>) => Effect.Effect<A, GitError>

/** The caches of one transport (its semaphores are its own). */
export const make = (git: GitProcess): WithCache => {
  const semaphores = new Map<string, Semaphore.Semaphore>()
  const semaphoreOf = (path: string) => {
    let semaphore = semaphores.get(path)
    if (semaphore === undefined) {
      semaphore = Semaphore.makeUnsafe(1)
      semaphores.set(path, semaphore)
    }
    return semaphore
  }

  /**
   * Takes the cache's lock directory (shared with other processes on the same cache). A lock whose
   * owner died on this machine, or older than four time limits, is broken.
   */
  const lockFile = (prepared: Prepared, lock: string) =>
    Effect.gen(function*() {
      const deadline = (yield* Clock.currentTimeMillis) + git.timeoutMs
      for (;;) {
        const taken = yield* Effect.promise(() =>
          mkdir(lock).then(() => writeFile(join(lock, "owner"), lockOwner).then(() => true), () => false)
        )
        if (taken) return
        const now = yield* Clock.currentTimeMillis
        const abandoned = yield* Effect.promise(() => isAbandoned(lock, 4 * git.timeoutMs, now))
        if (abandoned) {
          // Renamed first, so two processes that found it abandoned do not both take it.
          const aside = `${lock}.stale-${process.pid}-${now}`
          yield* Effect.promise(() => rename(lock, aside).then(() => rm(aside, { recursive: true, force: true }), () => undefined))
          continue
        }
        if (now > deadline) return yield* new GitFailed({ url: prepared.redacted, detail: "the repository's cache stayed locked by another job" })
        yield* Effect.sleep("50 millis")
      }
    })

  return <A>(prepared: Prepared, use: (repository: string) => Effect.Effect<A, GitError>) => {
    const repository = join(git.reposDir, `${createHash("sha256").update(prepared.url).digest("hex").slice(0, 32)}.git`)
    const lock = `${repository}.lock`
    const body = Effect.acquireUseRelease(
      lockFile(prepared, lock),
      () =>
        Effect.gen(function*() {
          const exists = yield* Effect.promise(() => stat(join(repository, "HEAD")).then(() => true, () => false))
          if (!exists) yield* git.local(prepared, git.reposDir, ["init", "--quiet", "--bare", repository])
          return yield* use(repository)
        }),
      () => Effect.promise(() => rm(lock, { recursive: true, force: true }))
    )
    return semaphoreOf(repository).withPermit(body)
  }
}
