/**
 * `pnpm bench --markdown-attack`: hostile markdown (issue 34, finding 3) against a started Quire
 * server (a child process, Servers.ts, on memory: the figures are the markdown work's, not a
 * database's). A probe calls `/health` every 2 ms, first with the server idle, then while pages
 * that nest every construct (`@quire/markdown/testing/Adversarial`, at 64 KB and 400 KB, and the
 * cases of the issue) are written into a change request and read back as HTML. Each write must
 * answer 400 naming a markdown limit, or succeed; the line prints `/health` p99 and max during
 * the attack against the goal (p99 under 50 ms), PASS or MISS.
 */
import { Effect } from "effect"
import { adversarialCases, nestedBrackets, nestedHints, nestedList, nestedQuotes } from "@quire/markdown/testing/Adversarial"
import * as Servers from "./Servers.ts"

export interface MarkdownAttackOptions {
  /** Page sizes of the adversarial cases, in characters. */
  readonly sizes: ReadonlyArray<number>
  /** Milliseconds the probe measures the idle server first. */
  readonly idleMillis: number
}

export const defaultOptions: MarkdownAttackOptions = { sizes: [64 * 1024, 400 * 1024], idleMillis: 2_000 }

/** The goal: `/health` p99 during the attack, in ms. */
export const goalMs = 50

const email = "attack@bench.test"
const token = "quire_bench_markdown_attack_token_0123456789"

/** What one attack measured. */
export interface AttackFigures {
  readonly writes: number
  readonly refused: number
  readonly saved: number
  /** Writes that answered neither a 400 naming a limit nor success (a 500, another 4xx). */
  readonly unexpected: ReadonlyArray<string>
  readonly idle: { readonly p99: number; readonly max: number; readonly count: number }
  readonly attack: { readonly p99: number; readonly max: number; readonly count: number }
  readonly report: string
}

