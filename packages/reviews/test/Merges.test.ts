/**
 * Merges and conflicts over the memory adapters: a clean merge, a conflicting one that moves
 * nothing, updating an outdated change request from main, who may merge, concurrent merges, and
 * the resolution of conflicts (each side, new markdown, bad choices, stale conflicts).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { as, errorMessage, errorTag } from "@quire/testkit"
import { SpaceContent, Spaces } from "@quire/content"
import { ChangeRequests, type ChangeInput } from "../src/ChangeRequests.ts"
import { type ConflictChoice, ConflictResolution } from "../src/ConflictResolution.ts"
import { Merges } from "../src/Merges.ts"
import { counters, crMarkdown, insert, layer, mainMarkdown, mergeIntoMain, newChangeRequest, newSpace, spaceWithPage, text } from "./UseCases.ts"

const rewrite = (page: string, markdown: string): ChangeInput => ({ operation: "update_page", page, markdown })

const edit = (spaceId: string, ref: string, changes: ReadonlyArray<ChangeInput>) =>
  Effect.flatMap(Effect.service(ChangeRequests), (s) => s.updateContent(spaceId, ref, changes)).pipe(as("alice"))
const merge = (spaceId: string, ref: string, user = "alice") => Effect.flatMap(Effect.service(Merges), (m) => m.merge(spaceId, ref)).pipe(as(user))
const update = (spaceId: string, ref: string, user = "alice") => Effect.flatMap(Effect.service(Merges), (m) => m.update(spaceId, ref)).pipe(as(user))
const get = (spaceId: string, ref: string) =>
  Effect.map(Effect.flatMap(Effect.service(ChangeRequests), (s) => s.get(spaceId, ref)).pipe(as("alice")), (v) => ({ ...v.changeRequest, outdated: v.outdated }))
const main = (spaceId: string) => Effect.map(Effect.flatMap(Effect.service(SpaceContent), (c) => c.revision(spaceId)).pipe(as("alice")), (c) => c.revision)
const crRevision = (spaceId: string, ref: string) =>
  Effect.map(Effect.flatMap(Effect.service(ChangeRequests), (s) => s.content(spaceId, ref)).pipe(as("alice")), (c) => c.revision)
const resolve = (spaceId: string, ref: string, choices: ReadonlyArray<ConflictChoice>, user = "alice") =>
  Effect.flatMap(Effect.service(ConflictResolution), (r) => r.resolve(spaceId, ref, choices)).pipe(as(user))
const conflicts = (spaceId: string, ref: string, user = "alice") =>
  Effect.flatMap(Effect.service(ConflictResolution), (r) => r.list(spaceId, ref)).pipe(as(user))

/** A space whose main content is `pages` (title, markdown), and their ids in order. */
const seeded = (pages: ReadonlyArray<readonly [string, string]>) =>
  Effect.gen(function*() {
    const space = yield* newSpace()
    yield* mergeIntoMain(space.id, pages.map(([title, markdown]) => insert(markdown, title)))
    return { spaceId: space.id, ids: (yield* main(space.id)).pages.map((p) => p.id) }
  })

/** Two change requests opened on main's current content, A edited with `a` and merged, B edited with `b`. */
const diverge = (spaceId: string, a: ReadonlyArray<ChangeInput>, b: ReadonlyArray<ChangeInput>) =>
  Effect.gen(function*() {
    const crA = yield* newChangeRequest(spaceId, "A")
    const crB = yield* newChangeRequest(spaceId, "B")
    yield* edit(spaceId, crA.id, a)
    yield* edit(spaceId, crB.id, b)
    const merged = yield* merge(spaceId, crA.id)
    assert.strictEqual(merged.result, "merge")
    return { a: crA, b: crB, main: merged.revision }
  })

