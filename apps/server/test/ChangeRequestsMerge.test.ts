/** Merging change requests into main and updating them from main, through the typed client, on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { everyBackend, changeRequestsOn, errorCode, memory, mergeIntoMain, spaceWith } from "./Harness.ts"

type Setup = Effect.Success<ReturnType<typeof spaceWith>>
type Client = Setup["alice"]["api"]

const insert = (markdown: string, title: string) => ({ operation: "insert_page" as const, title, document: { markdown } })

/** Helpers over one space, acting as `api`. */
const on = (api: Client, spaceId: string) => ({
  ...changeRequestsOn(api, spaceId),
  counters: () =>
    Effect.map(api.spaces.getSpaceById({ params: { spaceId }, query: {} }), (s) => [s.changeRequests, s.changeRequestsOpen, s.changeRequestsDraft])
})

const text = (intro: string, body: string, end: string) => `${intro}\n\n${body}\n\n${end}`

/** A space whose main content holds one page with `text("intro", "body", "end")`; answers its id. */
const withPage = Effect.fnUntraced(function*(setup: Setup) {
  const merged = yield* mergeIntoMain(setup.alice.api, setup.space.id, [insert(text("intro", "body", "end"), "Page")])
  assert.strictEqual(merged.result, "merge")
  const main = yield* on(setup.alice.api, setup.space.id).main()
  return main.pages[0]!.id
})

