/**
 * The Git transport on the `git` binary: a shallow fetch into a bare cache repository per remote,
 * trees read with `ls-tree` and `cat-file --batch`, commits built on a temporary index (blobs
 * written in one pack by `fast-import`) and pushed with a lease on the commit they were built on.
 * Credentials reach git only through its askpass program and the environment; http(s) remotes pass
 * the same address checks as OutboundFetch. Its jobs live in `cli/`: running git, preparing a
 * remote, the cache repositories, fetching and reading a tree, writing a commit and pushing it.
 */
import { Config, Duration, Effect, Layer, Option } from "effect"
import type { ResolvedAddress } from "@quire/outbound"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import * as CacheRepositories from "./cli/CacheRepositories.ts"
import { makeFetch } from "./cli/Fetching.ts"
import * as GitProcess from "./cli/GitProcess.ts"
import { makePush } from "./cli/Pushing.ts"
import { makePrepare } from "./cli/Remotes.ts"
import { GitRunner, type GitRunnerShape } from "./GitRunner.ts"
import { GitTransport } from "./GitTransport.ts"

/** Settings of {@link layer}. */
export interface GitCliOptions {
  /** Where the bare cache repositories live (one per remote URL), created on first use. */
  readonly cacheDir: string
  /** Whether `file://` remotes may be used (tests, trusted single-user setups). */
  readonly allowFile: boolean
  /** Non-public hosts, addresses or networks http(s) remotes may reach, as `QUIRE_FETCH_ALLOW`. */
  readonly allow: ReadonlyArray<string>
  /** The longest one git command may run (a fetch, a push); 2 minutes by default. */
  readonly timeout?: Duration.Input
  /** The git program; `git` on the PATH by default. */
  readonly git?: string
  /** Resolves host names; node's `dns.lookup` by default. */
  readonly resolve?: (hostname: string) => Promise<ReadonlyArray<ResolvedAddress>>
}

/** The transport on the `git` binary with explicit settings, running git through its own helper process. */
export const layer = (options: GitCliOptions): Layer.Layer<GitTransport> =>
  Layer.effect(GitTransport, GitRunner.use((runner) => Effect.sync(() => make(options, runner)))).pipe(Layer.provide(GitRunner.layer))

/**
 * The transport with settings from the environment: caches in `QUIRE_GIT_CACHE_DIR`, else
 * `${QUIRE_DATA_DIR}/git-cache`, else `<tmpdir>/quire-git-cache`; `QUIRE_GIT_ALLOW_FILE=1` allows
 * `file://` remotes; `QUIRE_FETCH_ALLOW` opens non-public addresses; `QUIRE_GIT_TIMEOUT_SECONDS`.
 */
export const layerConfig: Layer.Layer<GitTransport, Config.ConfigError> = Layer.unwrap(Effect.gen(function*() {
  const cacheDir = yield* Config.option(Config.String("QUIRE_GIT_CACHE_DIR"))
  const dataDir = yield* Config.option(Config.String("QUIRE_DATA_DIR"))
  const allowFile = yield* Config.String("QUIRE_GIT_ALLOW_FILE").pipe(Config.withDefault(""))
  const allow = yield* Config.String("QUIRE_FETCH_ALLOW").pipe(Config.withDefault(""))
  const timeout = yield* Config.Number("QUIRE_GIT_TIMEOUT_SECONDS").pipe(Config.withDefault(120))
  const base = process.env.INIT_CWD ?? process.cwd()
  return layer({
    cacheDir: Option.isSome(cacheDir)
      ? resolve(base, cacheDir.value)
      : Option.isSome(dataDir)
      ? resolve(base, dataDir.value, "git-cache")
      : join(tmpdir(), "quire-git-cache"),
    allowFile: ["1", "true", "yes"].includes(allowFile.trim().toLowerCase()),
    allow: allow.split(",").map((entry) => entry.trim()).filter((entry) => entry !== ""),
    timeout: Duration.seconds(timeout)
  })
}))

// The adapter -------------------------------------------------------------------------------------------

const make = (options: GitCliOptions, runner: GitRunnerShape) => {
  const git = GitProcess.make({
    cacheDir: options.cacheDir,
    allowFile: options.allowFile,
    timeoutMs: Duration.toMillis(Duration.fromInputUnsafe(options.timeout ?? "2 minutes")),
    git: options.git ?? "git"
  }, runner)
  const prepare = makePrepare({ allowFile: options.allowFile, allow: options.allow, resolve: options.resolve })
  const withCache = CacheRepositories.make(git)
  return GitTransport.of({ fetch: makeFetch(git, prepare, withCache), push: makePush(git, prepare, withCache) })
}
