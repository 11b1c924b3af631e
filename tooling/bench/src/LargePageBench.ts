/**
 * `pnpm bench --large-page`: one large page written over HTTP to the built server (dist/, started
 * with tooling/build/start.sh as users start it), on the embedded database and on PostgreSQL: a
 * change request's `POST .../content` that inserts the page, then one that saves it again with a
 * word changed near its start. Pages of 1.5 MB and just under the page-size limit (by default),
 * each figure against its goal (under 100 ms up to 1.5 MB, under 1 s above), PASS or MISS on the
 * median of the rounds. Beside the wall time: the server process's CPU time (its parse workers
 * included), which a busy machine does not stretch, and the slowest `/health` answer while the
 * writes ran (the main thread held). Other checkouts with a built dist/ (`targets`) are measured
 * in the same run, their requests alternating with this one's.
 */
import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { fileURLToPath } from "node:url"
import { defaultRevisionLimits } from "@quire/content"
import { LocalServer } from "@quire/testkit"
import * as Build from "./Build.ts"
import * as Scratch from "./Scratch.ts"

const root = fileURLToPath(new URL("../../..", import.meta.url))

/** The longest markdown of one page the API accepts, in characters (`maxPageMarkdown` of packages/api). */
const maxPageCharacters = 5_000_000

/** Just under the page-size limit: the UTF-8 bytes one page's markdown may take, less a margin the generator may overshoot by. */
export const limitBytes = defaultRevisionLimits.documentBytes - 1024

/** The goal for a page of `bytes`: 100 ms up to 1.5 MB, 1 s above. */
export const goalMs = (bytes: number) => bytes <= 1_500_000 ? 100 : 1_000

/** A checkout whose built server is measured: this one, or another with a dist/ (a build of another commit). */
export interface Target {
  readonly name: string
  readonly root: string
}

export interface LargePageOptions {
  /** UTF-8 bytes of each page. */
  readonly sizes: ReadonlyArray<number>
  readonly backends: ReadonlySet<string>
  /** A PostgreSQL server where a fresh database is made for each target. */
  readonly adminUrl: string
  readonly rounds: number
  /** Checkouts measured beside this one (alternating with it), each with its dist/ built. */
  readonly others: ReadonlyArray<Target>
  /**
   * Built servers of this checkout that others use too (the smoke's), by backend, with the token
   * they answer: this checkout is measured there, in an organization of its own, instead of on its own.
   */
  readonly shared?: ((backend: string) => Effect.Effect<{ readonly baseUrl: string; readonly pid: number; readonly token: string }, unknown> | undefined) | undefined
}

export const defaultSizes: ReadonlyArray<number> = [1_500_000, limitBytes]

const token = "quire_bench_large_page_token_0123456789"

/**
 * Markdown of about `bytes` UTF-8 bytes (never more): short paragraphs, and a heading and a
 * paragraph with a link every 50 of them. Pages longer in bytes than the API accepts characters
 * are written in Chinese (three bytes a character), as a page at the byte limit is.
 */
export const pageOf = (bytes: number): string => {
  const wide = bytes > maxPageCharacters
  const parts: Array<string> = []
  let length = 0
  for (let i = 0; ; i++) {
    const part = i % 50 === 0
      ? `## Section ${i}\n\nParagraph ${i} with [a link](https://example.com/${i}) and **bold** text.`
      : wide
      ? `第${i}段：关于主题${i % 37}的普通文字，就像真实页面上那样。`
      : `Paragraph ${i}: ordinary words about topic ${i % 37}.`
    const size = Buffer.byteLength(part) + 2
    if (length + size > bytes && i > 0) break
    parts.push(part)
    length += size
  }
  return parts.join("\n\n")
}

