/** A writer resolves a change request's conflicts (listChangeRequestConflicts, resolveChangeRequestConflicts), on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { everyBackend, changeRequestsOn, type ContentChanges, errorCode, errorMessage, mergeIntoMain, newUser, raw, spaceWith } from "./Harness.ts"

type Setup = Effect.Success<ReturnType<typeof spaceWith>>
type Client = Setup["alice"]["api"]
type Resolutions = Parameters<Client["changeRequestConflicts"]["resolveChangeRequestConflicts"]>[0]["payload"]["resolutions"]

const insert = (markdown: string, title: string) => ({ operation: "insert_page" as const, title, document: { markdown } })
const rewrite = (page: string, markdown: string) => ({ operation: "update_page" as const, page, document: { markdown } })

/** Helpers over one space, acting as `api`. */
const on = (api: Client, spaceId: string) => {
  const params = (changeRequestId: string) => ({ spaceId, changeRequestId })
  return {
    ...changeRequestsOn(api, spaceId),
    conflicts: (cr: string) => api.changeRequestConflicts.listChangeRequestConflicts({ params: params(cr) }),
    resolve: (cr: string, resolutions: Resolutions) =>
      api.changeRequestConflicts.resolveChangeRequestConflicts({ params: params(cr), payload: { resolutions } }),
    crRevision: (cr: string) => api.changeRequestContent.getRevisionOfChangeRequestById({ params: params(cr), query: {} })
  }
}

/** Main's content made of `pages` (title, markdown) through a merged change request; answers their ids in order. */
const seed = Effect.fnUntraced(function*(setup: Setup, pages: ReadonlyArray<readonly [string, string]>) {
  const merged = yield* mergeIntoMain(setup.alice.api, setup.space.id, pages.map(([title, markdown]) => insert(markdown, title)))
  assert.strictEqual(merged.result, "merge")
  return (yield* on(setup.alice.api, setup.space.id).main()).pages.map((p) => p.id)
})

/** Two change requests opened on main's current content, A edited with `a` and merged, B edited with `b`. */
const diverge = Effect.fnUntraced(function*(setup: Setup, a: ContentChanges, b: ContentChanges) {
  const s = on(setup.alice.api, setup.space.id)
  const crA = yield* s.open("A")
  const crB = yield* s.open("B")
  yield* s.edit(crA.id, a)
  yield* s.edit(crB.id, b)
  const merged = yield* s.merge(crA.id)
  assert.strictEqual(merged.result, "merge")
  return { a: crA, b: crB, main: merged.revision }
})

