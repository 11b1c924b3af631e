/** Rows the SQL adapters cannot decode (written around them, with raw SQL) are defects naming the table and field. */
import { assert, layer } from "@effect/vitest"
import { Cause, Effect, Exit, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as Testing from "@quire/db/Testing"
import { ContentLayers, migrations, RevisionsRepo, SpacesRepo } from "../src/index.ts"

const defectOf = <A, E>(exit: Exit.Exit<A, E>): string => {
  assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause), "expected a defect")
  return Exit.isFailure(exit) ? String(Cause.squash(exit.cause)) : ""
}

for (const database of Testing.backendsMigrated([migrations])) {
  const repos = ContentLayers.layerReposSql.pipe(Layer.provideMerge(database.layer))
  layer(repos, { timeout: "60 seconds" })(`${database.name}: stored content rows`, (it) => {
    it.effect("an unknown visibility is a defect naming content_spaces and the column", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`
          INSERT INTO content_spaces (id, organization_id, title, emoji, visibility, edit_mode, default_level, position,
            revision_id, share_key, created_at, updated_at)
          VALUES ('bad-visibility', 'org', 'Bad', '', 'secret', 'live', 'inherit', 1, 'rev', 'key', now(), now())`
        const message = defectOf(yield* Effect.exit((yield* SpacesRepo).find("bad-visibility")))
        assert.include(message, "content_spaces")
        assert.include(message, "visibility")
      }))

    it.effect("a page of an unknown type inside a revision's tree is a defect naming content_revisions and the page", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const pages = [{ id: "p1", type: "sheet", title: "P", slug: "p", createdAt: "x", updatedAt: "x", pages: [] }]
        yield* sql`
          INSERT INTO content_revisions (id, space_id, parents, type, pages, files, variables, created_at)
          VALUES ('bad-page', 'space', '[]', 'edits', ${JSON.stringify(pages)}::jsonb, '[]', '{}', now())`
        const message = defectOf(yield* Effect.exit((yield* RevisionsRepo).find("bad-page")))
        assert.include(message, "content_revisions")
        assert.include(message, "[\"pages\"][0][\"type\"]")
      }))
  })
}
