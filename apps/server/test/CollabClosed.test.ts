/**
 * Live editing when what a person types in changes under them: the page deleted from the change
 * request, the change request merged or archived. Their connection is closed at once (not at the
 * next timed check of access, here an hour away) with a reason the editor shows, and nothing they
 * type after is acknowledged as stored. A merged change request opens read-only.
 */
import { assert, describe, it as plain, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { Database } from "@quire/db"
import { Services } from "@quire/platform"
import { Backends } from "@quire/testkit"
import { presenceName } from "@quire/reviews"
import { contentChanged } from "@quire/live/CollabElsewhere"
import { closedBecause } from "@quire/live/extensions"
import { organizationWith } from "./Harness.ts"
import { type Client, collabServerOn, collabUrl, connect, eventually, redisUrl, settled, sharedPage } from "./CollabSupport.ts"

/** Alice (admin) and Bob (editor), a space, and a shared page in a change request. */
const setup = Effect.fnUntraced(function*() {
  const organization = yield* organizationWith(["edit"])
  const space = yield* organization.alice.api.spaces.createSpace({ params: { organizationId: organization.organizationId }, payload: { title: "Docs" } })
  const page = yield* sharedPage(organization.alice.api, space.id)
  return { ...organization, bob: organization.members.edit!, space, page, url: yield* collabUrl }
})

/** Waits until `client` is closed with a reason of `code`; answers that reason and how long it took (ms). */
const closedWith = (client: Client, code: string) =>
  Effect.gen(function*() {
    const start = Date.now()
    yield* eventually(`the connection is closed ${code}`, () => client.closed.some((reason) => reason.startsWith(`${code}: `)), 30_000)
    return { reason: client.closed.find((reason) => reason.startsWith(`${code}: `))!, ms: Date.now() - start }
  })

/** Types `text` and checks that the server never acknowledges it (it may not be stored). */
const notAcknowledged = (client: Client, text: string) =>
  Effect.gen(function*() {
    client.type(client.text().length, text)
    yield* Effect.sleep("500 millis")
    assert.isTrue(client.provider.hasUnsyncedChanges, `the server acknowledged ${JSON.stringify(text)}`)
  })

describe("live editing closes what changed under it", () => {
  for (const database of Backends.databasesMigrated(Services.migrations)) {
    // Access is checked on a timer an hour apart: only the announcement of the change can close them in time.
    const server = collabServerOn(Services.layerSql, database.name === "pglite" ? "embedded" : "postgres", { recheckInterval: "1 hour" }).pipe(
      Layer.provide(database.layer)
    )

    layer(server, { timeout: 120_000, excludeTestServices: true })(`on ${database.name}`, (it) => {
      it.effect("a page deleted while Bob types in it closes his connection at once, page-deleted; what he types after is not acknowledged", () =>
        Effect.gen(function*() {
          const { alice, bob, page, url } = yield* setup()
          const b = yield* connect({ url, name: page.name, token: bob.token })
          yield* settled(b)
          b.type(b.text().length, "Bob's words.\n")
          yield* settled(b)
          yield* alice.api.changeRequestContent.updateChangeRequestContent({
            params: page.params,
            payload: { changes: [{ operation: "delete_page", page: page.pageId }] }
          })
          const { reason, ms } = yield* closedWith(b, "page-deleted")
          assert.strictEqual(reason, closedBecause.pageDeleted)
          assert.isBelow(ms, 15_000)
          yield* notAcknowledged(b, "After the deletion.")
          // Opened again, the page is not there.
          const again = yield* connect({ url, name: page.name, token: bob.token })
          yield* eventually("Bob is refused the deleted page", () => again.denied.length > 0)
          assert.match(again.denied[0]!, /^not-found: /)
        }))

      it.effect("a merge while Bob types closes his connection at once, merged; opened again, the page is read-only", () =>
        Effect.gen(function*() {
          const { alice, bob, page, url } = yield* setup()
          const b = yield* connect({ url, name: page.name, token: bob.token })
          yield* settled(b)
          b.type(b.text().length, "Before the merge.\n")
          yield* settled(b)
          yield* alice.api.changeRequests.mergeChangeRequest({ params: page.params })
          const { reason, ms } = yield* closedWith(b, "merged")
          assert.strictEqual(reason, closedBecause.merged)
          assert.isBelow(ms, 15_000)
          yield* notAcknowledged(b, "After the merge.")
          const again = yield* connect({ url, name: page.name, token: bob.token })
          yield* eventually("Bob's new connection is synced", () => again.provider.synced)
          assert.include(again.text(), "Before the merge.")
          assert.notInclude(again.text(), "After the merge.")
          yield* notAcknowledged(again, "Into a merged change request.")
          assert.deepStrictEqual(again.closed, [])
        }))

      it.effect("archiving the change request while Bob types closes his connection at once, archived; whoever has it open is told to read it again", () =>
        Effect.gen(function*() {
          const { alice, bob, page, url } = yield* setup()
          const b = yield* connect({ url, name: page.name, token: bob.token })
          const present = yield* connect({ url, name: presenceName(page.cr.id), token: alice.token })
          yield* settled(b)
          yield* settled(present)
          yield* alice.api.changeRequests.updateChangeRequestById({ params: page.params, payload: { status: "archived" } })
          const { reason } = yield* closedWith(b, "archived")
          assert.strictEqual(reason, closedBecause.archived)
          yield* notAcknowledged(b, "After the archive.")
          // The screen of someone who has the change request open reads it again (its status, its buttons).
          yield* eventually("Alice's screen is told", () => present.told.includes(contentChanged))
          assert.deepStrictEqual(present.closed, [])
        }))
    })
  }
})

const postgres = Backends.databasesMigrated(Services.migrations).find((database) => database.name === "postgres")!

// A role has no event to hear: it is read on the timed check, here a fifth of a second apart.
layer(collabServerOn(Services.layerSql, "postgres", { recheckInterval: "200 millis" }).pipe(Layer.provide(postgres.layer)), {
  timeout: 120_000,
  excludeTestServices: true
})("live editing when a role is lowered", (it) => {
  it.effect("Bob's role lowered to reading while he types closes his connection, read-only; what he types after is not acknowledged", () =>
    Effect.gen(function*() {
      const { alice, bob, organizationId, page, url } = yield* setup()
      const b = yield* connect({ url, name: page.name, token: bob.token })
      yield* settled(b)
      yield* alice.api.members.updateMemberInOrganizationById({ params: { organizationId, userId: bob.user.id }, payload: { role: "read" } })
      const { reason } = yield* closedWith(b, "read-only")
      assert.strictEqual(reason, closedBecause.readOnly)
      yield* notAcknowledged(b, "After the role changed.")
    }))
})

/** A server relayed through Redis on the database `pool` reaches, its timed check of access an hour apart. */
const replica = (pool: Layer.Layer<Database.Services, unknown>) =>
  Layer.build(collabServerOn(Services.layerSql, "postgres", { recheckInterval: "1 hour", redisUrl: Option.some(redisUrl) }).pipe(Layer.provide(pool), Layer.orDie))

describe("live editing closes what changed under it, across two servers", () => {
  plain.live("a merge made on one server closes at once the typist connected to the other", () =>
    Effect.gen(function*() {
      const database = yield* Layer.build(postgres.layer)
      const first = yield* replica(Layer.succeedContext(database))
      const second = yield* replica(Database.layerUrl(Context.get(database, Database.DatabaseInfo).url))
      const onFirst = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, first as Context.Context<any>) as Effect.Effect<A, E, never>
      const onSecond = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, second as Context.Context<any>) as Effect.Effect<A, E, never>
      const { alice, bob, page } = yield* onFirst(setup())
      const b = yield* connect({ url: yield* onSecond(collabUrl), name: page.name, token: bob.token })
      yield* settled(b)
      yield* onFirst(alice.api.changeRequests.mergeChangeRequest({ params: page.params }))
      const { reason, ms } = yield* closedWith(b, "merged")
      assert.strictEqual(reason, closedBecause.merged)
      assert.isBelow(ms, 15_000)
      yield* notAcknowledged(b, "After the merge, on the other server.")
    }).pipe(Effect.scoped), { timeout: 180_000 })
})
