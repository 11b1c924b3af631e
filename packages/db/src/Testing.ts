/**
 * Database layers for test suites: a throwaway database on a real PostgreSQL server, and an
 * in-memory PGlite behind the same socket path production uses. Contract suites loop over
 * `backends` so every SQL adapter is checked against both.
 */
import { PgClient } from "@effect/sql-pg"
import { Config, Effect, Layer, Redacted } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { randomBytes } from "node:crypto"
import * as Database from "./Database.ts"

const defaultTestUrl = "postgres://postgres@127.0.0.1:5432/postgres"

const howToStart = "Start it with `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start` " +
  "or point QUIRE_TEST_DATABASE_URL at a server where the user may CREATE DATABASE."

/**
 * A fresh database `quire_test_<random>` on `QUIRE_TEST_DATABASE_URL` (default
 * postgres://postgres@127.0.0.1:5432/postgres), dropped when the layer closes. An unreachable
 * server is a defect, never a skipped suite.
 */
export const layerPostgresTest: Layer.Layer<Database.Services> = Layer.unwrap(Effect.gen(function*() {
  const adminUrl = yield* Config.String("QUIRE_TEST_DATABASE_URL").pipe(Config.withDefault(defaultTestUrl), Effect.orDie)
  const admin = yield* PgClient.makeClient({ url: Redacted.make(adminUrl), connectTimeout: "5 seconds" }).pipe(
    Effect.provide(Reactivity.layer),
    Effect.catch((error) =>
      Effect.die(new Error(`Cannot reach the test PostgreSQL server at ${adminUrl}: ${error.message}. ${howToStart}`, { cause: error }))
    )
  )
  const name = `quire_test_${randomBytes(8).toString("hex")}`
  yield* Effect.acquireRelease(
    admin`CREATE DATABASE ${admin(name)}`.pipe(Effect.orDie),
    // FORCE ends sessions a test leaked, so the drop cannot be blocked by them.
    () => admin`DROP DATABASE IF EXISTS ${admin(name)} WITH (FORCE)`.pipe(Effect.orDie)
  )
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  // A server holds two connections listening (token revocations, published sites); a test running
  // two servers on one pool, as replicas, needs four of them and still some for its queries.
  return Database.layerUrl(url.toString(), { maxConnections: 6 }).pipe(Layer.orDie)
}))

/** An in-memory PGlite served through the socket server, exactly as `Database.layerEmbedded` runs it. */
export const layerPgliteTest: Layer.Layer<Database.Services> = Database.layerEmbedded({ dataDir: undefined }).pipe(
  Layer.orDie
)

/** Both backends, for suites that run the same assertions against each. */
export const backends: ReadonlyArray<{ readonly name: "postgres" | "pglite"; readonly layer: Layer.Layer<Database.Services> }> = [
  { name: "postgres", layer: layerPostgresTest },
  { name: "pglite", layer: layerPgliteTest }
]
