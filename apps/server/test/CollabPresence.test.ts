/**
 * A change request's presence document (`<changeRequestId>/~presence`): who may join it (anyone
 * who may read the change request), that it takes no edits and holds nothing, that what one person
 * shares of themselves (name, colour, page) reaches the others and goes when they leave, across
 * two servers too (Redis), that a member removed is closed, and the size limit of what one shares.
 */
import { assert, describe, it as live, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { Services } from "@quire/platform"
import { LiveDocuments, presenceName } from "@quire/reviews"
import { Backends } from "@quire/testkit"
import { organizationWith } from "./Harness.ts"
import { collabServerOn, collabUrl, connect, eventually, settled, sharedPage, twoServers, type Client } from "./CollabSupport.ts"

const postgres = Backends.databasesMigrated(Services.migrations).find((database) => database.name === "postgres")!
const server = collabServerOn(Services.layerSql, "postgres", { maxAwarenessBytes: 1024, maxAwarenessPerSecond: 50 }).pipe(Layer.provide(postgres.layer))

/** An organization with Alice (admin) and a reader, a space, and a change request with a page. */
const setup = Effect.fnUntraced(function*() {
  const organization = yield* organizationWith(["read"])
  const space = yield* organization.alice.api.spaces.createSpace({ params: { organizationId: organization.organizationId }, payload: { title: "Docs" } })
  const page = yield* sharedPage(organization.alice.api, space.id)
  return { ...organization, page, presence: presenceName(page.cr.id), url: yield* collabUrl }
})

/** The pages others in the presence document are on, by the display name the server gives each, as `client` sees them. */
const othersOf = (client: Client): Record<string, unknown> => {
  const awareness = client.provider.awareness!
  const seen: Record<string, unknown> = {}
  for (const [id, state] of awareness.getStates()) {
    if (id === client.doc.clientID) continue
    const user = state["user"] as { readonly name?: string } | undefined
    if (user?.name !== undefined) seen[user.name] = state["pageId"]
  }
  return seen
}

/** What the others in the document say of themselves (`user`), as `client` sees them. */
const usersOf = (client: Client): Array<unknown> =>
  Array.from(client.provider.awareness!.getStates())
    .filter(([id, state]) => id !== client.doc.clientID && state["user"] !== undefined)
    .map(([, state]) => state["user"])

layer(server, { timeout: 120_000, excludeTestServices: true })("presence in a change request", (it) => {
  it.effect("a reader and a writer both join; each sees the other and the page they are on, until the other leaves", () =>
    Effect.gen(function*() {
      const { alice, members, page, presence, url } = yield* setup()
      const a = yield* connect({ url, name: presence, token: alice.token })
      yield* Effect.scoped(Effect.gen(function*() {
        const r = yield* connect({ url, name: presence, token: members.read!.token })
        yield* settled(a)
        yield* settled(r)
        a.provider.setAwarenessField("user", { name: "Alice", colour: 1 })
        a.provider.setAwarenessField("pageId", page.pageId)
        r.provider.setAwarenessField("user", { name: "read", colour: 2 })
        r.provider.setAwarenessField("pageId", null)
        yield* eventually("the reader sees Alice on the page", () => othersOf(r)["Alice"] === page.pageId)
        yield* eventually("Alice sees the reader, on no page", () => "read" in othersOf(a) && othersOf(a)["read"] === null)
        a.provider.setAwarenessField("pageId", "another-page")
        yield* eventually("the reader sees Alice move", () => othersOf(r)["Alice"] === "another-page")
      }))
      yield* eventually("the reader is gone for Alice once the reader left", () => !("read" in othersOf(a)))
      assert.deepStrictEqual(othersOf(a), {})
    }))

  it.effect("what a reader publishes says who they are: claiming the administrator's id and name, in presence and on a page, they are shown as themself", () =>
    Effect.gen(function*() {
      const { alice, members, page, presence, url } = yield* setup()
      const reader = members.read!
      for (const name of [presence, page.name]) {
        const a = yield* connect({ url, name, token: alice.token })
        const r = yield* connect({ url, name, token: reader.token })
        yield* settled(a)
        yield* settled(r)
        a.provider.setAwarenessField("user", { id: alice.user.id, name: "Alice", colour: 1 })
        r.provider.setAwarenessField("user", { id: alice.user.id, name: "Alice", colour: 5, color: "#2e8b57" })
        r.provider.setAwarenessField("pageId", page.pageId)
        yield* eventually(`Alice sees the reader in ${name}`, () => usersOf(a).length === 1)
        assert.deepStrictEqual(usersOf(a), [{ colour: 5, color: "#2e8b57", id: reader.user.id, name: "read" }])
        yield* eventually(`the reader sees Alice as herself in ${name}`, () => usersOf(r).length === 1)
        assert.deepStrictEqual(usersOf(r), [{ colour: 1, id: alice.user.id, name: "Alice" }])
      }
    }))

  it.effect("takes no edits, even from someone who may edit the change request, and holds nothing", () =>
    Effect.gen(function*() {
      const { alice, presence, url } = yield* setup()
      const a = yield* connect({ url, name: presence, token: alice.token })
      yield* settled(a)
      a.doc.getText("markdown").insert(0, "Not a page.")
      yield* Effect.sleep("300 millis")
      assert.isTrue(a.provider.hasUnsyncedChanges, "the server acknowledged an edit of the presence document")
      const b = yield* connect({ url, name: presence, token: alice.token })
      yield* settled(b)
      assert.strictEqual(b.text(), "")
      assert.isTrue(Option.isNone(yield* (yield* LiveDocuments).stored(presence)), "the presence document was stored")
    }))

  it.effect("refuses someone who cannot see the change request, without a credential, and a presence of no change request", () =>
    Effect.gen(function*() {
      const { presence, url } = yield* setup()
      const outsider = (yield* organizationWith()).alice
      const stranger = yield* connect({ url, name: presence, token: outsider.token })
      const anonymous = yield* connect({ url, name: presence })
      const nowhere = yield* connect({ url, name: presenceName("no-such-change-request"), token: outsider.token })
      yield* eventually("the outsider is refused", () => stranger.denied.length > 0)
      yield* eventually("the anonymous client is refused", () => anonymous.denied.length > 0)
      yield* eventually("the unknown change request is refused", () => nowhere.denied.length > 0)
      assert.match(stranger.denied[0]!, /^not-found: /)
      assert.match(anonymous.denied[0]!, /^unauthenticated: /)
      assert.match(nowhere.denied[0]!, /^not-found: /)
    }))

  it.effect("a member removed from the organization is closed, with the reason, and goes from the others' presence", () =>
    Effect.gen(function*() {
      const { alice, members, organizationId, presence, url } = yield* setup()
      const reader = members.read!
      const a = yield* connect({ url, name: presence, token: alice.token })
      const r = yield* connect({ url, name: presence, token: reader.token })
      yield* settled(a)
      yield* settled(r)
      r.provider.setAwarenessField("user", { name: "read", colour: 2 })
      yield* eventually("Alice sees the reader", () => "read" in othersOf(a))
      yield* alice.api.members.removeMemberFromOrganizationById({ params: { organizationId, userId: reader.user.id } })
      yield* eventually("the reader is closed", () => r.closed.some((reason) => reason.startsWith("forbidden: ")))
      yield* eventually("the reader is gone for Alice", () => !("read" in othersOf(a)))
    }))

  it.effect("closes a connection that shares more of itself than the limit, and the others never see it", () =>
    Effect.gen(function*() {
      const { alice, members, presence, url } = yield* setup()
      const a = yield* connect({ url, name: presence, token: alice.token })
      const r = yield* connect({ url, name: presence, token: members.read!.token })
      yield* settled(a)
      yield* settled(r)
      a.provider.setAwarenessField("user", { name: "A".repeat(4_000), colour: 1 })
      yield* eventually("Alice is closed with the reason", () => a.closed.some((reason) => reason.startsWith("awareness-too-large: ")))
      yield* Effect.sleep("300 millis")
      assert.notInclude(Object.keys(othersOf(r)).join(), "AAAA")
    }))

  it.effect("closes a connection that sends more awareness messages a second than the limit", () =>
    Effect.gen(function*() {
      const { alice, presence, url } = yield* setup()
      const a = yield* connect({ url, name: presence, token: alice.token })
      yield* settled(a)
      for (let i = 0; i < 300; i++) a.provider.setAwarenessField("pageId", `page-${i}`)
      yield* eventually("Alice is closed with the reason", () => a.closed.some((reason) => reason.startsWith("rate-limited: ")))
      assert.include(a.closed.find((reason) => reason.startsWith("rate-limited: ")), "more than 50 caret or presence messages a second")
    }))
})


describe("presence across two servers", () => {
  live.live("people connected to two servers see each other in the change request's presence", () =>
    Effect.gen(function*() {
      const { onFirst, onSecond } = yield* twoServers
      const { alice, members, page, presence, url } = yield* onFirst(setup())
      const a = yield* connect({ url, name: presence, token: alice.token })
      const r = yield* connect({ url: yield* onSecond(collabUrl), name: presence, token: members.read!.token })
      yield* settled(a)
      yield* settled(r)
      a.provider.setAwarenessField("user", { name: "Alice", colour: 1 })
      a.provider.setAwarenessField("pageId", page.pageId)
      r.provider.setAwarenessField("user", { name: "read", colour: 2 })
      yield* eventually("the reader on the second server sees Alice on her page", () => othersOf(r)["Alice"] === page.pageId)
      yield* eventually("Alice on the first server sees the reader", () => "read" in othersOf(a))
    }).pipe(Effect.scoped), { timeout: 120_000 })
})
