/**
 * `/health` tells an orchestrator whether the process can serve: 200 while its database answers a
 * query, 503 (with the error envelope) as soon as it does not, and 200 again once it is back.
 */
import { assert, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Config, Effect, Layer, Redacted } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { Database } from "@quire/db"
import { Services } from "@quire/platform"
import { Backends } from "@quire/testkit"
import { eventuallyEffect } from "./CollabSupport.ts"
import { raw, serverOn } from "./Harness.ts"

/** A client on the PostgreSQL server's `postgres` database, to switch the test database off and on. */
const admin = Effect.gen(function*() {
  const url = yield* Config.String("QUIRE_TEST_DATABASE_URL").pipe(
    Config.withDefault("postgres://postgres@127.0.0.1:5432/postgres"),
    Effect.orDie
  )
  return yield* PgClient.makeClient({ url: Redacted.make(url) }).pipe(Effect.provide(Reactivity.layer), Effect.orDie)
})

const server = serverOn(Services.layerSql, "postgres").pipe(
  Layer.provideMerge(Backends.layerPostgresTest),
  Layer.orDie
)

layer(server, { timeout: 120_000, excludeTestServices: true })("/health on PostgreSQL", (it) => {
  it.effect("answers 503 while the database refuses every connection, and 200 again once it is back", () =>
    Effect.gen(function*() {
      const sql = yield* admin
      const name = new URL((yield* Database.DatabaseInfo).url).pathname.slice(1)
      const healthy = yield* raw("GET", "/health")
      assert.deepStrictEqual([healthy.status, healthy.body], [200, { status: "ok", database: "postgres" }])

      // The database stops answering the server: no new connection, and its open ones are ended.
      yield* sql`ALTER DATABASE ${sql(name)} WITH ALLOW_CONNECTIONS false`.pipe(Effect.orDie)
      yield* Effect.addFinalizer(() => sql`ALTER DATABASE ${sql(name)} WITH ALLOW_CONNECTIONS true`.pipe(Effect.orDie))
      yield* sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name}`.pipe(Effect.orDie)

      const started = Date.now()
      const down = yield* raw("GET", "/health")
      assert.strictEqual(down.status, 503)
      assert.deepStrictEqual(down.body, { error: { code: 503, message: "The database does not answer" } })
      assert.isBelow(Date.now() - started, 5_000, "the probe gives up within its short timeout")

      // A connection attempt the pool began while the database refused can still fail after it is
      // back, and the pool hands that failure to whichever probe waits next; an orchestrator probes
      // again, and so does this test, until the server answers 200, then it must keep answering 200.
      yield* sql`ALTER DATABASE ${sql(name)} WITH ALLOW_CONNECTIONS true`.pipe(Effect.orDie)
      const status = Effect.map(raw("GET", "/health"), (response) => response.status)
      assert.strictEqual(yield* eventuallyEffect(status, (now) => now === 200), 200)
      const after = yield* Effect.forEach([1, 2, 3], () => status)
      assert.deepStrictEqual(after, [200, 200, 200])
    }).pipe(Effect.scoped))
})
