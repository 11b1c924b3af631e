/**
 * A large page (6,000 paragraphs, 440 KB: past the parse workers' threshold, its document's JSON
 * written in many batches of nodes) committed through the HTTP server, change request
 * then merge, then its links listed and its JSON document read, while `/health` is polled: the
 * server keeps answering, none of these holds the event loop for long, and the memory it took is
 * given back. What a 1.5 MB and a 10 MB page cost, and the event loop's longest stall against its
 * 100 ms target, are `pnpm bench --large-page`'s.
 *
 * How long the event loop is held is measured as the main thread's CPU time between two turns of
 * a 5 ms timer (`process.threadCpuUsage`): on a shared CI machine the wall-clock delay that
 * `monitorEventLoopDelay` reports also counts the time the OS gave other processes, which says
 * nothing about Quire. That delay is printed, and bounded loosely.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { RevisionPage } from "@quire/api"
import { everyBackend, baseUrl, spaceWith } from "./Harness.ts"

const paragraphs = 6_000
const largePage = Array.from({ length: paragraphs }, (_, i) =>
  i % 100 === 0
    ? `## Part ${i / 100}\n\nParagraph ${i} links to [the guide](https://example.com/guide/${i}) with **some** emphasis.`
    : `Paragraph ${i}: ordinary words about topic ${i % 37}, as a real page has them.`).join("\n\n") +
  "\n\nThe last paragraph mentions zanzibarite."

/**
 * No request holds the event loop longer (PGlite's statements, run in this thread, included).
 * The bar itself (100 ms) is measured by `pnpm bench --large-page`; here a garbage collection on a
 * loaded CI machine can add 100 ms to one turn, while parsing the page on the main thread, the
 * fault this guards against, holds it for most of a second at this size (186 KB take hundreds of
 * ms of CPU).
 */
const maxHeldMs = 300
/** Wall-clock delay, which a loaded machine stretches by seconds (docs/testing.md, "Limits for a loaded machine"): a sanity bound only. */
const maxWallDelayMs = 15_000
/** Main-thread heap still used after a full garbage collection, over what it was before. */
const maxHeapKeptBytes = 48 * 1024 * 1024
/**
 * Resident memory after, over before: a sanity bound, since the heap is bounded above. The parse
 * worker keeps the heap it grew to for the next large page, and malloc keeps arenas the page's
 * buffers used; in a test worker whose other files ran first, on a loaded CI machine, that came to
 * 426 MB with the main heap back within 14 MB of where it was. The 10 MB page of the issue left 3 GB.
 */
