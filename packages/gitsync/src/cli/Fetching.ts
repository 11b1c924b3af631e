/** The fetch of the CLI transport: the branch fetched one commit deep into its cache, then its tree read. */
import { Effect } from "effect"
import { type GitError, GitBranchMissing } from "../domain/GitErrors.ts"
import type { FetchOptions, GitRemote, GitSnapshot } from "../GitTransport.ts"
import { Redact } from "@quire/kernel"
import type { WithCache } from "./CacheRepositories.ts"
import { classify, type GitProcess } from "./GitProcess.ts"
import type { Prepared } from "./Remotes.ts"
import { readTree } from "./TreeReading.ts"

/** `git fetch` of `source` into `destination` (a ref of the cache), one commit deep. */
const fetchInto = (git: GitProcess, prepared: Prepared, repository: string, source: string, destination: string) =>
  Effect.flatMap(
    git.run(repository, [
      "fetch",
      "--quiet",
      "--depth=1",
      "--no-tags",
      "--no-write-fetch-head",
      "--no-recurse-submodules",
      "--",
      prepared.url,
      `+${source}:${destination}`
    ], prepared),
    (run) => (run.code === 0 ? Effect.void : Effect.fail(classify(prepared, run)))
  )

/** Whether the repository has no branch at all (a repository nobody pushed to yet). */
const isEmpty = (git: GitProcess, prepared: Prepared, repository: string) =>
  Effect.flatMap(git.run(repository, ["ls-remote", "--heads", "--", prepared.url], prepared), (run) =>
    run.code === 0 ? Effect.succeed(run.stdout.toString("utf8").trim() === "") : Effect.fail(classify(prepared, run)))

/** GitTransport's `fetch` over the runner, the remote checks and the caches. */
export const makeFetch = (git: GitProcess, prepare: (remote: GitRemote) => Effect.Effect<Prepared, GitError>, withCache: WithCache) =>
(remote: GitRemote, options: FetchOptions = {}): Effect.Effect<GitSnapshot, GitError> =>
  Effect.gen(function*() {
    const prepared = yield* prepare(remote)
    return yield* withCache(prepared, (repository) =>
      Effect.gen(function*() {
        const tracking = `refs/quire/${prepared.ref.slice("refs/".length)}`
        yield* fetchInto(git, prepared, repository, prepared.ref, tracking).pipe(
          Effect.catchTag("GitBranchMissing", (missing) =>
            Effect.flatMap(isEmpty(git, prepared, repository), (repositoryEmpty) =>
              Effect.fail(new GitBranchMissing({ url: missing.url, ref: missing.ref, repositoryEmpty }))))
        )
        const commit = (yield* git.local(prepared, repository, ["rev-parse", "--verify", `${tracking}^{commit}`])).toString("utf8").trim()
        const message = (yield* git.local(prepared, repository, ["log", "-1", "--format=%B", commit])).toString("utf8").replace(/\n+$/, "")
        const files = yield* readTree(git, prepared, repository, commit, options)
        return { commit, message, files }
      }))
  }).pipe(Effect.withSpan("GitCli.fetch", { attributes: { url: Redact.url(remote.url), ref: remote.ref } }))
