/**
 * Database layers for test suites: a throwaway database on a real PostgreSQL server, and an
 * in-memory PGlite behind the same connection production uses. Contract suites loop over
 * `backends` so every SQL adapter is checked against both.
 *
 * Migrating a database takes a second on PostgreSQL and PGlite's initdb several, in every suite:
 * so a migrated database is made once per set of migrations and copied for each suite. On
 * PostgreSQL it is a template database `quire_template_<key>` (`CREATE DATABASE … TEMPLATE`); for
 * PGlite a dump of the cluster in the temporary directory, which PGlite loads instead of running
 * initdb. The key is a hash of the migrations' tables, names and the SQL they run, so a changed
 * migration makes a new one; both are kept across runs (drop stale templates with
 * `ALTER DATABASE … IS_TEMPLATE false` and `DROP DATABASE`). On this machine's PostgreSQL the
 * templates and the suites' databases live in a tablespace in memory (TestTablespace.ts).
 */
import { PGlite, type PGliteOptions } from "@electric-sql/pglite"
import { PgClient } from "@effect/sql-pg"
import { Cause, Config, Effect, Layer, Redacted, Stream } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient, type SqlConnection } from "effect/sql"
import { createHash, randomBytes } from "node:crypto"
import { existsSync, realpathSync } from "node:fs"
import { mkdir, readFile, rename, writeFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { gunzipSync } from "node:zlib"
import { dirname, join } from "node:path"
import * as Database from "./Database.ts"
import * as Migrations from "./Migrations.ts"
import * as TestTablespace from "./TestTablespace.ts"

const defaultTestUrl = "postgres://postgres@127.0.0.1:5432/postgres"

const howToStart = "Start it with `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start` " +
  "or point QUIRE_TEST_DATABASE_URL at a server where the user may CREATE DATABASE."

const hash = (parts: ReadonlyArray<string>) => createHash("sha256").update(parts.join("\0")).digest("hex").slice(0, 24)

/** A SQL client that runs nothing: it records each statement it is given and answers no rows. */
const recordingClient = (statements: Array<string>) => {
  const record = (sql: string, params: ReadonlyArray<unknown>) =>
    Effect.sync(() => {
      statements.push(sql, params.map((param) => String(param)).join("\u0001"))
      return [] as ReadonlyArray<never>
    })
  const connection: SqlConnection.Connection = {
    execute: record,
    executeRaw: record,
    executeStream: (sql, params) => Stream.fromEffect(record(sql, params)).pipe(Stream.flatMap(() => Stream.empty)),
    executeValues: record,
    executeValuesUnprepared: record,
    executeUnprepared: record
  }
  return SqlClient.make({
    acquirer: Effect.succeed(connection),
    compiler: PgClient.makeCompiler(),
    driver: "recording",
    spanAttributes: []
  }).pipe(Effect.provide(Reactivity.layer))
}

/**
 * What identifies a set of migrations: each package's table, its migrations' names and the SQL
 * they send (recorded without running them; a migration that fails there, having read no rows,
 * adds its failure).
 */
export const migrationsKey = (migrations: ReadonlyArray<Migrations.PackageMigrations>): Effect.Effect<string> =>
  Effect.gen(function*() {
    const statements: Array<string> = []
    const client = yield* recordingClient(statements)
    for (const pkg of migrations) {
      statements.push(`table ${pkg.table}`)
      for (const [name, migration] of Object.entries(pkg.migrations)) {
        statements.push(`migration ${name}`)
        yield* migration.pipe(
          Effect.provideService(SqlClient.SqlClient, client),
          Effect.catchCause((cause) => Effect.sync(() => statements.push(`failed ${Cause.pretty(cause)}`)))
        )
      }
    }
    return hash(statements)
  })

const adminClient = Effect.gen(function*() {
  const adminUrl = yield* Config.String("QUIRE_TEST_DATABASE_URL").pipe(Config.withDefault(defaultTestUrl), Effect.orDie)
  const admin = yield* PgClient.makeClient({ url: Redacted.make(adminUrl), connectTimeout: Database.connectTimeout }).pipe(
    Effect.provide(Reactivity.layer),
    Effect.catch((error) =>
      Effect.die(new Error(`Cannot reach the test PostgreSQL server at ${adminUrl}: ${error.message}. ${howToStart}`, { cause: error }))
    )
  )
  /** The URL of the database `name` on the same server. */
  const urlOf = (name: string) => {
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    return url.toString()
  }
  const tablespace = yield* TestTablespace.forServer(admin, adminUrl)
  return { admin, urlOf, tablespace }
})

type Admin = Effect.Success<typeof adminClient>

/**
 * Commits to a throwaway database return before their WAL reaches the disk
 * (`synchronous_commit = off` for every session of it; a copy made from a template does not
 * inherit it). A commit still is atomic and at once visible to every other connection, and
 * survives any process but PostgreSQL's own being killed, which no test does: waiting for the disk
 * at each commit was most of the time of the suites that write, on a disk several suites share.
 */
const withoutCommitFlush = (admin: Admin["admin"], database: string) =>
  admin`ALTER DATABASE ${admin(database)} SET synchronous_commit = off`.pipe(Effect.orDie)

/** A new, empty database, in `tablespace` when one is given (TestTablespace.ts). */
const createDatabase = (admin: Admin["admin"], name: string, tablespace: string | undefined) =>
  tablespace === undefined
    ? admin`CREATE DATABASE ${admin(name)}`
    : admin`CREATE DATABASE ${admin(name)} TABLESPACE ${admin(tablespace)}`

/** Held while a template database is built, so that concurrent suites build each one once. */
const templateLock = 0x7175_6972

/** The template database holding `migrations` applied, built now unless an earlier suite or run did. */
const templateFor = Effect.fnUntraced(function*({ admin, urlOf, tablespace }: Admin, migrations: ReadonlyArray<Migrations.PackageMigrations>) {
  const template = `quire_template_${yield* migrationsKey(migrations)}`
  // Where it is: none (to build), in the test databases' tablespace (to copy), elsewhere (to move there first).
  const placed = admin<{ readonly spcname: string }>`SELECT t.spcname FROM pg_database d
    JOIN pg_tablespace t ON t.oid = d.dattablespace WHERE d.datname = ${template}`.pipe(
    Effect.map((rows) => rows.length === 0 ? "missing" as const : tablespace === undefined || rows[0]!.spcname === tablespace ? "ready" as const : "elsewhere" as const),
    Effect.orDie
  )
  if ((yield* placed) === "ready") return template
  yield* Effect.scoped(Effect.gen(function*() {
    // The admin client is one connection: the session lock is taken and released on it.
    yield* Effect.acquireRelease(
      admin`SELECT pg_advisory_lock(${templateLock})`,
      () => Effect.ignore(admin`SELECT pg_advisory_unlock(${templateLock})`)
    )
    const where = yield* placed
    if (where === "elsewhere") yield* admin`ALTER DATABASE ${admin(template)} SET TABLESPACE ${admin(tablespace!)}`
    if (where !== "missing") return
    // Only the holder of the lock builds: a database left half-built is from a run that stopped.
    const building = `${template}_building`
    yield* admin`DROP DATABASE IF EXISTS ${admin(building)} WITH (FORCE)`
    yield* createDatabase(admin, building, tablespace)
    yield* withoutCommitFlush(admin, building)
    yield* Effect.scoped(Effect.provide(
      Migrations.run(...migrations),
      Layer.orDie(Database.layerUrl(urlOf(building), { maxConnections: 1 }))
    ))
    // Renaming and copying need a database nobody is connected to: no one ever connects again.
    yield* admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${building} AND pid <> pg_backend_pid()`
    yield* admin`ALTER DATABASE ${admin(building)} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`
    yield* admin`ALTER DATABASE ${admin(building)} RENAME TO ${admin(template)}`
  }).pipe(Effect.orDie))
  return template
})

/** How a test's client differs from the server's. */
export interface ClientOptions {
  /**
   * The largest message the client reads (`Database.clientMaxMessageBytes` by default): a suite
   * that proves a store never brings back a row over it lowers it, so that data just over it is
   * enough.
   */
  readonly maxMessageBytes?: number | undefined
}

/**
 * A fresh database `quire_test_<random>` on `QUIRE_TEST_DATABASE_URL` (default
 * postgres://postgres@127.0.0.1:5432/postgres), holding `migrations` applied (a copy of their
 * template database), dropped when the layer closes. An unreachable server is a defect, never a
 * skipped suite.
 */
export const layerPostgresMigrated = (
  migrations: ReadonlyArray<Migrations.PackageMigrations>,
  options?: ClientOptions
): Layer.Layer<Database.Services> =>
  Layer.unwrap(Effect.gen(function*() {
    const server = yield* adminClient
    const { admin, urlOf, tablespace } = server
    const template = migrations.length === 0 ? undefined : yield* templateFor(server, migrations)
    const name = `quire_test_${randomBytes(8).toString("hex")}`
    yield* Effect.acquireRelease(
      // A copy of a template is made in the template's tablespace.
      (template === undefined
        ? createDatabase(admin, name, tablespace)
        : admin`CREATE DATABASE ${admin(name)} TEMPLATE ${admin(template)}`).pipe(Effect.orDie),
      // FORCE ends sessions a test leaked, so the drop cannot be blocked by them.
      () => admin`DROP DATABASE IF EXISTS ${admin(name)} WITH (FORCE)`.pipe(Effect.orDie)
    )
    yield* withoutCommitFlush(admin, name)
    // A server holds two connections listening (token revocations, published sites); a test running
    // two servers on one pool, as replicas, needs four of them and still some for its queries.
    return Database.layerUrl(urlOf(name), { maxConnections: 6, maxMessageBytes: options?.maxMessageBytes }).pipe(Layer.orDie)
  }))

/**
 * A fresh, empty database `quire_test_<random>` on `QUIRE_TEST_DATABASE_URL` (default
 * postgres://postgres@127.0.0.1:5432/postgres), dropped when the layer closes. An unreachable
 * server is a defect, never a skipped suite.
 */
export const layerPostgresTest: Layer.Layer<Database.Services> = layerPostgresMigrated([])

/** Where dumps of migrated PGlite clusters are kept, named by the migrations' key and PGlite's build. */
const dumpDirectory = join(tmpdir(), "quire-test-pglite")

const pgliteBuild = hash([realpathSync(createRequire(import.meta.url).resolve("@electric-sql/pglite"))])

// quire-lint-allow module-state: test support; the suites of one process share each migrated dump on purpose
const dumps = new Map<string, Promise<Blob>>()

const pgliteDirectory = dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"))

type PgliteFiles = Required<Pick<PGliteOptions, "pgliteWasmModule" | "fsBundle">>

// Node's WebAssembly, which the ES library of the packages' settings does not declare.
declare const WebAssembly: { readonly compile: (bytes: Uint8Array) => Promise<PgliteFiles["pgliteWasmModule"]> }

// quire-lint-allow module-state: test support; PGlite's compiled program and file bundle, read once per process for every suite's database
let pgliteFiles: Promise<PgliteFiles> | undefined

/** PGlite's WebAssembly compiled once and its file bundle read once in this process, rather than for each database. */
const sharedPgliteFiles = (): Promise<PgliteFiles> =>
  pgliteFiles ??= Promise.all([
    readFile(join(pgliteDirectory, "pglite.wasm")).then((bytes) => WebAssembly.compile(bytes)),
    readFile(join(pgliteDirectory, "pglite.data")).then((bytes) => new Blob([bytes]))
  ]).then(([pgliteWasmModule, fsBundle]) => ({ pgliteWasmModule, fsBundle }))

/**
 * A PGlite with the embedded server's settings (`Database.embeddedSettings`): PostgreSQL's default
 * shared buffers, which PGlite zeroes when it starts, are far larger than a test database needs.
 */
const createPglite = async (loadDataDir?: Blob) =>
  PGlite.create({
    ...(await sharedPgliteFiles()),
    postgresqlconf: [...Database.embeddedSettings],
    ...(loadDataDir === undefined ? {} : { loadDataDir })
  })

const openPglite = (loadDataDir?: Blob) => Effect.acquireRelease(Effect.promise(() => createPglite(loadDataDir)), (db) => Effect.promise(() => db.close()))

/** Where the dump of a PGlite cluster holding `migrations` applied is kept, and its key. */
const dumpFile = (migrations: ReadonlyArray<Migrations.PackageMigrations>) =>
  Effect.map(migrationsKey(migrations), (migrationsKey) => {
    const key = `${migrationsKey}-${pgliteBuild}`
    return { key, file: join(dumpDirectory, `${key}.tar.gz`) }
  })

/**
 * The dump of a PGlite cluster holding `migrations` applied (none: a new cluster), made once, as
 * an uncompressed tar: kept gzipped on disk, unzipped once per process rather than by PGlite at
 * each database it opens from it (through web streams, a fifth of a test database's start).
 */
const dumpFor = (migrations: ReadonlyArray<Migrations.PackageMigrations>): Effect.Effect<Blob> =>
  Effect.gen(function*() {
    const { file, key } = yield* dumpFile(migrations)
    const cached = dumps.get(key)
    if (cached !== undefined) return yield* Effect.promise(() => cached)
    const make = Effect.gen(function*() {
      if (existsSync(file)) return new Blob([gunzipSync(yield* Effect.promise(() => readFile(file)))])
      const dump = yield* Effect.scoped(Effect.gen(function*() {
        const db = yield* openPglite(migrations.length === 0 ? undefined : yield* dumpFor([]))
        if (migrations.length > 0) {
          yield* Effect.scoped(Effect.provide(Migrations.run(...migrations), Layer.orDie(Database.layerServing(db))))
        }
        return yield* Effect.promise(() => db.dumpDataDir("gzip"))
      }))
      // Written aside and renamed: a suite in another process reads a whole dump or none.
      const partial = `${file}.${randomBytes(4).toString("hex")}`
      yield* Effect.promise(async () => {
        await mkdir(dumpDirectory, { recursive: true })
        await writeFile(partial, new Uint8Array(await dump.arrayBuffer()))
        await rename(partial, file)
      })
      return new Blob([gunzipSync(new Uint8Array(yield* Effect.promise(() => dump.arrayBuffer())))])
    })
    // Shared by every suite of this process that asks for the same migrations, so it runs apart
    // from the first asker's fiber (its interruption must not cancel the others' dump), with
    // that fiber's services rather than the default runtime.
    const pending = Effect.runPromiseWith(yield* Effect.context<never>())(make)
    dumps.set(key, pending)
    return yield* Effect.promise(() => pending)
  })

/** An open PGlite a suite has finished with, and what its database held when it was loaded from its dump. */
interface IdlePglite {
  readonly db: PGlite
  /** The relations, types and functions outside PostgreSQL's own schemas (their names and oids). */
  readonly schema: string
  /** Every table but the migrations tables (the only ones a migrated dump holds rows in). */
  readonly tables: ReadonlyArray<string>
}

// quire-lint-allow module-state: test support; the PGlites this process's suites closed, emptied and reopened by the next suite that asks for the same dump
const idlePglites = new Map<string, Array<IdlePglite>>()

/** More PGlites of one dump than this, idle at once, are closed: each holds its cluster in memory. */
const idlePglitesKept = 3

const schemaOf = (db: PGlite) =>
  db.query<{ readonly schema: string }>(
    `SELECT string_agg(kind || ':' || name || ':' || oid::text, ',' ORDER BY kind, name, oid) AS schema FROM (
       SELECT 'r' AS kind, n.nspname || '.' || c.relname || '.' || c.relkind::text AS name, c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'
       UNION ALL SELECT 't', n.nspname || '.' || t.typname, t.oid FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
         WHERE n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'
       UNION ALL SELECT 'f', n.nspname || '.' || p.proname, p.oid FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
         WHERE n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'
       UNION ALL SELECT 'n', nspname, oid FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%'
     ) objects`
  ).then((result) => result.rows[0]?.schema ?? "")

/** What a PGlite just loaded from its dump holds, to bring it back to that when a later suite reuses it. */
const pristine = async (db: PGlite): Promise<IdlePglite> => {
  const tables = await db.query<{ readonly name: string }>(
    `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
       WHERE schemaname NOT LIKE 'pg\\_%' AND schemaname <> 'information_schema' AND tablename NOT LIKE 'quire\\_%\\_migrations'`
  )
  return { db, schema: await schemaOf(db), tables: tables.rows.map((row) => row.name) }
}

/**
 * `idle` as its dump loaded it, or undefined (and closed) when a suite changed more than rows
 * (a table, a type, a function): its session's state discarded (settings, prepared statements,
 * temporary tables) and every table but the migrations' emptied, their sequences restarted.
 */
const reset = async (idle: IdlePglite): Promise<IdlePglite | undefined> => {
  const { db } = idle
  try {
    if (db.isInTransaction()) await db.exec("ROLLBACK")
    await db.exec("DISCARD ALL")
    if (await schemaOf(db) !== idle.schema) throw new Error("a suite changed the schema")
    // Triggers that guard rows against deletion (audit events') do not fire for a replica's session.
    if (idle.tables.length > 0) {
      await db.exec(`BEGIN; SET LOCAL session_replication_role = replica; TRUNCATE ${idle.tables.join(", ")} RESTART IDENTITY CASCADE; COMMIT`)
    }
    return idle
  } catch {
    await db.close().catch(() => undefined)
    return undefined
  }
}

/**
 * A PGlite holding `migrations` applied: one a suite of this process has finished with, emptied,
 * or else a new one loaded from their dump (about a second of CPU: compiling nothing, but unpacking
 * the cluster's files and starting PostgreSQL). Given back to the process's idle ones when the
 * scope closes (closed when enough are). Suites run one after another in a Vitest worker
 * (`isolate: false`), so most suites on PGlite reuse the one the previous suite closed.
 */
const pooledPglite = (migrations: ReadonlyArray<Migrations.PackageMigrations>) =>
  Effect.gen(function*() {
    const { key } = yield* dumpFile(migrations)
    const dump = yield* dumpFor(migrations)
    const idle = yield* Effect.acquireRelease(
      Effect.promise(async () => {
        for (let reused = idlePglites.get(key)?.pop(); reused !== undefined; reused = idlePglites.get(key)?.pop()) {
          const ready = await reset(reused)
          if (ready !== undefined) return ready
        }
        return pristine(await createPglite(dump))
      }),
      (idle) =>
        Effect.promise(async () => {
          const kept = idlePglites.get(key) ?? []
          idlePglites.set(key, kept)
          if (kept.length < idlePglitesKept) kept.push(idle)
          else await idle.db.close().catch(() => undefined)
        })
    )
    return idle.db
  })

/**
 * An in-memory PGlite holding `migrations` applied (loaded from their dump, or one an earlier
 * suite of this process used, emptied), served exactly as `Database.layerEmbedded` serves it.
 */
export const layerPgliteMigrated = (
  migrations: ReadonlyArray<Migrations.PackageMigrations>,
  options?: ClientOptions
): Layer.Layer<Database.Services> =>
  Layer.unwrap(Effect.map(pooledPglite(migrations), (db) => Database.layerServing(db, undefined, options))).pipe(Layer.orDie)

/**
 * The file of a PGlite cluster holding `migrations` applied (a gzipped dump, made once), to pass
 * as `Database.layerEmbedded`'s `initialCluster`: a test's data directory starts from it instead
 * of running initdb and the migrations.
 */
export const pgliteClusterFile = (migrations: ReadonlyArray<Migrations.PackageMigrations>): Effect.Effect<string> =>
  Effect.gen(function*() {
    yield* dumpFor(migrations)
    return (yield* dumpFile(migrations)).file
  })

/** An in-memory PGlite, a new cluster, served exactly as `Database.layerEmbedded` runs it. */
export const layerPgliteTest: Layer.Layer<Database.Services> = layerPgliteMigrated([])

export type Backend = { readonly name: "postgres" | "pglite"; readonly layer: Layer.Layer<Database.Services> }

/** Both backends holding `migrations` applied, for suites that run the same assertions against each. */
export const backendsMigrated = (migrations: ReadonlyArray<Migrations.PackageMigrations>, options?: ClientOptions): ReadonlyArray<Backend> => [
  { name: "postgres", layer: layerPostgresMigrated(migrations, options) },
  { name: "pglite", layer: layerPgliteMigrated(migrations, options) }
]

/** Both backends, empty, for suites that run the same assertions against each. */
export const backends: ReadonlyArray<Backend> = backendsMigrated([])
