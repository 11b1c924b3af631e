/**
 * A space's change request list as the review screens filter it (several statuses, mine, awaiting
 * my review), each reviewer's "Viewed" marks on a change request's pages, and an author's approval
 * of their own change request where the space's merge rules allow it.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, errorCode, memory, raw, spaceWith } from "./Harness.ts"

const fieldOf = (body: unknown) => (body as { readonly error: { readonly field?: unknown } }).error.field

for (const backend of [memory, ...backends]) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`change request listing and viewed pages on ${backend.name}`, (it) => {
    it.effect("lists a space's change requests by several statuses, by creator and by requested reviewer, page by page", () =>
      Effect.gen(function*() {
        const { alice, space, members } = yield* spaceWith(["edit", "review"])
        const spaceId = space.id
        const mine = alice.api.changeRequests
        const theirs = members.edit!.api.changeRequests
        const create = (api: typeof mine, subject: string) => api.createChangeRequest({ params: { spaceId }, payload: { subject } })
        yield* create(mine, "One")
        yield* create(theirs, "Two")
        yield* create(mine, "Three")
        yield* create(mine, "Four")
        yield* mine.updateChangeRequestById({ params: { spaceId, changeRequestId: "1" }, payload: { status: "open" } })
        yield* theirs.updateChangeRequestById({ params: { spaceId, changeRequestId: "2" }, payload: { status: "open" } })
        yield* mine.updateChangeRequestById({ params: { spaceId, changeRequestId: "4" }, payload: { status: "archived" } })
        const numbers = (query: Parameters<typeof mine.listChangeRequestsForSpace>[0]["query"]) =>
          Effect.map(mine.listChangeRequestsForSpace({ params: { spaceId }, query }), (list) => list.items.map((cr) => cr.number))

        assert.deepStrictEqual(yield* numbers({}), [2, 1])
        assert.deepStrictEqual(yield* numbers({ status: ["open", "draft"] }), [3, 2, 1])
        assert.deepStrictEqual(yield* numbers({ status: ["archived"] }), [4])
        assert.deepStrictEqual(yield* numbers({ status: ["open", "draft"], creator: alice.user.id }), [3, 1])
        const first = yield* mine.listChangeRequestsForSpace({ params: { spaceId }, query: { status: ["open", "draft", "archived"], limit: 2 } })
        assert.deepStrictEqual(first.items.map((cr) => cr.number), [4, 3])
        const rest = yield* mine.listChangeRequestsForSpace({ params: { spaceId }, query: { status: ["open", "draft", "archived"], limit: 2, page: first.next!.page } })
        assert.deepStrictEqual(rest.items.map((cr) => cr.number), [2, 1])

        // Awaiting a review: only while the request is pending.
        const reviewer = members.review!
        assert.deepStrictEqual(yield* numbers({ requestedReviewer: reviewer.user.id }), [])
        yield* members.edit!.api.changeRequestReviews.requestReviewersForChangeRequest({ params: { spaceId, changeRequestId: "2" }, payload: { users: [reviewer.user.id] } })
        assert.deepStrictEqual(yield* numbers({ requestedReviewer: reviewer.user.id }), [2])
        assert.deepStrictEqual(yield* numbers({ status: "draft", requestedReviewer: reviewer.user.id }), [])
      }))

    it.effect("refuses a bad filter with a 400 naming it, and answers 404 to someone outside the organization", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const outsider = yield* spaceWith()
        const path = `/v1/spaces/${space.id}/change-requests`
        const badStatus = yield* raw("GET", `${path}?status=open&status=pending`, { token: alice.token })
        assert.strictEqual(badStatus.status, 400)
        assert.strictEqual(fieldOf(badStatus.body), "status[1]")
        const badReviewer = yield* raw("GET", `${path}?requestedReviewer=${"x".repeat(300)}`, { token: alice.token })
        assert.strictEqual(badReviewer.status, 400)
        assert.strictEqual(fieldOf(badReviewer.body), "requestedReviewer")
        const stranger = yield* raw("GET", `${path}?status=draft`, { token: outsider.alice.token })
        assert.strictEqual(stranger.status, 404)
      }))

    it.effect("keeps a reviewer's viewed marks until a later revision changes the page, each reviewer their own", () =>
      Effect.gen(function*() {
        const { alice, space, members } = yield* spaceWith(["review", "read"])
        const spaceId = space.id
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Docs" } })
        const params = { spaceId, changeRequestId: String(cr.number) }
        const edit = (changes: Parameters<typeof alice.api.changeRequestContent.updateChangeRequestContent>[0]["payload"]["changes"]) =>
          alice.api.changeRequestContent.updateChangeRequestContent({ params, payload: { changes } })
        yield* edit([
          { operation: "insert_page", ref: "guide", title: "Guide", document: { markdown: "Install it." } },
          { operation: "insert_page", ref: "faq", title: "FAQ", document: { markdown: "Ask." } }
        ])
        const pages = (yield* alice.api.changeRequestContent.getRevisionOfChangeRequestById({ params, query: {} })).pages
        const [guide, faq] = pages
        const reviewer = members.review!.api.changeRequestReviews
        const viewedBy = (api: typeof reviewer) => Effect.map(api.listViewedPagesInChangeRequest({ params }), (list) => list.items.map((m) => m.pageId))

        assert.deepStrictEqual(yield* viewedBy(reviewer), [])
        const marked = yield* reviewer.setViewedPageInChangeRequest({ params, payload: { pageId: guide!.id, viewed: true } })
        assert.deepStrictEqual(marked.items.map((m) => m.pageId), [guide!.id])
        yield* reviewer.setViewedPageInChangeRequest({ params, payload: { pageId: faq!.id, viewed: true } })
        assert.deepStrictEqual((yield* viewedBy(reviewer)).toSorted(), [guide!.id, faq!.id].toSorted())
        // Another reviewer's marks are their own.
        assert.deepStrictEqual(yield* viewedBy(alice.api.changeRequestReviews), [])

        // Editing the guide again clears its mark; the FAQ, untouched, stays viewed.
        yield* edit([{ operation: "update_page", page: guide!.id, document: { markdown: "Install it with apt." } }])
        assert.deepStrictEqual(yield* viewedBy(reviewer), [faq!.id])
        yield* reviewer.setViewedPageInChangeRequest({ params, payload: { pageId: guide!.id, viewed: true } })
        assert.deepStrictEqual((yield* viewedBy(reviewer)).length, 2)
        // Unmarking.
        const cleared = yield* reviewer.setViewedPageInChangeRequest({ params, payload: { pageId: faq!.id, viewed: false } })
        assert.deepStrictEqual(cleared.items.map((m) => m.pageId), [guide!.id])
      }))

    it.effect("refuses a page the change request does not have (400 naming pageId), a reader (403), and a stranger (404)", () =>
      Effect.gen(function*() {
        const { alice, space, members } = yield* spaceWith(["read"])
        const outsider = yield* spaceWith()
        const spaceId = space.id
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Docs" } })
        const params = { spaceId, changeRequestId: cr.id }
        yield* alice.api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: { changes: [{ operation: "insert_page", title: "Guide", document: { markdown: "Install it." } }] }
        })
        const path = `/v1/spaces/${spaceId}/change-requests/${cr.id}/viewed-pages`
        const unknown = yield* raw("PUT", path, { token: alice.token, body: JSON.stringify({ pageId: "nope", viewed: true }) })
        assert.strictEqual(unknown.status, 400)
        assert.strictEqual(fieldOf(unknown.body), "pageId")
        const notBoolean = yield* raw("PUT", path, { token: alice.token, body: JSON.stringify({ pageId: "nope", viewed: "yes" }) })
        assert.strictEqual(notBoolean.status, 400)
        assert.strictEqual(fieldOf(notBoolean.body), "viewed")

        const pageId = (yield* alice.api.changeRequestContent.getRevisionOfChangeRequestById({ params, query: {} })).pages[0]!.id
        // A reader sees their (empty) marks but may not mark.
        assert.deepStrictEqual((yield* members.read!.api.changeRequestReviews.listViewedPagesInChangeRequest({ params })).items, [])
        const reader = yield* Effect.flip(members.read!.api.changeRequestReviews.setViewedPageInChangeRequest({ params, payload: { pageId, viewed: true } }))
        assert.strictEqual(errorCode(reader), 403)
        const stranger = yield* Effect.flip(outsider.alice.api.changeRequestReviews.setViewedPageInChangeRequest({ params, payload: { pageId, viewed: true } }))
        assert.strictEqual(errorCode(stranger), 404)
        const strangerList = yield* Effect.flip(outsider.alice.api.changeRequestReviews.listViewedPagesInChangeRequest({ params }))
        assert.strictEqual(errorCode(strangerList), 404)
      }))

    it.effect("an author approves their own change request only where the space's merge rules allow it, and the approval counts", () =>
      Effect.gen(function*() {
        const { alice, space, members } = yield* spaceWith(["review"])
        const spaceId = space.id
        const writer = members.review!.api
        const cr = yield* writer.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Mine" } })
        const params = { spaceId, changeRequestId: cr.id }
        yield* writer.changeRequestContent.updateChangeRequestContent({ params, payload: { changes: [{ operation: "insert_page", title: "Page", document: { markdown: "Text." } }] } })
        const approve = writer.changeRequestReviews.submitChangeRequestReview({ params, payload: { status: "approved" } })

        // By default (and with rules that do not say so), the author may not.
        const refused = yield* Effect.flip(approve)
        assert.strictEqual(errorCode(refused), 400)
        yield* alice.api.spaces.updateSpaceById({ params: { spaceId }, payload: { mergeRules: { type: "rules", rules: [{ rule: "require_at_least_one_approved_review" }] } } })
        assert.strictEqual(errorCode(yield* Effect.flip(approve)), 400)
        assert.strictEqual(errorCode(yield* Effect.flip(alice.api.changeRequests.mergeChangeRequest({ params }))), 400)

        // Only an admin sets the rule.
        const rules = { type: "rules" as const, rules: [{ rule: "require_at_least_one_approved_review" as const }, { rule: "allow_author_approval" as const }] }
        assert.strictEqual(errorCode(yield* Effect.flip(writer.spaces.updateSpaceById({ params: { spaceId }, payload: { mergeRules: rules } }))), 403)
        const updated = yield* alice.api.spaces.updateSpaceById({ params: { spaceId }, payload: { mergeRules: rules } })
        assert.deepStrictEqual(updated.mergeRules, rules)

        const own = yield* approve
        assert.deepStrictEqual([own.status, own.reviewer.id], ["approved", members.review!.user.id])
        // Asking for changes on one's own change request stays refused.
        const changes = yield* Effect.flip(writer.changeRequestReviews.submitChangeRequestReview({ params, payload: { status: "changes-requested" } }))
        assert.strictEqual(errorCode(changes), 400)
        const merged = yield* alice.api.changeRequests.mergeChangeRequest({ params })
        assert.strictEqual(merged.result, "merge")
      }))
  })
}