it.layer(layer, { timeout: "60 seconds" })("Merges", (it) => {
  describe("merging and updating", () => {
    it.effect("a clean merge changes main and marks the change request merged, counters exact; merged is final", () =>
      Effect.gen(function*() {
        const changeRequests = yield* ChangeRequests
        const space = yield* newSpace()
        const cr = yield* newChangeRequest(space.id, "Docs")
        yield* edit(space.id, cr.id, [insert("# Guide\n\nRead me.", "Guide"), insert("Install it.", "Setup")])
        yield* changeRequests.update(space.id, cr.id, { status: "open" }).pipe(as("alice"))
        assert.deepStrictEqual(yield* counters(space.id), [1, 1, 0, 0])
        const head = (yield* get(space.id, cr.id)).revision

        const merged = yield* merge(space.id, cr.id)
        assert.strictEqual(merged.result, "merge")
        const after = yield* main(space.id)
        assert.deepStrictEqual([after.id, after.type, after.parents], [merged.revision, "merge", [space.revisionId, head]])
        assert.deepStrictEqual(after.pages.map((p) => [p.title, p.slug]), [["Guide", "guide"], ["Setup", "setup"]])
        assert.strictEqual(yield* mainMarkdown(space.id, after.pages[1]!.id), "Install it.")
        const cr2 = yield* get(space.id, cr.id)
        assert.deepStrictEqual([cr2.status, cr2.revisionMerged, cr2.outdated], ["merged", merged.revision, false])
        assert.strictEqual(Option.getOrThrow(yield* changeRequests.mergedInto(space.id, merged.revision).pipe(as("alice"))).changeRequest.id, cr.id)
        assert.deepStrictEqual(yield* counters(space.id), [1, 0, 0, 0])
        assert.strictEqual(yield* errorTag(merge(space.id, cr.id)), "InvalidInput")
        assert.strictEqual(yield* errorTag(update(space.id, cr.id)), "InvalidInput")
        assert.deepStrictEqual(yield* counters(space.id), [1, 0, 0, 0])
      }))

    it.effect("a conflicting merge answers the conflicts and moves nothing; an update meets the same ones", () =>
      Effect.gen(function*() {
        const { space, pageId } = yield* spaceWithPage()
        const { b, main: first } = yield* diverge(
          space.id,
          [rewrite(pageId, text("intro", "body (A)", "end"))],
          [rewrite(pageId, text("intro", "body (B)", "end")), insert("Only in B.", "Extra")]
        )
        const before = yield* get(space.id, b.id)
        assert.isTrue(before.outdated)
        const refused = yield* merge(space.id, b.id)
        assert.strictEqual(refused.result, "conflicts")
        assert.strictEqual(refused.revision, first)
        const found = refused.result === "conflicts" ? refused.conflicts : []
        assert.deepStrictEqual(found.map((c) => [c.pageId, c.path, c.kind]), [[pageId, "page", "content"]])
        assert.deepStrictEqual(found[0]!.hunks, [{ base: "body", ours: "body (A)", theirs: "body (B)" }])
        assert.strictEqual((yield* main(space.id)).id, first)
        assert.strictEqual(yield* mainMarkdown(space.id, pageId), text("intro", "body (A)", "end"))
        const after = yield* get(space.id, b.id)
        assert.deepStrictEqual([after.revision, after.status, after.revisionMergedAncestor], [before.revision, "draft", before.revisionMergedAncestor])
        assert.deepStrictEqual(after.conflicts, found)
        assert.strictEqual(yield* crMarkdown(space.id, b.id, pageId), text("intro", "body (B)", "end"))
        const updated = yield* update(space.id, b.id)
        assert.deepStrictEqual([updated.result, updated.revision], ["conflicts", before.revision])

        // Editing the change request clears the conflicts it had; then the merge goes in.
        const resolved = `${text("intro", "body (A)", "end")}\n\nB's point.`
        yield* edit(space.id, b.id, [rewrite(pageId, resolved)])
        assert.isNull((yield* get(space.id, b.id)).conflicts)
        assert.strictEqual((yield* merge(space.id, b.id)).result, "merge")
        assert.strictEqual(yield* mainMarkdown(space.id, pageId), resolved)
        assert.deepStrictEqual((yield* main(space.id)).pages.map((p) => p.title), ["Page", "Extra"])
      }))

    it.effect("an outdated change request updates cleanly: main's edits show in it, it is up to date, main is untouched", () =>
      Effect.gen(function*() {
        const { space, pageId } = yield* spaceWithPage()
        const x = yield* newChangeRequest(space.id, "X")
        const y = yield* newChangeRequest(space.id, "Y")
        yield* edit(space.id, x.id, [rewrite(pageId, text("intro (X)", "body", "end")), insert("From X.", "X page")])
        yield* edit(space.id, y.id, [{ operation: "update_page", page: pageId, title: "Renamed", markdown: text("intro", "body", "end (Y)") }])
        const mergedX = yield* merge(space.id, x.id)
        const before = yield* get(space.id, y.id)
        assert.isTrue(before.outdated)

        const updated = yield* update(space.id, y.id)
        assert.strictEqual(updated.result, "update")
        const after = yield* get(space.id, y.id)
        assert.deepStrictEqual([after.outdated, after.revision, after.revisionMergedAncestor, after.status], [false, updated.revision, mergedX.revision, "draft"])
        const revision = yield* crRevision(space.id, y.id)
        assert.deepStrictEqual(revision.parents, [before.revision, mergedX.revision])
        assert.deepStrictEqual(revision.pages.map((p) => p.title), ["Renamed", "X page"])
        assert.strictEqual(yield* crMarkdown(space.id, y.id, pageId), text("intro (X)", "body", "end (Y)"))
        const again = yield* update(space.id, y.id)
        assert.deepStrictEqual([again.result, again.revision], ["update", updated.revision])
        assert.strictEqual((yield* main(space.id)).id, mergedX.revision)
        assert.strictEqual((yield* merge(space.id, y.id)).result, "merge")
        assert.strictEqual(yield* mainMarkdown(space.id, pageId), text("intro (X)", "body", "end (Y)"))
      }))

    it.effect("merging needs the merge permission (review and above) and an unlocked space", () =>
      Effect.gen(function*() {
        const spaces = yield* Spaces
        const space = yield* newSpace()
        const cr = yield* newChangeRequest(space.id, "Docs")
        yield* edit(space.id, cr.id, [insert("Hello.", "Hello")])
        assert.strictEqual(yield* errorTag(merge(space.id, cr.id, "rhea")), "Forbidden")
        assert.strictEqual(yield* errorTag(update(space.id, cr.id, "rhea")), "Forbidden")
        assert.strictEqual(yield* errorTag(merge(space.id, cr.id, "erin")), "Forbidden")
        assert.strictEqual(yield* errorTag(merge(space.id, cr.id, "outsider")), "NotFound")
        assert.deepStrictEqual((yield* main(space.id)).pages, [])
        yield* spaces.update(space.id, { editMode: "locked" }).pipe(as("alice"))
        assert.strictEqual(yield* errorTag(merge(space.id, cr.id)), "Forbidden")
        yield* spaces.update(space.id, { editMode: "live" }).pipe(as("alice"))
        assert.strictEqual((yield* merge(space.id, cr.id, "rita")).result, "merge")
        assert.deepStrictEqual((yield* main(space.id)).pages.map((p) => p.title), ["Hello"])
      }))

    it.effect("change requests merged at once on one space all land", () =>
      Effect.gen(function*() {
        const { space, pageId } = yield* spaceWithPage()
        const crs = yield* Effect.forEach(["One", "Two", "Three"], (name) => newChangeRequest(space.id, name))
        yield* Effect.forEach(crs, (cr, i) => edit(space.id, cr.id, [insert(`Page ${i}.`, `New ${i}`)]))
        yield* edit(space.id, crs[0]!.id, [rewrite(pageId, text("intro (1)", "body", "end"))])
        yield* edit(space.id, crs[1]!.id, [rewrite(pageId, text("intro", "body", "end (2)"))])
        const results = yield* Effect.forEach(crs, (cr) => merge(space.id, cr.id), { concurrency: "unbounded" })
        assert.deepStrictEqual(results.map((r) => r.result), ["merge", "merge", "merge"])
        assert.deepStrictEqual((yield* main(space.id)).pages.map((p) => p.title).toSorted(), ["New 0", "New 1", "New 2", "Page"])
        assert.strictEqual(yield* mainMarkdown(space.id, pageId), text("intro (1)", "body", "end (2)"))
        assert.deepStrictEqual(yield* counters(space.id), [4, 0, 0, 0])
      }))
  })

  describe("resolving conflicts", () => {
    it.effect("the second of two edits of one line resolves with markdown combining both, then merges cleanly", () =>
      Effect.gen(function*() {
        const { spaceId, ids: [pageId] } = yield* seeded([["Page", "intro\n\nbody\n\nend"]])
        const { b, main: mainRevision } = yield* diverge(
          spaceId,
          [rewrite(pageId!, "intro (A)\n\nbody (A)\n\nend"), insert("From A.", "A page")],
          [rewrite(pageId!, "intro\n\nbody (B)\n\nend (B)"), insert("From B.", "B page")]
        )
        const head = (yield* get(spaceId, b.id)).revision
        const refused = yield* merge(spaceId, b.id)
        const expected = [{
          id: "c1",
          pageId: pageId!,
          path: "page",
          kind: "content" as const,
          field: "document",
          hunks: [{ base: "body", ours: "body (A)", theirs: "body (B)" }],
          hunk: 0,
          context: { before: ["intro (A)", ""], after: ["", "end (B)"] }
        }]
        assert.deepStrictEqual(refused.result === "conflicts" ? refused.conflicts : [], expected)
        const listed = yield* conflicts(spaceId, b.id, "rhea")
        assert.deepStrictEqual([listed.conflicts, listed.found, listed.stale], [expected, { main: mainRevision, head }, false])

        const resolved = yield* resolve(spaceId, b.id, [{ conflict: "c1", take: "markdown", markdown: "body (A and B)\n" }], "erin")
        assert.deepStrictEqual(
          [resolved.outdated, resolved.changeRequest.conflicts, resolved.changeRequest.revisionMergedAncestor, resolved.changeRequest.status],
          [false, null, mainRevision, "draft"]
        )
        const revision = yield* crRevision(spaceId, b.id)
        assert.deepStrictEqual([revision.id, revision.type, revision.parents], [resolved.changeRequest.revision, "update", [head, mainRevision]])
        assert.deepStrictEqual(revision.pages.map((p) => p.title), ["Page", "A page", "B page"])
        assert.strictEqual(yield* crMarkdown(spaceId, b.id, pageId!), "intro (A)\n\nbody (A and B)\n\nend (B)")
        assert.deepStrictEqual((yield* conflicts(spaceId, b.id)).conflicts, [])
        assert.strictEqual((yield* merge(spaceId, b.id)).result, "merge")
        assert.strictEqual(yield* mainMarkdown(spaceId, pageId!), "intro (A)\n\nbody (A and B)\n\nend (B)")
      }))

    it.effect("metadata and delete-edit conflicts take the side the writer chooses", () =>
      Effect.gen(function*() {
        const { spaceId, ids: [p, q, r] } = yield* seeded([["Guide", "Guide."], ["FAQ", "Questions."], ["Notes", "Notes."]])
        const { b } = yield* diverge(
          spaceId,
          [
            { operation: "update_page", page: p!, title: "Guide (main)" },
            { operation: "delete_page", page: q! },
            { operation: "update_page", page: r!, title: "Notes (main)" }
          ],
          [{ operation: "update_page", page: p!, title: "Guide (B)" }, rewrite(q!, "Better questions."), { operation: "delete_page", page: r! }]
        )
        const refused = yield* merge(spaceId, b.id)
        assert.deepStrictEqual((refused.result === "conflicts" ? refused.conflicts : []).map((c) => [c.id, c.pageId, c.kind, c.field, c.ours, c.theirs]), [
          ["c1", p, "metadata", "title", "\"Guide (main)\"", "\"Guide (B)\""],
          ["c2", r, "delete-edit", undefined, "edited", "null"],
          ["c3", q, "delete-edit", undefined, "null", "edited"]
        ])
        yield* resolve(spaceId, b.id, [
          { conflict: "c1", take: "change-request" },
          { conflict: "c2", take: "main" },
          { conflict: "c3", take: "change-request" }
        ])
        assert.deepStrictEqual((yield* crRevision(spaceId, b.id)).pages.map((page) => page.title), ["Guide (B)", "FAQ", "Notes (main)"])
        assert.strictEqual((yield* merge(spaceId, b.id)).result, "merge")
        assert.strictEqual(yield* mainMarkdown(spaceId, q!), "Better questions.")
      }))

    it.effect("bad choices are refused naming the field and change nothing; nothing to resolve is a conflict; readers and outsiders may not", () =>
      Effect.gen(function*() {
        const { spaceId, ids: [p] } = yield* seeded([["Guide", "one\ntwo"]])
        const { a, b } = yield* diverge(
          spaceId,
          [{ operation: "update_page", page: p!, title: "Main", markdown: "one (A)\ntwo" }],
          [{ operation: "update_page", page: p!, title: "Mine", markdown: "one (B)\ntwo" }]
        )
        const head = (yield* get(spaceId, b.id)).revision
        const found = yield* update(spaceId, b.id)
        assert.deepStrictEqual((found.result === "conflicts" ? found.conflicts : []).map((c) => [c.id, c.kind]), [["c1", "metadata"], ["c2", "content"]])
        const refusal = (choices: ReadonlyArray<ConflictChoice>) => errorMessage(resolve(spaceId, b.id, choices))
        assert.match(
          yield* refusal([{ conflict: "c9", take: "main" }, { conflict: "c2", take: "main" }]),
          /^resolutions\[0\]\.conflict: no conflict "c9" on this change request \(its conflicts: c1, c2\)/
        )
        assert.strictEqual(
          yield* refusal([{ conflict: "c1", take: "main" }]),
          "resolutions: every conflict is resolved in one call; without a resolution: c2 (guide: content document)"
        )
        assert.strictEqual(
          yield* refusal([{ conflict: "c1", take: "main" }, { conflict: "c2", take: "markdown" }]),
          "resolutions[1].markdown: is required with take \"markdown\""
        )
        assert.match(
          yield* refusal([{ conflict: "c1", take: "markdown", markdown: "x" }, { conflict: "c2", take: "main" }]),
          /^resolutions\[0\]\.take: markdown resolves only content conflicts/
        )
        assert.strictEqual(yield* refusal([{ conflict: "c1", take: "main" }, { conflict: "c1", take: "main" }]), "resolutions[1].conflict: c1 is resolved twice")
        const after = yield* get(spaceId, b.id)
        assert.deepStrictEqual([after.revision, after.conflicts?.length], [head, 2])

        const choices: ReadonlyArray<ConflictChoice> = [{ conflict: "c1", take: "main" }, { conflict: "c2", take: "main" }]
        assert.strictEqual(yield* errorTag(conflicts(spaceId, b.id, "outsider")), "NotFound")
        assert.strictEqual(yield* errorTag(resolve(spaceId, b.id, choices, "outsider")), "NotFound")
        assert.strictEqual(yield* errorTag(resolve(spaceId, b.id, choices, "rhea")), "Forbidden")
        yield* resolve(spaceId, b.id, choices, "erin")
        assert.strictEqual(yield* crMarkdown(spaceId, b.id, p!), "one (A)\ntwo")
        assert.strictEqual(yield* errorTag(resolve(spaceId, b.id, choices)), "Conflict")
        assert.match(yield* errorMessage(resolve(spaceId, b.id, choices)), /has no conflicts to resolve/)
        // A merged change request refuses before anything else.
        assert.strictEqual(yield* errorTag(resolve(spaceId, a.id, choices)), "InvalidInput")
      }))

    it.effect("when main moves after the conflicts were found, resolving is refused until the change request is updated again", () =>
      Effect.gen(function*() {
        const { spaceId, ids: [p] } = yield* seeded([["Guide", "one\ntwo\nthree\nfour\nfive"]])
        const { b } = yield* diverge(spaceId, [rewrite(p!, "one (A)\ntwo\nthree\nfour\nfive")], [rewrite(p!, "one (B)\ntwo\nthree\nfour\nfive (B)")])
        assert.strictEqual((yield* update(spaceId, b.id)).result, "conflicts")
        const c = yield* newChangeRequest(spaceId, "C")
        yield* edit(spaceId, c.id, [rewrite(p!, "one (A)\ntwo\nthree\nfour\nfive (C)")])
        const moved = yield* merge(spaceId, c.id)
        assert.isTrue((yield* conflicts(spaceId, b.id)).stale)
        const stale = resolve(spaceId, b.id, [{ conflict: "c1", take: "main" }])
        assert.strictEqual(yield* errorTag(stale), "Conflict")
        assert.match(yield* errorMessage(stale), /changed since the conflicts were found.*update the change request again/)
        const updated = yield* update(spaceId, b.id)
        assert.deepStrictEqual((updated.result === "conflicts" ? updated.conflicts : []).map((x) => [x.id, x.hunks]), [
          ["c1", [{ base: "one", ours: "one (A)", theirs: "one (B)" }]],
          ["c2", [{ base: "five", ours: "five (C)", theirs: "five (B)" }]]
        ])
        const listed = yield* conflicts(spaceId, b.id)
        assert.deepStrictEqual([listed.found?.main, listed.stale], [moved.revision, false])
        yield* resolve(spaceId, b.id, [{ conflict: "c1", take: "change-request" }, { conflict: "c2", take: "markdown", markdown: "five (B and C)" }])
        assert.strictEqual((yield* merge(spaceId, b.id)).result, "merge")
        assert.strictEqual(yield* mainMarkdown(spaceId, p!), "one (B)\ntwo\nthree\nfour\nfive (B and C)")
      }))
  })
})
