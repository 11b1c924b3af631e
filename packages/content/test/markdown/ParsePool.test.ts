import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { linkCollector, links, sections, sectionSplitter } from "@quire/markdown"
import { adversarialCases } from "@quire/markdown/testing/Adversarial"
import { htmlLinks } from "../../src/markdown/Dom.ts"
import { jsonDocumentBuilder, type RefResolver, toJsonDocument } from "../../src/markdown/JsonDocument.ts"
import { forWorkers, ParsePool, workerDefinitions, workerThreshold } from "../../src/markdown/ParsePool.ts"

/**
 * A page of `paragraphs` paragraphs: headings, references across pieces, raw HTML, a list and a
 * fence; past the workers' threshold from about 1,000.
 */
const pageOf = (paragraphs: number) => [
  "Intro with [the guide][guide] and <a href=\"https://example.com/html\">html</a>.",
  ...Array.from({ length: paragraphs }, (_, i) =>
    i % 200 === 0
      ? `## Part ${i % 400 === 0 ? "A" : "B"}\n\n- item [${i}](https://example.com/${i})\n- item two\n\n> ### Quoted\n\n\`\`\`\n# not a heading ${i}\n\`\`\``
      : `Paragraph ${i} with *some* words and ![an image](/files/f${i % 7}).`),
  "[guide]: https://example.com/guide\n[unused]: https://example.com/unused"
].join("\n\n")

/** Just past the workers' threshold: a few pieces, each Part heading twice in different ones. */
const page = pageOf(1_200)

/** A page whose parse on the main thread takes hundreds of ms of CPU, which no budget could miss. */
const heavyPage = pageOf(3_000)

/**
 * Pages under the workers' size threshold with more definitions than `workerDefinitions`: the
 * attack's page of definitions and references, and pages whose pieces use definitions of other
 * pieces among headings, lists, quotes, fences, tables, footnotes, raw HTML and bare URLs.
 */
const definitionPages = [
  ...[4 * 1024, 16 * 1024].map((size) => adversarialCases(size).find((c) => c.name === "definitions")!.markdown),
  ...[240, 400].map((count) =>
    Array.from({ length: count }, (_, i) =>
      [
        `## Part ${i % 3}\n\nSee [the guide][g${(i * 7) % count}], ![an image][g${i}] and [g${(i + 1) % count}][] at www.example.com/${i}.`,
        `- item [${i}](https://example.com/${i})\n- [g${i}] with a footnote[^f${i}]\n\n[^f${i}]: A note.`,
        `> Quoted [g${(i * 3) % count}]\n> ### Heading ${i}`,
        `\`\`\`\n[g${i}]: not a definition\n\`\`\``,
        `| [g${i}] | <a href="https://example.com/html/${i}">html</a> |\n| - | - |\n| b | c |`,
        `[g${i}]: https://example.com/def/${i} "Title ${i}"\n   [G${i}-two]:   /relative/${i}`
      ][i % 6]).join("\n\n"))
]

/** `self`'s result and the CPU time this thread spent on it, in ms. */
const cpu = <A>(self: Effect.Effect<A>) =>
  Effect.gen(function*() {
    const thread = process.threadCpuUsage()
    const result = yield* self
    const used = process.threadCpuUsage(thread)
    return [result, (used.user + used.system) / 1000] as const
  })

/** A pool of one worker, open until `scope` closes. */
const open = (scope: Scope.Scope) => Effect.map(Layer.buildWithScope(ParsePool.layerWith({ workers: 1 }), scope), Context.get(ParsePool))

