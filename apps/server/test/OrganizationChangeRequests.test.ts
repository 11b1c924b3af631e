/**
 * `listChangeRequestsForOrganization`: the change requests of every space of an organization the
 * caller can view (the app's home and its "review requested" list), on every backend.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, errorCode, errorMessage, inviteAndAccept, newUser, organizationWith, raw } from "./Harness.ts"

/** Alice's organization with a reviewer Rita, spaces "A" and "B", and open change requests: two in A, one in B. */
const seeded = Effect.fnUntraced(function*() {
  const { alice, organizationId, members } = yield* organizationWith(["review"])
  const rita = members.review!
  const api = alice.api
  const space = (title: string) => api.spaces.createSpace({ params: { organizationId }, payload: { title } })
  const a = yield* space("A")
  const b = yield* space("B")
  const open = Effect.fnUntraced(function*(spaceId: string, subject: string) {
    const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject } })
    yield* api.changeRequestContent.updateChangeRequestContent({
      params: { spaceId, changeRequestId: cr.id },
      payload: { changes: [{ operation: "insert_page", title: subject, document: { markdown: `${subject}.` } }] }
    })
    return yield* api.changeRequests.updateChangeRequestById({ params: { spaceId, changeRequestId: cr.id }, payload: { status: "open" } })
  })
  const a1 = yield* open(a.id, "A one")
  const b1 = yield* open(b.id, "B one")
  const a2 = yield* open(a.id, "A two")
  const draft = yield* api.changeRequests.createChangeRequest({ params: { spaceId: b.id }, payload: { subject: "B draft" } })
  return { alice, rita, organizationId, a, b, a1, a2, b1, draft }
})

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`organization change requests on ${backend.name}`, (it) => {
    it.effect("lists the open change requests of every space, most recently updated first, with filters and pages", () =>
      Effect.gen(function*() {
        const { alice, organizationId, a, b, a1, a2, b1, draft } = yield* seeded()
        const list = (query: Parameters<typeof alice.api.changeRequests.listChangeRequestsForOrganization>[0]["query"]) =>
          alice.api.changeRequests.listChangeRequestsForOrganization({ params: { organizationId }, query })
        const all = yield* list({})
        assert.deepStrictEqual(all.items.map((cr) => cr.subject), ["A two", "B one", "A one"])
        assert.deepStrictEqual(all.items.map((cr) => cr.id), [a2.id, b1.id, a1.id])
        assert.strictEqual(all.count, 3)
        assert.isTrue(all.items.every((cr) => cr.status === "open"))

        // Touching the oldest brings it first; by creation it stays last.
        yield* alice.api.changeRequests.updateChangeRequestById({ params: { spaceId: a.id, changeRequestId: a1.id }, payload: { subject: "A one, renamed" } })
        assert.deepStrictEqual((yield* list({})).items.map((cr) => cr.id), [a1.id, a2.id, b1.id])
        assert.deepStrictEqual((yield* list({ orderBy: "createdAt" })).items.map((cr) => cr.id), [a2.id, b1.id, a1.id])

        assert.deepStrictEqual((yield* list({ space: b.id })).items.map((cr) => cr.id), [b1.id])
        assert.deepStrictEqual((yield* list({ status: "draft" })).items.map((cr) => cr.id), [draft.id])
        // GitBook's repeated status: any of them.
        const both = yield* raw("GET", `/v1/orgs/${organizationId}/change-requests?status=draft&status=open&space=${b.id}`, { token: alice.token })
        assert.strictEqual(both.status, 200)
        assert.deepStrictEqual((both.body as { readonly items: ReadonlyArray<{ readonly id: string }> }).items.map((cr) => cr.id).toSorted(), [b1.id, draft.id].toSorted())
        assert.deepStrictEqual((yield* list({ creator: alice.user.id })).count, 3)
        assert.deepStrictEqual((yield* list({ creator: "someone-else" })).count, 0)
        assert.deepStrictEqual((yield* list({ contributor: alice.user.id, space: a.id })).items.map((cr) => cr.id), [a1.id, a2.id])

        // Pages of one, followed to the end, give the same list.
        const seen: Array<string> = []
        let page: string | undefined
        do {
          const got = yield* list({ limit: 1, ...(page === undefined ? {} : { page }) })
          seen.push(...got.items.map((cr) => cr.id))
          page = got.next?.page
        } while (page !== undefined)
        assert.deepStrictEqual(seen, [a1.id, a2.id, b1.id])
      }))

    it.effect("answers a reviewer the change requests awaiting their review", () =>
      Effect.gen(function*() {
        const { alice, rita, organizationId, b, b1 } = yield* seeded()
        yield* alice.api.changeRequestReviews.requestReviewersForChangeRequest({
          params: { spaceId: b.id, changeRequestId: b1.id },
          payload: { users: [rita.user.id] }
        })
        const awaiting = yield* rita.api.changeRequests.listChangeRequestsForOrganization({
          params: { organizationId },
          query: { requestedReviewer: rita.user.id }
        })
        assert.deepStrictEqual(awaiting.items.map((cr) => [cr.id, cr.subject]), [[b1.id, "B one"]])
        assert.strictEqual(awaiting.items[0]?.urls.app.endsWith(`/s/${b.id}/~/changes/${b1.number}`), true)
      }))

    it.effect("shows nothing of other organizations or spaces the caller cannot view; 404 for a non-member; 400 naming the field", () =>
      Effect.gen(function*() {
        const { alice, organizationId, a, b, b1 } = yield* seeded()
        const mallory = yield* newUser("Mallory")
        const refused = yield* mallory.api.changeRequests.listChangeRequestsForOrganization({ params: { organizationId }, query: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(refused), 404)
        assert.strictEqual((yield* raw("GET", `/v1/orgs/${organizationId}/change-requests`)).status, 401)

        // Mallory's own organization's change requests never show in Alice's, nor Alice's in hers.
        const other = yield* mallory.api.organizations.createOrganization({ payload: { title: "Other" } })
        const theirs = yield* mallory.api.spaces.createSpace({ params: { organizationId: other.id }, payload: { title: "Theirs" } })
        const cr = yield* mallory.api.changeRequests.createChangeRequest({ params: { spaceId: theirs.id }, payload: { subject: "Theirs" } })
        yield* mallory.api.changeRequests.updateChangeRequestById({ params: { spaceId: theirs.id, changeRequestId: cr.id }, payload: { status: "open" } })
        const mine = yield* alice.api.changeRequests.listChangeRequestsForOrganization({ params: { organizationId }, query: {} })
        assert.notInclude(mine.items.map((x) => x.id), cr.id)
        const hers = yield* mallory.api.changeRequests.listChangeRequestsForOrganization({ params: { organizationId: other.id }, query: {} })
        assert.deepStrictEqual(hers.items.map((x) => x.id), [cr.id])
        // A space of another organization named as the filter answers nothing.
        const crossed = yield* alice.api.changeRequests.listChangeRequestsForOrganization({ params: { organizationId }, query: { space: theirs.id } })
        assert.strictEqual(crossed.count, 0)

        // A guest invited to space A alone sees A's change requests alone, even when naming B.
        const gus = yield* newUser("Gus")
        yield* inviteAndAccept(alice.api, organizationId, gus, null)
        yield* alice.api.permissions.inviteToSpace({ params: { spaceId: a.id }, payload: { role: "read", users: [gus.user.id] } })
        const guest = (query: { readonly space?: string }) =>
          gus.api.changeRequests.listChangeRequestsForOrganization({ params: { organizationId }, query })
        assert.deepStrictEqual((yield* guest({})).items.map((x) => x.space), [a.id, a.id])
        assert.isTrue((yield* guest({})).items.every((x) => x.subject.startsWith("A ")))
        assert.strictEqual((yield* guest({ space: b.id })).count, 0)
        assert.notInclude((yield* guest({})).items.map((x) => x.id), b1.id)

        const get = (query: string) => raw("GET", `/v1/orgs/${organizationId}/change-requests?${query}`, { token: alice.token })
        for (const [query, field] of [["status=bogus", "status"], ["orderBy=title", "orderBy"], ["limit=0", "limit"], ["page=nope", "page"]] as const) {
          const bad = yield* get(query)
          assert.strictEqual(bad.status, 400, query)
          assert.match(errorMessage(bad.body), new RegExp(field), query)
        }
      }))
  })
}
