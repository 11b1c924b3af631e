/**
 * The Git transport on the `git` binary: a shallow fetch into a bare cache repository per remote,
 * trees read with `ls-tree` and `cat-file --batch`, commits built on a temporary index (blobs
 * written in one pack by `fast-import`) and pushed with a lease on the commit they were built on.
 * Credentials reach git only through its askpass program and the environment; http(s) remotes pass
 * the same address checks as OutboundFetch.
 */
import { Config, Duration, Effect, Layer, Option, Semaphore } from "effect"
import { parseAllowList, permittedAddresses, type ResolvedAddress } from "@quire/outbound"
import { createHash } from "node:crypto"
import * as dns from "node:dns"
import { chmodSync, mkdirSync, writeFileSync } from "node:fs"
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from "node:fs/promises"
import { hostname, tmpdir } from "node:os"
import { join, resolve } from "node:path"
import {
  GitAuthFailed,
  GitBranchMissing,
  GitDiverged,
  type GitError,
  GitFailed,
  GitRemoteRefused,
  GitUnreachable
} from "./domain/GitErrors.ts"
import {
  checkLimits,
  type FetchOptions,
  type GitBlob,
  type GitPush,
  type GitRemote,
  type GitSnapshot,
  GitTransport,
  isBranchRef,
  isUnder
} from "./GitTransport.ts"
import { type Run, runProcess } from "./GitRunner.ts"
import * as Redact from "./Redact.ts"

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

/** The transport on the `git` binary with explicit settings. */
export const layer = (options: GitCliOptions): Layer.Layer<GitTransport> =>
  Layer.sync(GitTransport, () => make(options))

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

// Running git -------------------------------------------------------------------------------------------

const askpassScript = `#!/bin/sh
# Answers git's credential prompts from the environment, so credentials never reach a command line.
case "$1" in
  Username*) printf '%s\\n' "$QUIRE_GIT_USERNAME" ;;
  *) printf '%s\\n' "$QUIRE_GIT_PASSWORD" ;;
esac
`

/** Environment variables passed through to git: the proxy settings of the machine, nothing else. */
const passedThrough = ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "no_proxy", "NO_PROXY", "all_proxy", "ALL_PROXY"]

// Remotes -----------------------------------------------------------------------------------------------

/** A remote ready for git: the URL without credentials, the credentials apart, and settings to pin its address. */
interface Prepared {
  readonly url: string
  readonly redacted: string
  readonly ref: string
  readonly username: string
  readonly password: string
  readonly file: boolean
  readonly config: ReadonlyArray<readonly [string, string]>
}

const isLocalhostName = (hostname: string) => hostname === "localhost" || hostname.endsWith(".localhost")

const defaultResolve = async (hostname: string): Promise<ReadonlyArray<ResolvedAddress>> => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true })
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }))
}

const zeroOid = "0000000000000000000000000000000000000000"

/** About how many bytes of blobs one `cat-file --batch` reads (a larger blob is read alone). */
const readBatchBytes = 16 * 1024 * 1024

/** Whether `path` is a file path git can hold: relative, `/`-separated, no `.`, `..` or `.git` component. */
const isTreePath = (path: string): boolean =>
  path !== "" && !path.includes("\0") &&
  path.split("/").every((part) => part !== "" && part !== "." && part !== ".." && part.toLowerCase() !== ".git")

/** Git's message, redacted, on one line and at most 400 characters: the fatal/error lines when there are any. */
const trimMessage = (stderr: string, secrets: ReadonlyArray<string>): string => {
  const lines = Redact.text(stderr, secrets).split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "")
  const important = lines.filter((line) => /^(fatal|error):/i.test(line))
  const text = (important.length > 0 ? important : lines).join("; ")
  return text.length > 400 ? `${text.slice(0, 397)}...` : text === "" ? "git failed without a message" : text
}

/** What must never show: the password, or the user name when it is the token (no password). */
const secretsOf = (prepared: Prepared): ReadonlyArray<string> =>
  prepared.password === "" ? [prepared.username] : [prepared.password]

