/**
 * Benchmarked servers run as child processes (Node 24 with the tsx loader) on a free port, so
 * that the load generator does not share their event loop. Each is scoped: leaving the scope
 * asks it to stop (SIGINT), which closes its database cleanly.
 */
import { Data, Duration, Effect, Schedule } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { readFile } from "node:fs/promises"
import { createServer, type AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
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

const scripts = {
  quire: fileURLToPath(new URL("./QuireServer.ts", import.meta.url)),
  baseline: fileURLToPath(new URL("./BaselineServer.ts", import.meta.url)),
  static: fileURLToPath(new URL("./StaticServer.ts", import.meta.url))
}
const tsxLoader = import.meta.resolve("tsx")

const freePort = Effect.promise(() =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
)

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

/**
 * Starts `config` as a child process and waits for it to serve (at most `timeout`); stopped when
 * the scope closes.
 */
export const start = (name: string, config: Omit<Target.TargetConfig, "port">, timeout: Duration.Input = Duration.minutes(5)) =>
  Effect.gen(function*() {
    const port = yield* freePort
    const baseUrl = `http://127.0.0.1:${port}`
    const child = yield* Effect.acquireRelease(
      Effect.sync(() =>
        spawn(process.execPath, ["--import", tsxLoader, scripts[config.server]], {
          // The load comes from one token: a budget it cannot exhaust (the limiter still counts each request).
          env: { QUIRE_RATE_LIMIT: "1000000000", ...process.env, [Target.envName]: JSON.stringify({ ...config, port }) },
          stdio: ["ignore", 2, 2, "ipc"]
        })
      ),
      stop
    )
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
