/** Postgres adapter of GlossaryRepo: `translations_glossary`. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import type { GlossaryEntry } from "./Glossary.ts"
import { GlossaryRepo } from "./GlossaryRepo.ts"

const EntryRow = Schema.Struct({
  id: Schema.String,
  organization_id: Schema.String,
  translations: Rows.Json(Schema.Record(Schema.String, Schema.String)),
  created_at: Rows.Timestamp,
  updated_at: Rows.Timestamp
})

const entries = Rows.decoder("translations_glossary", EntryRow, (row): GlossaryEntry => ({
  id: row.id,
  organizationId: row.organization_id,
  translations: row.translations,
  createdAt: row.created_at,
  updatedAt: row.updated_at
}))

export const layer = Layer.effect(
  GlossaryRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return GlossaryRepo.of({
      list: (organizationId) =>
        sql`SELECT * FROM translations_glossary WHERE organization_id = ${organizationId} ORDER BY created_at, id`.pipe(
          Effect.orDie,
          Effect.flatMap(entries.all)
        ),
      find: (organizationId, entryId) =>
        sql`SELECT * FROM translations_glossary WHERE organization_id = ${organizationId} AND id = ${entryId}`.pipe(
          Effect.orDie,
          Effect.flatMap(entries.first)
        ),
      put: (e) =>
        sql`
          INSERT INTO translations_glossary (id, organization_id, translations, created_at, updated_at)
          VALUES (${e.id}, ${e.organizationId}, ${JSON.stringify(e.translations)}::jsonb, ${e.createdAt}, ${e.updatedAt})
          ON CONFLICT (id) DO UPDATE SET translations = EXCLUDED.translations, updated_at = EXCLUDED.updated_at`.pipe(Effect.orDie, Effect.asVoid),
      remove: (organizationId, entryId) =>
        sql`DELETE FROM translations_glossary WHERE organization_id = ${organizationId} AND id = ${entryId}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