describe("ParsePool", () => {
  it.effect("digests a large page in the parse workers, warmed beforehand, as the main thread parses it", () =>
    Effect.gen(function*() {
      assert.isAbove(page.length, workerThreshold)
      const pool = yield* ParsePool
      yield* pool.warmUp
      assert.isAbove((yield* pool.state).workers, 0)
      const splitter = sectionSplitter("Page")
      for (const items of yield* pool.digestPieces(page, "sections")) splitter.addItems(items)
      const state = yield* pool.state
      assert.strictEqual(state.failures, 0)
      assert.isAbove(state.workers, 0)
      assert.deepStrictEqual(splitter.done(), sections(page, "Page"))
      const collector = linkCollector()
      for (const found of yield* pool.digestPieces(page, "links")) collector.addLinks(found)
      const all = collector.done()
      assert.deepStrictEqual(all, links(page, htmlLinks))
      assert.deepStrictEqual(all.filter((link) => /guide|unused|html/.test(link.url)).map((link) => link.url), [
        "https://example.com/guide",
        "https://example.com/html",
        "https://example.com/unused"
      ])
      // The JSON document: links and images resolved, repeated headings numbered across the workers' pieces.
      const refs: RefResolver = (url, kind) => kind === "image" ? { kind: "file", file: url.slice("/files/".length) } : { kind: "url", url: `resolved:${url}` }
      const builder = jsonDocumentBuilder(refs)
      for (const blocks of yield* pool.digestPieces(page, "blocks")) builder.addPieceBlocks(blocks)
      const document = builder.done()
      assert.deepStrictEqual(document, toJsonDocument(page, refs))
      const ids = document.nodes.flatMap((node) => node.type.startsWith("heading-") ? [node.meta?.id] : [])
      assert.deepStrictEqual(ids.slice(0, 4), ["part-a", "part-b", "part-a-1", "part-b-1"])
    }).pipe(Effect.provide(ParsePool.layer)))

  it.effect("digests a page of many definitions in the workers whatever its size, as the main thread digests it", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const pool = yield* open(scope)
      yield* pool.warmUp
      const main = yield* Effect.map(Layer.buildWithScope(ParsePool.layerMainThread, scope), Context.get(ParsePool))
      // Over all the pages: the smallest parses in a few ms, where a message's copy is not negligible.
      let [inWorkersMs, hereMs] = [0, 0]
      for (const markdown of definitionPages) {
        assert.isBelow(markdown.length, workerThreshold)
        assert.isTrue(forWorkers(markdown))
        for (const kind of ["sections", "links", "blocks"] as const) {
          const [inWorkers, workersCpu] = yield* cpu(pool.digestPieces(markdown, kind))
          const [here, hereCpu] = yield* cpu(main.digestPieces(markdown, kind))
          assert.deepStrictEqual(inWorkers, here, `${kind} of a page of ${markdown.length} characters`)
          inWorkersMs += workersCpu
          hereMs += hereCpu
        }
      }
      // The main thread only cut the pages and waited for the worker's digests.
      assert.isBelow(inWorkersMs, hereMs / 3)
      assert.deepStrictEqual(yield* pool.state, { workers: 1, failures: 0 })
      // A page of a few definitions is parsed here, as a small page is.
      assert.isFalse(forWorkers(Array.from({ length: workerDefinitions }, (_, i) => `[d${i}]: /u${i}`).join("\n")))
      yield* Scope.close(scope, Exit.void)
    }), 180_000)

  it.effect("each layer has workers of its own, terminated when its scope closes; a closed pool parses on the main thread", () =>
    Effect.gen(function*() {
      const firstScope = yield* Scope.make()
      const secondScope = yield* Scope.make()
      const first = yield* open(firstScope)
      const second = yield* open(secondScope)
      yield* first.warmUp
      assert.strictEqual((yield* first.state).workers, 1)
      assert.strictEqual((yield* second.state).workers, 0)
      yield* Scope.close(firstScope, Exit.void)
      assert.deepStrictEqual(yield* first.state, { workers: 0, failures: 0 })
      const splitter = sectionSplitter("Page")
      for (const items of yield* first.digestPieces(page, "sections")) splitter.addItems(items)
      assert.deepStrictEqual(splitter.done(), sections(page, "Page"))
      assert.strictEqual((yield* first.state).workers, 0)
      yield* Scope.close(secondScope, Exit.void)
    }))

  it.effect("a worker's task budget starts once the worker has loaded its code, however long that took", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      // Loading takes 12 s, over the 10 s budget; the page's tasks take a fraction of it, even on a
      // machine loaded enough to stretch a quiet 100 ms parse past 4 s.
      const options = { workers: 1, taskMillis: 10_000, workerUrl: new URL("./fixtures/SlowStartWorker.ts", import.meta.url) }
      const pool = yield* Effect.map(Layer.buildWithScope(ParsePool.layerWith(options), scope), Context.get(ParsePool))
      const small = page.slice(0, workerThreshold + 1_000)
      const splitter = sectionSplitter("Page")
      for (const items of yield* pool.digestPieces(small, "sections")) splitter.addItems(items)
      assert.deepStrictEqual(splitter.done(), sections(small, "Page"))
      assert.deepStrictEqual(yield* pool.state, { workers: 1, failures: 0 })
      yield* Scope.close(scope, Exit.void)
    }), 90_000)

  it.effect("a task over the worker's time budget terminates the worker, and its page is digested as plain text, not parsed on the main thread", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      // A budget no task meets: every task of the page passes it.
      const pool = yield* Effect.map(Layer.buildWithScope(ParsePool.layerWith({ workers: 1, taskMillis: 1 }), scope), Context.get(ParsePool))
      const thread = process.threadCpuUsage()
      const digests = yield* pool.digestPieces(heavyPage, "sections")
      const used = process.threadCpuUsage(thread)
      // Plain text: the pieces' words as they are, markdown syntax included.
      const text = digests.flat().map((item) => "text" in item ? item.text : "").join("")
      assert.strictEqual(text, heavyPage.slice(0, text.length))
      assert.include(text, "## Part A")
      const blocks = (yield* pool.digestPieces(heavyPage, "blocks")).flat()
      assert.include(JSON.stringify(blocks[0]), "the time or memory budget of a parse")
      // Every piece of this page needs a parse for its links (references), so each is a task over the
      // budget: a page whose only such piece is one short paragraph could be parsed within it.
      const referencesPage = heavyPage.replaceAll("![an image](/files/f", "[the guide][guide] and ![an image](/files/f")
      assert.deepStrictEqual((yield* pool.digestPieces(referencesPage, "links")).flatMap((piece) => piece.found), [])
      // The worker over budget was terminated, not counted as one that failed to start.
      assert.strictEqual((yield* pool.state).failures, 0)
      // The main thread never parsed the page (a parse of it takes hundreds of ms of CPU).
      assert.isBelow((used.user + used.system) / 1000, 150)
      yield* Scope.close(scope, Exit.void)
    }))
})