/** CPU time (user + system) the process `pid` has used, in ms (Linux reports clock ticks of 10 ms). */
const cpuMs = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** A built server, started with start.sh of `target.root` (`exec`: the shell's pid is Node's), stopped when the scope closes. */
const startServer = (target: Target, env: Record<string, string>) =>
  Effect.gen(function*() {
    const port = yield* Effect.promise(() => LocalServer.freePort())
    const { DATABASE_URL: _, ...inherited } = process.env
    const child: ChildProcess = yield* Effect.acquireRelease(
      Effect.sync(() =>
        spawn("sh", [join(target.root, "tooling/build/start.sh"), "server"], {
          cwd: target.root,
          env: { QUIRE_RATE_LIMIT: "1000000000", ...inherited, ...env, PORT: String(port), HOST: "127.0.0.1", QUIRE_ADMIN_TOKEN: token },
          stdio: ["ignore", "ignore", "inherit"]
        })
      ),
      (child) =>
        Effect.promise(async () => {
          if (child.exitCode !== null || child.signalCode !== null) return
          const exited = new Promise((resolve) => child.once("exit", resolve))
          child.kill("SIGTERM")
          await exited
        })
    )
    const baseUrl = `http://127.0.0.1:${port}`
    yield* Effect.promise(async () => {
      const deadline = Date.now() + 180_000
      while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`${target.name}'s server exited with code ${child.exitCode}`)
        const answer = await fetch(`${baseUrl}/v1/user`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status, () => 0)
        if (answer === 200) return
        await sleep(200)
      }
      throw new Error(`${target.name}'s server did not answer within 3 minutes`)
    })
    return { target, baseUrl, pid: child.pid!, token }
  })

type Server = Effect.Success<ReturnType<typeof startServer>>

/** A JSON call to the server's API, failing on any status but 2xx. */
const call = async <A = { readonly id: string }>(server: Server, method: string, path: string, body?: unknown): Promise<A> => {
  const response = await fetch(`${server.baseUrl}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${server.target.name}: ${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text === "" ? "null" : text) as A
}

/** Calls `/health` every 5 ms until stopped; answers the slowest call's latency in ms. */
const healthProbe = (server: Server) => {
  const state = { running: true, slowest: 0 }
  const done = (async () => {
    while (state.running) {
      const start = performance.now()
      await fetch(`${server.baseUrl}/health`).then((response) => response.text(), () => "")
      state.slowest = Math.max(state.slowest, performance.now() - start)
      await sleep(5)
    }
  })()
  return async () => {
    state.running = false
    await done
    return state.slowest
  }
}

/** One timed write: wall ms, the server's CPU ms, and the slowest `/health` meanwhile. */
interface Timed {
  readonly wall: number
  readonly cpu: number
  readonly health: number
}

const timed = async (server: Server, write: () => Promise<unknown>): Promise<Timed> => {
  const stop = healthProbe(server)
  const cpu = cpuMs(server.pid)
  const start = performance.now()
  await write()
  const wall = performance.now() - start
  const used = cpuMs(server.pid) - cpu
  return { wall, cpu: used, health: await stop() }
}

/** A change request in a new space of `organization`, with `markdown` inserted as a page (timed), then saved again with a word changed (timed). */
const insertAndEdit = async (server: Server, organization: string, markdown: string, edited: string) => {
  const space = await call(server, "POST", `/orgs/${organization}/spaces`, { title: "Large page" })
  const cr = await call(server, "POST", `/spaces/${space.id}/change-requests`, { subject: "A large page" })
  const content = `/spaces/${space.id}/change-requests/${cr.id}/content`
  const insert = await timed(server, () => call(server, "POST", content, { changes: [{ operation: "insert_page", title: "Large", document: { markdown } }] }))
  const { pages } = await call<{ readonly pages: ReadonlyArray<{ readonly id: string }> }>(server, "GET", `${content}/pages`)
  const page = pages[0]!.id
  const edit = await timed(server, () => call(server, "POST", content, { changes: [{ operation: "update_page", page, document: { markdown: edited } }] }))
  return { insert, edit }
}

const median = (values: ReadonlyArray<number>) => {
  const sorted = values.toSorted((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)]!
}

const describeSize = (markdown: string) =>
  `${(Buffer.byteLength(markdown) / 1e6).toFixed(2)} MB (${(markdown.length / 1e6).toFixed(2)} M chars)`

/** The report's line for one operation of one target: medians and extremes of its rounds, against the goal. */
const line = (backend: string, target: string, size: string, operation: string, runs: ReadonlyArray<Timed>, goal: number) => {
  const wall = median(runs.map((run) => run.wall))
  return `  ${backend.padEnd(9)} ${target.padEnd(14)} ${size.padEnd(26)} ${operation.padEnd(7)} ${wall.toFixed(0).padStart(6)} ms ` +
    `(min ${Math.min(...runs.map((run) => run.wall)).toFixed(0).padStart(5)})  CPU ${median(runs.map((run) => run.cpu)).toFixed(0).padStart(6)} ms  ` +
    `/health max ${Math.max(...runs.map((run) => run.health)).toFixed(0).padStart(5)} ms  goal < ${String(goal).padStart(4)} ms  ${wall < goal ? "PASS" : "MISS"}`
}

/** `target`'s server on `backend`, on a new database or data directory. */
const ownServer = (target: Target, backend: string, options: LargePageOptions, progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    yield* progress(`large page: starting ${target.name}'s server on ${backend}`)
    const dir = yield* Scratch.directory
    const env: Record<string, string> = backend === "postgres"
      ? { DATABASE_URL: yield* Scratch.postgresDatabase(options.adminUrl), QUIRE_DATA_DIR: dir }
      : { QUIRE_DATA_DIR: dir }
    return yield* startServer(target, env)
  })

