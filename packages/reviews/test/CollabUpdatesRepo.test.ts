/** CollabUpdatesRepo's contract suite on memory, a real PostgreSQL and PGlite, and the bound its tables CHECK. */
import { assert, it, layer } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { SqlClient } from "effect/sql"
import { Database } from "@quire/db"
import { Backends } from "@quire/testkit"
import { migrations } from "../src/index.ts"
import { CollabUpdatesRepo, maxStoredBytes } from "../src/CollabUpdatesRepo.ts"
import * as SqlCollabUpdatesRepo from "../src/SqlCollabUpdatesRepo.ts"
import { collabUpdatesRepoContract } from "./contract/CollabUpdatesRepoContract.ts"

const backends = Backends.ports({ memory: CollabUpdatesRepo.layerMemory, sql: SqlCollabUpdatesRepo.layer, migrations: [migrations] })

Backends.each(backends, (it) => {
  collabUpdatesRepoContract(it)
})

it("a stored state or update is at most half of what the database client reads in one message", () => {
  assert.isAtMost(maxStoredBytes * 2, Database.clientMaxMessageBytes)
})

for (const database of Backends.databasesMigrated([migrations])) {
  layer(database.layer, { timeout: "60 seconds" })(`${database.name}: the live documents' tables`, (it) => {
    it.effect("refuse a state or an update over the bound even when written around the adapter", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const over = Buffer.alloc(maxStoredBytes + 1, 1)
        const insert = (state: Buffer) => sql`
          INSERT INTO reviews_collab_documents (name, space_id, change_request_id, page_id, state, version, page_sha, doc_sha, updated_at)
          VALUES ('raw/p', 's', 'c', 'p', ${state}, 1, 'x', 'y', now())`
        assert.isTrue(Exit.isFailure(yield* Effect.exit(insert(over))))
        yield* insert(Buffer.alloc(1))
        assert.isTrue(Exit.isFailure(yield* Effect.exit(sql`INSERT INTO reviews_collab_updates (name, update, created_at) VALUES ('raw/p', ${over}, now())`)))
        const [row] = yield* sql<{ readonly count: number }>`SELECT count(*)::int AS count FROM reviews_collab_updates`
        assert.strictEqual(row!.count, 0)
      }))
  })
}
