/** The behaviour every SearchIndex adapter must have. Words are chosen so that stemming leaves them alone. */
import { assert, describe } from "@effect/vitest"
import { Effect } from "effect"
import { type IndexedPage, SearchIndex, type SearchQuery } from "../../src/SearchIndex.ts"
import type { ReposTest } from "./Fixtures.ts"

const page = (pageId: string, title: string, sections: ReadonlyArray<readonly [string, string, string]>, path = pageId): IndexedPage => ({
  pageId,
  title,
  path,
  sections: sections.map(([id, sectionTitle, body]) => ({ id, title: sectionTitle, body }))
})

const query = (spaceIds: ReadonlyArray<string>, text: string, overrides: Partial<SearchQuery> = {}): SearchQuery => ({
  spaceIds,
  query: text,
  offset: 0,
  limit: 20,
  sectionsPerPage: 3,
  ...overrides
})

const ids = (pages: ReadonlyArray<{ readonly pageId: string }>) => pages.map((p) => p.pageId)

export const searchIndexContract = (it: ReposTest) =>
  describe("SearchIndex", () => {
    it.effect("finds a page by a word of a section's body, with that section, and only in the spaces asked", () =>
      Effect.gen(function*() {
        const index = yield* SearchIndex
        yield* index.update("si-1", [
          page("p1", "Getting started", [
            ["", "Getting started", "Welcome to the handbook."],
            ["feeding", "Feeding", "Give the quokka fresh leaves every morning."]
          ], "start"),
          page("p2", "Other", [["", "Other", "Nothing about animals here."]])
        ], [])
        yield* index.update("si-1-other", [page("p1", "Elsewhere", [["", "Elsewhere", "Another quokka lives here."]])], [])

        const found = yield* index.search(query(["si-1"], "quokka"))
        assert.isFalse(found.more)
        assert.deepStrictEqual(found.pages.map((p) => [p.spaceId, p.pageId, p.title, p.path]), [["si-1", "p1", "Getting started", "start"]])
        const [hit] = found.pages
        assert.deepStrictEqual(hit?.sections.map((s) => [s.id, s.title, s.body]), [["feeding", "Feeding", "Give the quokka fresh leaves every morning."]])
        assert.isAbove(hit!.score, 0)

        const both = yield* index.search(query(["si-1", "si-1-other"], "QUOKKA"))
        assert.deepStrictEqual(both.pages.map((p) => p.spaceId).toSorted(), ["si-1", "si-1-other"])
        assert.deepStrictEqual((yield* index.search(query([], "quokka"))).pages, [])
        assert.deepStrictEqual((yield* index.search(query(["si-1"], "wombat"))).pages, [])
      }))

    it.effect("ranks a match in the page title above a heading above body text, and needs every word", () =>
      Effect.gen(function*() {
        const index = yield* SearchIndex
        yield* index.update("si-2", [
          page("body", "Alpha", [["", "Alpha", "The kraken appears in the body only."]]),
          page("heading", "Beta", [["kraken-facts", "Kraken facts", "Sea stories."]]),
          page("title", "Kraken", [["", "Kraken", "Stories of the sea."]])
        ], [])
        const found = yield* index.search(query(["si-2"], "kraken"))
        assert.deepStrictEqual(ids(found.pages), ["title", "heading", "body"])
        assert.isAbove(found.pages[0]!.score, found.pages[1]!.score)
        assert.isAbove(found.pages[1]!.score, found.pages[2]!.score)

        // Every word must appear in a section (the page title counts in each of them).
        assert.deepStrictEqual(ids((yield* index.search(query(["si-2"], "kraken sea"))).pages).toSorted(), ["heading", "title"])
        assert.deepStrictEqual(ids((yield* index.search(query(["si-2"], "kraken -sea"))).pages), ["body"])
        assert.deepStrictEqual(ids((yield* index.search(query(["si-2"], "alpha or beta"))).pages).toSorted(), ["body", "heading"])
      }))

    it.effect("replaces a page's sections on update, and forgets removed pages", () =>
      Effect.gen(function*() {
        const index = yield* SearchIndex
        yield* index.update("si-3", [
          page("a", "Page A", [["", "Page A", "The walrus sleeps."], ["x", "Extra", "The walrus eats."]]),
          page("b", "Page B", [["", "Page B", "The walrus swims."]])
        ], [])
        assert.deepStrictEqual(ids((yield* index.search(query(["si-3"], "walrus"))).pages).toSorted(), ["a", "b"])
        yield* index.update("si-3", [page("a", "Page A", [["", "Page A", "The narwhal sleeps."]])], ["b"])
        assert.deepStrictEqual((yield* index.search(query(["si-3"], "walrus"))).pages, [])
        const narwhal = yield* index.search(query(["si-3"], "narwhal"))
        assert.deepStrictEqual(narwhal.pages.map((p) => [p.pageId, p.sections.length]), [["a", 1]])
      }))

    it.effect("pages through results in a stable order, without gaps or repeats, and caps the sections per page", () =>
      Effect.gen(function*() {
        const index = yield* SearchIndex
        const pages = Array.from({ length: 7 }, (_, i) =>
          page(`p${i}`, `Page ${i}`, [
            ["", `Page ${i}`, "The ibex climbs."],
            ["one", "One", "The ibex rests."],
            ["two", "Two", "The ibex eats."],
            ["three", "Three", "The ibex runs."]
          ]))
        yield* index.update("si-4", pages, [])
        const seen: Array<string> = []
        let offset = 0
        for (;;) {
          const found = yield* index.search(query(["si-4"], "ibex", { offset, limit: 3, sectionsPerPage: 2 }))
          for (const hit of found.pages) assert.strictEqual(hit.sections.length, 2)
          seen.push(...ids(found.pages))
          offset += 3
          if (!found.more) break
          assert.isBelow(offset, 30)
        }
        assert.strictEqual(seen.length, 7)
        assert.deepStrictEqual(seen.toSorted(), pages.map((p) => p.pageId))
      }))

    it.effect("answers a word in more sections than are ranked with its title matches first, and pages through them without repeats", () =>
      Effect.gen(function*() {
        const index = yield* SearchIndex
        // More body matches than the Postgres adapter ranks (1,000), written before the title match.
        yield* index.update("si-frequent", Array.from({ length: 1_200 }, (_, i) =>
          page(`p${String(i).padStart(4, "0")}`, `Page ${i}`, [
            ["", `Page ${i}`, `The heron of page ${i}.`],
            ["more", "More", "Nothing else."]
          ])), [])
        yield* index.update("si-frequent", [
          page("title", "Heron", [["", "Heron", "All about it."]]),
          page("heading", "Birds", [["", "Birds", "Wading birds."], ["the-heron", "The heron", "Long legs."]])
        ], [])
        const first = yield* index.search(query(["si-frequent"], "heron", { limit: 20 }))
        assert.strictEqual(first.pages[0]?.pageId, "title")
        assert.isTrue(first.more)
        assert.isAbove(first.pages[0]!.score, first.pages[1]!.score)
        const seen = new Set<string>()
        for (let offset = 0; offset < 100; offset += 20) {
          const found = yield* index.search(query(["si-frequent"], "heron", { offset, limit: 20 }))
          assert.strictEqual(found.pages.length, 20)
          for (const hit of found.pages) {
            assert.isFalse(seen.has(hit.pageId), hit.pageId)
            seen.add(hit.pageId)
            assert.deepStrictEqual(hit.sections.map((s) => s.id), hit.pageId === "heading" ? ["the-heron"] : [""])
          }
        }
        // The same words answer the same pages, request after request.
        const again = yield* index.search(query(["si-frequent"], "heron", { offset: 40, limit: 20 }))
        assert.deepStrictEqual(ids(again.pages), ids((yield* index.search(query(["si-frequent"], "heron", { offset: 40, limit: 20 }))).pages))
        // A duplicate ranks the title match first too; once it is retitled, it no longer is one.
        yield* index.copySpace("si-frequent", "si-frequent-copy")
        assert.strictEqual((yield* index.search(query(["si-frequent-copy"], "heron", { limit: 20 }))).pages[0]?.pageId, "title")
        yield* index.update("si-frequent-copy", [page("title", "Egret", [["", "Egret", "All about it."]])], [])
        assert.notInclude(ids((yield* index.search(query(["si-frequent-copy"], "heron", { limit: 100 }))).pages), "title")
        yield* index.removeSpace("si-frequent")
        assert.deepStrictEqual((yield* index.search(query(["si-frequent"], "heron"))).pages, [])
      }))

    it.effect("copies a space's entries and removes a space's entries", () =>
      Effect.gen(function*() {
        const index = yield* SearchIndex
        yield* index.update("si-5", [page("a", "Gecko", [["", "Gecko", "Small lizard."]])], [])
        yield* index.copySpace("si-5", "si-5-copy")
        assert.deepStrictEqual((yield* index.search(query(["si-5-copy"], "gecko"))).pages.map((p) => [p.spaceId, p.pageId]), [["si-5-copy", "a"]])
        yield* index.removeSpace("si-5")
        assert.deepStrictEqual((yield* index.search(query(["si-5"], "gecko"))).pages, [])
        assert.strictEqual((yield* index.search(query(["si-5-copy"], "gecko"))).pages.length, 1)
      }))

    it.effect("as the user types, takes the last word as the start of a word", () =>
      Effect.gen(function*() {
        const index = yield* SearchIndex
        yield* index.update("si-prefix", [
          page("conf", "Setup", [["", "Setup", "The configuration of the walrus server."]]),
          page("other", "Other", [["", "Other", "The walrus swims."]])
        ], [])
        const typed = (text: string) => index.search(query(["si-prefix"], text, { prefix: true })).pipe(Effect.map((found) => ids(found.pages)))
        assert.deepStrictEqual(ids((yield* index.search(query(["si-prefix"], "config"))).pages), [])
        assert.deepStrictEqual(yield* typed("config"), ["conf"])
        assert.deepStrictEqual(yield* typed("walrus config"), ["conf"])
        assert.deepStrictEqual(yield* typed("walrus conf!"), ["conf"])
        assert.deepStrictEqual((yield* typed("walr")).toSorted(), ["conf", "other"])
        assert.deepStrictEqual(yield* typed("swims walr"), ["other"])
        assert.deepStrictEqual(yield* typed("zebra config"), [])
        assert.deepStrictEqual(yield* typed("walrus -swims"), ["conf"])
        assert.deepStrictEqual(yield* typed("config:* | &"), [])
        assert.deepStrictEqual((yield* typed("walrus ")).toSorted(), ["conf", "other"])
      }))

    it.effect("accepts any input as a query", () =>
      Effect.gen(function*() {
        const index = yield* SearchIndex
        yield* index.update("si-6", [page("a", "Tapir", [["", "Tapir", "A tapir: (odd) & toed!"]])], [])
        for (const text of ["\"tapir", "tapir & | ! ( ) : *", "-", "or", "'; DROP TABLE x; --", "   ", "<tapir>"]) {
          const found = yield* index.search(query(["si-6"], text))
          assert.isArray(found.pages, text)
        }
        assert.deepStrictEqual(ids((yield* index.search(query(["si-6"], "(tapir)"))).pages), ["a"])
      }))
  })
