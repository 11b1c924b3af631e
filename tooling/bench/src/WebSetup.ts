/**
 * What `pnpm bench --web` (WebBench.ts) measures against: the production build (`pnpm build`:
 * the app in dist/web with the brotli and gzip forms the server sends, the server in
 * dist/server.mjs), the built server started as a person starts it, on the embedded database;
 * the administrator set up with a password; and the content, seeded through /v1: a space of
 * 1,000 pages and a page of 5,000 paragraphs in a space of its own.
 */
import { spawn } from "node:child_process"
import { readdirSync, readFileSync, rmSync } from "node:fs"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import type { Browser } from "playwright-core"
import { LocalServer } from "@quire/testkit"
import * as Build from "./Build.ts"
import * as Seed from "./Seed.ts"

export const root = fileURLToPath(new URL("../../..", import.meta.url))

/** The administrator the browser signs in as (the setup code is the bench's admin token). */
export const admin = { displayName: "Bench Admin", email: "bench-admin@quire.test", password: "correct horse battery staple" }

/**
 * The production build (`pnpm build`: tooling/build/build.mjs), which writes the browser app into
 * dist/web with its `.br` and `.gz` forms and the server into dist/server.mjs (Build.current: made
 * again only when a source is newer); answers dist/web.
 */
export const build = async (progress: (message: string) => void): Promise<string> => {
  await Effect.runPromise(Build.current((message) => Effect.sync(() => progress(message))))
  return join(root, "dist/web")
}

export interface Server {
  readonly url: string
  readonly pid: number
  /** CPU seconds the server's processes have used so far (user + system, from /proc). */
  readonly cpuSeconds: () => number
  /** What the server has written to its standard output and error so far. */
  readonly log: () => string
  readonly stop: () => Promise<void>
}

/**
 * A server and a browser that several benches share (the smoke's, SharedWeb.ts): each bench seeds
 * its own organization there and opens its own browser contexts, and stops neither.
 */
export interface Shared {
  /** The built server for the app in `webDir`, its administrator set up. */
  readonly server: (webDir: string) => Promise<Server>
  readonly browser: () => Promise<Browser>
}

/** CPU seconds of the processes of group `pgid`. */
const groupCpu = (pgid: number): number => {
  let ticks = 0
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks / 100
}

/**
 * The built server as a person runs it (`tooling/build/start.sh server`: dist/server.mjs on Node
 * 24, the embedded database in a new data directory, jobs in process), serving the app from
 * `webDir`, with the bench's setup code and `extra` in its environment; resolves once /health
 * answers. It never inherits QUIRE_REDIS_URL: a bench that wants servers relaying says so.
 */
export const startServer = async (webDir: string, extra: Record<string, string> = {}): Promise<Server> => {
  const port = await LocalServer.freePort()
  const dataDir = mkdtempSync(join(tmpdir(), "quire-bench-web-"))
  const url = `http://127.0.0.1:${port}`
  const { DATABASE_URL: _, QUIRE_REDIS_URL: __, ...env } = process.env
  const child = spawn("sh", [join(root, "tooling/build/start.sh"), "server"], {
    cwd: root,
    env: {
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
      QUIRE_PUBLIC_URL: url,
      QUIRE_DATA_DIR: dataDir,
      QUIRE_ADMIN_TOKEN: Seed.adminToken,
      QUIRE_WEB_DIR: webDir,
      QUIRE_LOG_FORMAT: "json",
      QUIRE_REQUEST_LOG: "off",
      ...extra
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true
  })
  let output = ""
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const until = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode}) before answering:\n${output.slice(-3000)}`)
    if (await fetch(`${url}/health`).then((response) => response.ok, () => false)) break
    if (Date.now() > until) throw new Error(`The server did not answer /health within 60 s:\n${output.slice(-3000)}`)
    await sleep(50)
  }
  const pgid = child.pid!
  return {
    url,
    pid: pgid,
    cpuSeconds: () => groupCpu(pgid),
    log: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        const kill = setTimeout(() => process.kill(-pgid, "SIGKILL"), 5_000)
        child.once("exit", () => {
          clearTimeout(kill)
          child.stdout.destroy()
          child.stderr.destroy()
          rmSync(dataDir, { recursive: true, force: true })
          resolve()
        })
        process.kill(-pgid, "SIGTERM")
      })
  }
}

/** Waits until the server's processes used under 5% of a core for a second (search indexing done), 60 s at most. */
export const settle = async (server: Server): Promise<void> => {
  const until = Date.now() + 60_000
  let last = server.cpuSeconds()
  while (Date.now() < until) {
    await sleep(1_000)
    const now = server.cpuSeconds()
    if (now - last < 0.05) return
    last = now
  }
}

/** First-run setup through the sign-in routes: the administrator gets the password the browser signs in with. */
export const setupAdmin = async (url: string): Promise<void> => {
  const response = await fetch(`${url}/auth/setup`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ setupCode: Seed.adminToken, ...admin })
  })
  if (!response.ok) throw new Error(`setup failed: ${response.status} ${await response.text()}`)
}

// ---------------------------------------------------------------------------------------------
// Content

const words = ("guide install configure deploy server client token space page change request review merge publish " +
  "search index theme layout block table code hint link image file member team organization permission audit " +
  "webhook release version branch commit sync import export cache query result setting account password session")
  .split(" ")

const title = (next: () => number, kind: string) => {
  const pick = () => words[Math.floor(next() * words.length)]!
  const text = `${kind} ${pick()} ${pick()}`
  return `${text[0]!.toUpperCase()}${text.slice(1)}`
}

/** A page of a few paragraphs, a heading and a list (about 1.5 KB). */
const pageMarkdown = (n: number): string => {
  const { sentence, paragraph, word } = Seed.prose(Seed.random(n + 7), words, [])
  return [paragraph(), `## About the ${word()}`, paragraph(), [`- ${sentence()}`, `- ${sentence()}`, `- ${sentence()}`].join("\n"), paragraph(), ""].join("\n\n")
}