for (const backend of [memory, ...everyBackend]) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`change request merges on ${backend.name}`, (it) => {
    it.effect("a clean merge changes the space's content and marks the change request merged, counters exact", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith()
        const s = on(setup.alice.api, setup.space.id)
        const cr = yield* s.open("Docs")
        yield* s.edit(cr.id, [insert("# Guide\n\nRead me.", "Guide"), insert("Install it.", "Setup")])
        yield* setup.alice.api.changeRequests.updateChangeRequestById({ params: { spaceId: setup.space.id, changeRequestId: cr.id }, payload: { status: "open" } })
        assert.deepStrictEqual(yield* s.counters(), [1, 1, 0])

        const merged = yield* s.merge(cr.id)
        assert.deepStrictEqual(Object.keys(merged).toSorted(), ["result", "revision"])
        assert.strictEqual(merged.result, "merge")
        const main = yield* s.main()
        assert.strictEqual(main.id, merged.revision)
        assert.strictEqual(main.type, "merge")
        assert.deepStrictEqual(main.parents, [setup.space.revision, (yield* s.get(cr.id)).revision])
        assert.deepStrictEqual(main.pages.map((p) => [p.title, p.path]), [["Guide", "guide"], ["Setup", "setup"]])
        assert.strictEqual(yield* s.mainMarkdown(main.pages[1]!.id), "Install it.")

        const after = yield* s.get(cr.id)
        assert.deepStrictEqual([after.status, after.revisionMerged, after.outdated], ["merged", merged.revision, false])
        // Who merged it and when, as GitBook's change request says.
        assert.strictEqual(after.mergedBy?.id, setup.alice.user.id)
        assert.isAtMost(Math.abs(Date.parse(after.mergedAt!) - Date.parse(after.updatedAt)), 1000)
        assert.deepStrictEqual(yield* s.counters(), [1, 0, 0])
        // A merged change request is neither merged again nor updated.
        assert.strictEqual(errorCode(yield* Effect.flip(s.merge(cr.id))), 400)
        assert.strictEqual(errorCode(yield* Effect.flip(s.update(cr.id))), 400)
        assert.deepStrictEqual(yield* s.counters(), [1, 0, 0])
      }))

    it.effect("a conflicting merge answers the conflicts and loses nothing; resolving with update_page lets the next merge in", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith()
        const s = on(setup.alice.api, setup.space.id)
        const pageId = yield* withPage(setup)
        const a = yield* s.open("A")
        const b = yield* s.open("B")
        yield* s.edit(a.id, [{ operation: "update_page", page: pageId, document: { markdown: text("intro", "body (A)", "end") } }])
        yield* s.edit(b.id, [
          { operation: "update_page", page: pageId, document: { markdown: text("intro", "body (B)", "end") } },
          insert("Only in B.", "Extra")
        ])
        const first = yield* s.merge(a.id)
        assert.strictEqual(first.result, "merge")
        const bBefore = yield* s.get(b.id)
        assert.isTrue(bBefore.outdated)

        const refused = yield* s.merge(b.id)
        assert.strictEqual(refused.result, "conflicts")
        assert.strictEqual(refused.revision, first.revision)
        assert.deepStrictEqual(refused.conflicts!.map((c) => [c.pageId, c.path, c.kind]), [[pageId, "page", "content"]])
        assert.deepStrictEqual(refused.conflicts![0]!.hunks, [{ base: "body", ours: "body (A)", theirs: "body (B)" }])
        // Nothing moved: main, the change request, its status and the counters.
        assert.strictEqual((yield* s.main()).id, first.revision)
        assert.strictEqual(yield* s.mainMarkdown(pageId), text("intro", "body (A)", "end"))
        const bAfter = yield* s.get(b.id)
        assert.deepStrictEqual([bAfter.revision, bAfter.status, bAfter.revisionMergedAncestor], [bBefore.revision, "draft", bBefore.revisionMergedAncestor])
        assert.strictEqual(yield* s.crMarkdown(b.id, pageId), text("intro", "body (B)", "end"))
        // An update meets the same conflicts and leaves the change request as it was.
        const update = yield* s.update(b.id)
        assert.deepStrictEqual([update.result, update.revision, update.conflicts?.length], ["conflicts", bBefore.revision, 1])
        assert.strictEqual((yield* s.get(b.id)).revision, bBefore.revision)
        // The conflicts stay visible on the change request, in the answer's shape, and in its listing.
        assert.deepStrictEqual((yield* s.get(b.id)).conflicts, refused.conflicts)
        const listed = yield* setup.alice.api.changeRequests.listChangeRequestsForSpace({ params: { spaceId: setup.space.id }, query: { status: "draft" } })
        assert.deepStrictEqual(listed.items.find((cr) => cr.id === b.id)?.conflicts, refused.conflicts)
        assert.isUndefined(listed.items.find((cr) => cr.id === a.id)?.conflicts)

        // Resolved: B takes main's line and keeps its own point elsewhere.
        const resolved = `${text("intro", "body (A)", "end")}\n\nB's point.`
        yield* s.edit(b.id, [{ operation: "update_page", page: pageId, document: { markdown: resolved } }])
        const second = yield* s.merge(b.id)
        assert.strictEqual(second.result, "merge")
        assert.isUndefined((yield* s.get(b.id)).conflicts)
        assert.strictEqual(yield* s.mainMarkdown(pageId), resolved)
        assert.deepStrictEqual((yield* s.main()).pages.map((p) => p.title), ["Page", "Extra"])
        assert.deepStrictEqual(yield* s.counters(), [3, 0, 0])
      }))

    it.effect("an outdated change request updates cleanly: main's edits show in it and it is no longer outdated", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith()
        const s = on(setup.alice.api, setup.space.id)
        const pageId = yield* withPage(setup)
        const x = yield* s.open("X")
        const y = yield* s.open("Y")
        yield* s.edit(x.id, [{ operation: "update_page", page: pageId, document: { markdown: text("intro (X)", "body", "end") } }, insert("From X.", "X page")])
        yield* s.edit(y.id, [{ operation: "update_page", page: pageId, title: "Renamed", document: { markdown: text("intro", "body", "end (Y)") } }])
        const mergedX = yield* s.merge(x.id)
        const before = yield* s.get(y.id)
        assert.isTrue(before.outdated)

        const updated = yield* s.update(y.id)
        assert.strictEqual(updated.result, "update")
        const after = yield* s.get(y.id)
        assert.deepStrictEqual([after.outdated, after.revision, after.revisionMergedAncestor, after.status], [false, updated.revision, mergedX.revision, "draft"])
        const revision = yield* setup.alice.api.changeRequestContent.getRevisionOfChangeRequestById({
          params: { spaceId: setup.space.id, changeRequestId: y.id },
          query: {}
        })
        assert.deepStrictEqual(revision.parents, [before.revision, mergedX.revision])
        assert.deepStrictEqual(revision.pages.map((p) => p.title), ["Renamed", "X page"])
        assert.strictEqual(yield* s.crMarkdown(y.id, pageId), text("intro (X)", "body", "end (Y)"))
        // Up to date: updating again changes nothing, and main is untouched by the update.
        assert.deepStrictEqual(yield* s.update(y.id), { revision: updated.revision, result: "update" })
        assert.strictEqual((yield* s.main()).id, mergedX.revision)

        const merged = yield* s.merge(y.id)
        assert.strictEqual(merged.result, "merge")
        assert.strictEqual(yield* s.mainMarkdown(pageId), text("intro (X)", "body", "end (Y)"))
      }))

    it.effect("merging needs the merge permission (review and above) and an unlocked space", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith(["read", "edit", "review"])
        const spaceId = setup.space.id
        const s = on(setup.alice.api, spaceId)
        const cr = yield* s.open("Docs")
        yield* s.edit(cr.id, [insert("Hello.", "Hello")])
        const params = { spaceId, changeRequestId: cr.id }
        const reader = setup.members.read!.api
        assert.strictEqual(errorCode(yield* Effect.flip(reader.changeRequests.mergeChangeRequest({ params }))), 403)
        assert.strictEqual(errorCode(yield* Effect.flip(reader.changeRequests.updateChangeRequest({ params }))), 403)
        assert.strictEqual(errorCode(yield* Effect.flip(setup.members.edit!.api.changeRequests.mergeChangeRequest({ params }))), 403)
        assert.deepStrictEqual((yield* s.main()).pages, [])

        yield* setup.alice.api.spaces.updateSpaceById({ params: { spaceId }, payload: { editMode: "locked" } })
        assert.strictEqual(errorCode(yield* Effect.flip(s.merge(cr.id))), 403)
        yield* setup.alice.api.spaces.updateSpaceById({ params: { spaceId }, payload: { editMode: "live" } })

        const merged = yield* setup.members.review!.api.changeRequests.mergeChangeRequest({ params })
        assert.strictEqual(merged.result, "merge")
        assert.deepStrictEqual((yield* s.main()).pages.map((p) => p.title), ["Hello"])
      }))

    it.effect("two change requests merged at once on one space both land", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith()
        const s = on(setup.alice.api, setup.space.id)
        const pageId = yield* withPage(setup)
        const crs = yield* Effect.forEach(["One", "Two", "Three"], (name) => s.open(name))
        yield* Effect.forEach(crs, (cr, i) => s.edit(cr.id, [insert(`Page ${i}.`, `New ${i}`)]))
        yield* s.edit(crs[0]!.id, [{ operation: "update_page", page: pageId, document: { markdown: text("intro (1)", "body", "end") } }])
        yield* s.edit(crs[1]!.id, [{ operation: "update_page", page: pageId, document: { markdown: text("intro", "body", "end (2)") } }])
        const results = yield* Effect.forEach(crs, (cr) => s.merge(cr.id), { concurrency: "unbounded" })
        assert.deepStrictEqual(results.map((r) => r.result), ["merge", "merge", "merge"])
        const main = yield* s.main()
        assert.deepStrictEqual(main.pages.map((p) => p.title).toSorted(), ["New 0", "New 1", "New 2", "Page"])
        assert.strictEqual(yield* s.mainMarkdown(pageId), text("intro (1)", "body", "end (2)"))
        assert.deepStrictEqual(yield* s.counters(), [4, 0, 0])
      }))
  })
}
