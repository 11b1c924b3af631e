/** Postgres adapter of RevisionsRepo: the tree is one jsonb row; documents are rows keyed by hash. */
import { Array as Arr, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import type { Revision } from "./domain/Revision.ts"
import { RevisionsRepo } from "./RevisionsRepo.ts"

type Row = Record<string, unknown>

const json = <A>(value: unknown): A => (typeof value === "string" ? JSON.parse(value) as A : value as A)

const toRevision = (row: Row): Revision => ({
  id: String(row.id),
  spaceId: String(row.space_id),
  parents: json(row.parents),
  type: row.type as Revision["type"],
  pages: json(row.pages),
  files: json(row.files),
  variables: json(row.variables),
  git: row.git == null ? null : json(row.git),
  createdAt: row.created_at instanceof Date ? row.created_at : new Date(String(row.created_at))
})

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
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toRevision))
        ),
      documents: (hashes) =>
        hashes.length === 0
          ? Effect.succeed(new Map<string, string>())
          : sql<Row>`SELECT hash, markdown FROM content_documents WHERE hash = ANY(${hashes})`.pipe(
            Effect.orDie,
            Effect.map((rows) => new Map(rows.map((row) => [String(row.hash), String(row.markdown)])))
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
