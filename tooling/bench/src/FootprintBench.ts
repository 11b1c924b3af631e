/**
 * Part of `pnpm bench --startup`: the memory of the built processes (tooling/build/start.sh, as the
 * Dockerfile starts them) against issue 23's goals. Each is read from Linux's /proc: `VmHWM`, the
 * most the process ever held resident (its start-up peak), and `VmRSS` once it has been idle for a
 * while after answering /health (the server) or starting (the worker).
 */
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { fileURLToPath } from "node:url"
import { LocalServer } from "@quire/testkit"
import * as Scratch from "./Scratch.ts"

const root = fileURLToPath(new URL("../../..", import.meta.url))

/** How long a process is left alone before its resident memory is read, by default. */
export const defaultIdleMillis = 10_000

interface Footprint {
  readonly idle: number
  readonly peak: number
}

/** `VmRSS` and `VmHWM` of `pid`, in MB. */
const memoryOf = (pid: number): Footprint => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN)
  return { idle: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 }
}

/** Starts `app` with `env`, waits for it (its /health when it serves), leaves it idle, reads its memory, stops it. */
const measure = async (app: "server" | "worker", env: Record<string, string>, idleMillis: number): Promise<Footprint> => {
  const port = await LocalServer.freePort()
  const { DATABASE_URL: _, ...inherited } = process.env
  const child = spawn("sh", [join(root, "tooling/build/start.sh"), app], {
    cwd: root,
    env: { ...inherited, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: "ignore"
  })
  try {
    const deadline = Date.now() + 60_000
    if (app === "server") {
      while (child.exitCode === null && Date.now() < deadline) {
        if (await fetch(`http://127.0.0.1:${port}/health`).then((response) => response.ok, () => false)) break
        await sleep(50)
      }
    }
    await sleep(idleMillis)
    if (child.exitCode !== null || child.pid === undefined) throw new Error(`the ${app} exited (${child.exitCode}) before it was measured`)
    return memoryOf(child.pid)
  } finally {
    child.kill("SIGTERM")
    await new Promise((resolve) => child.exitCode === null ? child.once("exit", resolve) : resolve(undefined))
  }
}

const line = (label: string, value: number, goal: number) =>
  `  ${label.padEnd(52)} ${value.toFixed(0).padStart(5)} MB   goal < ${String(goal).padStart(3)} MB   ${value < goal ? "PASS" : "MISS"}`

/** The figures, on a new embedded data directory and on a new database of the PostgreSQL server at `adminUrl`. */
export const run = (adminUrl: string, progress: (message: string) => Effect.Effect<void>, idleMillis = defaultIdleMillis) =>
  Effect.scoped(Effect.gen(function*() {
    const dir = yield* Scratch.directory
    yield* progress("footprint: the embedded server")
    const embedded = yield* Effect.promise(() => measure("server", { QUIRE_DATA_DIR: join(dir, "embedded") }, idleMillis))
    const url = yield* Scratch.postgresDatabase(adminUrl)
    yield* progress("footprint: the server and the worker on PostgreSQL")
    // The server migrates the database the worker then opens.
    const server = yield* Effect.promise(() => measure("server", { DATABASE_URL: url }, idleMillis))
    const worker = yield* Effect.promise(() => measure("worker", { DATABASE_URL: url }, idleMillis))
    return [
      `Memory of the built processes (resident, from /proc: idle ${idleMillis / 1000} s after start; peak: the most ever held):`,
      line("embedded server, idle", embedded.idle, 300),
      line("embedded server, start-up peak", embedded.peak, 400),
      line("server on PostgreSQL, idle", server.idle, 150),
      `  ${"server on PostgreSQL, start-up peak".padEnd(52)} ${server.peak.toFixed(0).padStart(5)} MB`,
      line("worker on PostgreSQL, idle", worker.idle, 150),
      `  ${"worker on PostgreSQL, start-up peak".padEnd(52)} ${worker.peak.toFixed(0).padStart(5)} MB`
    ].join("\n")
  }))
