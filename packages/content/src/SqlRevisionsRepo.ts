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
      insert: (revision, documents) =>
        Effect.gen(function*() {
          const rows = Array.from(documents, ([hash, markdown]) => ({ hash, markdown }))
          if (Arr.isArrayNonEmpty(rows)) {
            yield* sql`INSERT INTO content_documents ${sql.insert(rows)} ON CONFLICT (hash) DO NOTHING`
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
        sql`DELETE FROM content_revisions WHERE space_id = ${spaceId}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
