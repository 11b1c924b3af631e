import { assert, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { existsSync, readdirSync } from "node:fs"
import * as Migrations from "../src/Migrations.ts"
import * as Testing from "../src/Testing.ts"
import { memoryTablespace } from "../src/TestTablespace.ts"

const notes: Migrations.PackageMigrations = {
  table: "tablespace_notes_migrations",
  migrations: {
    "0001_create_notes": Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE tablespace_notes (id serial PRIMARY KEY, body text NOT NULL)`
    })
  }
}

/** The tablespace the connected database keeps its files in. */
const tablespaceOfCurrent = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<{ readonly spcname: string }>`SELECT t.spcname FROM pg_database d
    JOIN pg_tablespace t ON t.oid = d.dattablespace WHERE d.datname = current_database()`
  return row!.spcname
})

// The machine's PostgreSQL on loopback and a tmpfs at /dev/shm: what CI and a developer's Linux machine have.
layer(Testing.layerPostgresMigrated([notes]))("a suite's database on this machine's PostgreSQL", (it) => {
  it.effect("is a copy of its template in the tablespace in memory, and works as any database", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* tablespaceOfCurrent, memoryTablespace.name)
      assert.isTrue(existsSync(memoryTablespace.directory) && readdirSync(memoryTablespace.directory).some((name) => name.startsWith("PG_")))
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO tablespace_notes (body) VALUES ('kept')`
      const rows = yield* sql<{ readonly body: string }>`SELECT body FROM tablespace_notes`
      assert.deepStrictEqual(rows.map((row) => row.body), ["kept"])
    }))
})

const onDisk = Testing.layerPostgresTest.pipe(
  Layer.provide(ConfigProvider.layerAdd(ConfigProvider.fromUnknown({ QUIRE_TEST_TABLESPACE: "default" }), { asPrimary: true }))
)

layer(onDisk)("a suite's database with QUIRE_TEST_TABLESPACE=default", (it) => {
  it.effect("stays in the server's default tablespace, on its disk", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* tablespaceOfCurrent, "pg_default")
    }))
})
