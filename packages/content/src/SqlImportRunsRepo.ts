/** Postgres adapter of ImportRunsRepo: `content_import_runs` and `content_import_files`. */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, Rows } from "@quire/kernel"
import { type ImportFile, ImportedPageState, ImportProgress, type ImportRun, ImportRunStatus, ImportSource, ImportTarget } from "./domain/ImportRun.ts"
import { guarded, importRunKey, ImportRunsRepo } from "./ImportRunsRepo.ts"

type Row = Record<string, unknown>

const RunRow = Schema.Struct({
  id: Schema.String,
  organization_id: Schema.String,
  space_id: Schema.String,
  source: Rows.Json(ImportSource),
  target: Rows.Json(ImportTarget),
  status: ImportRunStatus,
  reason: Schema.NullOr(Schema.String),
  created_by: Schema.String,
  pages: Rows.Json(Schema.Array(ImportedPageState)),
  progress: Rows.Json(ImportProgress),
  created_at: Rows.Timestamp,
  updated_at: Rows.Timestamp,
  started_at: Rows.TimestampOrNull,
  completed_at: Rows.TimestampOrNull
})

const runs = Rows.decoder("content_import_runs", RunRow, (row): ImportRun => ({
  id: row.id,
  organizationId: row.organization_id,
  spaceId: row.space_id,
  source: row.source,
  target: row.target,
  status: row.status,
  reason: row.reason,
  createdBy: row.created_by,
  pages: row.pages,
  progress: row.progress,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  startedAt: row.started_at,
  completedAt: row.completed_at
}))

const FileRow = Schema.Struct({
  id: Schema.String,
  organization_id: Schema.String,
  name: Schema.String,
  content_type: Schema.String,
  // bigint: the driver answers a BigInt or text.
  size: Schema.Unknown,
  blob: Schema.String,
  created_by: Schema.String,
  created_at: Rows.Timestamp
})

const files = Rows.decoder("content_import_files", FileRow, (row): ImportFile => ({
  id: row.id,
  organizationId: row.organization_id,
  name: row.name,
  contentType: row.content_type,
  size: Number(row.size),
  blob: row.blob,
  createdBy: row.created_by,
  createdAt: row.created_at
}))

export const layer = Layer.effect(
  ImportRunsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const find = (runId: string) => sql<Row>`SELECT * FROM content_import_runs WHERE id = ${runId}`.pipe(Effect.orDie, Effect.flatMap(runs.first))
    return ImportRunsRepo.of({
      insert: (r) =>
        sql`
          INSERT INTO content_import_runs (id, organization_id, space_id, source, target, status, reason, created_by, pages, progress,
            created_at, updated_at, started_at, completed_at)
          VALUES (${r.id}, ${r.organizationId}, ${r.spaceId}, ${JSON.stringify(r.source)}::jsonb, ${JSON.stringify(r.target)}::jsonb,
            ${r.status}, ${r.reason}, ${r.createdBy}, ${JSON.stringify(r.pages)}::jsonb, ${JSON.stringify(r.progress)}::jsonb,
            ${r.createdAt}, ${r.updatedAt}, ${r.startedAt}, ${r.completedAt})`.pipe(Effect.orDie, Effect.asVoid),
      find,
      list: (organizationId, filter, after, limit) => {
        const range = after === undefined ? sql`true` : sql`(created_at, id) < (${String(after[0])}::timestamptz, ${String(after[1])})`
        const space = filter.spaceId === undefined ? sql`true` : sql`space_id = ${filter.spaceId}`
        const spaces = filter.spaceIds === undefined ? sql`true` : filter.spaceIds.length === 0 ? sql`false` : sql`space_id IN ${sql.in(filter.spaceIds)}`
        const status = filter.statuses === undefined ? sql`true` : sql`status IN ${sql.in(filter.statuses)}`
        const changeRequest = filter.changeRequestId === undefined ? sql`true` : sql`target->>'changeRequest' = ${filter.changeRequestId}`
        return sql<Row>`
          SELECT * FROM content_import_runs
          WHERE organization_id = ${organizationId} AND ${space} AND ${spaces} AND ${status} AND ${changeRequest} AND ${range}
          ORDER BY created_at DESC, id DESC
          LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(runs.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, importRunKey))
        )
      },
      // Read and write under the row's lock, so a cancel and the job's own update never cross.
      update: (runId, patch, unless = []) =>
        sql.withTransaction(Effect.gen(function*() {
          const found = yield* sql<Row>`SELECT * FROM content_import_runs WHERE id = ${runId} FOR UPDATE`.pipe(Effect.orDie, Effect.flatMap(runs.first))
          if (Option.isNone(found)) return Option.none<ImportRun>()
          if (guarded(found.value, unless)) return found
          const r: ImportRun = { ...found.value, ...patch }
          yield* sql`
            UPDATE content_import_runs SET status = ${r.status}, reason = ${r.reason}, pages = ${JSON.stringify(r.pages)}::jsonb,
              progress = ${JSON.stringify(r.progress)}::jsonb, updated_at = ${r.updatedAt}, started_at = ${r.startedAt},
              completed_at = ${r.completedAt}
            WHERE id = ${runId}`.pipe(Effect.orDie)
          return Option.some(r)
        })).pipe(Effect.orDie),
      insertFile: (f) =>
        sql`
          INSERT INTO content_import_files (id, organization_id, name, content_type, size, blob, created_by, created_at)
          VALUES (${f.id}, ${f.organizationId}, ${f.name}, ${f.contentType}, ${f.size}, ${f.blob}, ${f.createdBy}, ${f.createdAt})`.pipe(
          Effect.orDie,
          Effect.asVoid
        ),
      findFile: (fileId) => sql<Row>`SELECT * FROM content_import_files WHERE id = ${fileId}`.pipe(Effect.orDie, Effect.flatMap(files.first)),
      removeFile: (fileId) => sql<Row>`DELETE FROM content_import_files WHERE id = ${fileId} RETURNING *`.pipe(Effect.orDie, Effect.flatMap(files.first)),
      fileInUse: (fileId, exceptRunId) =>
        sql`
          SELECT 1 FROM content_import_runs
          WHERE status IN ('pending', 'in-progress') AND id <> ${exceptRunId ?? ""} AND source -> 'files' @> ${JSON.stringify([fileId])}::jsonb
          LIMIT 1`.pipe(Effect.orDie, Effect.map((rows) => rows.length > 0)),
      unusedFilesBefore: (cutoff, limit) =>
        sql<Row>`
          SELECT f.* FROM content_import_files f
          WHERE f.created_at < ${cutoff} AND NOT EXISTS (
            SELECT 1 FROM content_import_runs r
            WHERE r.status IN ('pending', 'in-progress') AND r.source -> 'files' @> jsonb_build_array(f.id))
          ORDER BY f.created_at, f.id
          LIMIT ${limit}`.pipe(Effect.orDie, Effect.flatMap(files.all)),
      removeOfSpace: (spaceId) => sql`DELETE FROM content_import_runs WHERE space_id = ${spaceId}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
