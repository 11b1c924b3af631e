/** Postgres adapter of CollectionsRepo. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, Rows } from "@quire/kernel"
import { collectionKey, type CollectionPatch, CollectionsRepo } from "./CollectionsRepo.ts"
import { type Collection, DefaultLevel } from "./domain/Space.ts"

type Row = Record<string, unknown>

const CollectionRow = Schema.Struct({
  id: Schema.String,
  organization_id: Schema.String,
  parent_id: Schema.NullOr(Schema.String),
  title: Schema.String,
  description: Schema.NullOr(Schema.String),
  default_level: DefaultLevel,
  position: Schema.Number,
  created_at: Rows.Timestamp,
  updated_at: Rows.Timestamp
})

const collections = Rows.decoder("content_collections", CollectionRow, (row): Collection => ({
  id: row.id,
  organizationId: row.organization_id,
  parentId: row.parent_id,
  title: row.title,
  description: row.description,
  defaultLevel: row.default_level,
  position: row.position,
  createdAt: row.created_at,
  updatedAt: row.updated_at
}))

export const layer = Layer.effect(
  CollectionsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const update = (collectionId: string, patch: CollectionPatch) => {
      const sets = [
        ...(patch.title === undefined ? [] : [sql`title = ${patch.title}`]),
        ...(patch.description === undefined ? [] : [sql`description = ${patch.description}`]),
        ...(patch.defaultLevel === undefined ? [] : [sql`default_level = ${patch.defaultLevel}`]),
        ...(patch.parentId === undefined ? [] : [sql`parent_id = ${patch.parentId}`]),
        ...(patch.organizationId === undefined ? [] : [sql`organization_id = ${patch.organizationId}`]),
        ...(patch.position === undefined ? [] : [sql`position = ${patch.position}`]),
        ...(patch.updatedAt === undefined ? [] : [sql`updated_at = ${patch.updatedAt}`])
      ]
      const set = sets.length === 0 ? sql`id = id` : sql.csv(sets)
      return sql<Row>`UPDATE content_collections SET ${set} WHERE id = ${collectionId} RETURNING *`.pipe(
        Effect.orDie,
        Effect.flatMap(collections.first)
      )
    }

    return CollectionsRepo.of({
      insert: (collection) =>
        sql`
          INSERT INTO content_collections (id, organization_id, parent_id, title, description, default_level, position,
            created_at, updated_at)
          VALUES (${collection.id}, ${collection.organizationId}, ${collection.parentId}, ${collection.title},
            ${collection.description}, ${collection.defaultLevel}, ${collection.position}, ${collection.createdAt},
            ${collection.updatedAt})`.pipe(Effect.orDie, Effect.asVoid),
      find: (collectionId) =>
        sql<Row>`SELECT * FROM content_collections WHERE id = ${collectionId}`.pipe(
          Effect.orDie,
          Effect.flatMap(collections.first)
        ),
      // The depth bound only keeps a corrupted tree (a cycle) from recursing forever.
      ancestry: (collectionId) =>
        sql<Row>`
          WITH RECURSIVE chain AS (
            SELECT c.*, 0 AS depth FROM content_collections c WHERE c.id = ${collectionId}
            UNION ALL
            SELECT p.*, chain.depth + 1 FROM content_collections p JOIN chain ON p.id = chain.parent_id
            WHERE chain.depth < 1000
          )
          SELECT * FROM chain ORDER BY depth`.pipe(Effect.orDie, Effect.flatMap(collections.all)),
      list: (query, after, limit) => {
        const parent = query.parentId === undefined
          ? sql`true`
          : query.parentId === null
          ? sql`parent_id IS NULL`
          : sql`parent_id = ${query.parentId}`
        const range = after === undefined
          ? sql`true`
          : sql`(position, created_at, id) > (${Number(after[0])}::float8, ${String(after[1])}::timestamptz, ${String(after[2])})`
        return sql<Row>`
          SELECT * FROM content_collections
          WHERE organization_id = ${query.organizationId} AND ${parent} AND ${range}
          ORDER BY position, created_at, id
          LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(collections.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, collectionKey))
        )
      },
      update,
      remove: (collectionId) =>
        sql`DELETE FROM content_collections WHERE id = ${collectionId}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
