/**
 * Telling the people in a change request that its pages changed (issue 57, finding 9): after a
 * write to its content, each server sends the clients of the change request's presence document a
 * stateless `content-changed`, and the app reads the change request's tree again. Not for live
 * editing's own write back of a page's text (the tree did not move), not for another change
 * request's writes; and a write on one server reaches a person on another (PostgreSQL NOTIFY).
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Services } from "@quire/platform"
import { presenceName } from "@quire/reviews"
import { Backends } from "@quire/testkit"
import { contentChanged } from "@quire/live/CollabElsewhere"
import { organizationWith } from "./Harness.ts"
import { collabServerOn, collabUrl, connect, eventually, eventuallyEffect, settled, sharedPage, twoServers } from "./CollabSupport.ts"

const told = (messages: ReadonlyArray<string>) => messages.filter((message) => message === contentChanged).length

for (const database of Backends.databasesMigrated(Services.migrations)) {
  const server = collabServerOn(Services.layerSql, database.name === "pglite" ? "embedded" : "postgres").pipe(Layer.provide(database.layer))

  layer(server, { timeout: 120_000, excludeTestServices: true })(`a change request's pages changed, on ${database.name}`, (it) => {
    it.effect("a page added is told to everyone in the change request, a reader too; a page's text written back live and another change request's write are not", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["read"])
        const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Docs" } })
        const page = yield* sharedPage(alice.api, space.id)
        const other = yield* sharedPage(alice.api, space.id)
        const url = yield* collabUrl
        const a = yield* connect({ url, name: presenceName(page.cr.id), token: alice.token })
        const r = yield* connect({ url, name: presenceName(page.cr.id), token: members.read!.token })
        yield* settled(a)
        yield* settled(r)

        yield* alice.api.changeRequestContent.updateChangeRequestContent({
          params: page.params,
          payload: { changes: [{ operation: "insert_page", title: "Added", document: { markdown: "Added.\n" } }] }
        })
        yield* eventually("Alice is told", () => told(a.told) === 1)
        yield* eventually("the reader is told", () => told(r.told) === 1)

        // Typed in the page: its markdown is written back, and nobody is told of it.
        const typist = yield* connect({ url, name: page.name, token: alice.token })
        yield* settled(typist)
        typist.type(0, "Typed. ")
        yield* settled(typist)
        yield* eventuallyEffect(page.markdown, (markdown) => markdown.startsWith("Typed. "))
        // Another change request moves: not this one's people's concern.
        yield* alice.api.changeRequestContent.updateChangeRequestContent({
          params: other.params,
          payload: { changes: [{ operation: "insert_page", title: "Elsewhere", document: { markdown: "Elsewhere.\n" } }] }
        })
        // Both are announced before the next write; a second is long enough for them to be told.
        yield* Effect.sleep("1 second")
        assert.strictEqual(told(a.told), 1)
        yield* alice.api.changeRequestContent.updateChangeRequestContent({
          params: page.params,
          payload: { changes: [{ operation: "insert_page", title: "Again", document: { markdown: "Again.\n" } }] }
        })
        yield* eventually("Alice is told again", () => told(a.told) === 2)
        assert.deepStrictEqual(a.told, [contentChanged, contentChanged])
        assert.strictEqual(told(r.told), 2)
      }).pipe(Effect.scoped))
  })
}

describe("a change request's pages changed, across two servers", () => {
  it.live("a page added through one server is told to a person in the change request on the other", () =>
    Effect.gen(function*() {
      const { onFirst, onSecond } = yield* twoServers
      const { alice, page } = yield* onFirst(Effect.gen(function*() {
        const organization = yield* organizationWith()
        const space = yield* organization.alice.api.spaces.createSpace({ params: { organizationId: organization.organizationId }, payload: { title: "Docs" } })
        return { ...organization, page: yield* sharedPage(organization.alice.api, space.id) }
      }))
      const b = yield* connect({ url: yield* onSecond(collabUrl), name: presenceName(page.cr.id), token: alice.token })
      yield* settled(b)
      yield* onFirst(alice.api.changeRequestContent.updateChangeRequestContent({
        params: page.params,
        payload: { changes: [{ operation: "insert_page", title: "Added", document: { markdown: "Added.\n" } }] }
      }))
      yield* eventually("the person on the second server is told", () => told(b.told) >= 1)
    }).pipe(Effect.scoped), { timeout: 120_000 })
})
