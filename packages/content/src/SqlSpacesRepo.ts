/** Postgres adapter of SpacesRepo. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, Rows } from "@quire/kernel"
import { DefaultLevel, EditMode, Language, MergeRules, type Space, Visibility } from "./domain/Space.ts"
import { spaceKey, type SpacePatch, SpacesRepo } from "./SpacesRepo.ts"

type Row = Record<string, unknown>

const SpaceRow = Schema.Struct({
  id: Schema.String,
  organization_id: Schema.String,
  parent_id: Schema.NullOr(Schema.String),
  title: Schema.String,
  emoji: Schema.String,
  visibility: Visibility,
  edit_mode: EditMode,
  // A role, 'inherit', or NULL for "no access".
  default_level: DefaultLevel,
  language: Schema.NullOr(Language),
  merge_rules: Rows.Json(MergeRules),
  position: Schema.Number,
  revision_id: Schema.String,
  share_key: Schema.String,
  created_at: Rows.Timestamp,
  updated_at: Rows.Timestamp,
  deleted_at: Rows.TimestampOrNull
})

const spaces = Rows.decoder("content_spaces", SpaceRow, (row): Space => ({
  id: row.id,
  organizationId: row.organization_id,
  parentId: row.parent_id,
  title: row.title,
  emoji: row.emoji,
  visibility: row.visibility,
  editMode: row.edit_mode,
  defaultLevel: row.default_level,
  language: row.language,
  mergeRules: row.merge_rules,
  position: row.position,
  revisionId: row.revision_id,
  shareKey: row.share_key,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  deletedAt: row.deleted_at
}))

export const layer = Layer.effect(
  SpacesRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const update = (spaceId: string, patch: SpacePatch) => {
      const sets = [
        ...(patch.title === undefined ? [] : [sql`title = ${patch.title}`]),
        ...(patch.emoji === undefined ? [] : [sql`emoji = ${patch.emoji}`]),
        ...(patch.visibility === undefined ? [] : [sql`visibility = ${patch.visibility}`]),
        ...(patch.editMode === undefined ? [] : [sql`edit_mode = ${patch.editMode}`]),
        ...(patch.defaultLevel === undefined ? [] : [sql`default_level = ${patch.defaultLevel}`]),
        ...(patch.language === undefined ? [] : [sql`language = ${patch.language}`]),
        ...(patch.mergeRules === undefined ? [] : [sql`merge_rules = ${JSON.stringify(patch.mergeRules)}::jsonb`]),
        ...(patch.parentId === undefined ? [] : [sql`parent_id = ${patch.parentId}`]),
        ...(patch.organizationId === undefined ? [] : [sql`organization_id = ${patch.organizationId}`]),
        ...(patch.position === undefined ? [] : [sql`position = ${patch.position}`]),
        ...(patch.deletedAt === undefined ? [] : [sql`deleted_at = ${patch.deletedAt}`]),
        ...(patch.updatedAt === undefined ? [] : [sql`updated_at = ${patch.updatedAt}`])
      ]
      const set = sets.length === 0 ? sql`id = id` : sql.csv(sets)
      return sql<Row>`UPDATE content_spaces SET ${set} WHERE id = ${spaceId} RETURNING *`.pipe(
        Effect.orDie,
        Effect.flatMap(spaces.first)
      )
    }

    return SpacesRepo.of({
      insert: (space) =>
        sql`
          INSERT INTO content_spaces (id, organization_id, parent_id, title, emoji, visibility, edit_mode, default_level,
            language, merge_rules, position, revision_id, share_key, created_at, updated_at, deleted_at)
          VALUES (${space.id}, ${space.organizationId}, ${space.parentId}, ${space.title}, ${space.emoji},
            ${space.visibility}, ${space.editMode}, ${space.defaultLevel}, ${space.language},
            ${JSON.stringify(space.mergeRules)}::jsonb, ${space.position},
            ${space.revisionId}, ${space.shareKey}, ${space.createdAt}, ${space.updatedAt}, ${space.deletedAt})`.pipe(Effect.orDie, Effect.asVoid),
      find: (spaceId) =>
        sql<Row>`SELECT * FROM content_spaces WHERE id = ${spaceId}`.pipe(
          Effect.orDie,
          Effect.flatMap(spaces.first)
        ),
      list: (query, after, limit) => {
        const desc = query.order === "desc"
        const parent = query.parentId === undefined
          ? sql`true`
          : query.parentId === null
          ? sql`parent_id IS NULL`
          : sql`parent_id = ${query.parentId}`
        const live = query.includeDeleted === true ? sql`true` : sql`deleted_at IS NULL`
        const key = after === undefined
          ? undefined
          : sql`(${Number(after[0])}::float8, ${String(after[1])}::timestamptz, ${String(after[2])})`
        const range = key === undefined
          ? sql`true`
          : desc
          ? sql`(position, created_at, id) < ${key}`
          : sql`(position, created_at, id) > ${key}`
        const order = desc ? sql`position DESC, created_at DESC, id DESC` : sql`position, created_at, id`
        return sql<Row>`
          SELECT * FROM content_spaces
          WHERE organization_id = ${query.organizationId} AND ${parent} AND ${live} AND ${range}
          ORDER BY ${order}
          LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(spaces.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, spaceKey))
        )
      },
      update,
      setRevision: (spaceId, expected, next, at) =>
        sql<Row>`
          UPDATE content_spaces SET revision_id = ${next}, updated_at = ${at}
          WHERE id = ${spaceId} AND revision_id = ${expected}
          RETURNING id`.pipe(Effect.orDie, Effect.map((rows) => rows.length > 0)),
      listDeletedBefore: (before, limit) =>
        sql<Row>`
          SELECT * FROM content_spaces
          WHERE deleted_at IS NOT NULL AND deleted_at < ${before}
          ORDER BY deleted_at, id
          LIMIT ${limit}`.pipe(Effect.orDie, Effect.flatMap(spaces.all)),
      remove: (spaceId) => sql`DELETE FROM content_spaces WHERE id = ${spaceId}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
