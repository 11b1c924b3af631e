/** Rows the SQL adapters cannot decode (written around them, with raw SQL) are defects naming the table and field. */
import { assert, layer } from "@effect/vitest"
import { Cause, Effect, Exit, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Backends } from "@quire/testkit"
import { ChangeRequestsRepo, CommentsRepo, migrations } from "../src/index.ts"
import * as SqlChangeRequestsRepo from "../src/SqlChangeRequestsRepo.ts"
import * as SqlCommentsRepo from "../src/SqlCommentsRepo.ts"

const defectOf = <A, E>(exit: Exit.Exit<A, E>): string => {
  assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause), "expected a defect")
  return Exit.isFailure(exit) ? String(Cause.squash(exit.cause)) : ""
}

for (const database of Backends.databasesMigrated([migrations])) {
  const repos = Layer.mergeAll(SqlChangeRequestsRepo.layer, SqlCommentsRepo.layer).pipe(Layer.provideMerge(database.layer))
  layer(repos, { timeout: "60 seconds" })(`${database.name}: stored reviews rows`, (it) => {
    it.effect("an unknown change request status is a defect naming reviews_change_requests and the column", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`
          INSERT INTO reviews_change_requests (id, space_id, number, status, subject, created_by, created_at, updated_at,
            revision, revision_initial, revision_merged_ancestor)
          VALUES ('bad-status', 'space', 1, 'rejected', 'Bad', 'user', now(), now(), 'r1', 'r0', 'r0')`
        const message = defectOf(yield* Effect.exit((yield* ChangeRequestsRepo).find("bad-status")))
        assert.include(message, "reviews_change_requests")
        assert.include(message, "status")
      }))

    it.effect("a table cell without its definition is a defect naming review_comments and the field", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`
          INSERT INTO review_comments (id, space_id, revision_id, table_cell, author_id, markdown, posted_at, status)
          VALUES ('bad-cell', 'space', 'r0', '{"record":"row-1"}'::jsonb, 'user', 'Hi', now(), 'open')`
        const message = defectOf(yield* Effect.exit((yield* CommentsRepo).find("bad-cell")))
        assert.include(message, "review_comments")
        assert.include(message, "[\"table_cell\"][\"definition\"]")
      }))
  })
}
