/**
 * `pnpm bench --documents`: reading a page as GitBook's JSON document against reading its markdown,
 * on the built server with its embedded database, and against node:http answering the document's
 * bytes from memory (StaticServer.ts): the same 3 KB page under autocannon load, alternating rounds;
 * then a large page's document read one request at a time, the first read (built) and the next
 * (the server's page_document_json cache).
 */
import { Effect } from "effect"
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import * as Load from "./Load.ts"
import * as Scratch from "./Scratch.ts"
import * as Seed from "./Seed.ts"
import * as Servers from "./Servers.ts"

export interface DocumentsBenchOptions {
  readonly load: Load.LoadOptions
  /** Bytes of markdown of the large page (1.5 MB by default). */
  readonly largeBytes: number
  /** Sequential reads of the large page's document after the first. */
  readonly largeReads: number
  /** A built server on the embedded database that others use too (the smoke's), instead of one of its own. */
  readonly server?: Effect.Effect<Servers.Running, Servers.ServerError> | undefined
}

/** A page of about 3 KB with what GitBook's documents hold: headings, lists, links, code, a hint. */
const ordinaryPage = (n: number) =>
  [
    `# Guide ${n}`,
    "",
    `Read [the introduction](README.md) before you start. This page explains **step ${n}** of the setup, with \`code\` and *emphasis*.`,
    "",
    "## Steps",
    "",
    ...Array.from({ length: 12 }, (_, i) => `${i + 1}. Run the command number ${i + 1} and check that its output says what the guide expects it to say.`),
    "",
    "{% hint style=\"info\" %}",
    "Keep the terminal open while the service starts.",
    "{% endhint %}",
    "",
    "```bash",
    "quire start --port 8080",
    "```",
    "",
    ...Array.from({ length: 8 }, (_, i) => `- Item ${i + 1}: a short explanation of an option, with a [link](https://example.com/${i}).`),
    "",
    "## Troubleshooting",
    "",
    "If the service does not answer, read its log and the section on ports. ".repeat(12).trim(),
    ""
  ].join("\n")

const largePage = (bytes: number) => {
  const parts: Array<string> = []
  let size = 0
  for (let n = 0; size < bytes; n++) {
    const part = ordinaryPage(n).replace(/^# /, "## ")
    parts.push(part)
    size += part.length + 1
  }
  return parts.join("\n")
}

const capture = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { headers: { authorization: `Bearer ${Seed.adminToken}` } })
    const body = await response.text()
    if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${body.slice(0, 300)}`)
    return { headers: { "content-type": response.headers.get("content-type") ?? "application/json" }, body }
  })

/** Milliseconds of one authenticated GET, its body read whole. */
const timed = (url: string) =>
  Effect.promise(async () => {
    const started = performance.now()
    const response = await fetch(url, { headers: { authorization: `Bearer ${Seed.adminToken}` } })
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`)
    return performance.now() - started
  })

