/** Postgres adapter of RevisionsRepo: the tree is one jsonb row; documents are rows keyed by hash. */
import { Array as Arr, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import { FileNode, PageNode, type Revision, RevisionGit, RevisionType, Variables } from "./domain/Revision.ts"
import { RevisionsRepo } from "./RevisionsRepo.ts"

type Row = Record<string, unknown>

const RevisionRow = Schema.Struct({
  id: Schema.String,
  space_id: Schema.String,
  parents: Rows.Json(Schema.Array(Schema.String)),
  type: RevisionType,
  pages: Rows.Json(Schema.Array(PageNode)),
  files: Rows.Json(Schema.Array(FileNode)),
  variables: Rows.Json(Variables),
  git: Schema.NullOr(Rows.Json(RevisionGit)),
  created_at: Rows.Timestamp
})

const revisions = Rows.decoder("content_revisions", RevisionRow, (row): Revision => ({
  id: row.id,
  spaceId: row.space_id,
  parents: row.parents,
  type: row.type,
  pages: row.pages,
  files: row.files,
  variables: row.variables,
  git: row.git,
  createdAt: row.created_at
}))

const documents = Rows.decoder(
  "content_documents",
  Schema.Struct({ hash: Schema.String, markdown: Schema.String }),
  (row) => [row.hash, row.markdown] as const
)

export const layer = Layer.effect(
  RevisionsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return RevisionsRepo.of({
      insert: (revision, documents, shared = []) =>
        Effect.gen(function*() {
          const rows = Array.from(documents, ([hash, markdown]) => ({ hash, markdown }))
          if (Arr.isArrayNonEmpty(rows)) {
            yield* sql`INSERT INTO content_documents ${sql.insert(rows)} ON CONFLICT (hash) DO NOTHING`
          }
          const held = [...documents.keys(), ...shared]
          if (held.length > 0) {
            yield* sql`
              INSERT INTO content_space_documents (space_id, hash)
              SELECT ${revision.spaceId}, unnest(${held}::text[]) ON CONFLICT DO NOTHING`
          }
          yield* sql`
            INSERT INTO content_revisions (id, space_id, parents, type, pages, files, variables, git, created_at)
            VALUES (${revision.id}, ${revision.spaceId}, ${JSON.stringify(revision.parents)}::jsonb, ${revision.type},
              ${JSON.stringify(revision.pages)}::jsonb, ${JSON.stringify(revision.files)}::jsonb,
              ${JSON.stringify(revision.variables)}::jsonb,
              ${revision.git === null ? null : JSON.stringify(revision.git)}::jsonb, ${revision.createdAt})`
        }).pipe(sql.withTransaction, Effect.orDie),
      find: (revisionId) =>
        sql<Row>`SELECT * FROM content_revisions WHERE id = ${revisionId}`.pipe(
          Effect.orDie,
          Effect.flatMap(revisions.first)
        ),
      documents: (hashes) =>
        hashes.length === 0
          ? Effect.succeed(new Map<string, string>())
          : sql<Row>`SELECT hash, markdown FROM content_documents WHERE hash = ANY(${hashes})`.pipe(
            Effect.orDie,
            Effect.flatMap(documents.all),
            Effect.map((entries) => new Map(entries))
          ),
      removeForSpace: (spaceId) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM content_revisions WHERE space_id = ${spaceId}`
          // Documents are shared between spaces by hash: only those no other space holds go.
          yield* sql`
            WITH released AS (DELETE FROM content_space_documents WHERE space_id = ${spaceId} RETURNING hash)
            DELETE FROM content_documents d
            WHERE d.hash IN (SELECT hash FROM released)
              AND NOT EXISTS (SELECT 1 FROM content_space_documents s WHERE s.hash = d.hash AND s.space_id <> ${spaceId})`
        }).pipe(sql.withTransaction, Effect.orDie)
    })
  })
)
