/** `quire db migrate` on a fresh PostgreSQL database and on the embedded one in a data directory. */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Database } from "@quire/db"
import { Backends } from "@quire/testkit"
import { quire } from "./Quire.ts"

/** The `<table>: <ids>` pairs of `Applied migrations to <table>: <ids>` lines. */
const appliedTables = (stdout: string) =>
  [...stdout.matchAll(/^Applied migrations to (\w+): (.+)$/gm)].map(([, table, ids]) => ({ table: table!, ids: ids! }))

const postgres = layer(Backends.layerPostgresTest, { timeout: 120_000, excludeTestServices: true })

postgres("quire db migrate on PostgreSQL", (it) => {
  it.effect("applies every package's migrations once, printing what it applied", () =>
    Effect.gen(function*() {
      const { url } = yield* Database.DatabaseInfo
      const first = yield* quire(["db", "migrate"], { DATABASE_URL: url })
      assert.strictEqual(first.status, 0, first.stderr)
      const applied = appliedTables(first.stdout)
      assert.isAbove(applied.length, 0, first.stdout)

      // What the output names is in the database.
      const sql = yield* SqlClient.SqlClient
      for (const { ids, table } of applied) {
        const rows = yield* sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM ${sql(table)}`.pipe(Effect.orDie)
        assert.strictEqual(rows[0]?.n, ids.split(", ").length)
      }

      const again = yield* quire(["db", "migrate"], { DATABASE_URL: url })
      assert.strictEqual(again.status, 0)
      assert.strictEqual(again.stdout, "The postgres database is up to date.")

      const json = yield* quire(["db", "migrate", "--json"], { DATABASE_URL: url })
      assert.deepStrictEqual(JSON.parse(json.stdout), { database: "postgres", applied: [] })
    }))

  it.effect("an unreachable database fails with a message", () =>
    Effect.gen(function*() {
      const run = yield* quire(["db", "migrate"], { DATABASE_URL: "postgres://postgres@127.0.0.1:1/none" })
      assert.strictEqual(run.status, 1)
      assert.match(run.stderr, /^quire: .+/)
      assert.strictEqual(run.stdout, "")
    }))
})

describe("quire db migrate embedded", () => {
  it.live("migrates the embedded database in QUIRE_DATA_DIR, which keeps them", () =>
    Effect.gen(function*() {
      const dir = yield* Effect.acquireRelease(
        Effect.promise(() => mkdtemp(join(tmpdir(), "quire-cli-"))),
        (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
      )
      const env = { QUIRE_DATA_DIR: yield* Backends.newEmbeddedCluster(join(dir, "data")) }
      const first = yield* quire(["db", "migrate"], env)
      assert.strictEqual(first.status, 0, first.stderr)
      assert.isAbove(appliedTables(first.stdout).length, 0, first.stdout)
      const again = yield* quire(["db", "migrate"], env)
      assert.strictEqual(again.stdout, "The embedded database is up to date.")
    }), 120_000)
})
