/** Postgres adapter of ChangeRequestsRepo. Numbers come from a per-space counter row, locked by its upsert. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, Rows } from "@quire/kernel"
import { type ChangeRequestPatch, changeRequestKey, ChangeRequestsRepo, spacesChangeRequestKey } from "./ChangeRequestsRepo.ts"
import { type ChangeRequest, ChangeRequestLinkRow, ChangeRequestStatus } from "./domain/ChangeRequest.ts"
import { MergeConflict } from "./domain/MergeConflict.ts"

type Row = Record<string, unknown>

/** A change request with its contributors (a JSON array aggregated by the query). */
const ChangeRequestRow = Schema.Struct({
  id: Schema.String,
  space_id: Schema.String,
  number: Schema.Number,
  status: ChangeRequestStatus,
  subject: Schema.String,
  description: Schema.NullOr(Schema.String),
  links: Rows.Json(Schema.Array(ChangeRequestLinkRow)),
  created_by: Schema.String,
  created_at: Rows.Timestamp,
  updated_at: Rows.Timestamp,
  revision: Schema.String,
  revision_initial: Schema.String,
  revision_merged_ancestor: Schema.String,
  revision_merged: Schema.NullOr(Schema.String),
  merged_by: Schema.NullOr(Schema.String),
  merged_at: Schema.NullOr(Rows.Timestamp),
  agent_task_id: Schema.NullOr(Schema.String),
  contributors: Rows.Json(Schema.Array(Schema.String)),
  comments: Schema.Number,
  conflicts: Schema.NullOr(Rows.Json(Schema.Array(MergeConflict))),
  conflicts_main: Schema.NullOr(Schema.String),
  conflicts_head: Schema.NullOr(Schema.String)
})

const changeRequests = Rows.decoder("reviews_change_requests", ChangeRequestRow, (row): ChangeRequest => ({
  id: row.id,
  spaceId: row.space_id,
  number: row.number,
  status: row.status,
  subject: row.subject,
  description: row.description,
  links: row.links,
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  revision: row.revision,
  revisionInitial: row.revision_initial,
  revisionMergedAncestor: row.revision_merged_ancestor,
  revisionMerged: row.revision_merged,
  mergedBy: row.merged_by,
  mergedAt: row.merged_at,
  agentTaskId: row.agent_task_id,
  contributors: row.contributors,
  comments: row.comments,
  conflicts: row.conflicts,
  conflictsFound: row.conflicts_main === null || row.conflicts_head === null ? null : { main: row.conflicts_main, head: row.conflicts_head }
}))

const numbers = Rows.decoder("reviews_change_request_numbers", Schema.Struct({ last: Schema.Number }), (row) => row.last)

