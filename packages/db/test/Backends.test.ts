import { assert, layer } from "@effect/vitest"
import { Transactor } from "@quire/kernel"
import { Cause, Effect, Exit, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import * as Migrations from "../src/Migrations.ts"
import * as SqlTransactor from "../src/SqlTransactor.ts"
import * as Testing from "../src/Testing.ts"

const makePackages = () => {
  const runs = { users: 0, posts: 0 }
  const users: Migrations.PackageMigrations = {
    table: "users_migrations",
    migrations: {
      "0001_create_users": Effect.gen(function*() {
        runs.users++
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE users (id text PRIMARY KEY, name text NOT NULL)`
      }),
      "0002_add_email": Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`ALTER TABLE users ADD COLUMN email text`
      })
    }
  }
  const posts: Migrations.PackageMigrations = {
    table: "posts_migrations",
    migrations: {
      "0001_create_posts": Effect.gen(function*() {
        runs.posts++
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE posts (id serial PRIMARY KEY, body text NOT NULL)`
      })
    }
  }
  return { runs, users, posts }
}

/** A distinct, large text per row, so a row handed to the wrong query cannot go unnoticed. */
const payload = (i: number) => `${i}:`.padEnd(50_000 + i * 997, String.fromCharCode(97 + i))

const recorded = (table: string) =>
  SqlClient.SqlClient.use((sql) =>
    sql<{ readonly migration_id: number; readonly name: string }>`
      SELECT migration_id, name FROM ${sql(table)} ORDER BY migration_id
    `.pipe(Effect.map((rows) => rows.map((row) => `${row.migration_id}_${row.name}`)), Effect.orDie))

for (const backend of Testing.backends) {
  layer(SqlTransactor.layer.pipe(Layer.provideMerge(backend.layer)), { timeout: "60 seconds" })(backend.name, (it) => {
    it.effect("runs each package's migrations once, recorded in the package's own table", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { posts, runs, users } = makePackages()
        yield* Migrations.run(users, posts)
        yield* Migrations.run(users, posts)
        assert.deepStrictEqual(runs, { users: 1, posts: 1 })
        assert.deepStrictEqual(yield* recorded("users_migrations"), ["1_create_users", "2_add_email"])
        assert.deepStrictEqual(yield* recorded("posts_migrations"), ["1_create_posts"])
        yield* sql`INSERT INTO users (id, name, email) VALUES ('u1', 'Ada', 'ada@example.com')`
        const rows = yield* sql<{ readonly email: string }>`SELECT email FROM users WHERE id = 'u1'`
        assert.strictEqual(rows[0]?.email, "ada@example.com")
      }))

    it.effect("applies only the migrations added since the last run", () =>
      Effect.gen(function*() {
        const { posts } = makePackages()
        let ran = 0
        yield* Migrations.run({
          ...posts,
          migrations: {
            ...posts.migrations,
            "0002_add_title": Effect.gen(function*() {
              ran++
              const sql = yield* SqlClient.SqlClient
              yield* sql`ALTER TABLE posts ADD COLUMN title text`
            })
          }
        })
        assert.strictEqual(ran, 1)
        assert.deepStrictEqual(yield* recorded("posts_migrations"), ["1_create_posts", "2_add_title"])
      }))

    it.effect("a failing migration is a defect naming the table and migration, and leaves nothing behind", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const exit = yield* Migrations.run({
          table: "broken_migrations",
          migrations: {
            "0001_create_things": SqlClient.SqlClient.use((sql) => sql`CREATE TABLE things (id int)`),
            "0002_typo": SqlClient.SqlClient.use((sql) => sql`CREAT TABLE oops (id int)`)
          }
        }).pipe(Effect.exit)
        assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause))
        const message = String(Exit.isFailure(exit) ? Cause.squash(exit.cause) : "")
        assert.include(message, "broken_migrations")
        assert.include(message, "2_typo")
        assert.include(message, "syntax error")
        const things = yield* sql`SELECT to_regclass('things') AS t`
        assert.isNull(things[0]?.t)
        assert.deepStrictEqual(yield* recorded("broken_migrations"), [])
      }))

    it.effect("rejects migration keys that are not <id>_<name>", () =>
      Effect.gen(function*() {
        const exit = yield* Migrations.run({ table: "bad_keys_migrations", migrations: { "create_users": Effect.void } }).pipe(
          Effect.exit
        )
        assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause))
      }))

    it.effect("rolls a transaction back when the work fails, and commits it when it succeeds", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { transaction } = yield* Transactor.Transactor
        yield* sql`CREATE TABLE tx_items (id int PRIMARY KEY)`
        const failed = yield* transaction(
          Effect.andThen(sql`INSERT INTO tx_items VALUES (1)`.pipe(Effect.orDie), Effect.fail("nope" as const))
        ).pipe(Effect.flip)
        assert.strictEqual(failed, "nope")
        yield* transaction(sql`INSERT INTO tx_items VALUES (2)`.pipe(Effect.orDie))
        const rows = yield* sql<{ readonly id: number }>`SELECT id FROM tx_items ORDER BY id`
        assert.deepStrictEqual(rows.map((row) => row.id), [2])
      }))

    it.effect("nested transactions roll back only the inner work when its failure is handled", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { transaction } = yield* Transactor.Transactor
        yield* sql`CREATE TABLE nested_items (id int PRIMARY KEY)`
        yield* transaction(Effect.gen(function*() {
          yield* sql`INSERT INTO nested_items VALUES (1)`.pipe(Effect.orDie)
          const inner = yield* transaction(
            Effect.andThen(sql`INSERT INTO nested_items VALUES (2)`.pipe(Effect.orDie), Effect.fail("inner" as const))
          ).pipe(Effect.flip)
          assert.strictEqual(inner, "inner")
          yield* sql`INSERT INTO nested_items VALUES (3)`.pipe(Effect.orDie)
        }))
        const rows = yield* sql<{ readonly id: number }>`SELECT id FROM nested_items ORDER BY id`
        assert.deepStrictEqual(rows.map((row) => row.id), [1, 3])
      }))

    it.effect("a defect in the work rolls the transaction back too", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { transaction } = yield* Transactor.Transactor
        yield* sql`CREATE TABLE defect_items (id int PRIMARY KEY)`
        const exit = yield* transaction(
          Effect.andThen(sql`INSERT INTO defect_items VALUES (1)`.pipe(Effect.orDie), Effect.die("boom"))
        ).pipe(Effect.exit)
        assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause))
        const rows = yield* sql`SELECT id FROM defect_items`
        assert.strictEqual(rows.length, 0)
      }))

    it.effect("round-trips a 1 MB text parameter", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const big = "é".repeat(1) + "q".repeat(1024 * 1024)
        yield* sql`CREATE TABLE blobs (id int PRIMARY KEY, body text NOT NULL)`
        yield* sql`INSERT INTO blobs VALUES (1, ${big})`
        const rows = yield* sql<{ readonly body: string; readonly length: number }>`
          SELECT body, length(body) AS length FROM blobs WHERE id = 1
        `
        assert.strictEqual(rows[0]?.length, big.length)
        assert.isTrue(rows[0]?.body === big)
      }))

    it.effect("20 concurrent queries each get their own rows back", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const ids = Array.from({ length: 20 }, (_, i) => i)
        yield* sql`CREATE TABLE concurrent_rows (id int PRIMARY KEY, payload text NOT NULL)`
        yield* Effect.forEach(ids, (i) => sql`INSERT INTO concurrent_rows VALUES (${i}, ${payload(i)})`, {
          concurrency: "unbounded"
        })
        const results = yield* Effect.forEach(
          ids,
          (i) =>
            sql<{ readonly id: number; readonly payload: string }>`
              SELECT id, payload FROM concurrent_rows WHERE id = ${i} AND payload = ${payload(i)}
            `,
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(results.map((rows) => rows.map((row) => row.id)), ids.map((i) => [i]))
        assert.isTrue(results.every((rows, i) => rows[0]?.payload === payload(i)))
      }))

    it.effect("concurrent transactions do not see or undo each other's work", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { transaction } = yield* Transactor.Transactor
        yield* sql`CREATE TABLE concurrent_tx (id int PRIMARY KEY)`
        const ids = Array.from({ length: 10 }, (_, i) => i)
        yield* Effect.forEach(
          ids,
          (i) =>
            transaction(Effect.gen(function*() {
              yield* sql`INSERT INTO concurrent_tx VALUES (${i})`.pipe(Effect.orDie)
              yield* Effect.yieldNow
              if (i % 2 === 0) return yield* Effect.fail(i)
            })).pipe(Effect.option),
          { concurrency: "unbounded" }
        )
        const rows = yield* sql<{ readonly id: number }>`SELECT id FROM concurrent_tx ORDER BY id`
        assert.deepStrictEqual(rows.map((row) => row.id), [1, 3, 5, 7, 9])
      }))

    it.effect("maps column types the same way on every backend", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const at = new Date("2024-01-02T03:04:05.678Z")
        const rows = yield* sql<Record<string, unknown>>`
          SELECT ${at}::timestamptz AS at, count(*) AS n, '{"a":[1,2]}'::jsonb AS doc,
                 ARRAY['x','y']::text[] AS tags, ARRAY[1,2]::int[] AS nums, true AS flag,
                 1.50::numeric AS price, 7::int AS small, 2::bigint AS big,
                 '2024-01-02'::date AS day, NULL::text AS nothing
          FROM (VALUES (1), (2)) AS v(x)
        `
        const row = rows[0]!
        assert.instanceOf(row.at, Date)
        assert.strictEqual((row.at as Date).toISOString(), at.toISOString())
        assert.strictEqual(row.n, 2n)
        assert.deepStrictEqual(row.doc, { a: [1, 2] })
        assert.deepStrictEqual(row.tags, ["x", "y"])
        assert.deepStrictEqual(row.nums, [1, 2])
        assert.strictEqual(row.flag, true)
        assert.strictEqual(row.price, "1.50")
        assert.strictEqual(row.small, 7)
        assert.strictEqual(row.big, 2n)
        assert.strictEqual(row.day, "2024-01-02")
        assert.isNull(row.nothing)
        const found = yield* sql`SELECT 1 AS one WHERE ${true} AND 'y' = ANY(${["x", "y"]}) AND ${JSON.stringify({ a: 1 })}::jsonb ? 'a'`
        assert.strictEqual(Option.fromNullishOr(found[0]).pipe(Option.map((r) => r.one), Option.getOrUndefined), 1)
      }))
  })
}