/** What a failed network command's message means. */
const classify = (prepared: Prepared, run: Run): GitError => {
  const url = prepared.redacted
  const secrets = secretsOf(prepared)
  if (run.timedOut) return new GitUnreachable({ url, reason: "timed out" })
  const stderr = run.stderr
  if (
    /Authentication failed|could not read (Username|Password)|returned error: 40[13]\b|HTTP Basic: Access denied|terminal prompts disabled/i
      .test(stderr)
  ) {
    return new GitAuthFailed({ url })
  }
  if (/couldn't find remote ref|Remote branch .* not found/i.test(stderr)) {
    return new GitBranchMissing({ url, ref: prepared.ref, repositoryEmpty: false })
  }
  if (/non-fast-forward|fetch first|stale info|\[rejected\]/i.test(stderr)) {
    return new GitDiverged({ url, ref: prepared.ref, reason: trimMessage(stderr, secrets) })
  }
  const unreachable = stderr.match(
    /Could not resolve (host|proxy)[^\n]*|Failed to connect[^\n]*|Connection refused|Connection timed out|Operation timed out[^\n]*|Couldn't connect to server|Network is unreachable|No route to host|Connection reset[^\n]*|Empty reply from server|Recv failure[^\n]*/i
  )
  if (unreachable !== null) return new GitUnreachable({ url, reason: Redact.text(unreachable[0], secrets).replace(/\s+/g, " ").trim() })
  return new GitFailed({ url, detail: trimMessage(stderr, secrets) })
}

const lockOwner = `${hostname()} ${process.pid}`

/** Whether a cache lock was left by a process of this machine that is gone, or is older than `maxAge` ms. */
const isAbandoned = async (lock: string, maxAge: number): Promise<boolean> => {
  const age = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0)
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

// The adapter -------------------------------------------------------------------------------------------

