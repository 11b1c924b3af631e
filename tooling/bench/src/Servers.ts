/**
 * Benchmarked servers run as child processes on a free port, so that the load generator does not
 * share their event loop. Quire on PostgreSQL or PGlite is the production build (dist/, started by
 * tooling/build/start.sh as users start it); its variants, its memory backend and the baselines
 * run from the sources, bundled (BenchScripts.ts) and started with plain Node. Each is scoped:
 * leaving the scope asks it to stop (SIGINT), which closes its database cleanly.
 */
import { Data, Duration, Effect, Schedule } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { readFile } from "node:fs/promises"
import { LocalServer } from "@quire/testkit"
import { fileURLToPath } from "node:url"
import * as BenchScripts from "./BenchScripts.ts"
import * as Build from "./Build.ts"
import type { ProfileMessage } from "./Profiling.ts"
import * as Target from "./Target.ts"

export class ServerError extends Data.TaggedError("ServerError")<{ readonly message: string }> {}

export interface Running {
  readonly name: string
  readonly baseUrl: string
  /** The server's process id. */
  readonly pid: number
  /** CPU time (user + system) the server process has used so far, in microseconds. */
  readonly cpuMicros: Effect.Effect<number>
  /** Runs `self` with the V8 profiler on in the server, and writes the profile to `file`. */
  readonly profiled: (file: string) => <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E | ServerError, R>
}

/** A built server on PostgreSQL, the URL of its database, and the settings it runs with (a worker beside it needs the same). */
export interface OnPostgres {
  readonly server: Running
  readonly databaseUrl: string
  readonly env: Readonly<Record<string, string>>
}

const profilingPreload = fileURLToPath(new URL("./ProfilingPreload.ts", import.meta.url))
const startScript = fileURLToPath(new URL("../../build/start.sh", import.meta.url))

/** Whether `config` is what the production build serves: Quire itself, on a database. */
const isBuilt = (config: Omit<Target.TargetConfig, "port">) =>
  config.server === "quire" && config.variant === undefined && config.backend.kind !== "memory"

/** The environment of the built server for `config`, as an operator configures it (no request log: the figures are of the request path). */
const builtEnv = (config: Omit<Target.TargetConfig, "port">, port: number): Record<string, string> => {
  const { DATABASE_URL: _, QUIRE_DATA_DIR: __, ...inherited } = process.env as Record<string, string>
  const backend = config.backend
  return {
    ...inherited,
    ...config.env,
    ...(backend.kind === "postgres" ? { DATABASE_URL: backend.url } : backend.kind === "embedded" ? { QUIRE_DATA_DIR: backend.dataDir } : {}),
    PORT: String(port),
    HOST: "127.0.0.1",
    QUIRE_PUBLIC_URL: `http://127.0.0.1:${port}`,
    QUIRE_ADMIN_TOKEN: config.adminToken,
    QUIRE_ADMIN_EMAIL: config.adminEmail,
    QUIRE_REQUEST_LOG: "off",
    QUIRE_RATE_LIMIT: inherited["QUIRE_RATE_LIMIT"] ?? "1000000000",
    // The load's beacons all come from 127.0.0.1: the site budgets of insights events are off.
    QUIRE_INSIGHTS_LIMIT: inherited["QUIRE_INSIGHTS_LIMIT"] ?? "0",
    QUIRE_INSIGHTS_SITE_LIMIT: inherited["QUIRE_INSIGHTS_SITE_LIMIT"] ?? "0",
    NODE_OPTIONS: `${inherited["NODE_OPTIONS"] ?? ""} --import=${profilingPreload}`.trim()
  }
}

/** The child process of `config`: the built server, or the bench's bundled `script`. */
const spawnTarget = (config: Omit<Target.TargetConfig, "port">, port: number, script: string | undefined) =>
  script === undefined
    ? spawn("sh", [startScript, "server"], { env: builtEnv(config, port), stdio: ["ignore", 2, 2, "ipc"] })
    : spawn(process.execPath, [script], {
      // The load comes from one token: a budget it cannot exhaust (the limiter still counts each request).
      env: { QUIRE_RATE_LIMIT: "1000000000", QUIRE_INSIGHTS_LIMIT: "0", QUIRE_INSIGHTS_SITE_LIMIT: "0", ...process.env, ...config.env, [Target.envName]: JSON.stringify({ ...config, port }) },
      stdio: ["ignore", 2, 2, "ipc"]
    })


/** Linux reports process times in clock ticks of 1/100 s (USER_HZ). */
const cpuMicrosOf = (pid: number) =>
  Effect.promise(async () => {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) * 10_000
  })

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null

const stop = (child: ChildProcess) =>
  Effect.promise(async () => {
    if (exited(child)) return
    const exit = once(child, "exit")
    child.kill("SIGINT")
    const timeout = new Promise((resolve) => setTimeout(resolve, 15_000).unref())
    if (await Promise.race([exit.then(() => true), timeout.then(() => false)])) return
    child.kill("SIGKILL")
    await exit
  })

/** Waits until the server answers `GET /v1/user` with the token (migrations, PGlite start-up). */
const ready = (child: ChildProcess, baseUrl: string, token: string) =>
  Effect.tryPromise({
    try: async () => {
      if (exited(child)) throw new Error(`exited with code ${child.exitCode ?? child.signalCode}`)
      const response = await fetch(`${baseUrl}/v1/user`, { headers: { authorization: `Bearer ${token}` } })
      if (response.status !== 200) throw new Error(`GET /v1/user answered ${response.status}: ${await response.text()}`)
    },
    catch: (cause) => new ServerError({ message: String(cause instanceof Error ? cause.message : cause) })
  }).pipe(
    Effect.retry({
      while: () => !exited(child),
      schedule: Schedule.spaced("250 millis")
    })
  )

const ask = (child: ChildProcess, message: ProfileMessage) =>
  Effect.tryPromise({
    try: async () => {
      const reply = once(child, "message")
      child.send(message)
      const [answer] = await reply as [{ readonly error?: string }]
      if (answer.error !== undefined) throw new Error(answer.error)
    },
    catch: (cause) => new ServerError({ message: `profiling failed: ${String(cause)}` })
  })

const progress = (message: string) => Effect.sync(() => console.error(`[bench] ${message}`))

/**
 * Starts `config` as a child process and waits for it to serve (at most `timeout`); stopped when
 * the scope closes.
 */
export const start = (name: string, config: Omit<Target.TargetConfig, "port">, timeout: Duration.Input = Duration.minutes(5)) =>
  Effect.gen(function*() {
    const port = yield* Effect.promise(LocalServer.freePort)
    const baseUrl = `http://127.0.0.1:${port}`
    if (isBuilt(config)) yield* Build.current(progress).pipe(Effect.orDie)
    const script = isBuilt(config) ? undefined : yield* BenchScripts.path(config.server, progress).pipe(Effect.orDie)
    const child = yield* Effect.acquireRelease(Effect.sync(() => spawnTarget(config, port, script)), stop)
    yield* ready(child, baseUrl, config.adminToken).pipe(
      Effect.timeout(timeout),
      Effect.mapError((error) => new ServerError({ message: `${name} did not start: ${error.message}` }))
    )
    const running: Running = {
      name,
      baseUrl,
      pid: child.pid!,
      cpuMicros: cpuMicrosOf(child.pid!),
      profiled: (file) => (self) =>
        ask(child, { profile: "start" }).pipe(
          Effect.andThen(self),
          Effect.tap(() => ask(child, { profile: "stop", file }))
        )
    }
    return running
  })
