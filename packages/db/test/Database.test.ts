import { PGlite } from "@electric-sql/pglite"
import { PgClient } from "@effect/sql-pg"
import { assert, describe, it } from "@effect/vitest"
import { Cause, ConfigProvider, Effect, Exit, Layer, Logger, Redacted } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient } from "effect/sql"
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { hostname, tmpdir } from "node:os"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { beforeAll } from "vitest"
import * as ClusterDump from "../src/ClusterDump.ts"
import * as Database from "../src/Database.ts"
import * as EmbeddedOwner from "../src/EmbeddedOwner.ts"
import * as Migrations from "../src/Migrations.ts"
import * as Testing from "../src/Testing.ts"

const adminUrl = process.env["QUIRE_TEST_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres"

const tempDir = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "quire-db-test-"))),
  (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
)

/** Builds `layer` in its own scope, runs `f` with its services, and closes it again. */
const withLayer = <A, E, ROut, E2>(
  layer: Layer.Layer<ROut, E2>,
  f: Effect.Effect<A, E, ROut>
) => Effect.scoped(Effect.flatMap(Layer.build(layer), (context) => Effect.provide(f, context)))

/**
 * A new cluster's dump, made once for every suite (`Testing.pgliteClusterFile`), dumped as
 * tooling/build/build.mjs dumps dist/pglite-initial.tar.gz: the tests that are not about initdb
 * start from it, since PGlite's initdb takes seconds. The first test below runs initdb.
 */
const newClusterFile = Testing.pgliteClusterFile([])

/** `dataDir` holding a new cluster, restored from its dump. */
const newCluster = (dataDir: string) =>
  Effect.flatMap(newClusterFile, (file) => Effect.promise(() => ClusterDump.restore(file, dataDir))).pipe(Effect.as(dataDir))

/** An in-memory PGlite of a new cluster, loaded from its dump, with the embedded server's settings. */
const newPglite = Effect.acquireRelease(
  Effect.flatMap(newClusterFile, (file) =>
    Effect.promise(async () =>
      PGlite.create({ loadDataDir: new Blob([gunzipSync(await readFile(file))]), postgresqlconf: [...Database.embeddedSettings] }))),
  (db) => Effect.promise(() => db.close())
)

const DatabaseInfoEffect = Database.DatabaseInfo.useSync((info) => info)

/** Runs `f` with the layer's services and returns what it logged too. */
const logged = <A, E, ROut, E2>(layer: Layer.Layer<ROut, E2>, f: Effect.Effect<A, E, ROut>) =>
  Effect.gen(function*() {
    const messages: Array<string> = []
    const collect = Logger.make(({ message }) => messages.push(String(message)))
    const result = yield* withLayer(layer, f).pipe(Effect.provide(Logger.layer([collect])))
    return { result, log: messages.join("\n") }
  })

const writeNote = SqlClient.SqlClient.use((sql) =>
  Effect.andThen(sql`CREATE TABLE notes (body text NOT NULL)`, sql`INSERT INTO notes VALUES ('kept')`)
)
const readNotes = SqlClient.SqlClient.use((sql) =>
  Effect.map(sql<{ readonly body: string }>`SELECT body FROM notes`, (rows) => rows.map((row) => row.body))
)

const databaseExists = (name: string) =>
  Effect.scoped(Effect.gen(function*() {
    const sql = yield* PgClient.makeClient({ url: Redacted.make(adminUrl) }).pipe(Effect.provide(Reactivity.layer))
    const rows = yield* sql`SELECT 1 FROM pg_database WHERE datname = ${name}`
    return rows.length > 0
  }))

