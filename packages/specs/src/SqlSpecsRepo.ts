/** Postgres adapter of SpecsRepo: `specs_specs` and `specs_versions`. */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, Rows } from "@quire/kernel"
import { ProcessError, ProcessErrorCode, ProcessingState, type Spec, SpecFile, SpecSource, type SpecVersion, SpecVisibility } from "./domain/Spec.ts"
import { slugTaken, specKey, SpecsRepo, versionKey } from "./SpecsRepo.ts"

type Row = Record<string, unknown>

const specs = Rows.decoder(
  "specs_specs",
  Schema.Struct({
    id: Schema.String,
    organization_id: Schema.String,
    slug: Schema.String,
    visibility: SpecVisibility,
    source: Rows.Json(SpecSource),
    processing_state: ProcessingState,
    last_process_error_code: Schema.NullOr(ProcessErrorCode),
    last_processed_errors: Rows.Json(Schema.Array(ProcessError)),
    last_processed_at: Rows.TimestampOrNull,
    last_version_id: Schema.NullOr(Schema.String),
    created_at: Rows.Timestamp,
    updated_at: Rows.Timestamp
  }),
  (row): Spec => ({
    id: row.id,
    organizationId: row.organization_id,
    slug: row.slug,
    visibility: row.visibility,
    source: row.source,
    processingState: row.processing_state,
    lastProcessErrorCode: row.last_process_error_code,
    lastProcessedErrors: row.last_processed_errors,
    lastProcessedAt: row.last_processed_at,
    lastVersionId: row.last_version_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at
  })
)

const versions = Rows.decoder(
  "specs_versions",
  Schema.Struct({
    id: Schema.String,
    spec_id: Schema.String,
    created_at: Rows.Timestamp,
    filesystem: Rows.Json(Schema.Array(SpecFile)),
    hash: Schema.String,
    url: Schema.NullOr(Schema.String)
  }),
  (row): SpecVersion => ({ id: row.id, specId: row.spec_id, createdAt: row.created_at, filesystem: row.filesystem, hash: row.hash, url: row.url })
)

export const layer = Layer.effect(
  SpecsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const insertRow = (spec: Spec) =>
      sql`
        INSERT INTO specs_specs (id, organization_id, slug, visibility, source, processing_state, last_process_error_code,
          last_processed_errors, last_processed_at, last_version_id, created_at, updated_at)
        VALUES (${spec.id}, ${spec.organizationId}, ${spec.slug}, ${spec.visibility}, ${JSON.stringify(spec.source)}::jsonb,
          ${spec.processingState}, ${spec.lastProcessErrorCode}, ${JSON.stringify(spec.lastProcessedErrors)}::jsonb,
          ${spec.lastProcessedAt}, ${spec.lastVersionId}, ${spec.createdAt}, ${spec.updatedAt})`

    // An update never inserts: a processing run that ends after its spec was deleted must not bring it back.
    const updateRow = (spec: Spec) =>
      sql<Row>`
        UPDATE specs_specs SET visibility = ${spec.visibility}, source = ${JSON.stringify(spec.source)}::jsonb,
          processing_state = ${spec.processingState}, last_process_error_code = ${spec.lastProcessErrorCode},
          last_processed_errors = ${JSON.stringify(spec.lastProcessedErrors)}::jsonb, last_processed_at = ${spec.lastProcessedAt},
          last_version_id = ${spec.lastVersionId}, updated_at = ${spec.updatedAt}
        WHERE id = ${spec.id}
        RETURNING id`

    const find = (specId: string) => sql<Row>`SELECT * FROM specs_specs WHERE id = ${specId}`.pipe(Effect.orDie, Effect.flatMap(specs.first))

    return SpecsRepo.of({
      insert: (spec) =>
        insertRow(spec).pipe(
          Effect.asVoid,
          Effect.catch((e) => e.cause._tag === "UniqueViolation" ? Effect.fail(slugTaken(spec.slug)) : Effect.die(e))
        ),
      find,
      findBySlug: (organizationId, slug) =>
        sql<Row>`SELECT * FROM specs_specs WHERE organization_id = ${organizationId} AND slug = ${slug}`.pipe(
          Effect.orDie,
          Effect.flatMap(specs.first)
        ),
      list: (organizationId, after, limit) => {
        const range = after === undefined ? sql`true` : sql`(created_at, id) > (${String(after[0])}::timestamptz, ${String(after[1])})`
        return sql<Row>`
          SELECT * FROM specs_specs WHERE organization_id = ${organizationId} AND ${range}
          ORDER BY created_at, id LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(specs.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, specKey))
        )
      },
      withUrl: sql<Row>`SELECT * FROM specs_specs WHERE source ? 'url'`.pipe(Effect.orDie, Effect.flatMap(specs.all)),
      update: (specId, patch) =>
        Effect.gen(function*() {
          const found = yield* find(specId)
          if (Option.isNone(found)) return Option.none()
          const next: Spec = { ...found.value, ...patch }
          const updated = yield* updateRow(next).pipe(Effect.orDie)
          return updated.length === 0 ? Option.none() : Option.some(next)
        }),
      remove: (specId) =>
        Effect.all([
          sql`DELETE FROM specs_versions WHERE spec_id = ${specId}`,
          sql`DELETE FROM specs_specs WHERE id = ${specId}`
        ], { discard: true }).pipe(sql.withTransaction, Effect.orDie),
      // A version is kept only while its spec exists: a run that ends after a delete leaves no orphan.
      insertVersion: (version) =>
        sql`
          INSERT INTO specs_versions (id, spec_id, created_at, filesystem, hash, url)
          SELECT ${version.id}, ${version.specId}, ${version.createdAt}, ${JSON.stringify(version.filesystem)}::json,
            ${version.hash}, ${version.url}
          WHERE EXISTS (SELECT 1 FROM specs_specs WHERE id = ${version.specId})`.pipe(Effect.orDie, Effect.asVoid),
      findVersion: (specId, versionId) =>
        sql<Row>`SELECT * FROM specs_versions WHERE id = ${versionId} AND spec_id = ${specId}`.pipe(
          Effect.orDie,
          Effect.flatMap(versions.first)
        ),
      listVersions: (specId, after, limit) => {
        const range = after === undefined ? sql`true` : sql`(created_at, id) < (${String(after[0])}::timestamptz, ${String(after[1])})`
        return sql<Row>`
          SELECT * FROM specs_versions WHERE spec_id = ${specId} AND ${range}
          ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(versions.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, versionKey))
        )
      }
    })
  })
)
