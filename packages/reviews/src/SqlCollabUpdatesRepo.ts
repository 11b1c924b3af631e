/** Postgres adapter of CollabUpdatesRepo: the state and each update as `bytea`, each under `maxStoredBytes` (and CHECKed so). */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import { checkStored, CollabUpdatesRepo } from "./CollabUpdatesRepo.ts"

type Row = Record<string, unknown>

const Bytes = Schema.instanceOf(Uint8Array)

const documents = Rows.decoder(
  "reviews_collab_documents",
  Schema.Struct({
    name: Schema.String,
    space_id: Schema.String,
    change_request_id: Schema.String,
    page_id: Schema.String,
    state: Bytes,
    version: Schema.Number,
    written_through: Schema.Number,
    page_sha: Schema.String,
    doc_sha: Schema.String
  })
)

const updates = Rows.decoder("reviews_collab_updates", Schema.Struct({ id: Schema.String, update: Bytes, author_id: Schema.NullOr(Schema.String) }))

/** A copy that is a plain Uint8Array (the driver answers Node Buffers, views of a shared pool). */
const own = (bytes: Uint8Array): Uint8Array => Uint8Array.from(bytes)

export const layer = Layer.effect(
  CollabUpdatesRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return CollabUpdatesRepo.of({
      load: (name) =>
        Effect.gen(function*() {
          const found = yield* sql<Row>`
            SELECT name, space_id, change_request_id, page_id, state, version::int AS version, written_through::float8 AS written_through, page_sha, doc_sha
            FROM reviews_collab_documents WHERE name = ${name}`.pipe(Effect.flatMap(documents.first))
          if (Option.isNone(found)) return Option.none()
          const rows = yield* sql<Row>`SELECT id::text AS id, update, author_id FROM reviews_collab_updates WHERE name = ${name} ORDER BY id`.pipe(
            Effect.flatMap(updates.all)
          )
          const doc = found.value
          return Option.some({
            name: doc.name,
            spaceId: doc.space_id,
            changeRequestId: doc.change_request_id,
            pageId: doc.page_id,
            state: own(doc.state),
            version: doc.version,
            pageSha: doc.page_sha,
            docSha: doc.doc_sha,
            writtenThrough: doc.written_through,
            updates: rows.map((row) => ({ id: row.id, update: own(row.update), author: row.author_id ?? undefined }))
          })
        }).pipe(Effect.orDie),
      create: (key, state, agreement, at) =>
        Effect.andThen(checkStored("state", state), sql<Row>`
          INSERT INTO reviews_collab_documents (name, space_id, change_request_id, page_id, state, version, page_sha, doc_sha, updated_at)
          VALUES (${key.name}, ${key.spaceId}, ${key.changeRequestId}, ${key.pageId}, ${Buffer.from(state)}, 1, ${agreement.pageSha}, ${agreement.docSha}, ${at})
          ON CONFLICT (name) DO NOTHING
          RETURNING name`.pipe(Effect.orDie, Effect.map((rows) => rows.length === 1))),
      append: (name, update, author, at) =>
        Effect.andThen(
          checkStored("update", update),
          sql<{ readonly id: string }>`
            INSERT INTO reviews_collab_updates (name, update, author_id, created_at) VALUES (${name}, ${Buffer.from(update)}, ${author ?? null}, ${at})
            RETURNING id::text AS id`.pipe(Effect.orDie, Effect.map((rows) => rows[0]!.id))
        ),
      compact: (name, version, state, merged, at) =>
        Effect.andThen(checkStored("state", state), sql.withTransaction(Effect.gen(function*() {
          const moved = yield* sql<Row>`
            UPDATE reviews_collab_documents SET state = ${Buffer.from(state)}, version = version + 1, updated_at = ${at}
            WHERE name = ${name} AND version = ${version}
            RETURNING name`
          if (moved.length === 0) return false
          if (merged.length > 0) yield* sql`DELETE FROM reviews_collab_updates WHERE name = ${name} AND id IN ${sql.in(merged.map(Number))}`
          return true
        })).pipe(Effect.orDie)),
      agree: (name, agreement, through, at) =>
        sql`
          UPDATE reviews_collab_documents SET page_sha = ${agreement.pageSha}, doc_sha = ${agreement.docSha}, updated_at = ${at},
            written_through = GREATEST(written_through, ${through ?? 0})
          WHERE name = ${name}`.pipe(Effect.orDie, Effect.asVoid),
      claim: (name, pageSha, agreement, at) =>
        sql<Row>`
          UPDATE reviews_collab_documents SET page_sha = ${agreement.pageSha}, doc_sha = ${agreement.docSha}, updated_at = ${at}
          WHERE name = ${name} AND page_sha = ${pageSha}
          RETURNING name`.pipe(Effect.orDie, Effect.map((rows) => rows.length === 1)),
      reset: (name, state, agreement, at) =>
        Effect.andThen(checkStored("state", state), sql.withTransaction(Effect.gen(function*() {
          yield* sql`
            UPDATE reviews_collab_documents
            SET state = ${Buffer.from(state)}, version = version + 1, page_sha = ${agreement.pageSha}, doc_sha = ${agreement.docSha}, updated_at = ${at}
            WHERE name = ${name}`
          yield* sql`DELETE FROM reviews_collab_updates WHERE name = ${name}`
        })).pipe(Effect.orDie)),
      namesOf: (changeRequestId) =>
        sql<{ readonly name: string }>`SELECT name FROM reviews_collab_documents WHERE change_request_id = ${changeRequestId} ORDER BY name`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.map((row) => row.name))
        ),
      remove: (name) => sql`DELETE FROM reviews_collab_documents WHERE name = ${name}`.pipe(Effect.orDie, Effect.asVoid),
      removeForSpace: (spaceId) => sql`DELETE FROM reviews_collab_documents WHERE space_id = ${spaceId}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