describe("Database.layerEmbedded", () => {
  it.live("creates a new data directory with initdb, and keeps data across closing and reopening it", () =>
    Effect.gen(function*() {
      const dataDir = join(yield* tempDir, "nested", "data")
      const layer = Database.layerEmbedded({ dataDir })
      yield* withLayer(
        layer,
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL)`
          yield* sql`INSERT INTO notes VALUES (1, 'kept')`
        })
      )
      const rows = yield* withLayer(
        layer,
        SqlClient.SqlClient.use((sql) => sql<{ readonly body: string }>`SELECT body FROM notes`)
      )
      assert.deepStrictEqual(rows.map((row) => row.body), ["kept"])
      // Two embedded databases opened in turn: a minute alone on a busy machine.
    }), 180_000)

  it.live("carries a statement and an answer near the message limit whole, and queries from many fibers in turn", () =>
    Effect.gen(function*() {
      // Several times the 64 KB a socket delivers at once, in a three-byte character across every chunk boundary.
      const large = "é€x".repeat(1_400_000)
      const [stored, counted] = yield* withLayer(
        Testing.layerPgliteTest,
        SqlClient.SqlClient.use((sql) =>
          Effect.gen(function*() {
            yield* sql`CREATE TABLE pages (id int PRIMARY KEY, body text NOT NULL)`
            yield* sql`INSERT INTO pages VALUES (1, ${large})`
            const [row] = yield* sql<{ readonly body: string }>`SELECT body FROM pages WHERE id = 1`
            const counts = yield* Effect.forEach(
              Array.from({ length: 20 }, (_, i) => i),
              (i) => Effect.map(sql<{ readonly n: number }>`SELECT ${i}::int + length(body) AS n FROM pages`, (rows) => rows[0]!.n),
              { concurrency: "unbounded" }
            )
            return [row!.body, counts] as const
          })
        )
      )
      assert.isTrue(stored === large)
      assert.deepStrictEqual(counted, Array.from({ length: 20 }, (_, i) => i + large.length))
    }))

  it.live("rolls back what a connection left open in a transaction when it closes", () =>
    Effect.gen(function*() {
      const db = yield* newPglite
      yield* Effect.promise(() => db.exec("CREATE TABLE notes (body text NOT NULL)"))
      yield* withLayer(Database.layerServing(db), SqlClient.SqlClient.use((sql) => Effect.andThen(sql`BEGIN`, sql`INSERT INTO notes VALUES ('open')`)))
      const rows = yield* withLayer(Database.layerServing(db), readNotes)
      assert.deepStrictEqual(rows, [])
      assert.isFalse(db.isInTransaction())
    }))

  it.live("describes itself as embedded, with a URL that names no port (no other process reaches it)", () =>
    Effect.gen(function*() {
      const dataDir = yield* newCluster(join(yield* tempDir, "data"))
      const info = yield* withLayer(Database.layerEmbedded({ dataDir }), DatabaseInfoEffect)
      assert.strictEqual(info.kind, "embedded")
      assert.strictEqual(info.url, Database.embeddedUrl)
    }))
})

describe("Database.layerEmbedded: one process at a time", () => {
  it.live("refuses a data directory another live process has open, naming it; takes over one left by a process that is gone", () =>
    Effect.gen(function*() {
      const dataDir = yield* newCluster(join(yield* tempDir, "data"))
      const ownerFile = join(dataDir, EmbeddedOwner.ownerFileName)
      // Another process, alive, recorded as the owner (as a server on the directory records itself).
      const other = spawn("sleep", ["60"], { stdio: "ignore" })
      yield* Effect.addFinalizer(() => Effect.sync(() => other.kill("SIGKILL")))
      yield* Effect.promise(() => writeFile(ownerFile, JSON.stringify({ pid: other.pid, host: hostname(), command: "node dist/server.mjs", since: "2026-11-28T12:00:00.000Z" })))
      const refused = yield* withLayer(Database.layerEmbedded({ dataDir }), readNotes).pipe(Effect.flip)
      assert.strictEqual(refused._tag, "EmbeddedDatabaseError")
      assert.include(refused.message, `open in process ${other.pid} on ${hostname()} (node dist/server.mjs, since 2026-11-28T12:00:00.000Z)`)
      assert.include(refused.message, "quire db backup")
      // Gone: its file is stale, so this process takes the directory, and gives it back on closing.
      other.kill("SIGKILL")
      yield* Effect.promise(() => new Promise((done) => other.once("exit", done)))
      const open = yield* withLayer(Database.layerEmbedded({ dataDir }), Effect.andThen(writeNote, Effect.promise(() => readFile(ownerFile, "utf8"))))
      assert.strictEqual(JSON.parse(open).pid, process.pid)
      assert.isFalse(existsSync(ownerFile))
      // This pid in an earlier life (a container's pid 1 after a restart) is another process, gone.
      yield* Effect.promise(() => writeFile(ownerFile, JSON.stringify({ pid: process.pid, host: hostname(), command: "node dist/server.mjs", since: "2026-11-28T12:00:00.000Z", started: 1 })))
      assert.deepStrictEqual(yield* withLayer(Database.layerEmbedded({ dataDir }), readNotes), ["kept"])
      // A process on another host (a shared volume) cannot be checked: it is respected.
      yield* Effect.promise(() => writeFile(ownerFile, JSON.stringify({ pid: process.pid, host: "elsewhere", command: "node dist/server.mjs", since: "2026-11-28T12:00:00.000Z", started: 1 })))
      const elsewhere = yield* withLayer(Database.layerEmbedded({ dataDir }), readNotes).pipe(Effect.flip)
      assert.include(elsewhere.message, `open in process ${process.pid} on elsewhere`)
    }), 120_000)
})

describe("Database.layerEmbedded with an initial cluster", () => {
  let initialCluster = ""
  beforeAll(async () => {
    initialCluster = await Effect.runPromise(newClusterFile)
  }, 60_000)

  it.live("creates a new data directory from it, which then opens without it", () =>
    Effect.gen(function*() {
      const dataDir = join(yield* tempDir, "data")
      const created = yield* logged(Database.layerEmbedded({ dataDir, initialCluster }), writeNote)
      assert.include(created.log, `Created a new embedded database in ${dataDir} from ${initialCluster}`)
      assert.notInclude(created.log, "initdb")

      // Running from sources there is no dump beside Database.ts: this is PGlite opening the directory.
      const reopened = yield* logged(Database.layerEmbedded({ dataDir }), readNotes)
      assert.deepStrictEqual(reopened.result, ["kept"])
      assert.notMatch(reopened.log, /Creat/)
    }), 60_000)

  it.live("never writes it over a data directory that holds a cluster", () =>
    Effect.gen(function*() {
      const dataDir = join(yield* tempDir, "data")
      yield* withLayer(Database.layerEmbedded({ dataDir, initialCluster }), writeNote)
      const reopened = yield* logged(Database.layerEmbedded({ dataDir, initialCluster }), readNotes)
      assert.deepStrictEqual(reopened.result, ["kept"])
      assert.notMatch(reopened.log, /Creat/)
    }), 60_000)

  it.live("writes PG_VERSION last: a restore that fails half-way leaves no cluster, and the next start restores it", () =>
    Effect.gen(function*() {
      const dataDir = join(yield* tempDir, "data")
      // A directory where the dump has a file: writing that file fails.
      yield* Effect.promise(() => mkdir(join(dataDir, "postgresql.conf"), { recursive: true }))
      const failed = yield* withLayer(Database.layerEmbedded({ dataDir, initialCluster }), Effect.void).pipe(Effect.exit)
      assert.isTrue(Exit.isFailure(failed))
      assert.isFalse(ClusterDump.holdsCluster(dataDir))

      yield* Effect.promise(() => rm(join(dataDir, "postgresql.conf"), { recursive: true }))
      const notes = yield* withLayer(Database.layerEmbedded({ dataDir, initialCluster }), Effect.andThen(writeNote, readNotes))
      assert.deepStrictEqual(notes, ["kept"])
    }), 60_000)
})

describe("Database.layer", () => {
  it.live("uses DATABASE_URL when it is set", () =>
    Effect.gen(function*() {
      const layer = Database.layer.pipe(
        Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown({ DATABASE_URL: adminUrl, QUIRE_DB_POOL_SIZE: "2" })))
      )
      const [info, one] = yield* withLayer(
        layer,
        Effect.all([DatabaseInfoEffect, SqlClient.SqlClient.use((sql) => sql`SELECT 1 AS one`)])
      )
      assert.strictEqual(info.kind, "postgres")
      assert.strictEqual(info.kind === "postgres" ? info.url : undefined, adminUrl)
      assert.strictEqual(one[0]?.one, 1)
    }))

  it.live("runs the embedded database in QUIRE_DATA_DIR without DATABASE_URL", () =>
    Effect.gen(function*() {
      const dataDir = yield* newCluster(join(yield* tempDir, "data"))
      const layer = Database.layer.pipe(
        Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown({ QUIRE_DATA_DIR: dataDir })))
      )
      const info = yield* withLayer(layer, DatabaseInfoEffect)
      assert.strictEqual(info.kind, "embedded")
      const reopened = yield* withLayer(
        Database.layerEmbedded({ dataDir }),
        SqlClient.SqlClient.use((sql) => sql`SELECT 1 AS one`)
      )
      assert.strictEqual(reopened[0]?.one, 1)
    }))
})

describe("Testing.layerPostgresTest", () => {
  it.live("creates a fresh database and drops it when the layer closes", () =>
    Effect.gen(function*() {
      const name = yield* withLayer(
        Testing.layerPostgresTest,
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const info = yield* Database.DatabaseInfo
          const rows = yield* sql<{ readonly name: string }>`SELECT current_database() AS name`
          const name = rows[0]!.name
          assert.match(name, /^quire_test_[0-9a-f]+$/)
          assert.strictEqual(info.kind, "postgres")
          assert.isTrue(info.url.endsWith(`/${name}`))
          assert.isTrue(yield* databaseExists(name))
          return name
        })
      )
      assert.isFalse(yield* databaseExists(name))
    }))

  it.live("dies with instructions when the server cannot be reached", () =>
    Effect.gen(function*() {
      const layer = Testing.layerPostgresTest.pipe(
        Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown({
          QUIRE_TEST_DATABASE_URL: "postgres://postgres@127.0.0.1:1/postgres"
        })))
      )
      const exit = yield* withLayer(layer, Effect.void).pipe(Effect.exit)
      assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause))
      const message = String(Exit.isFailure(exit) ? Cause.squash(exit.cause) : "")
      assert.include(message, "127.0.0.1:1")
      assert.include(message, "pg_ctlcluster")
    }))
})

describe("Testing's migrated databases", () => {
  // Made by the first run and kept, as every set of migrations' template and dump are.
  const table = "testing_notes"
  const notes = (column: string): Migrations.PackageMigrations => ({
    table: `${table}_migrations`,
    migrations: {
      "0001_notes": SqlClient.SqlClient.use((sql) => sql`CREATE TABLE ${sql(table)} (${sql(column)} text NOT NULL)`)
    }
  })
  const columns = SqlClient.SqlClient.use((sql) =>
    Effect.map(
      sql<{ readonly name: string }>`SELECT column_name AS name FROM information_schema.columns WHERE table_name = ${table}`,
      (rows) => rows.map((row) => row.name)
    )
  )
  const applied = SqlClient.SqlClient.use((sql) =>
    Effect.map(sql<{ readonly name: string }>`SELECT name FROM ${sql(`${table}_migrations`)}`, (rows) => rows.map((row) => row.name))
  )

  it.effect("keys a set of migrations by what they run: the same SQL the same key, another column another key", () =>
    Effect.gen(function*() {
      const key = yield* Testing.migrationsKey([notes("body")])
      assert.strictEqual(yield* Testing.migrationsKey([notes("body")]), key)
      assert.notStrictEqual(yield* Testing.migrationsKey([notes("title")]), key)
      assert.notStrictEqual(yield* Testing.migrationsKey([{ ...notes("body"), table: "other_migrations" }]), key)
    }))

  for (const backend of Testing.backendsMigrated([notes("body")])) {
    it.live(`${backend.name}: each suite gets its own copy of a database holding the migrations applied`, () =>
      Effect.gen(function*() {
        const first = yield* withLayer(backend.layer, Effect.gen(function*() {
          assert.deepStrictEqual(yield* columns, ["body"])
          assert.deepStrictEqual(yield* applied, ["notes"])
          const sql = yield* SqlClient.SqlClient
          yield* sql`INSERT INTO ${sql(table)} VALUES ('only in the first copy')`
          return yield* Migrations.run(notes("body"))
        }))
        assert.deepStrictEqual(first, [{ table: `${table}_migrations`, applied: [] }])
        const second = yield* withLayer(backend.layer, SqlClient.SqlClient.use((sql) => sql`SELECT * FROM ${sql(table)}`))
        assert.deepStrictEqual(second, [])
      }), 120_000)
  }

  it.live("postgres: the migrated copies are made from one template database, which nobody connects to", () =>
    Effect.gen(function*() {
      const template = `quire_template_${yield* Testing.migrationsKey([notes("body")])}`
      assert.isTrue(yield* databaseExists(template))
      const rows = yield* Effect.scoped(Effect.gen(function*() {
        const sql = yield* PgClient.makeClient({ url: Redacted.make(adminUrl) }).pipe(Effect.provide(Reactivity.layer))
        return yield* sql<{ readonly datistemplate: boolean; readonly datallowconn: boolean }>`
          SELECT datistemplate, datallowconn FROM pg_database WHERE datname = ${template}`
      }))
      assert.deepStrictEqual(rows, [{ datistemplate: true, datallowconn: false }])
    }))
})