const maxRssKeptBytes = 640 * 1024 * 1024

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`

const collectGarbage = () => {
  setFlagsFromString("--expose-gc")
  const gc = runInNewContext("gc") as () => void
  gc()
  gc()
}

/**
 * Watches the event loop: the longest main-thread CPU time between two turns of a 5 ms timer,
 * by step, and `monitorEventLoopDelay`'s wall-clock maximum.
 */
const loopWatch = () => {
  const histogram = monitorEventLoopDelay({ resolution: 10 })
  const held = new Map<string, number>()
  let step = "start"
  let last = process.threadCpuUsage()
  let timer: ReturnType<typeof setTimeout> | undefined
  const tick = () => {
    const now = process.threadCpuUsage()
    const cpuMs = (now.user - last.user + now.system - last.system) / 1000
    last = now
    held.set(step, Math.max(held.get(step) ?? 0, cpuMs))
    timer = setTimeout(tick, 5)
  }
  histogram.enable()
  timer = setTimeout(tick, 5)
  return {
    step: (name: string) => {
      tick()
      clearTimeout(timer)
      timer = setTimeout(tick, 5)
      step = name
    },
    stop: () => {
      tick()
      clearTimeout(timer)
      histogram.disable()
      return { held, wallMax: histogram.max / 1e6 }
    }
  }
}

for (const backend of everyBackend) {
  layer(backend.layer, { timeout: 240_000, excludeTestServices: true })(`a large page on ${backend.name}`, (it) => {
    it.effect("commits through a change request and a merge while /health keeps answering, and gives its memory back", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const api = alice.api
        const spaceId = space.id
        const base = yield* baseUrl
        // A first page past the parse workers' threshold starts them and compiles the code the
        // large page runs, so that what the memory figures compare is what the large page leaves.
        const warmUp = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Warm up" } })
        yield* api.changeRequestContent.updateChangeRequestContent({
          params: { spaceId, changeRequestId: warmUp.id },
          payload: { changes: [{ operation: "insert_page", document: { markdown: `# Warm up\n\n${largePage.slice(0, 100_000)}` } }] }
        })
        yield* api.changeRequests.mergeChangeRequest({ params: { spaceId, changeRequestId: warmUp.id } })
        yield* api.links.listSpaceLinks({ params: { spaceId }, query: {} })
        collectGarbage()
        const before = process.memoryUsage()
        let polling = true
        let healthSlowest = 0
        let healthAnswered = 0
        const poller = (async () => {
          while (polling) {
            const start = performance.now()
            const response = await fetch(`${base}/health`)
            await response.text()
            if (response.status === 200) healthAnswered++
            healthSlowest = Math.max(healthSlowest, performance.now() - start)
            await new Promise((resolve) => setTimeout(resolve, 20))
          }
        })()
        const watch = loopWatch()
        watch.step("change request")
        const started = performance.now()
        const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Large" } })
        yield* api.changeRequestContent.updateChangeRequestContent({
          params: { spaceId, changeRequestId: cr.id },
          payload: { changes: [{ operation: "insert_page", document: { markdown: `# Large page\n\n${largePage}` } }] }
        })
        const committed = performance.now() - started
        watch.step("merge")
        const merged = yield* api.changeRequests.mergeChangeRequest({ params: { spaceId, changeRequestId: cr.id } })
        const total = performance.now() - started
        // Its links are parsed on the first listing.
        watch.step("links")
        const links = yield* api.links.listSpaceLinks({ params: { spaceId }, query: {} })
        // And its JSON document is built on read.
        watch.step("document")
        const main = yield* api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
        const pageId = main.pages.find((page) => page.title === "Large page")!.id
        // Read raw: the typed client would decode its megabytes in this thread, which is the client's work, not the server's.
        const asDocument = yield* Effect.promise(() =>
          fetch(`${base}/v1/spaces/${spaceId}/content/page/${pageId}`, { headers: { authorization: `Bearer ${alice.token}` } })
            .then((response) => response.text())
        )
        const { held, wallMax } = watch.stop()
        polling = false
        yield* Effect.promise(() => poller)
        // Answered a batch of nodes at a time, it is still a RevisionPage as the contract encodes it.
        const asPage = Schema.decodeUnknownSync(RevisionPage)(JSON.parse(asDocument))
        const nodes = asPage.document?.nodes.length

        const page = yield* api.spaceContent.getPageById({ params: { spaceId, pageId }, query: { format: "markdown" } })
        const found = yield* api.search.searchSpaceContent({ params: { spaceId }, query: { query: "zanzibarite" } })
        const pageTitle = page.title
        const markdownKept = page.markdown === largePage
        collectGarbage()
        const after = process.memoryUsage()
        console.log(
          `[large page on ${backend.name}] ${largePage.length} bytes: change request ${committed.toFixed(0)} ms, with merge ${total.toFixed(0)} ms; ` +
            `event loop held at most ${[...held].map(([step, ms]) => `${ms.toFixed(0)} ms (${step})`).join(", ")}; ` +
            `wall-clock delay max ${wallMax.toFixed(0)} ms, slowest /health ${healthSlowest.toFixed(0)} ms (${healthAnswered} answered); ` +
            `heap after GC ${mb(before.heapUsed)} → ${mb(after.heapUsed)}, RSS ${mb(before.rss)} → ${mb(after.rss)}`
        )
        assert.strictEqual(merged.result, "merge")
        assert.strictEqual(links.stats.total, paragraphs / 100)
        assert.strictEqual(nodes, paragraphs + paragraphs / 100 + 1)
        assert.deepStrictEqual([asPage.id, asPage.title, asPage.kind, asPage.path], [pageId, "Large page", "sheet", page.path])
        assert.strictEqual(pageTitle, "Large page")
        assert.isTrue(markdownKept)
        assert.deepStrictEqual(found.items.map((item) => item.id), [pageId])
        assert.isAbove(healthAnswered, 0)
        for (const [step, ms] of held) assert.isBelow(ms, maxHeldMs, step)
        assert.isBelow(wallMax, maxWallDelayMs)
        assert.isBelow(after.heapUsed - before.heapUsed, maxHeapKeptBytes)
        assert.isBelow(after.rss - before.rss, maxRssKeptBytes)
      }), { timeout: 240_000 })
  })
}
