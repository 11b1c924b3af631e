/** Postgres adapter of TranslationsRepo: `translations_translations`. */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, Rows } from "@quire/kernel"
import { type Translation, TranslationLanguage, TranslationStats, TranslationStatus } from "./domain/Translation.ts"
import { translationKey, TranslationsRepo } from "./TranslationsRepo.ts"

type Row = Record<string, unknown>

const TranslationRow = Schema.Struct({
  id: Schema.String,
  organization_id: Schema.String,
  source_space_id: Schema.String,
  source_language: TranslationLanguage,
  language: TranslationLanguage,
  instructions: Rows.Json(Schema.Record(Schema.String, Schema.Unknown)),
  result_space_id: Schema.String,
  actor_id: Schema.String,
  result_revision_id: Schema.NullOr(Schema.String),
  status: TranslationStatus,
  failure: Schema.NullOr(Schema.String),
  stats: Rows.Json(TranslationStats),
  page_hashes: Rows.Json(Schema.Record(Schema.String, Schema.String)),
  created_at: Rows.Timestamp,
  updated_at: Rows.Timestamp
})

const translations = Rows.decoder("translations_translations", TranslationRow, (row): Translation => ({
  id: row.id,
  organizationId: row.organization_id,
  sourceSpaceId: row.source_space_id,
  sourceLanguage: row.source_language,
  language: row.language,
  instructions: row.instructions,
  resultSpaceId: row.result_space_id,
  actorId: row.actor_id,
  resultRevisionId: row.result_revision_id,
  status: row.status,
  failure: row.failure,
  stats: row.stats,
  pageHashes: row.page_hashes,
  createdAt: row.created_at,
  updatedAt: row.updated_at
}))

export const layer = Layer.effect(
  TranslationsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const find = (translationId: string) =>
      sql<Row>`SELECT * FROM translations_translations WHERE id = ${translationId}`.pipe(Effect.orDie, Effect.flatMap(translations.first))

    return TranslationsRepo.of({
      insert: (t) =>
        sql`
          INSERT INTO translations_translations (id, organization_id, source_space_id, source_language, language, instructions,
            result_space_id, actor_id, result_revision_id, status, failure, stats, page_hashes, created_at, updated_at)
          VALUES (${t.id}, ${t.organizationId}, ${t.sourceSpaceId}, ${t.sourceLanguage}, ${t.language},
            ${JSON.stringify(t.instructions)}::jsonb, ${t.resultSpaceId}, ${t.actorId}, ${t.resultRevisionId}, ${t.status}, ${t.failure},
            ${JSON.stringify(t.stats)}::jsonb, ${JSON.stringify(t.pageHashes)}::jsonb, ${t.createdAt}, ${t.updatedAt})`.pipe(
          Effect.orDie,
          Effect.asVoid
        ),
      find,
      list: (organizationId, after, limit) => {
        const range = after === undefined
          ? sql`true`
          : sql`(created_at, id) > (${String(after[0])}::timestamptz, ${String(after[1])})`
        return sql<Row>`
          SELECT * FROM translations_translations
          WHERE organization_id = ${organizationId} AND ${range}
          ORDER BY created_at, id
          LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(translations.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, translationKey))
        )
      },
      ofSource: (spaceId) =>
        sql<Row>`SELECT * FROM translations_translations WHERE source_space_id = ${spaceId} ORDER BY created_at, id`.pipe(
          Effect.orDie,
          Effect.flatMap(translations.all)
        ),
      ofResult: (spaceId) =>
        sql<Row>`SELECT * FROM translations_translations WHERE result_space_id = ${spaceId} ORDER BY created_at, id`.pipe(
          Effect.orDie,
          Effect.flatMap(translations.all)
        ),
      // Read, patch and write in one transaction, so the row stays locked between them: a run
      // marking its status cannot write back the instructions an edit changed meanwhile.
      update: (translationId, patch) =>
        sql.withTransaction(Effect.gen(function*() {
          const found = yield* sql<Row>`SELECT * FROM translations_translations WHERE id = ${translationId} FOR UPDATE`.pipe(
            Effect.orDie,
            Effect.flatMap(translations.first)
          )
          if (Option.isNone(found)) return Option.none<Translation>()
          const t: Translation = { ...found.value, ...patch }
          yield* sql`
            UPDATE translations_translations SET source_language = ${t.sourceLanguage}, language = ${t.language},
              instructions = ${JSON.stringify(t.instructions)}::jsonb, result_space_id = ${t.resultSpaceId}, actor_id = ${t.actorId},
              result_revision_id = ${t.resultRevisionId}, status = ${t.status}, failure = ${t.failure},
              stats = ${JSON.stringify(t.stats)}::jsonb, page_hashes = ${JSON.stringify(t.pageHashes)}::jsonb,
              updated_at = ${t.updatedAt}
            WHERE id = ${translationId}`.pipe(Effect.orDie)
          return Option.some(t)
        })).pipe(Effect.orDie),
      remove: (translationId) =>
        sql`DELETE FROM translations_translations WHERE id = ${translationId}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
