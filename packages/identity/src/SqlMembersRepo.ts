/** Postgres adapter of MembersRepo. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, Roles, Rows } from "@quire/kernel"
import type { Member, MemberQuery } from "./domain/Identity.ts"
import { memberKeyOf, MembersRepo } from "./MembersRepo.ts"
import { userColumns, UserFields, userOf } from "./SqlRows.ts"

type Row = Record<string, unknown>

/** A member with its user and its number of teams in the organization. */
const MemberRow = Schema.Struct({
  ...UserFields,
  organization_id: Schema.String,
  role: Roles.MemberRoleOrGuest,
  joined_at: Rows.Timestamp,
  last_seen_at: Rows.TimestampOrNull,
  sso: Schema.Boolean,
  disabled: Schema.Boolean,
  teams: Schema.Number
})
const members = Rows.decoder("identity_members", MemberRow, (row): Member => ({
  organizationId: row.organization_id,
  user: userOf(row),
  role: row.role,
  joinedAt: row.joined_at,
  lastSeenAt: row.last_seen_at,
  sso: row.sso,
  disabled: row.disabled,
  teams: row.teams,
  spaces: 0
}))

const counts = Rows.decoder("identity_members", Schema.Struct({ n: Schema.Number }), (row) => row.n)

export const layer = Layer.effect(
  MembersRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql.literal(`
      SELECT ${userColumns}, m.organization_id, m.role, m.joined_at, m.last_seen_at, m.sso, m.disabled,
        (SELECT count(*)::int FROM identity_team_members tm JOIN identity_teams t ON t.id = tm.team_id
          WHERE t.organization_id = m.organization_id AND tm.user_id = m.user_id) AS teams
      FROM identity_members m JOIN identity_users u ON u.id = m.user_id`)
    const sortColumn = (sort: MemberQuery["sort"]) => {
      switch (sort) {
        case "joinedAt":
          return sql.literal("m.joined_at")
        case "lastSeenAt":
          return sql.literal("m.last_seen_at")
        case "name":
          return sql.literal(`lower(u.display_name) COLLATE "C"`)
      }
    }

    return MembersRepo.of({
      find: (organizationId, userId) =>
        sql<Row>`${select} WHERE m.organization_id = ${organizationId} AND m.user_id = ${userId}`.pipe(
          Effect.orDie,
          Effect.flatMap(members.first)
        ),
      list: (organizationId, query, after, limit) => {
        const column = sortColumn(query.sort)
        const search = query.search === undefined ? undefined : `%${query.search.toLowerCase().replace(/[\\%_]/g, "\\$&")}%`
        const cursorValue = after === undefined
          ? undefined
          : query.sort === "name" ? sql`${String(after[0])}` : sql`${String(after[0])}::timestamptz`
        const comparison = query.order === "asc" ? sql.literal(">") : sql.literal("<")
        const direction = sql.literal(query.order === "asc" ? "ASC" : "DESC")
        const where = sql.and([
          sql`m.organization_id = ${organizationId}`,
          ...(query.role === undefined ? [] : [query.role === "guest" ? sql`m.role IS NULL` : sql`m.role = ${query.role}`]),
          ...(search === undefined ? [] : [sql`(lower(u.display_name) LIKE ${search} OR lower(u.email) LIKE ${search})`]),
          ...(query.sort === "lastSeenAt" ? [sql`m.last_seen_at IS NOT NULL`] : []),
          ...(after === undefined ? [] : [sql`(${column}, m.user_id) ${comparison} (${cursorValue}, ${String(after[1])})`])
        ])
        return sql<Row>`${select} WHERE ${where} ORDER BY ${column} ${direction}, m.user_id ${direction} LIMIT ${limit + 1}`
          .pipe(
            Effect.orDie,
            Effect.flatMap(members.all),
            Effect.flatMap((items) => Pagination.pageFromRows(items, limit, memberKeyOf(query.sort)))
          )
      },
      add: (member) =>
        sql<Row>`
          INSERT INTO identity_members (organization_id, user_id, role, joined_at, sso)
          VALUES (${member.organizationId}, ${member.userId}, ${member.role}, ${member.joinedAt}, ${member.sso})
          ON CONFLICT (organization_id, user_id) DO NOTHING
          RETURNING user_id`.pipe(Effect.orDie, Effect.map((rows) => rows.length === 1)),
      setRole: (organizationId, userId, role) =>
        sql`UPDATE identity_members SET role = ${role} WHERE organization_id = ${organizationId} AND user_id = ${userId}`
          .pipe(Effect.orDie, Effect.asVoid),
      setSso: (organizationId, userId, sso) =>
        sql`UPDATE identity_members SET sso = ${sso} WHERE organization_id = ${organizationId} AND user_id = ${userId}`
          .pipe(Effect.orDie, Effect.asVoid),
      touch: (organizationId, userId, at) =>
        sql`UPDATE identity_members SET last_seen_at = ${at} WHERE organization_id = ${organizationId} AND user_id = ${userId}`
          .pipe(Effect.orDie, Effect.asVoid),
      remove: (organizationId, userId) =>
        Effect.gen(function*() {
          yield* sql`
            DELETE FROM identity_team_members WHERE user_id = ${userId}
              AND team_id IN (SELECT id FROM identity_teams WHERE organization_id = ${organizationId})`
          yield* sql`DELETE FROM identity_members WHERE organization_id = ${organizationId} AND user_id = ${userId}`
        }).pipe(sql.withTransaction, Effect.orDie),
      countAdmins: (organizationId) =>
        sql<Row>`SELECT count(*)::int AS n FROM identity_members WHERE organization_id = ${organizationId} AND role = 'admin'`
          .pipe(Effect.orDie, Effect.flatMap((rows) => Effect.sync(() => counts.decode(rows[0]))))
    })
  })
)
