/**
 * Live editing across two servers on one PostgreSQL, relaying through Redis (QUIRE_REDIS_URL;
 * Redis at 127.0.0.1:6379): a person on each server sees the other's keystrokes.
 */
import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { Database } from "@quire/db"
import { Services } from "@quire/platform"
import { Backends } from "@quire/testkit"
import { organizationWith } from "./Harness.ts"
import { collabServerOn, collabUrl, connect, eventually, eventuallyEffect, redisUrl, settled, sharedPage } from "./CollabSupport.ts"

const postgres = Backends.databasesMigrated(Services.migrations).find((database) => database.name === "postgres")!

/** A server with live editing relayed through Redis, on the database `pool` reaches. */
const replica = (pool: Layer.Layer<Database.Services, unknown>) =>
  Layer.build(collabServerOn(Services.layerSql, "postgres", { redisUrl: Option.some(redisUrl) }).pipe(Layer.provide(pool), Layer.orDie))

describe("live editing on two servers", () => {
  it.live("two people on two servers see each other's edits, and the page's markdown holds both", () =>
    Effect.gen(function*() {
      const database = yield* Layer.build(postgres.layer)
      // Each server with a pool of its own on the one database, as two processes would have (each
      // holds connections for its listeners).
      const first = yield* replica(Layer.succeedContext(database))
      const second = yield* replica(Database.layerUrl(Context.get(database, Database.DatabaseInfo).url))
      const onFirst = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, first as Context.Context<any>) as Effect.Effect<A, E, never>
      const onSecond = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, second as Context.Context<any>) as Effect.Effect<A, E, never>

      const { alice, members, space } = yield* onFirst(Effect.gen(function*() {
        const organization = yield* organizationWith(["edit"])
        const space = yield* organization.alice.api.spaces.createSpace({ params: { organizationId: organization.organizationId }, payload: { title: "Docs" } })
        return { ...organization, space }
      }))
      const page = yield* onFirst(sharedPage(alice.api, space.id))
      const urlFirst = yield* onFirst(collabUrl)
      const urlSecond = yield* onSecond(collabUrl)
      assert.notStrictEqual(urlFirst, urlSecond)

      const a = yield* connect({ url: urlFirst, name: page.name, token: alice.token })
      const b = yield* connect({ url: urlSecond, name: page.name, token: members.edit!.token })
      yield* settled(a)
      yield* settled(b)
      a.type(0, "From the first server. ")
      yield* eventually("the second server's client sees the first's edit", () => b.text().includes("From the first server."))
      b.type(b.text().length, "From the second server.\n")
      yield* eventually("the first server's client sees the second's edit", () => a.text().includes("From the second server."))
      for (let i = 0; i < 5; i++) {
        a.type(0, `a${i} `)
        b.type(b.text().length, ` b${i}`)
      }
      yield* settled(a)
      yield* settled(b)
      yield* eventually("both converge", () => a.text() === b.text())
      for (let i = 0; i < 5; i++) {
        assert.include(a.text(), `a${i} `)
        assert.include(a.text(), ` b${i}`)
      }
      const typed = a.text()
      const written = yield* onSecond(eventuallyEffect(page.markdown, (markdown) => markdown === typed))
      assert.strictEqual(written, typed)
    }).pipe(Effect.scoped), { timeout: 120_000 })
})
