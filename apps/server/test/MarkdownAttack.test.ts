/**
 * Hostile markdown through the HTTP server (issue 34, finding 3): pages that nest every construct
 * markdown has (brackets, links, emphasis, lists, quotes, GitBook blocks, HTML, tables, reference
 * definitions) are written into a change request while a probe calls `/health` every few ms.
 * Each write answers 400 naming the limit it passes, or succeeds; `/health` keeps answering.
 * A page stored over a limit before the limits (put into storage directly) reads back as plain
 * text with a note. The precise `/health` p99 is `pnpm bench --markdown-attack`'s.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Option, Result } from "effect"
import { SqlClient } from "effect/sql"
import { documentHash } from "@quire/content"
import { adversarialCases, nestedBrackets, nestedHints, nestedList, nestedQuotes } from "@quire/markdown/testing/Adversarial"
import { backends, baseUrl, changeRequestsOn, errorCode, errorMessage, spaceWith } from "./Harness.ts"

/**
 * The slowest `/health` may answer during the attack (a server that parsed on its event loop took
 * seconds to a minute). Loose: on a loaded CI machine the wall clock also counts the time the OS
 * gave other processes, and a full run has stretched a gap past three seconds; `maxHeldMs` below
 * is the strict check, whatever the load.
 */
const maxHealthGapMs = 15_000
/**
 * The longest the main thread may spend on the CPU between two turns of a 5 ms timer (as
 * LargePage.test.ts measures it): what the server itself holds the event loop, whatever the load.
 */
const maxHeldMs = 250

/** The pages of the attack: every construct at about 64 KB, and the cases of the issue. */
const attack = [
  ...adversarialCases(64 * 1024),
  { name: "issue: 32 KB of brackets", markdown: nestedBrackets(16 * 1024) },
  { name: "issue: a 600-level list", markdown: nestedList(600) },
  { name: "issue: 3,000 nested hints", markdown: nestedHints(3_000) },
  { name: "issue: a 20,000-level quote", markdown: nestedQuotes(20_000) }
]

/**
 * Calls `/health` every 2 ms until stopped; answers the longest wait for an answer, how many were
 * answered, and the longest main-thread CPU time between two turns of a 5 ms timer.
 */