for (const backend of everyBackend) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`change request conflicts on ${backend.name}`, (it) => {
    it.effect("two change requests edit one line: the second resolves with markdown combining both, and then merges cleanly", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith()
        const s = on(setup.alice.api, setup.space.id)
        const [pageId] = yield* seed(setup, [["Page", "intro\n\nbody\n\nend"]])
        const { b, main } = yield* diverge(
          setup,
          [rewrite(pageId!, "intro (A)\n\nbody (A)\n\nend"), insert("From A.", "A page")],
          [rewrite(pageId!, "intro\n\nbody (B)\n\nend (B)"), insert("From B.", "B page")]
        )
        const head = (yield* s.get(b.id)).revision

        // Merging the second reports the conflict with its hunk; an update keeps it, with the same id and hunk.
        const refused = yield* s.merge(b.id)
        assert.strictEqual(refused.result, "conflicts")
        const expected = [{ id: "c1", pageId: pageId!, path: "page", kind: "content" as const, field: "document", hunks: [{ base: "body", ours: "body (A)", theirs: "body (B)" }], context: { before: ["intro (A)", ""], after: ["", "end (B)"] } }]
        assert.deepStrictEqual(refused.conflicts, expected)
        const update = yield* s.update(b.id)
        assert.deepStrictEqual([update.result, update.revision, update.conflicts], ["conflicts", head, expected])
        assert.deepStrictEqual((yield* s.get(b.id)).conflicts, expected)
        assert.deepStrictEqual(yield* s.conflicts(b.id), { count: 1, items: expected, revision: head, mainRevision: main, stale: false })

        // Resolved: one revision of the change request, main as its second parent, main's other changes in it.
        const resolved = yield* s.resolve(b.id, [{ conflict: "c1", take: "markdown", markdown: "body (A and B)\n" }])
        assert.deepStrictEqual(
          [resolved.outdated, resolved.conflicts, resolved.revisionMergedAncestor, resolved.status],
          [false, undefined, main, "draft"]
        )
        const revision = yield* s.crRevision(b.id)
        assert.deepStrictEqual([revision.id, revision.type, revision.parents], [resolved.revision, "update", [head, main]])
        assert.deepStrictEqual(revision.pages.map((p) => p.title), ["Page", "A page", "B page"])
        assert.strictEqual(yield* s.crMarkdown(b.id, pageId!), "intro (A)\n\nbody (A and B)\n\nend (B)")
        assert.deepStrictEqual(yield* s.conflicts(b.id), { count: 0, items: [], stale: false })

        // The next merge is clean and main reads the combined text.
        const merged = yield* s.merge(b.id)
        assert.strictEqual(merged.result, "merge")
        assert.strictEqual(yield* s.mainMarkdown(pageId!), "intro (A)\n\nbody (A and B)\n\nend (B)")
        assert.deepStrictEqual((yield* s.main()).pages.map((p) => p.title), ["Page", "A page", "B page"])
      }))

    it.effect("conflicts over large rewrites are kept within what a row may hold: the change request stays readable and resolvable", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith()
        const s = on(setup.alice.api, setup.space.id)
        const ids = yield* seed(setup, ["One", "Two", "Three", "Four", "Five"].map((title) => [title, `${title}.`] as const))
        const crA = yield* s.open("A")
        const crB = yield* s.open("B")
        // Both sides rewrite five pages with 600,000 characters each: 6 MB of hunks, over what a change request's conflicts may keep (4 MiB).
        for (const id of ids) yield* s.edit(crA.id, [rewrite(id, "a".repeat(600_000))])
        for (const id of ids) yield* s.edit(crB.id, [rewrite(id, "b".repeat(600_000))])
        assert.strictEqual((yield* s.merge(crA.id)).result, "merge")

        const refused = yield* s.merge(crB.id)
        assert.deepStrictEqual(refused.conflicts?.map((c) => [c.id, c.kind]), ids.map((_, i) => [`c${i + 1}`, "content"]))
        assert.isBelow(JSON.stringify(refused.conflicts).length, 4 * 1024 * 1024)
        assert.include(refused.conflicts?.[0]?.hunks?.[0]?.theirs ?? "", "more characters not kept here")
        // The change request, its listing and its conflicts still read; resolving takes the whole of each side.
        assert.strictEqual((yield* s.get(crB.id)).conflicts?.length, 5)
        assert.strictEqual((yield* s.conflicts(crB.id)).count, 5)
        yield* s.resolve(crB.id, ids.map((_, i) => ({ conflict: `c${i + 1}`, take: "change-request" as const })))
        assert.strictEqual((yield* s.merge(crB.id)).result, "merge")
        assert.strictEqual(yield* s.mainMarkdown(ids[4]!), "b".repeat(600_000))
      }), { timeout: 240_000 })

    it.effect("each hunk of a page is a conflict of its own: one takes main's lines, the other the change request's", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith()
        const s = on(setup.alice.api, setup.space.id)
        const [pageId] = yield* seed(setup, [["Page", "alpha\nbravo\ncharlie\ndelta\necho"]])
        const { b } = yield* diverge(
          setup,
          [rewrite(pageId!, "alpha (A)\nbravo\ncharlie\ndelta\necho (A)")],
          [rewrite(pageId!, "alpha (B)\nbravo\ncharlie (B)\ndelta\necho (B)")]
        )
        const refused = yield* s.merge(b.id)
        assert.deepStrictEqual(refused.conflicts?.map((c) => [c.id, c.kind, c.hunks]), [
          ["c1", "content", [{ base: "alpha", ours: "alpha (A)", theirs: "alpha (B)" }]],
          ["c2", "content", [{ base: "echo", ours: "echo (A)", theirs: "echo (B)" }]]
        ])
        yield* s.resolve(b.id, [{ conflict: "c2", take: "change-request" }, { conflict: "c1", take: "main" }])
        assert.strictEqual(yield* s.crMarkdown(b.id, pageId!), "alpha (A)\nbravo\ncharlie (B)\ndelta\necho (B)")
        assert.strictEqual((yield* s.merge(b.id)).result, "merge")
        assert.strictEqual(yield* s.mainMarkdown(pageId!), "alpha (A)\nbravo\ncharlie (B)\ndelta\necho (B)")
      }))

    it.effect("a metadata conflict and a delete-edit conflict take the side the writer chooses", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith()
        const s = on(setup.alice.api, setup.space.id)
        const [p, q, r] = yield* seed(setup, [["Guide", "Guide."], ["FAQ", "Questions."], ["Notes", "Notes."]])
        const { b } = yield* diverge(
          setup,
          [
            { operation: "update_page", page: p!, title: "Guide (main)" },
            { operation: "delete_page", page: q! },
            { operation: "update_page", page: r!, title: "Notes (main)" }
          ],
          [
            { operation: "update_page", page: p!, title: "Guide (B)" },
            rewrite(q!, "Better questions."),
            { operation: "delete_page", page: r! }
          ]
        )
        const refused = yield* s.merge(b.id)
        assert.deepStrictEqual(refused.conflicts?.map((c) => [c.id, c.pageId, c.kind, c.field, c.ours, c.theirs]), [
          ["c1", p, "metadata", "title", "\"Guide (main)\"", "\"Guide (B)\""],
          ["c2", r, "delete-edit", undefined, "edited", "null"],
          ["c3", q, "delete-edit", undefined, "null", "edited"]
        ])
        // B's title, B's edit of the page main deleted, and main's edit of the page B deleted.
        yield* s.resolve(b.id, [
          { conflict: "c1", take: "change-request" },
          { conflict: "c2", take: "main" },
          { conflict: "c3", take: "change-request" }
        ])
        assert.deepStrictEqual((yield* s.crRevision(b.id)).pages.map((page) => page.title), ["Guide (B)", "FAQ", "Notes (main)"])
        assert.strictEqual(yield* s.crMarkdown(b.id, q!), "Better questions.")
        assert.strictEqual((yield* s.merge(b.id)).result, "merge")
        assert.deepStrictEqual((yield* s.main()).pages.map((page) => page.title), ["Guide (B)", "FAQ", "Notes (main)"])
        assert.strictEqual(yield* s.mainMarkdown(q!), "Better questions.")
      }))

    it.effect("taking main's side of a delete deletes the page the change request edited", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith()
        const s = on(setup.alice.api, setup.space.id)
        const [p, q] = yield* seed(setup, [["Guide", "Guide."], ["FAQ", "Questions."]])
        const { b } = yield* diverge(setup, [{ operation: "delete_page", page: q! }], [rewrite(q!, "Better questions."), rewrite(p!, "Guide (B).")])
        assert.deepStrictEqual((yield* s.update(b.id)).conflicts?.map((c) => [c.id, c.kind]), [["c1", "delete-edit"]])
        yield* s.resolve(b.id, [{ conflict: "c1", take: "main" }])
        assert.deepStrictEqual((yield* s.crRevision(b.id)).pages.map((page) => page.title), ["Guide"])
        assert.strictEqual((yield* s.merge(b.id)).result, "merge")
        assert.deepStrictEqual((yield* s.main()).pages.map((page) => page.title), ["Guide"])
        assert.strictEqual(yield* s.mainMarkdown(p!), "Guide (B).")
      }))

    // Refused input and permissions are the request's subject, not storage's: on PostgreSQL only, as
    // in the other API suites (docs/testing.md).
    if (backend.name === "postgres") {
      it.effect("bad resolutions are 400s naming the field, and change nothing", () =>
        Effect.gen(function*() {
          const setup = yield* spaceWith()
          const s = on(setup.alice.api, setup.space.id)
          const [p] = yield* seed(setup, [["Guide", "one\ntwo"]])
          const { b } = yield* diverge(
            setup,
            [{ operation: "update_page", page: p!, title: "Main", document: { markdown: "one (A)\ntwo" } }],
            [{ operation: "update_page", page: p!, title: "Mine", document: { markdown: "one (B)\ntwo" } }]
          )
          const head = (yield* s.get(b.id)).revision
          assert.deepStrictEqual((yield* s.merge(b.id)).conflicts?.map((c) => [c.id, c.kind]), [["c1", "metadata"], ["c2", "content"]])
          const refusal = (resolutions: Resolutions) =>
            Effect.map(Effect.flip(s.resolve(b.id, resolutions)), (e) => [errorCode(e), errorMessage(e)] as const)

          const unknown = yield* refusal([{ conflict: "c9", take: "main" }, { conflict: "c2", take: "main" }])
          assert.strictEqual(unknown[0], 400)
          assert.match(unknown[1], /^resolutions\[0\]\.conflict: no conflict "c9" on this change request \(its conflicts: c1, c2\)/)
          const missing = yield* refusal([{ conflict: "c1", take: "main" }])
          assert.deepStrictEqual(missing, [400, "resolutions: every conflict is resolved in one call; without a resolution: c2 (guide: content document)"])
          const noMarkdown = yield* refusal([{ conflict: "c1", take: "main" }, { conflict: "c2", take: "markdown" }])
          assert.deepStrictEqual(noMarkdown, [400, "resolutions[1].markdown: is required with take \"markdown\""])
          const markdownOnMetadata = yield* refusal([{ conflict: "c1", take: "markdown", markdown: "x" }, { conflict: "c2", take: "main" }])
          assert.strictEqual(markdownOnMetadata[0], 400)
          assert.match(markdownOnMetadata[1], /^resolutions\[0\]\.take: markdown resolves only content conflicts/)
          const twice = yield* refusal([{ conflict: "c1", take: "main" }, { conflict: "c1", take: "main" }])
          assert.deepStrictEqual(twice, [400, "resolutions[1].conflict: c1 is resolved twice"])
          // The schema's own checks: an empty list, an unknown side.
          const empty = yield* raw("POST", `/v1/spaces/${setup.space.id}/change-requests/${b.id}/conflicts/resolve`, {
            token: setup.alice.token,
            body: JSON.stringify({ resolutions: [] })
          })
          assert.strictEqual(empty.status, 400)
          assert.match(errorMessage(empty.body), /resolutions/)
          const side = yield* raw("POST", `/v1/spaces/${setup.space.id}/change-requests/${b.id}/conflicts/resolve`, {
            token: setup.alice.token,
            body: JSON.stringify({ resolutions: [{ conflict: "c1", take: "theirs" }] })
          })
          assert.strictEqual(side.status, 400)
          assert.match(errorMessage(side.body), /take/)

          // Nothing moved.
          const after = yield* s.get(b.id)
          assert.deepStrictEqual([after.revision, after.conflicts?.length], [head, 2])
        }))

      it.effect("listing needs view and resolving needs edit; outsiders get 404; nothing to resolve is a 409", () =>
        Effect.gen(function*() {
          const setup = yield* spaceWith(["read", "edit"])
          const s = on(setup.alice.api, setup.space.id)
          const [p] = yield* seed(setup, [["Guide", "one"]])
          const { a, b } = yield* diverge(setup, [rewrite(p!, "one (A)")], [rewrite(p!, "one (B)")])
          yield* s.update(b.id)
          const params = { spaceId: setup.space.id, changeRequestId: b.id }
          const resolutions: Resolutions = [{ conflict: "c1", take: "main" }]

          const outsider = yield* newUser("Eve")
          assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.changeRequestConflicts.listChangeRequestConflicts({ params }))), 404)
          assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.changeRequestConflicts.resolveChangeRequestConflicts({ params, payload: { resolutions } }))), 404)
          const reader = setup.members.read!.api
          assert.strictEqual((yield* reader.changeRequestConflicts.listChangeRequestConflicts({ params })).count, 1)
          assert.strictEqual(errorCode(yield* Effect.flip(reader.changeRequestConflicts.resolveChangeRequestConflicts({ params, payload: { resolutions } }))), 403)

          const resolved = yield* setup.members.edit!.api.changeRequestConflicts.resolveChangeRequestConflicts({ params, payload: { resolutions } })
          assert.isUndefined(resolved.conflicts)
          assert.strictEqual(yield* s.crMarkdown(b.id, p!), "one (A)")
          // Resolved, or never conflicted: nothing to resolve.
          const again = yield* Effect.flip(s.resolve(b.id, resolutions))
          assert.strictEqual(errorCode(again), 409)
          assert.match(errorMessage(again), /has no conflicts to resolve/)
          assert.strictEqual(errorCode(yield* Effect.flip(s.resolve(a.id, resolutions))), 400)
        }))
    }

    it.effect("when main moves after the conflicts were found, resolving answers 409 until the change request is updated again", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith()
        const s = on(setup.alice.api, setup.space.id)
        const [p] = yield* seed(setup, [["Guide", "one\ntwo\nthree\nfour\nfive"]])
        const { b } = yield* diverge(setup, [rewrite(p!, "one (A)\ntwo\nthree\nfour\nfive")], [rewrite(p!, "one (B)\ntwo\nthree\nfour\nfive (B)")])
        assert.strictEqual((yield* s.update(b.id)).result, "conflicts")
        // Main moves on: another change request edits the last line too.
        const c = yield* s.open("C")
        yield* s.edit(c.id, [rewrite(p!, "one (A)\ntwo\nthree\nfour\nfive (C)")])
        const moved = yield* s.merge(c.id)
        assert.isTrue((yield* s.conflicts(b.id)).stale)

        const stale = yield* Effect.flip(s.resolve(b.id, [{ conflict: "c1", take: "main" }]))
        assert.strictEqual(errorCode(stale), 409)
        assert.match(errorMessage(stale), /changed since the conflicts were found.*update the change request again/)
        const updated = yield* s.update(b.id)
        assert.deepStrictEqual(updated.conflicts?.map((x) => [x.id, x.hunks]), [
          ["c1", [{ base: "one", ours: "one (A)", theirs: "one (B)" }]],
          ["c2", [{ base: "five", ours: "five (C)", theirs: "five (B)" }]]
        ])
        const listed = yield* s.conflicts(b.id)
        assert.deepStrictEqual([listed.mainRevision, listed.stale], [moved.revision, false])
        yield* s.resolve(b.id, [{ conflict: "c1", take: "change-request" }, { conflict: "c2", take: "markdown", markdown: "five (B and C)" }])
        assert.strictEqual((yield* s.merge(b.id)).result, "merge")
        assert.strictEqual(yield* s.mainMarkdown(p!), "one (B)\ntwo\nthree\nfour\nfive (B and C)")
      }))
  })
}