/** Every target's server on `backend`, a warm-up write each, then each page `rounds` times, the targets alternating. */
const measureBackend = (backend: string, targets: ReadonlyArray<Target>, options: LargePageOptions, progress: (message: string) => Effect.Effect<void>) =>
  Effect.scoped(Effect.gen(function*() {
    const servers: Array<{ readonly server: Server; readonly organization: string }> = []
    for (const target of targets) {
      const shared = target.root === root ? options.shared?.(backend) : undefined
      const server = shared === undefined ? yield* ownServer(target, backend, options, progress) : { target, ...yield* shared }
      const organization = (yield* Effect.promise(() => call(server, "POST", "/orgs", { title: "Large pages" }))).id
      // The first write of a server also compiles its code: not what a large page costs.
      // 100 KB, or the smallest page measured when that is smaller (the smoke's).
      const warmUp = pageOf(Math.min(100_000, ...options.sizes))
      yield* Effect.promise(() => insertAndEdit(server, organization, warmUp, warmUp.replace("Paragraph 3:", "The third paragraph:")))
      servers.push({ server, organization })
    }
    const lines: Array<string> = []
    for (const bytes of options.sizes) {
      const markdown = pageOf(bytes)
      const edited = markdown.replace(/Paragraph 3:|第3段：/, "The third paragraph:")
      const runs = servers.map(() => ({ insert: [] as Array<Timed>, edit: [] as Array<Timed> }))
      for (let round = 0; round < options.rounds; round++) {
        yield* progress(`large page: ${backend}, ${describeSize(markdown)}, round ${round + 1}/${options.rounds}`)
        for (const [i, { server, organization }] of servers.entries()) {
          const { insert, edit } = yield* Effect.promise(() => insertAndEdit(server, organization, markdown, edited))
          runs[i]!.insert.push(insert)
          runs[i]!.edit.push(edit)
        }
      }
      for (const [i, { server }] of servers.entries()) {
        lines.push(line(backend, server.target.name, describeSize(markdown), "insert", runs[i]!.insert, goalMs(bytes)))
        lines.push(line(backend, server.target.name, describeSize(markdown), "edit", runs[i]!.edit, goalMs(bytes)))
      }
    }
    return lines
  }))

/** The figures of every backend of `options.backends`, building this checkout's dist/ first when its sources are newer. */
export const run = (options: LargePageOptions, progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    yield* Build.current(progress).pipe(Effect.orDie)
    const targets: ReadonlyArray<Target> = [{ name: "this checkout", root }, ...options.others]
    const lines = [
      `Large pages over HTTP, the built server (start.sh): a change request's POST .../content inserting the page, then saving it`,
      `again with a word changed; median of ${options.rounds} round(s) after a warm-up write, the server's CPU time (parse workers`,
      `included) and the slowest /health answer meanwhile.${options.others.length === 0 ? "" : ` Against: ${options.others.map((t) => `${t.name} (${relative(root, t.root) || "."})`).join(", ")}.`}`
    ]
    for (const backend of ["embedded", "postgres"]) {
      if (!options.backends.has(backend)) continue
      lines.push(...yield* measureBackend(backend, targets, options, progress))
    }
    return lines.join("\n")
  })