const median = (values: ReadonlyArray<number>) => {
  const sorted = values.toSorted((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

export const run = (options: DocumentsBenchOptions, progress: (message: string) => Effect.Effect<void>) =>
  Effect.scoped(Effect.gen(function*() {
    const quire = yield* (options.server ?? Effect.flatMap(Scratch.directory, (dir) =>
      Servers.start("quire (embedded)", {
        server: "quire",
        backend: { kind: "embedded", dataDir: join(dir, "quire") },
        adminToken: Seed.adminToken,
        adminEmail: Seed.adminEmail
      })))
    const call = Seed.adminCall(quire.baseUrl)
    const organizationId = yield* Seed.organization(quire.baseUrl)
    yield* progress("documents: a space with a 3 KB page and a large one, merged through a change request")
    const { space, pageId, largeId } = yield* Effect.promise(async () => {
      const space = await call<{ id: string }>("POST", `/v1/orgs/${organizationId}/spaces`, { title: "Documents" })
      const cr = await call<{ id: string }>("POST", `/v1/spaces/${space.id}/change-requests`, { subject: "Pages" })
      await call("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
        changes: [
          { operation: "insert_page", title: "Guide", document: { markdown: ordinaryPage(1) } },
          { operation: "insert_page", title: "Large", document: { markdown: largePage(options.largeBytes) } }
        ]
      })
      await call("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)
      const { pages } = await call<{ pages: Array<{ id: string; title: string }> }>("GET", `/v1/spaces/${space.id}/content/pages`)
      return { space, pageId: pages.find((p) => p.title === "Guide")!.id, largeId: pages.find((p) => p.title === "Large")!.id }
    })
    const pagePath = `/v1/spaces/${space.id}/content/page/${pageId}`
    const stored = yield* capture(`${quire.baseUrl}${pagePath}`)
    const file = join(yield* Scratch.directory, "document.json")
    yield* Effect.promise(() => writeFile(file, JSON.stringify(stored)))
    const baseline = yield* Servers.start("node:http from memory", {
      server: "static",
      backend: { kind: "memory" },
      adminToken: Seed.adminToken,
      adminEmail: Seed.adminEmail,
      staticResponse: file
    })
    const rows: Array<Load.Measurement> = []
    for (const endpoint of [{ name: "3 KB page as a document", path: pagePath }, { name: "3 KB page as markdown", path: `${pagePath}?format=markdown` }]) {
      const targets = endpoint.path === pagePath ? [baseline, quire] : [quire]
      rows.push(...yield* Load.compare(targets, endpoint, Seed.adminToken, options.load, progress))
    }
    yield* progress(`documents: the ${(options.largeBytes / 1e6).toFixed(1)} MB page's document, built, then ${options.largeReads} reads`)
    const largeUrl = `${quire.baseUrl}/v1/spaces/${space.id}/content/page/${largeId}`
    const first = yield* timed(largeUrl)
    const again: Array<number> = []
    for (let i = 0; i < options.largeReads; i++) again.push(yield* timed(largeUrl))
    // What each answer weighs, beside the markdown it is drawn from (GitBook's shape, no copy of the source).
    const largeDocument = yield* capture(largeUrl)
    const smallMarkdown = yield* capture(`${quire.baseUrl}${pagePath}?format=markdown`)
    const bytes = (text: string) => Buffer.byteLength(text, "utf8")
    const byName = (target: string, endpoint: string) => rows.find((r) => r.target === target && r.endpoint === endpoint)!
    const document = byName(quire.name, "3 KB page as a document")
    const floor = byName(baseline.name, "3 KB page as a document")
    const markdown = byName(quire.name, "3 KB page as markdown")
    const report = [
      `Page reads as GitBook's document, built server, embedded database, ${options.load.connections} connections, ${options.load.rounds} rounds of ${options.load.duration / options.load.rounds} s:`,
      "| target | read | req/s | p50 ms | p99 ms | server CPU µs/req |",
      "|---|---|---|---|---|---|",
      ...rows.map((r) => `| ${r.target} | ${r.endpoint} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.cpuPerRequest.toFixed(0)} |`),
      `document over markdown: ${(document.requestsPerSecond / Math.max(1, markdown.requestsPerSecond)).toFixed(2)} of its req/s; over node:http with the same bytes: ${(document.requestsPerSecond / Math.max(1, floor.requestsPerSecond)).toFixed(2)}`,
      `${(options.largeBytes / 1e6).toFixed(1)} MB page as a document: first read ${first.toFixed(0)} ms, then median ${median(again).toFixed(0)} ms over ${again.length} reads`,
      `document sizes: the 3 KB page's ${(bytes(stored.body) / 1e3).toFixed(1)} KB (its markdown answer ${(bytes(smallMarkdown.body) / 1e3).toFixed(1)} KB), the large page's ${(bytes(largeDocument.body) / 1e6).toFixed(2)} MB`
    ].join("\n")
    return yield* Load.unlessFailed(report, rows.map((r) => ({ what: `${r.target} ${r.endpoint}`, failures: r.failures })))
  }))