export interface Seeded {
  readonly organizationId: string
  /** The 1,000-page space, and the path of the page its first load opens (a nested one). */
  readonly spaceId: string
  readonly pagePath: string
  readonly pages: number
  /** The space of the 5,000-paragraph page, that page's path, and an open change request on it. */
  readonly longSpaceId: string
  readonly longPagePath: string
  readonly longPageBytes: number
  readonly changeRequest: number
  /** That change request's id (the editor's path has its number; live editing's documents, its id). */
  readonly changeRequestId: string
  readonly requests: number
  readonly seconds: number
}

const sectionsPerChapter = 7
const pagesPerSection = 6

/** One batch: a chapter, its 7 sections and their 6 pages each (50 insert_page changes). */
const chapterChanges = (c: number, next: () => number, counter: { n: number }) => {
  const changes: Array<unknown> = [{ operation: "insert_page", ref: "c", title: title(next, `Chapter ${c + 1}:`), slug: `chapter-${c + 1}`, document: { markdown: pageMarkdown(counter.n++) } }]
  for (let s = 0; s < sectionsPerChapter; s++) {
    changes.push({ operation: "insert_page", ref: `s${s}`, into: "c", title: title(next, "Section"), slug: `section-${s + 1}`, document: { markdown: pageMarkdown(counter.n++) } })
    for (let p = 0; p < pagesPerSection; p++) {
      changes.push({ operation: "insert_page", into: `s${s}`, title: title(next, "How to"), slug: `page-${p + 1}`, document: { markdown: pageMarkdown(counter.n++) } })
    }
  }
  return changes
}

/** `paragraphs` paragraphs of one to three sentences (5,000: about 0.8 MB of markdown). */
const longMarkdown = (paragraphs: number): string => {
  const next = Seed.random(5000)
  const { sentence } = Seed.prose(next, words, [])
  return Array.from({ length: paragraphs }, (_, i) => `Paragraph ${i + 1}: ${Array.from({ length: 1 + Math.floor(next() * 3) }, sentence).join(" ")}`)
    .join("\n\n") + "\n"
}

/** How much `seed` writes: chapters of 50 pages (20), and the paragraphs of the long page (5,000). */
export interface SeedSize {
  readonly chapters: number
  readonly paragraphs: number
}

/** Seeds through /v1 as the administrator (bearer token): a batch of 50 insert_page changes a chapter on one change request, merged. */
export const seed = async (url: string, size: SeedSize = { chapters: 20, paragraphs: 5000 }): Promise<Seeded> => {
  const chapters = Math.max(1, size.chapters)
  const started = performance.now()
  let requests = 0
  const call = <A>(method: string, path: string, body?: unknown) => {
    requests++
    return Seed.adminCall(url)<A>(method, path, body)
  }
  const org = await call<{ id: string }>("POST", "/v1/orgs", { title: "Bench Docs" })
  const space = await call<{ id: string }>("POST", `/v1/orgs/${org.id}/spaces`, { title: "Handbook" })
  const cr = await call<{ id: string }>("POST", `/v1/spaces/${space.id}/change-requests`, { subject: "Import the handbook" })
  const next = Seed.random(1)
  const counter = { n: 0 }
  for (let c = 0; c < chapters; c++) {
    await call("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: chapterChanges(c, next, counter) })
  }
  await call("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)

  const longSpace = await call<{ id: string }>("POST", `/v1/orgs/${org.id}/spaces`, { title: "Release notes" })
  const longCr = await call<{ id: string }>("POST", `/v1/spaces/${longSpace.id}/change-requests`, { subject: "Import the archive" })
  const markdown = longMarkdown(size.paragraphs)
  await call("POST", `/v1/spaces/${longSpace.id}/change-requests/${longCr.id}/content`, {
    changes: [{ operation: "insert_page", title: "Release notes archive", slug: "archive", document: { markdown } }]
  })
  await call("POST", `/v1/spaces/${longSpace.id}/change-requests/${longCr.id}/merge`)
  const editing = await call<{ id: string; number: number }>("POST", `/v1/spaces/${longSpace.id}/change-requests`, { subject: "Edit the archive" })
  return {
    organizationId: org.id,
    spaceId: space.id,
    pagePath: `chapter-${Math.ceil(chapters / 2)}/section-4/page-3`,
    pages: counter.n,
    longSpaceId: longSpace.id,
    longPagePath: "archive",
    longPageBytes: Buffer.byteLength(markdown),
    changeRequest: editing.number,
    changeRequestId: editing.id,
    requests,
    seconds: (performance.now() - started) / 1000
  }
}
