/**
 * The push of the CLI transport: the parent commit made present in the cache, the new commit
 * written on it, and pushed with a lease on the parent (or forced, or creating the branch).
 */
import { Effect } from "effect"
import { type GitError, GitDiverged, GitFailed } from "../domain/GitErrors.ts"
import type { GitPush, GitRemote } from "../GitTransport.ts"
import { Redact } from "@quire/kernel"
import type { WithCache } from "./CacheRepositories.ts"
import { buildCommit } from "./CommitWriting.ts"
import { classify, type GitProcess, secretsOf, trimMessage } from "./GitProcess.ts"
import type { Prepared } from "./Remotes.ts"

/** Makes sure the cache holds `commit` (it was fetched earlier, or is fetched now by its id). */
const ensureCommit = (git: GitProcess, prepared: Prepared, repository: string, commit: string) =>
  Effect.gen(function*() {
    const has = () => Effect.map(git.run(repository, ["cat-file", "-e", `${commit}^{commit}`], prepared), (run) => run.code === 0)
    if (yield* has()) return
    const run = yield* git.run(repository, ["fetch", "--quiet", "--depth=1", "--no-tags", "--no-write-fetch-head", "--", prepared.url, `+${commit}:refs/quire/parents/${commit}`], prepared)
    if (run.code !== 0 && !/not our ref|couldn't find remote ref|upload-pack: not our ref/i.test(run.stderr)) {
      return yield* classify(prepared, run)
    }
    if (!(yield* has())) {
      return yield* new GitFailed({ url: prepared.redacted, detail: `commit ${commit} is not in the repository` })
    }
  })

/** GitTransport's `push` over the runner, the remote checks and the caches. */
export const makePush = (git: GitProcess, prepare: (remote: GitRemote) => Effect.Effect<Prepared, GitError>, withCache: WithCache) =>
(remote: GitRemote, request: GitPush): Effect.Effect<{ readonly commit: string }, GitError> =>
  Effect.gen(function*() {
    const prepared = yield* prepare(remote)
    return yield* withCache(prepared, (repository) =>
      Effect.gen(function*() {
        if (request.parent !== undefined) {
          if (!/^[0-9a-f]{40}$/.test(request.parent)) return yield* new GitFailed({ url: prepared.redacted, detail: `${request.parent} is not a commit id` })
          yield* ensureCommit(git, prepared, repository, request.parent)
        }
        const commit = yield* buildCommit(git, prepared, repository, request)
        if (commit === request.parent && request.createBranch !== true) return { commit }
        const expected = request.parent === undefined || request.createBranch === true ? "" : request.parent
        const args = [
          "push",
          "--porcelain",
          "--no-verify",
          request.force ? "--force" : `--force-with-lease=${prepared.ref}:${expected}`,
          ...(prepared.file ? ["--receive-pack=git -c core.hooksPath=/dev/null receive-pack"] : []),
          "--",
          prepared.url,
          `${commit}:${prepared.ref}`
        ]
        const run = yield* git.run(repository, args, prepared)
        const rejected = run.stdout.toString("utf8").split("\n").find((line) => line.startsWith("!"))
        if (rejected !== undefined) {
          const reason = rejected.split("\t")[2] ?? "rejected"
          if (/stale info|non-fast-forward|fetch first|already exists/.test(reason)) {
            return yield* new GitDiverged({ url: prepared.redacted, ref: prepared.ref, reason: Redact.text(reason, secretsOf(prepared)) })
          }
          // The porcelain line's reason ("[remote rejected] (branch is currently checked out)") first, then git's lines.
          const said = trimMessage(run.stderr, secretsOf(prepared))
          return yield* new GitFailed({ url: prepared.redacted, detail: `push rejected ${Redact.text(reason, secretsOf(prepared))}${said === "git failed without a message" ? "" : `: ${said}`}` })
        }
        if (run.code !== 0) return yield* classify(prepared, run)
        // Keep the pushed commit referenced in the cache: the next push builds on it.
        yield* git.local(prepared, repository, ["update-ref", `refs/quire/${prepared.ref.slice("refs/".length)}`, commit])
        return { commit }
      }))
  }).pipe(Effect.withSpan("GitCli.push", { attributes: { url: Redact.url(remote.url), ref: remote.ref } }))
