/**
 * Production builds for the benches that measure what users run (`node tooling/build/build.mjs`,
 * started with `tooling/build/start.sh server`): this tree's dist/, built only when a source is
 * newer than it (so the bench in `pnpm test` reuses the build apps/server's tests made), and a git
 * ref's, built once in a worktree of the temporary directory and kept there, keyed by commit.
 */
import { Data, Duration, Effect, Schedule } from "effect"
import { execFile, spawn } from "node:child_process"
import { once } from "node:events"
import { existsSync, openSync, readFileSync, writeFileSync, closeSync } from "node:fs"
import { readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { LocalServer } from "@quire/testkit"
import * as ProductionBuild from "@quire/testkit/ProductionBuild"

export const root = fileURLToPath(new URL("../../..", import.meta.url))

export class BuildError extends Data.TaggedError("BuildError")<{ readonly message: string }> {}

/** A checkout with a production build in its dist/, started by its own tooling/build/start.sh. */
export interface Build {
  /** How reports name it: "this tree", or the ref as given. */
  readonly label: string
  readonly checkout: string
  /** The commit it was built from; undefined for this tree. */
  readonly commit?: string | undefined
}

const run = (command: string, args: ReadonlyArray<string>, cwd: string, env: Record<string, string> = {}) =>
  Effect.tryPromise({
    try: () =>
      new Promise<string>((resolve, reject) =>
        execFile(command, [...args], { cwd, env: { ...process.env, ...env }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
          error === null ? resolve(stdout.trim()) : reject(new Error(`${command} ${args.join(" ")} (in ${cwd}) failed: ${error.message}\n${stderr.slice(-3000)}`)))
      ),
    catch: (cause) => new BuildError({ message: cause instanceof Error ? cause.message : String(cause) })
  })

const git = (cwd: string, args: ReadonlyArray<string>) => run("git", args, cwd)

const buildInto = (checkout: string, progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    yield* progress(`building ${checkout} (node tooling/build/build.mjs)`)
    const started = Date.now()
    yield* run(process.execPath, [join(checkout, "tooling/build/build.mjs")], checkout)
    yield* progress(`built ${checkout} in ${((Date.now() - started) / 1000).toFixed(0)} s`)
  })

/**
 * This tree's build: dist/ as it is when no source is newer, else built anew, through the build
 * every test of dist/ shares (one process at a time, so a test's rebuild never replaces the dist/
 * a bench is running).
 */
export const current = (progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    yield* progress("checking dist/ (built when a source is newer)")
    const started = Date.now()
    const build = yield* Effect.tryPromise({
      try: () => ProductionBuild.ensure(root),
      catch: (cause) => new BuildError({ message: cause instanceof Error ? cause.message : String(cause) })
    })
    yield* progress(build.built ? `built dist/ (${build.reason}) in ${((Date.now() - started) / 1000).toFixed(0)} s` : "reusing dist/: no source is newer than it")
    return { label: "this tree", checkout: root } satisfies Build
  })

/** Where the builds of refs are kept between runs. */
export const cacheDirectory = join(tmpdir(), "quire-bench-compare")

const builtMarker = ".quire-bench-built"

/** Installs the worktree's dependencies from the store (offline), or from the registry when the store lacks some. */
const install = (checkout: string, progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    yield* progress(`installing ${checkout} (pnpm install --frozen-lockfile --offline)`)
    const pnpm = ["--yes", "pnpm@10.34.9", "install", "--frozen-lockfile"]
    yield* run("npx", [...pnpm, "--offline"], checkout).pipe(
      Effect.catch((error) =>
        progress(`offline install failed (${error.message.split("\n")[0]}); installing online`).pipe(
          Effect.andThen(run("npx", pnpm, checkout))
        )
      )
    )
  })

/**
 * The build of `ref` (a commit, branch or tag): this tree's when the tree is clean and `ref` is its
 * commit, else a worktree of `ref` in `cacheDirectory`, installed and built on first use. `.` is
 * this tree itself (the two sides of a comparison then differ by the machine's noise alone).
 */