const make = (options: GitCliOptions) => {
  const git = options.git ?? "git"
  const timeoutMs = Duration.toMillis(Duration.fromInputUnsafe(options.timeout ?? "2 minutes"))
  const resolveHost = options.resolve ?? defaultResolve
  const allow = parseAllowList(options.allow)
  const reposDir = join(options.cacheDir, "repos")
  const scratchDir = join(options.cacheDir, "tmp")
  mkdirSync(reposDir, { recursive: true })
  mkdirSync(scratchDir, { recursive: true })
  const askpass = join(options.cacheDir, "askpass.sh")
  writeFileSync(askpass, askpassScript, { mode: 0o700 })
  chmodSync(askpass, 0o700)
  const protocols = options.allowFile ? "http:https:file" : "http:https"

  const baseConfig: ReadonlyArray<readonly [string, string]> = [
    ["protocol.allow", "never"],
    ["protocol.http.allow", "always"],
    ["protocol.https.allow", "always"],
    ["protocol.file.allow", options.allowFile ? "always" : "never"],
    ["core.hooksPath", "/dev/null"],
    ["core.fsmonitor", "false"],
    ["core.askPass", askpass],
    ["credential.helper", ""],
    ["http.followRedirects", "false"],
    ["http.lowSpeedLimit", "1"],
    ["http.lowSpeedTime", String(Math.max(10, Math.ceil(timeoutMs / 1000)))],
    ["fetch.recurseSubmodules", "false"],
    ["submodule.recurse", "false"],
    ["gc.autoDetach", "false"],
    ["maintenance.autoDetach", "false"]
  ]

  /** The environment of one git command: built from nothing, so no GIT_* variable of the server leaks in. */
  const environment = (prepared: Prepared | undefined, extra: Readonly<Record<string, string>> = {}) => {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: options.cacheDir,
      LC_ALL: "C",
      LANG: "C",
      GIT_TERMINAL_PROMPT: "0",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_ALLOW_PROTOCOL: protocols,
      GIT_ASKPASS: askpass,
      GIT_PROTOCOL_FROM_USER: "0",
      QUIRE_GIT_USERNAME: prepared?.username ?? "",
      QUIRE_GIT_PASSWORD: prepared?.password ?? ""
    }
    for (const name of passedThrough) {
      const value = process.env[name]
      if (value !== undefined) env[name] = value
    }
    const config = [...baseConfig, ...(prepared?.config ?? [])]
    env.GIT_CONFIG_COUNT = String(config.length)
    config.forEach(([key, value], index) => {
      env[`GIT_CONFIG_KEY_${index}`] = key
      env[`GIT_CONFIG_VALUE_${index}`] = value
    })
    return { ...env, ...extra }
  }

  const runGit = (cwd: string, args: ReadonlyArray<string>, prepared: Prepared | undefined, extra: { readonly input?: Buffer | string; readonly env?: Readonly<Record<string, string>> } = {}) =>
    runProcess(git, args, {
      cwd,
      env: environment(prepared, extra.env),
      timeoutMs,
      ...(extra.input === undefined ? {} : { input: extra.input })
    })

  /** A local command that must succeed; a failure is GitFailed with git's message. */
  const local = (prepared: Prepared, cwd: string, args: ReadonlyArray<string>, extra: { readonly input?: Buffer | string; readonly env?: Readonly<Record<string, string>> } = {}) =>
    Effect.flatMap(runGit(cwd, args, prepared, extra), (run) =>
      run.code === 0
        ? Effect.succeed(run.stdout)
        : Effect.fail(new GitFailed({ url: prepared.redacted, detail: `git ${args[0]}: ${trimMessage(run.stderr, secretsOf(prepared))}` })))

  /** Checks the remote and works out how git reaches it: no credentials in the URL, the checked address pinned. */
  const prepare = (remote: GitRemote): Effect.Effect<Prepared, GitError> =>
    Effect.gen(function*() {
      const redacted = Redact.url(remote.url)
      const refuse = (reason: GitRemoteRefused["reason"], detail: string) => new GitRemoteRefused({ url: redacted, reason, detail })
      if (!URL.canParse(remote.url)) return yield* refuse("invalid-url", `Not a URL: ${redacted}`)
      if (!isBranchRef(remote.ref)) return yield* refuse("invalid-ref", `${remote.ref} is not a branch (refs/heads/<name>)`)
      const parsed = new URL(remote.url)
      const username = decodeURIComponent(parsed.username)
      const password = decodeURIComponent(parsed.password)
      const url = Redact.withoutCredentials(remote.url)
      const base = { url, redacted, ref: remote.ref, username, password }
      if (parsed.protocol === "file:") {
        if (!options.allowFile) return yield* refuse("protocol", "file:// remotes are not allowed (QUIRE_GIT_ALLOW_FILE=1 allows them)")
        if (parsed.host !== "" || parsed.search !== "" || parsed.hash !== "") return yield* refuse("invalid-url", `Not a local file URL: ${redacted}`)
        return { ...base, file: true, config: [] }
      }
      if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
        return yield* refuse("protocol", `Only https and http remotes are supported, not ${parsed.protocol}`)
      }
      if (parsed.search !== "" || parsed.hash !== "") return yield* refuse("invalid-url", `A remote URL has no query or fragment: ${redacted}`)
      const hostname = parsed.hostname.replace(/^\[|\]$/g, "").toLowerCase().replace(/\.$/, "")
      const port = parsed.port === "" ? (parsed.protocol === "https:" ? "443" : "80") : parsed.port
      let addresses: ReadonlyArray<ResolvedAddress>
      const literal = /^[0-9.]+$/.test(hostname) || hostname.includes(":")
      if (literal) addresses = [{ address: hostname, family: hostname.includes(":") ? 6 : 4 }]
      else if (isLocalhostName(hostname)) addresses = [{ address: "127.0.0.1", family: 4 }, { address: "::1", family: 6 }]
      else {
        addresses = yield* Effect.tryPromise({
          try: () => resolveHost(hostname),
          catch: () => new GitUnreachable({ url: redacted, reason: `could not resolve host ${hostname}` })
        })
      }
      if (addresses.length === 0) return yield* new GitUnreachable({ url: redacted, reason: `${hostname} has no address` })
      const [permitted] = permittedAddresses(hostname, addresses, allow)
      if (permitted === undefined) {
        return yield* refuse("blocked", `${hostname} is not a public address; QUIRE_FETCH_ALLOW can allow it`)
      }
      // curl connects to the address that was checked, not to whatever a second lookup answers
      // (keyed by the host exactly as git sends it, trailing dot included).
      const config: Array<readonly [string, string]> = literal
        ? []
        : [["http.curloptResolve", `${parsed.hostname}:${port}:${permitted.family === 6 ? `[${permitted.address}]` : permitted.address}`]]
      return { ...base, file: false, config }
    })

  // Caches and their locks ---------------------------------------------------------------------------

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
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const taken = yield* Effect.promise(() =>
          mkdir(lock).then(() => writeFile(join(lock, "owner"), lockOwner).then(() => true), () => false)
        )
        if (taken) return
        const abandoned = yield* Effect.promise(() => isAbandoned(lock, 4 * timeoutMs))
        if (abandoned) {
          // Renamed first, so two processes that found it abandoned do not both take it.
          const aside = `${lock}.stale-${process.pid}-${Date.now()}`
          yield* Effect.promise(() => rename(lock, aside).then(() => rm(aside, { recursive: true, force: true }), () => undefined))
          continue
        }
        if (Date.now() > deadline) return yield* new GitFailed({ url: prepared.redacted, detail: "the repository's cache stayed locked by another job" })
        yield* Effect.sleep("50 millis")
      }
    })

  /** Runs `use` on the bare cache repository of `prepared`'s URL, holding its lock. */
  const withCache = <A>(prepared: Prepared, use: (repository: string) => Effect.Effect<A, GitError>) => {
    const repository = join(reposDir, `${createHash("sha256").update(prepared.url).digest("hex").slice(0, 32)}.git`)
    const lock = `${repository}.lock`
    const body = Effect.acquireUseRelease(
      lockFile(prepared, lock),
      () =>
        Effect.gen(function*() {
          const exists = yield* Effect.promise(() => stat(join(repository, "HEAD")).then(() => true, () => false))
          if (!exists) yield* local(prepared, reposDir, ["init", "--quiet", "--bare", repository])
          return yield* use(repository)
        }),
      () => Effect.promise(() => rm(lock, { recursive: true, force: true }))
    )
    return semaphoreOf(repository).withPermit(body)
  }

  /** `git fetch` of `source` into `destination` (a ref of the cache), one commit deep. */
  const fetchInto = (prepared: Prepared, repository: string, source: string, destination: string) =>
    Effect.flatMap(
      runGit(repository, [
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
  const isEmpty = (prepared: Prepared, repository: string) =>
    Effect.flatMap(runGit(repository, ["ls-remote", "--heads", "--", prepared.url], prepared), (run) =>
      run.code === 0 ? Effect.succeed(run.stdout.toString("utf8").trim() === "") : Effect.fail(classify(prepared, run)))

  const fetch = (remote: GitRemote, options: FetchOptions = {}): Effect.Effect<GitSnapshot, GitError> =>
    Effect.gen(function*() {
      const prepared = yield* prepare(remote)
      return yield* withCache(prepared, (repository) =>
        Effect.gen(function*() {
          const tracking = `refs/quire/${prepared.ref.slice("refs/".length)}`
          yield* fetchInto(prepared, repository, prepared.ref, tracking).pipe(
            Effect.catchTag("GitBranchMissing", (missing) =>
              Effect.flatMap(isEmpty(prepared, repository), (repositoryEmpty) =>
                Effect.fail(new GitBranchMissing({ url: missing.url, ref: missing.ref, repositoryEmpty }))))
          )
          const commit = (yield* local(prepared, repository, ["rev-parse", "--verify", `${tracking}^{commit}`])).toString("utf8").trim()
          const message = (yield* local(prepared, repository, ["log", "-1", "--format=%B", commit])).toString("utf8").replace(/\n+$/, "")
          const files = yield* readTree(prepared, repository, commit, options)
          return { commit, message, files }
        }))
    }).pipe(Effect.withSpan("GitCli.fetch", { attributes: { url: Redact.url(remote.url), ref: remote.ref } }))

  /**
   * The files of `commit` under `options.directory` with their blob ids and bytes (submodules are
   * skipped: they hold no bytes here). Sizes come from the listing and are checked against
   * `options.limits` before any blob is read; blobs are then read a batch of about `readBatchBytes`
   * at a time, so neither git's output nor the runner holds more than that at once.
   */
  const readTree = (prepared: Prepared, repository: string, commit: string, options: FetchOptions) =>
    Effect.gen(function*() {
      const listing = (yield* local(prepared, repository, ["ls-tree", "-r", "-l", "-z", "--full-tree", commit])).toString("utf8")
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
        const output = yield* local(prepared, repository, ["cat-file", "--batch"], { input: oids.map((oid) => `${oid}\n`).join("") })
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

  /** Makes sure the cache holds `commit` (it was fetched earlier, or is fetched now by its id). */
  const ensureCommit = (prepared: Prepared, repository: string, commit: string) =>
    Effect.gen(function*() {
      const has = () => Effect.map(runGit(repository, ["cat-file", "-e", `${commit}^{commit}`], prepared), (run) => run.code === 0)
      if (yield* has()) return
      const run = yield* runGit(repository, ["fetch", "--quiet", "--depth=1", "--no-tags", "--no-write-fetch-head", "--", prepared.url, `+${commit}:refs/quire/parents/${commit}`], prepared)
      if (run.code !== 0 && !/not our ref|couldn't find remote ref|upload-pack: not our ref/i.test(run.stderr)) {
        return yield* classify(prepared, run)
      }
      if (!(yield* has())) {
        return yield* new GitFailed({ url: prepared.redacted, detail: `commit ${commit} is not in the repository` })
      }
    })

  /**
   * Stores `blobs` in one pack with `git fast-import` (a thousand loose objects take seconds) and
   * answers their ids in order.
   */
  const writeBlobs = (prepared: Prepared, repository: string, scratch: string, blobs: ReadonlyArray<Uint8Array>) =>
    Effect.gen(function*() {
      if (blobs.length === 0) return []
      const marks = join(scratch, "marks")
      const stream: Array<Uint8Array> = []
      blobs.forEach((bytes, i) => {
        stream.push(Buffer.from(`blob\nmark :${i + 1}\ndata ${bytes.byteLength}\n`), bytes, Buffer.from("\n"))
      })
      stream.push(Buffer.from("done\n"))
      yield* local(prepared, repository, ["fast-import", "--quiet", "--done", `--export-marks=${marks}`], { input: Buffer.concat(stream) })
      const oids = new Map<string, string>()
      for (const line of (yield* Effect.promise(() => readFile(marks, "utf8"))).split("\n")) {
        const [mark, oid] = line.split(" ")
        if (mark !== undefined && oid !== undefined) oids.set(mark, oid)
      }
      return blobs.map((_, i) => oids.get(`:${i + 1}`) ?? "")
    })

  /** Builds the commit of `push` in `repository` and answers it, or the parent when nothing changes. */
  const buildCommit = (prepared: Prepared, repository: string, push: GitPush) =>
    Effect.acquireUseRelease(
      Effect.promise(() => mkdtemp(join(scratchDir, "push-"))),
      (scratch) =>
        Effect.gen(function*() {
          for (const path of push.changes.keys()) {
            if (!isTreePath(path)) return yield* new GitFailed({ url: prepared.redacted, detail: `${JSON.stringify(path)} is not a valid file path` })
          }
          const index = { GIT_INDEX_FILE: join(scratch, "index") }
          const writes = [...push.changes].filter((entry): entry is [string, Uint8Array] => entry[1] !== null)
          const oids = yield* writeBlobs(prepared, repository, scratch, writes.map(([, bytes]) => bytes))
          yield* local(prepared, repository, push.parent === undefined ? ["read-tree", "--empty"] : ["read-tree", push.parent], { env: index })
          // Keep the mode of files that exist (an executable stays executable).
          const modes = new Map<string, string>()
          if (push.parent !== undefined && writes.length > 0) {
            const staged = (yield* local(prepared, repository, ["ls-files", "-s", "-z"], { env: index })).toString("utf8")
            for (const record of staged.split("\0")) {
              const tab = record.indexOf("\t")
              if (tab > 0) modes.set(record.slice(tab + 1), record.slice(0, record.indexOf(" ")))
            }
          }
          const lines: Array<string> = []
          writes.forEach(([path], i) => lines.push(`${modes.get(path) === "100755" ? "100755" : "100644"} ${oids[i]}\t${path}\0`))
          for (const [path, bytes] of push.changes) if (bytes === null) lines.push(`0 ${zeroOid}\t${path}\0`)
          if (lines.length > 0) yield* local(prepared, repository, ["update-index", "-z", "--index-info"], { input: lines.join(""), env: index })
          const tree = (yield* local(prepared, repository, ["write-tree"], { env: index })).toString("utf8").trim()
          if (push.parent !== undefined) {
            const parentTree = (yield* local(prepared, repository, ["rev-parse", `${push.parent}^{tree}`])).toString("utf8").trim()
            if (parentTree === tree) return push.parent
          }
          const identity = {
            GIT_AUTHOR_NAME: push.author.name,
            GIT_AUTHOR_EMAIL: push.author.email,
            GIT_COMMITTER_NAME: push.author.name,
            GIT_COMMITTER_EMAIL: push.author.email
          }
          const args = push.parent === undefined ? ["commit-tree", tree, "-F", "-"] : ["commit-tree", tree, "-p", push.parent, "-F", "-"]
          return (yield* local(prepared, repository, args, { input: push.message, env: identity })).toString("utf8").trim()
        }),
      (scratch) => Effect.promise(() => rm(scratch, { recursive: true, force: true }))
    )

  const push = (remote: GitRemote, request: GitPush): Effect.Effect<{ readonly commit: string }, GitError> =>
    Effect.gen(function*() {
      const prepared = yield* prepare(remote)
      return yield* withCache(prepared, (repository) =>
        Effect.gen(function*() {
          if (request.parent !== undefined) {
            if (!/^[0-9a-f]{40}$/.test(request.parent)) return yield* new GitFailed({ url: prepared.redacted, detail: `${request.parent} is not a commit id` })
            yield* ensureCommit(prepared, repository, request.parent)
          }
          const commit = yield* buildCommit(prepared, repository, request)
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
          const run = yield* runGit(repository, args, prepared)
          const rejected = run.stdout.toString("utf8").split("\n").find((line) => line.startsWith("!"))
          if (rejected !== undefined) {
            const reason = rejected.split("\t")[2] ?? "rejected"
            if (/stale info|non-fast-forward|fetch first|already exists/.test(reason)) {
              return yield* new GitDiverged({ url: prepared.redacted, ref: prepared.ref, reason: Redact.text(reason, secretsOf(prepared)) })
            }
            return yield* new GitFailed({ url: prepared.redacted, detail: `push rejected: ${trimMessage(`${reason}\n${run.stderr}`, secretsOf(prepared))}` })
          }
          if (run.code !== 0) return yield* classify(prepared, run)
          // Keep the pushed commit referenced in the cache: the next push builds on it.
          yield* local(prepared, repository, ["update-ref", `refs/quire/${prepared.ref.slice("refs/".length)}`, commit])
          return { commit }
        }))
    }).pipe(Effect.withSpan("GitCli.push", { attributes: { url: Redact.url(remote.url), ref: remote.ref } }))

  return GitTransport.of({ fetch, push })
}