const percentile = (values: ReadonlyArray<number>, p: number) => {
  if (values.length === 0) return 0
  const sorted = values.toSorted((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

const summary = (values: ReadonlyArray<number>) => ({ p99: percentile(values, 99), max: Math.max(0, ...values), count: values.length })

/** Calls `/health` every 2 ms until stopped; answers each call's latency in ms. */
const probe = (baseUrl: string) => {
  const state = { running: true }
  const latencies: Array<number> = []
  let recent = 0
  const done = (async () => {
    while (state.running) {
      const start = performance.now()
      const response = await fetch(`${baseUrl}/health`)
      await response.text()
      latencies.push(performance.now() - start)
      recent = Math.max(recent, performance.now() - start)
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
  })()
  return {
    /** The slowest call since the last `recent`. */
    recent: () => {
      const slowest = recent
      recent = 0
      return slowest
    },
    stop: async () => {
      state.running = false
      await done
      return latencies
    }
  }
}

const call = async (baseUrl: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${baseUrl}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, body: (text === "" ? undefined : JSON.parse(text)) as Record<string, unknown> & { error?: { message?: string } } }
}

/** The attack's pages: every construct at each of `sizes`, and the cases of the issue. */
export const attackPages = (sizes: ReadonlyArray<number>) => [
  ...sizes.flatMap((size) => adversarialCases(size).map((c) => ({ name: `${c.name} ${Math.round(size / 1024)} KB`, markdown: c.markdown }))),
  { name: "issue: 64 KB of brackets", markdown: nestedBrackets(32 * 1024) },
  { name: "issue: a 600-level list", markdown: nestedList(600) },
  { name: "issue: 3,000 nested hints", markdown: nestedHints(3_000) },
  { name: "issue: a 20,000-level quote", markdown: nestedQuotes(20_000) }
]

/** Runs the attack against a server at `baseUrl` whose administrator holds `token`. */
export const attack = (baseUrl: string, options: MarkdownAttackOptions, progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const org = yield* Effect.promise(() => call(baseUrl, "POST", "/orgs", { title: "Markdown attack" }))
    const organizationId = String(org.body["id"])
    const space = yield* Effect.promise(() => call(baseUrl, "POST", `/orgs/${organizationId}/spaces`, { title: "Attack" }))
    const spaceId = String(space.body["id"])
    const cr = yield* Effect.promise(() => call(baseUrl, "POST", `/spaces/${spaceId}/change-requests`, { subject: "Attack" }))
    const changeRequestId = String(cr.body["id"])
    const contentPath = `/spaces/${spaceId}/change-requests/${changeRequestId}/content`
    // An ordinary page written and read first: what the first write and read load (code compiled
    // on first use, a parse worker started) is not what hostile markdown costs.
    const warm = yield* Effect.promise(() =>
      call(baseUrl, "POST", contentPath, { changes: [{ operation: "insert_page", title: "Warm-up", document: { markdown: "# Warm-up\n\nA [link](https://example.com) and **words**.\n" } }] })
    )
    if (warm.status !== 200) return yield* Effect.die(new Error(`markdown-attack: the warm-up page answered ${warm.status}`))
    const warmTree = yield* Effect.promise(() => call(baseUrl, "GET", contentPath))
    for (const { id } of (warmTree.body["pages"] ?? []) as ReadonlyArray<{ readonly id: string }>) {
      for (const format of ["html", "document"]) yield* Effect.promise(() => call(baseUrl, "GET", `${contentPath}/page/${id}?format=${format}`))
    }
    yield* progress(`markdown-attack: /health idle for ${options.idleMillis} ms`)
    const idleProbe = probe(baseUrl)
    yield* Effect.sleep(options.idleMillis)
    const idle = yield* Effect.promise(idleProbe.stop)
    const pages = attackPages(options.sizes)
    yield* progress(`markdown-attack: writing ${pages.length} hostile pages while /health is probed`)
    const attackProbe = probe(baseUrl)
    // The steps during which /health waited longest.
    const slowSteps: Array<readonly [string, number]> = []
    const stepDone = (name: string) => slowSteps.push([name, attackProbe.recent()])
    let refused = 0
    let saved = 0
    const unexpected: Array<string> = []
    for (const page of pages) {
      const answer = yield* Effect.promise(() =>
        call(baseUrl, "POST", contentPath, { changes: [{ operation: "insert_page", title: page.name, document: { markdown: page.markdown } }] })
      )
      const message = answer.body.error?.message ?? ""
      if (answer.status === 400 && /the markdown [\w-]+ limit/.test(message)) refused++
      else if (answer.status === 200) saved++
      else unexpected.push(`${page.name}: ${answer.status} ${message.slice(0, 120)}`)
      stepDone(`write ${page.name}`)
    }
    // The pages saved, read back as HTML (the render path) and as documents.
    const pagesPath = `/spaces/${spaceId}/change-requests/${changeRequestId}/content`
    const tree = yield* Effect.promise(() => call(baseUrl, "GET", pagesPath))
    const ids = ((tree.body["pages"] ?? []) as ReadonlyArray<{ readonly id: string }>).map((page) => page.id)
    for (const id of ids) {
      for (const format of ["html", "document"]) {
        const read = yield* Effect.promise(() => call(baseUrl, "GET", `${pagesPath}/page/${id}?format=${format}`))
        if (read.status !== 200) unexpected.push(`read ${id} as ${format}: ${read.status}`)
        stepDone(`read ${id} as ${format}`)
      }
    }
    const during = yield* Effect.promise(attackProbe.stop)
    const slowest = slowSteps.toSorted((a, b) => b[1] - a[1]).slice(0, 3).map(([name, ms]) => `${name} ${ms.toFixed(0)} ms`).join(", ")
    const figures = { idle: summary(idle), attack: summary(during) }
    const verdict = figures.attack.p99 <= goalMs && unexpected.length === 0 ? "PASS" : "MISS"
    const report = [
      `Markdown attack (memory, a server process): ${pages.length} hostile pages (${options.sizes.map((s) => `${Math.round(s / 1024)} KB`).join(", ")} ` +
      `and the issue's cases) written, ${refused} refused naming a limit, ${saved} saved and read back as HTML and document` +
      (unexpected.length === 0 ? "" : `; unexpected: ${unexpected.join("; ")}`),
      `  /health idle    p99 ${figures.idle.p99.toFixed(1)} ms  max ${figures.idle.max.toFixed(1)} ms  (${figures.idle.count} calls)`,
      `  /health attack  p99 ${figures.attack.p99.toFixed(1)} ms  max ${figures.attack.max.toFixed(1)} ms  (${figures.attack.count} calls)  ` +
      `goal p99 <= ${goalMs} ms  ${verdict}`,
      `  slowest /health during: ${slowest}`
    ].join("\n")
    return { writes: pages.length, refused, saved, unexpected, ...figures, report } satisfies AttackFigures
  })

/** Starts a Quire server on memory and runs the attack against it. */
export const run = (options: MarkdownAttackOptions, progress: (message: string) => Effect.Effect<void>) =>
  Effect.scoped(Effect.gen(function*() {
    yield* progress("markdown-attack: starting a Quire server (memory)")
    const server = yield* Servers.start("quire (memory)", { server: "quire", backend: { kind: "memory" }, adminToken: token, adminEmail: email })
    return yield* attack(server.baseUrl, options, progress)
  }))