export const ofRef = (ref: string, progress: (message: string) => Effect.Effect<void>): Effect.Effect<Build, BuildError> =>
  Effect.gen(function*() {
    if (ref === ".") return { ...(yield* current(progress)), label: "this tree" } satisfies Build
    const commit = yield* git(root, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]).pipe(
      Effect.mapError(() => new BuildError({ message: `${ref} is not a commit of this repository` }))
    )
    const clean = (yield* git(root, ["status", "--porcelain"])) === ""
    if (clean && (yield* git(root, ["rev-parse", "HEAD"])) === commit) {
      yield* progress(`${ref} is this tree's commit and the tree is clean: its build is this tree's`)
      return { ...(yield* current(progress)), label: ref, commit } satisfies Build
    }
    const checkout = join(cacheDirectory, commit)
    if (existsSync(join(checkout, builtMarker))) {
      yield* progress(`reusing the build of ${ref} (${commit.slice(0, 10)}) in ${checkout}`)
      return { label: ref, checkout, commit } satisfies Build
    }
    if (existsSync(checkout)) {
      yield* git(root, ["worktree", "remove", "--force", checkout]).pipe(Effect.ignore)
      yield* Effect.promise(() => rm(checkout, { recursive: true, force: true }))
      yield* git(root, ["worktree", "prune"])
    }
    yield* progress(`checking out ${ref} (${commit.slice(0, 10)}) into ${checkout}`)
    yield* git(root, ["worktree", "add", "--detach", "--force", checkout, commit])
    yield* install(checkout, progress)
    yield* buildInto(checkout, progress)
    writeFileSync(join(checkout, builtMarker), `${commit}\n`)
    return { label: ref, checkout, commit } satisfies Build
  })

// ---------------------------------------------------------------------------------------------
// Built servers

/** A built server process on a free port, as `tooling/build/start.sh server` starts it. */
export interface BuiltServer {
  readonly name: string
  readonly baseUrl: string
  readonly pid: number
  /** CPU time (user + system) of the server process so far, its threads included, in microseconds. */
  readonly cpuMicros: Effect.Effect<number>
}

/** Where the server keeps its data: a database URL, or an embedded data directory. */
export type Storage = { readonly databaseUrl: string } | { readonly dataDir: string }

/** Linux reports process times in clock ticks of 1/100 s (USER_HZ). */
const cpuMicrosOf = (pid: number) =>
  Effect.promise(async () => {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) * 10_000
  })

const tail = (file: string) => {
  try {
    return readFileSync(file, "utf8").slice(-3000)
  } catch {
    return ""
  }
}

/**
 * Starts `build`'s server on `storage` with `token` as the administrator's (QUIRE_ADMIN_TOKEN) and
 * waits until `GET /v1/user` answers with it; its output goes to `log`, `env` is added to its
 * environment. It listens on `port` (and so has the public URL of a server started there before),
 * else on a free port. Stopped (SIGTERM) when the scope closes.
 */
export const startServer = (name: string, build: Build, storage: Storage, token: string, log: string, env: Record<string, string> = {}, port?: number) =>
  Effect.gen(function*() {
    port ??= yield* Effect.promise(() => LocalServer.freePort())
    const baseUrl = `http://127.0.0.1:${port}`
    const { DATABASE_URL: _, QUIRE_DATA_DIR: __, ...inherited } = process.env
    const child = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const out = openSync(log, "a")
        const spawned = spawn("sh", [join(build.checkout, "tooling/build/start.sh"), "server"], {
          cwd: build.checkout,
          env: {
            ...inherited,
            ...("databaseUrl" in storage ? { DATABASE_URL: storage.databaseUrl } : { QUIRE_DATA_DIR: storage.dataDir }),
            PORT: String(port),
            HOST: "127.0.0.1",
            QUIRE_PUBLIC_URL: baseUrl,
            QUIRE_ADMIN_TOKEN: token,
            QUIRE_ADMIN_EMAIL: "admin@bench.test",
            // The load comes from one token: a budget it cannot exhaust.
            QUIRE_RATE_LIMIT: "1000000000",
            ...env
          },
          stdio: ["ignore", out, out]
        })
        closeSync(out)
        return spawned
      }),
      (child) =>
        Effect.promise(async () => {
          if (child.exitCode !== null || child.signalCode !== null) return
          const exit = once(child, "exit")
          child.kill("SIGTERM")
          const timeout = new Promise((resolve) => setTimeout(resolve, 15_000).unref())
          if (await Promise.race([exit.then(() => true), timeout.then(() => false)])) return
          child.kill("SIGKILL")
          await exit
        })
    )
    yield* Effect.tryPromise({
      try: async () => {
        if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`)
        const response = await fetch(`${baseUrl}/v1/user`, { headers: { authorization: `Bearer ${token}` } })
        if (response.status !== 200) throw new Error(`GET /v1/user answered ${response.status}`)
      },
      catch: (cause) => new BuildError({ message: String(cause instanceof Error ? cause.message : cause) })
    }).pipe(
      Effect.retry({ while: () => child.exitCode === null, schedule: Schedule.spaced("100 millis") }),
      Effect.timeout(Duration.minutes(5)),
      Effect.mapError((error) => new BuildError({ message: `${name} did not start: ${error.message}\n${tail(log)}` }))
    )
    return { name, baseUrl, pid: child.pid!, cpuMicros: cpuMicrosOf(child.pid!) } satisfies BuiltServer
  })