export const layer = Layer.effect(
  ChangeRequestsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    // Contributors in the order they first edited, as one array per row.
    const select = sql`
      SELECT cr.*, COALESCE((
        SELECT jsonb_agg(c.user_id ORDER BY c.position) FROM reviews_change_request_contributors c
        WHERE c.change_request_id = cr.id
      ), '[]'::jsonb) AS contributors
      FROM reviews_change_requests cr`

    const find = (id: string) => sql<Row>`${select} WHERE cr.id = ${id}`.pipe(Effect.orDie, Effect.flatMap(changeRequests.first))

    const update = (id: string, patch: ChangeRequestPatch) => {
      const sets = [
        ...(patch.subject === undefined ? [] : [sql`subject = ${patch.subject}`]),
        ...(patch.description === undefined ? [] : [sql`description = ${patch.description}`]),
        ...(patch.links === undefined ? [] : [sql`links = ${JSON.stringify(patch.links)}::jsonb`]),
        ...(patch.revisionMergedAncestor === undefined ? [] : [sql`revision_merged_ancestor = ${patch.revisionMergedAncestor}`]),
        ...(patch.revisionMerged === undefined ? [] : [sql`revision_merged = ${patch.revisionMerged}`]),
        ...(patch.mergedBy === undefined ? [] : [sql`merged_by = ${patch.mergedBy}`]),
        ...(patch.mergedAt === undefined ? [] : [sql`merged_at = ${patch.mergedAt}`]),
        ...(patch.updatedAt === undefined ? [] : [sql`updated_at = ${patch.updatedAt}`])
      ]
      const set = sets.length === 0 ? sql`id = id` : sql.csv(sets)
      return sql`UPDATE reviews_change_requests SET ${set} WHERE id = ${id}`.pipe(Effect.orDie, Effect.andThen(find(id)))
    }

    return ChangeRequestsRepo.of({
      insert: (input) =>
        Effect.gen(function*() {
          const allocated = yield* sql<Row>`
            INSERT INTO reviews_change_request_numbers (space_id, last) VALUES (${input.spaceId}, 1)
            ON CONFLICT (space_id) DO UPDATE SET last = reviews_change_request_numbers.last + 1
            RETURNING last`
          const number = yield* Effect.sync(() => numbers.decode(allocated[0]))
          yield* sql`
            INSERT INTO reviews_change_requests (id, space_id, number, status, subject, created_by, created_at, updated_at,
              revision, revision_initial, revision_merged_ancestor, revision_merged, agent_task_id)
            VALUES (${input.id}, ${input.spaceId}, ${number}, ${input.status}, ${input.subject}, ${input.createdBy},
              ${input.createdAt}, ${input.updatedAt}, ${input.revision}, ${input.revisionInitial},
              ${input.revisionMergedAncestor}, ${input.revisionMerged}, ${input.agentTaskId})`
          for (const [position, userId] of input.contributors.entries()) {
            yield* sql`
              INSERT INTO reviews_change_request_contributors (change_request_id, user_id, position)
              VALUES (${input.id}, ${userId}, ${position}) ON CONFLICT DO NOTHING`
          }
          return { ...input, number, description: null, links: [], comments: 0, conflicts: null, conflictsFound: null, mergedBy: null, mergedAt: null }
        }).pipe(sql.withTransaction, Effect.orDie),
      find,
      findByNumber: (spaceId, number) =>
        sql<Row>`${select} WHERE cr.space_id = ${spaceId} AND cr.number = ${number}`.pipe(
          Effect.orDie,
          Effect.flatMap(changeRequests.first)
        ),
      findMergedInto: (spaceId, revisionId) =>
        sql<Row>`${select} WHERE cr.space_id = ${spaceId} AND cr.revision_merged = ${revisionId}`.pipe(
          Effect.orDie,
          Effect.flatMap(changeRequests.first)
        ),
      list: (query, after, limit) => {
        if (query.statuses?.length === 0 || query.ids?.length === 0) return Effect.succeed({ items: [] })
        const conditions = [
          sql`cr.space_id = ${query.spaceId}`,
          ...(query.statuses === undefined ? [] : [sql`cr.status IN ${sql.in(query.statuses)}`]),
          ...(query.ids === undefined ? [] : [sql`cr.id IN ${sql.in(query.ids)}`]),
          ...(query.creator === undefined ? [] : [sql`cr.created_by = ${query.creator}`]),
          ...(query.contributor === undefined ? [] : [sql`EXISTS (
            SELECT 1 FROM reviews_change_request_contributors c
            WHERE c.change_request_id = cr.id AND c.user_id = ${query.contributor})`]),
          ...(after === undefined ? [] : [sql`cr.number < ${Number(after[0])}`])
        ]
        return sql<Row>`${select} WHERE ${sql.and(conditions)} ORDER BY cr.number DESC LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(changeRequests.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, changeRequestKey))
        )
      },
      listInSpaces: (query, after, limit) => {
        if (query.spaceIds.length === 0 || query.statuses.length === 0 || query.ids?.length === 0) return Effect.succeed({ items: [] })
        const column = query.orderBy === "createdAt" ? sql`cr.created_at` : sql`cr.updated_at`
        const conditions = [
          sql`cr.space_id IN ${sql.in(query.spaceIds)}`,
          sql`cr.status IN ${sql.in(query.statuses)}`,
          ...(query.ids === undefined ? [] : [sql`cr.id IN ${sql.in(query.ids)}`]),
          ...(query.creator === undefined ? [] : [sql`cr.created_by = ${query.creator}`]),
          ...(query.contributor === undefined ? [] : [sql`EXISTS (
            SELECT 1 FROM reviews_change_request_contributors c
            WHERE c.change_request_id = cr.id AND c.user_id = ${query.contributor})`]),
          ...(after === undefined ? [] : [sql`(${column}, cr.id) < (${String(after[0])}::timestamptz, ${String(after[1])})`])
        ]
        return sql<Row>`${select} WHERE ${sql.and(conditions)} ORDER BY ${column} DESC, cr.id DESC LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(changeRequests.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, spacesChangeRequestKey(query.orderBy)))
        )
      },
      update,
      setStatus: (id, expected, next, at) =>
        sql<Row>`
          UPDATE reviews_change_requests SET status = ${next}, updated_at = ${at}
          WHERE id = ${id} AND status = ${expected} RETURNING id`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) => (rows.length === 0 ? Effect.succeedNone : find(id)))
        ),
      setRevision: (id, expected, next, at) =>
        sql<Row>`
          UPDATE reviews_change_requests SET revision = ${next}, updated_at = ${at}
          WHERE id = ${id} AND revision = ${expected} RETURNING id`.pipe(Effect.orDie, Effect.map((rows) => rows.length > 0)),
      addContributor: (id, userId) =>
        sql`
          INSERT INTO reviews_change_request_contributors (change_request_id, user_id, position)
          VALUES (${id}, ${userId}, (SELECT COUNT(*) FROM reviews_change_request_contributors WHERE change_request_id = ${id}))
          ON CONFLICT DO NOTHING`.pipe(Effect.orDie, Effect.asVoid),
      addToComments: (id, delta) =>
        sql`UPDATE reviews_change_requests SET comments = GREATEST(0, comments + ${delta}) WHERE id = ${id}`.pipe(
          Effect.orDie,
          Effect.asVoid
        ),
      setConflicts: (id, found) =>
        sql`
          UPDATE reviews_change_requests
          SET conflicts = ${found === null ? null : JSON.stringify(found.conflicts)}::jsonb,
            conflicts_main = ${found === null ? null : found.main}, conflicts_head = ${found === null ? null : found.head}
          WHERE id = ${id}`.pipe(Effect.orDie, Effect.andThen(find(id))),
      removeForSpace: (spaceId) =>
        Effect.gen(function*() {
          yield* sql`
            DELETE FROM reviews_change_request_contributors
            WHERE change_request_id IN (SELECT id FROM reviews_change_requests WHERE space_id = ${spaceId})`
          yield* sql`DELETE FROM reviews_change_requests WHERE space_id = ${spaceId}`
          yield* sql`DELETE FROM reviews_change_request_numbers WHERE space_id = ${spaceId}`
        }).pipe(Effect.orDie)
    })
  })
)
