/** Postgres adapter of SpacesRepo. */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, type Roles } from "@quire/kernel"
import type { DefaultLevel, EditMode, Space, Visibility } from "./domain/Space.ts"
import { spaceKey, type SpacePatch, SpacesRepo } from "./SpacesRepo.ts"

type Row = Record<string, unknown>

const toDate = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)))

/** `default_level` holds a role, 'inherit', or NULL for "no access". */
export const toDefaultLevel = (value: unknown): DefaultLevel =>
  value == null ? null : value === "inherit" ? "inherit" : value as Roles.MemberRole

const toSpace = (row: Row): Space => ({
  id: String(row.id),
  organizationId: String(row.organization_id),
  parentId: row.parent_id == null ? null : String(row.parent_id),
  title: String(row.title),
  emoji: String(row.emoji),
  visibility: row.visibility as Visibility,
  editMode: row.edit_mode as EditMode,
  defaultLevel: toDefaultLevel(row.default_level),
  language: row.language == null ? null : String(row.language),
  position: Number(row.position),
  revisionId: String(row.revision_id),
  shareKey: String(row.share_key),
  createdAt: toDate(row.created_at),
  updatedAt: toDate(row.updated_at),
  deletedAt: row.deleted_at == null ? null : toDate(row.deleted_at)
})

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
        ...(patch.parentId === undefined ? [] : [sql`parent_id = ${patch.parentId}`]),
        ...(patch.organizationId === undefined ? [] : [sql`organization_id = ${patch.organizationId}`]),
        ...(patch.position === undefined ? [] : [sql`position = ${patch.position}`]),
        ...(patch.deletedAt === undefined ? [] : [sql`deleted_at = ${patch.deletedAt}`]),
        ...(patch.updatedAt === undefined ? [] : [sql`updated_at = ${patch.updatedAt}`])
      ]
      const set = sets.length === 0 ? sql`id = id` : sql.csv(sets)
      return sql<Row>`UPDATE content_spaces SET ${set} WHERE id = ${spaceId} RETURNING *`.pipe(
        Effect.orDie,
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toSpace))
      )
    }

    return SpacesRepo.of({
      insert: (space) =>
        sql`
          INSERT INTO content_spaces (id, organization_id, parent_id, title, emoji, visibility, edit_mode, default_level,
            language, position, revision_id, share_key, created_at, updated_at, deleted_at)
          VALUES (${space.id}, ${space.organizationId}, ${space.parentId}, ${space.title}, ${space.emoji},
            ${space.visibility}, ${space.editMode}, ${space.defaultLevel}, ${space.language}, ${space.position},
            ${space.revisionId}, ${space.shareKey}, ${space.createdAt}, ${space.updatedAt}, ${space.deletedAt})`.pipe(Effect.orDie, Effect.asVoid),
      find: (spaceId) =>
        sql<Row>`SELECT * FROM content_spaces WHERE id = ${spaceId}`.pipe(
          Effect.orDie,
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toSpace))
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
          Effect.map((rows) => Pagination.pageFromRows(rows.map(toSpace), limit, spaceKey))
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
          LIMIT ${limit}`.pipe(Effect.orDie, Effect.map((rows) => rows.map(toSpace))),
      remove: (spaceId) => sql`DELETE FROM content_spaces WHERE id = ${spaceId}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