const healthProbe = (base: string) => {
  const state = { running: true }
  let held = 0
  let last = process.threadCpuUsage()
  const ticker = setInterval(() => {
    const now = process.threadCpuUsage()
    held = Math.max(held, (now.user - last.user + now.system - last.system) / 1000)
    last = now
  }, 5)
  let slowest = 0
  let recent = 0
  let answered = 0
  let failed = 0
  const done = (async () => {
    while (state.running) {
      const start = performance.now()
      const response = await fetch(`${base}/health`)
      await response.text()
      if (response.status === 200) answered++
      else failed++
      slowest = Math.max(slowest, performance.now() - start)
      recent = Math.max(recent, performance.now() - start)
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
  })()
  return {
    /** The slowest answer since the last call. */
    recent: () => {
      const answer = recent
      recent = 0
      return answer
    },
    stop: async () => {
      state.running = false
      clearInterval(ticker)
      await done
      return { slowest, answered, failed, held }
    }
  }
}

for (const backend of backends) {
  layer(backend.layer, { timeout: 300_000, excludeTestServices: true })(`hostile markdown on ${backend.name}`, (it) => {
    it.effect("each hostile page is refused with a 400 naming its limit, or saved, while /health keeps answering", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const s = changeRequestsOn(alice.api, space.id)
        const cr = yield* s.open("Hostile")
        const probe = healthProbe(yield* baseUrl)
        const outcomes: Array<string> = []
        for (const { markdown, name } of attack) {
          const answer = yield* Effect.result(s.edit(cr.id, [{ operation: "insert_page", title: name, document: { markdown } }]))
          const gap = `, /health ${probe.recent().toFixed(0)} ms`
          if (Result.isSuccess(answer)) {
            outcomes.push(`${name}: saved${gap}`)
            continue
          }
          const failure = answer.failure
          assert.strictEqual(errorCode(failure), 400, `${name}: ${JSON.stringify(failure)}`)
          assert.match(errorMessage(failure), /the markdown [\w-]+ limit \(at most \d+; line \d+ reaches \d+\)/, name)
          outcomes.push(`${name}: ${errorMessage(failure).replace(/.*the markdown /, "")}${gap}`)
        }
        const health = yield* Effect.promise(probe.stop)
        console.log(
          `[hostile markdown on ${backend.name}] slowest /health ${health.slowest.toFixed(0)} ms (${health.answered} answered), ` +
            `event loop held at most ${health.held.toFixed(0)} ms; ${outcomes.join("; ")}`
        )
        // The cases of the issue are refused, by the limit of their construct.
        const refusedBy = (name: string) => outcomes.find((outcome) => outcome.startsWith(`${name}:`))
        assert.include(refusedBy("issue: 32 KB of brackets"), "bracket-nesting limit")
        assert.include(refusedBy("issue: a 600-level list"), "list-and-quote-nesting limit")
        assert.include(refusedBy("issue: 3,000 nested hints"), "GitBook-block-nesting limit")
        assert.include(refusedBy("issue: a 20,000-level quote"), "list-and-quote-nesting limit")
        assert.strictEqual(health.failed, 0)
        assert.isAbove(health.answered, 0)
        assert.isBelow(health.slowest, maxHealthGapMs)
        assert.isBelow(health.held, maxHeldMs)
        // An ordinary page still saves in the same change request.
        const fine = yield* s.edit(cr.id, [{ operation: "insert_page", title: "Fine", document: { markdown: "# Fine\n\n[a [b] c](u) *d* > e\n" } }])
        assert.isString(fine.revision)
      }))

    it.effect("a comment nested past a markdown limit is refused with a 400 naming the limit", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const refused = yield* Effect.flip(
          alice.api.comments.postCommentInSpace({ params: { spaceId: space.id }, payload: { body: { markdown: nestedBrackets(20_000) } } })
        )
        assert.strictEqual(errorCode(refused), 400)
        assert.include(errorMessage(refused), "bracket-nesting limit")
        const fine = yield* alice.api.comments.postCommentInSpace({ params: { spaceId: space.id }, payload: { body: { markdown: "[a [b]](u)" } } })
        assert.isString(fine.id)
      }))

    if (backend.name !== "memory") {
      it.effect("a page stored over a limit reads back as plain text with a note, as HTML and as a document", () =>
        Effect.gen(function*() {
          const { alice, space } = yield* spaceWith()
          const s = changeRequestsOn(alice.api, space.id)
          const cr = yield* s.open("Seed")
          const ordinary = "Ordinary words.\n"
          yield* s.edit(cr.id, [{ operation: "insert_page", title: "Old", document: { markdown: ordinary } }])
          yield* s.merge(cr.id)
          // As a page written before the limits existed: its document replaced in storage.
          const hostile = `${nestedBrackets(16 * 1024)}\n\n${nestedQuotes(20_000)}\n`
          // The SQL backends' layers hold the server's SqlClient (the memory backend has none: the test runs on those two).
          const sql = Option.getOrThrow(yield* Effect.serviceOption(SqlClient.SqlClient))
          yield* sql`UPDATE content_documents SET markdown = ${hostile} WHERE hash = ${documentHash(ordinary)}`
          const main = yield* s.main()
          const pageId = main.pages.find((page) => page.title === "Old")!.id
          const probe = healthProbe(yield* baseUrl)
          const params = { spaceId: space.id, pageId }
          const html = yield* alice.api.spaceContent.getPageById({ params, query: { format: "html" } })
          const document = yield* alice.api.spaceContent.getPageById({ params, query: {} })
          const markdown = yield* alice.api.spaceContent.getPageById({ params, query: { format: "markdown" } })
          const health = yield* Effect.promise(probe.stop)
          assert.include(html.html, "This page is shown as plain text")
          assert.include(html.html, "bracket-nesting limit")
          assert.include(html.html, "[[[[x]]]]")
          const nodes = JSON.stringify(document.document)
          assert.include(nodes, "This page is shown as plain text")
          assert.include(nodes, "\"code\"")
          assert.strictEqual(markdown.markdown, hostile)
          assert.isBelow(health.slowest, maxHealthGapMs)
          assert.isBelow(health.held, maxHeldMs)
        }))
    }
  })
}
