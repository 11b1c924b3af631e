/**
 * Specs migration 0002 on PostgreSQL and PGlite: files are stored as `json` (the author's key order,
 * which `jsonb` lost), and a version stored before no longer has the hash a run over the same source
 * computes, so processing its spec again stores the files anew.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Backends } from "@quire/testkit"
import { m0001_specs } from "../src/migrations/0001_specs.ts"
import { m0002_versions_keep_key_order } from "../src/migrations/0002_versions_keep_key_order.ts"

const document = { openapi: "3.1.0", info: { title: "Pets", version: "1" }, paths: {}, components: { examples: { page: { count: 1, next: null, previous: null } } } }

for (const { name, layer } of Backends.databases) {
  describe(`specs migration 0002 on ${name}`, () => {
    it.effect("stores files as json in their author's key order, and marks the hashes of versions stored before", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const schema = `m0002_${Math.random().toString(36).slice(2, 8)}`
        // One connection throughout (a transaction), in a schema of its own, dropped with the transaction.
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql.unsafe(`CREATE SCHEMA ${schema}`)
          yield* sql.unsafe(`SET LOCAL search_path TO ${schema}`)
          yield* m0001_specs
          const files = JSON.stringify([{ filename: "openapi", isEntrypoint: true, references: [], specification: document }])
          yield* sql`INSERT INTO specs_versions (id, spec_id, created_at, filesystem, hash, url) VALUES ('v1', 's1', now(), ${files}::jsonb, 'abc', NULL)`
          const before = (yield* sql<{ readonly filesystem: unknown }>`SELECT filesystem FROM specs_versions WHERE id = 'v1'`)[0]!.filesystem
          const keysOf = (stored: unknown) => Object.keys((typeof stored === "string" ? JSON.parse(stored) : stored)[0].specification)
          // What jsonb made of the author's order.
          assert.deepStrictEqual(keysOf(before), ["info", "paths", "openapi", "components"])

          yield* m0002_versions_keep_key_order
          assert.strictEqual((yield* sql<{ readonly hash: string }>`SELECT hash FROM specs_versions WHERE id = 'v1'`)[0]!.hash, "jsonb:abc")
          yield* sql`INSERT INTO specs_versions (id, spec_id, created_at, filesystem, hash, url) VALUES ('v2', 's1', now(), ${files}::json, 'def', NULL)`
          const after = (yield* sql<{ readonly filesystem: unknown }>`SELECT filesystem FROM specs_versions WHERE id = 'v2'`)[0]!.filesystem
          assert.deepStrictEqual(keysOf(after), ["openapi", "info", "paths", "components"])
          const example = (typeof after === "string" ? JSON.parse(after) : after)[0].specification.components.examples.page
          assert.deepStrictEqual(Object.keys(example), ["count", "next", "previous"])
          yield* sql.unsafe(`DROP SCHEMA ${schema} CASCADE`)
        }))
      }).pipe(Effect.provide(layer)), 60_000)
  })
}
