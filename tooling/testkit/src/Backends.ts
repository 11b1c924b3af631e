/**
 * The storage backends every suite runs on: memory, a throwaway database on the machine's
 * PostgreSQL (which must be reachable: an unreachable server fails the suite, never skips it)
 * and an in-memory PGlite.
 */
import { layer as layerSuite, type Vitest } from "@effect/vitest"
import { Context, type Duration, Effect, Layer, type Scope } from "effect"
import { ClusterDump, Database, type Migrations, SqlTransactor } from "@quire/db"
import * as Testing from "@quire/db/Testing"
import { Transactor } from "@quire/kernel"

/** A fresh `quire_test_<random>` database on `QUIRE_TEST_DATABASE_URL`, dropped when the layer closes. */
export const layerPostgresTest: Layer.Layer<Database.Services> = Testing.layerPostgresTest

/**
 * A fresh database on the machine's PostgreSQL holding `migrations` applied (a copy of their
 * template), dropped when the layer closes: for a server process started on it, whose own
 * migration run then finds nothing to do.
 */
export const layerPostgresMigrated = (migrations: ReadonlyArray<Migrations.PackageMigrations>): Layer.Layer<Database.Services> =>
  Testing.layerPostgresMigrated(migrations)

/**
 * The URL of a fresh, empty database on the machine's PostgreSQL, dropped when the scope closes:
 * for servers a test starts as processes of their own (they migrate it), several on one database.
 */
export const postgresUrl: Effect.Effect<string, never, Scope.Scope> = Effect.map(
  Layer.build(layerPostgresTest),
  (context) => Context.get(context, Database.DatabaseInfo).url
)

/** An in-memory PGlite behind the socket server, as the embedded mode runs it. */
export const layerPgliteTest: Layer.Layer<Database.Services> = Testing.layerPgliteTest

/**
 * A gzipped PGlite cluster holding `migrations` applied (none: a new cluster), made once:
 * `Database.layerEmbedded`'s `initialCluster` for a test's data directory, which then starts
 * without initdb or migrating.
 */
export const embeddedClusterFile = (migrations: ReadonlyArray<Migrations.PackageMigrations>): Effect.Effect<string> =>
  Testing.pgliteClusterFile(migrations)

/**
 * `dataDir` holding a new, unmigrated embedded database (a copy of a cluster made once, see
 * `@quire/db/Testing`), for tests of what migrates one: PGlite's initdb takes seconds.
 */
export const newEmbeddedCluster = (dataDir: string): Effect.Effect<string> =>
  Effect.flatMap(Testing.pgliteClusterFile([]), (file) => Effect.promise(() => ClusterDump.restore(file, dataDir))).pipe(Effect.as(dataDir))

export type SqlName = "postgres" | "pglite"
export type Name = "memory" | SqlName

/** The two SQL databases, empty, for suites that only run on SQL (they read tables, or need a server). */
export const databases: ReadonlyArray<{ readonly name: SqlName; readonly layer: Layer.Layer<Database.Services> }> = Testing.backends

/**
 * The two SQL databases holding `migrations` applied: copies of a database migrated once (see
 * `@quire/db/Testing`), so that a suite does not pay for migrating its own.
 */
export const databasesMigrated = (
  migrations: ReadonlyArray<Migrations.PackageMigrations>,
  client?: Testing.ClientOptions
): ReadonlyArray<{ readonly name: SqlName; readonly layer: Layer.Layer<Database.Services> }> =>
  Testing.backendsMigrated(migrations, client)

/** One backend: its name (which names its suite) and the layer a suite shares. */
export interface Backend<A> {
  readonly name: Name
  readonly layer: Layer.Layer<A>
}

/**
 * Memory, PostgreSQL and PGlite: `memory` as given, `sql(name)` over each database (its
 * requirements met by the database layer, provided last), which holds `migrations` applied
 * (none: an empty database); `client` lowers what the database client reads in one message.
 */
export const make = <A, E1, E2>(options: {
  readonly memory: Layer.Layer<A, E1>
  readonly sql: (database: SqlName) => Layer.Layer<A, E2, Database.Services>
  readonly migrations?: ReadonlyArray<Migrations.PackageMigrations> | undefined
  readonly client?: Testing.ClientOptions | undefined
}): ReadonlyArray<Backend<A>> => [
  { name: "memory", layer: Layer.orDie(options.memory) },
  ...databasesMigrated(options.migrations ?? [], options.client).map((database) => ({
    name: database.name,
    layer: options.sql(database.name).pipe(Layer.provide(database.layer), Layer.orDie)
  }))
]

/**
 * The backends of a package's ports, with the `Transactor` of each (the memory one journals the
 * adapters' `TxMap`s, the SQL one is a database transaction), so a suite can check rollbacks.
 * The SQL adapters run on a database where `migrations` were applied; `client` lowers what the
 * database client reads in one message.
 */
export const ports = <A, E1, E2>(options: {
  readonly memory: Layer.Layer<A, E1>
  readonly sql: Layer.Layer<A, E2, Database.Services>
  readonly migrations: ReadonlyArray<Migrations.PackageMigrations>
  readonly client?: Testing.ClientOptions | undefined
}): ReadonlyArray<Backend<A | Transactor.Transactor>> =>
  make({
    memory: Layer.merge(options.memory, Transactor.Transactor.layerMemory),
    sql: () => Layer.merge(options.sql, SqlTransactor.layer),
    migrations: options.migrations,
    client: options.client
  })

/**
 * Registers `suite` once per backend, each run in a describe block named after the backend and
 * sharing that backend's layer (one store: tests must use ids of their own).
 */
export const each = <A>(
  backends: ReadonlyArray<Backend<A>>,
  suite: (it: Vitest.MethodsNonLive<A>, backend: Name) => void,
  options: { readonly timeout?: Duration.Input } = {}
): void => {
  for (const backend of backends) {
    // A fresh database takes a few seconds to start, and a PGlite's migrations far longer on a busy machine.
    layerSuite(backend.layer, { timeout: options.timeout ?? "120 seconds" })(backend.name, (it) => suite(it, backend.name))
  }
}
