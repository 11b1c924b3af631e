/** Postgres adapter of TeamsRepo. */
import { Array as Arr, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, Rows } from "@quire/kernel"
import { type Team, TeamMemberRole } from "./domain/Identity.ts"
import { teamKey, TeamsRepo } from "./TeamsRepo.ts"

type Row = Record<string, unknown>

/** A team with its number of members. */
const TeamFields = {
  id: Schema.String,
  organization_id: Schema.String,
  title: Schema.String,
  created_at: Rows.Timestamp,
  members: Schema.Number
}
const teamOf = (row: Schema.Struct.Type<typeof TeamFields>): Team => ({
  id: row.id,
  organizationId: row.organization_id,
  title: row.title,
  createdAt: row.created_at,
  members: row.members,
  spaces: 0
})
const teams = Rows.decoder("identity_teams", Schema.Struct(TeamFields), teamOf)
const memberships = Rows.decoder(
  "identity_team_members",
  Schema.Struct({ ...TeamFields, member_role: TeamMemberRole }),
  (row) => ({ team: teamOf(row), role: row.member_role })
)

const roles = Rows.decoder("identity_team_members", Schema.Struct({ role: TeamMemberRole }), (row) => row.role)

/** A team member with the sort key of the listing (their lower-cased display name). */
const teamMembers = Rows.decoder(
  "identity_team_members",
  Schema.Struct({ user_id: Schema.String, role: TeamMemberRole, name: Schema.String }),
  (row) => ({ member: { userId: row.user_id, role: row.role }, name: row.name })
)

export const layer = Layer.effect(
  TeamsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql.literal(`
      SELECT t.id, t.organization_id, t.title, t.created_at,
        (SELECT count(*)::int FROM identity_team_members c WHERE c.team_id = t.id) AS members
      FROM identity_teams t`)
    const escape = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, "\\$&")}%`
    const range = (after: Pagination.CursorKey | undefined) =>
      after === undefined ? sql`true` : sql`(t.created_at, t.id) > (${String(after[0])}::timestamptz, ${String(after[1])})`

    return TeamsRepo.of({
      addMember: (organizationId, teamId, userId) =>
        sql`
          INSERT INTO identity_team_members (team_id, user_id, role)
          SELECT id, ${userId}, 'member' FROM identity_teams WHERE id = ${teamId} AND organization_id = ${organizationId}
          ON CONFLICT DO NOTHING`.pipe(Effect.asVoid, Effect.orDie),
      insert: (team, members) =>
        Effect.gen(function*() {
          yield* sql`
            INSERT INTO identity_teams (id, organization_id, title, created_at)
            VALUES (${team.id}, ${team.organizationId}, ${team.title}, ${team.createdAt})`
          const rows = members.map((m) => ({ team_id: team.id, user_id: m.userId, role: m.role }))
          if (Arr.isArrayNonEmpty(rows)) yield* sql`INSERT INTO identity_team_members ${sql.insert(rows)}`
        }).pipe(sql.withTransaction, Effect.orDie),
      find: (organizationId, teamId) =>
        sql<Row>`${select} WHERE t.organization_id = ${organizationId} AND t.id = ${teamId}`.pipe(
          Effect.orDie,
          Effect.flatMap(teams.first)
        ),
      list: (organizationId, filter, after, limit) => {
        const where = sql.and([
          sql`t.organization_id = ${organizationId}`,
          range(after),
          ...(filter.title === undefined ? [] : [sql`lower(t.title) LIKE ${escape(filter.title)}`]),
          ...(filter.member === undefined
            ? []
            : [sql`EXISTS (SELECT 1 FROM identity_team_members x WHERE x.team_id = t.id AND x.user_id = ${filter.member})`]),
          ...(filter.owner === undefined
            ? []
            : [sql`EXISTS (SELECT 1 FROM identity_team_members x WHERE x.team_id = t.id AND x.user_id = ${filter.owner} AND x.role = 'owner')`])
        ])
        return sql<Row>`${select} WHERE ${where} ORDER BY t.created_at, t.id LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(teams.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, teamKey))
        )
      },
      listForMember: (organizationId, userId, title, after, limit) => {
        const where = sql.and([
          sql`t.organization_id = ${organizationId}`,
          range(after),
          ...(title === undefined ? [] : [sql`lower(t.title) LIKE ${escape(title)}`])
        ])
        return sql<Row>`
          SELECT q.*, tm.role AS member_role FROM (${select} WHERE ${where}) q
          JOIN identity_team_members tm ON tm.team_id = q.id AND tm.user_id = ${userId}
          ORDER BY q.created_at, q.id LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(memberships.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, (m) => teamKey(m.team)))
        )
      },
      rename: (organizationId, teamId, title) =>
        sql`UPDATE identity_teams SET title = ${title} WHERE organization_id = ${organizationId} AND id = ${teamId}`.pipe(
          Effect.orDie,
          Effect.asVoid
        ),
      findMember: (organizationId, teamId, userId) =>
        sql<Row>`
          SELECT tm.role FROM identity_team_members tm JOIN identity_teams t ON t.id = tm.team_id
          WHERE t.id = ${teamId} AND t.organization_id = ${organizationId} AND tm.user_id = ${userId}`.pipe(
          Effect.orDie,
          Effect.flatMap(roles.first)
        ),
      setMember: (organizationId, teamId, userId, role) =>
        sql`
          INSERT INTO identity_team_members (team_id, user_id, role)
          SELECT id, ${userId}, ${role} FROM identity_teams WHERE id = ${teamId} AND organization_id = ${organizationId}
          ON CONFLICT (team_id, user_id) DO UPDATE SET role = excluded.role`.pipe(Effect.asVoid, Effect.orDie),
      removeMember: (organizationId, teamId, userId) =>
        sql<Row>`
          DELETE FROM identity_team_members tm USING identity_teams t
          WHERE t.id = tm.team_id AND t.id = ${teamId} AND t.organization_id = ${organizationId} AND tm.user_id = ${userId}
          RETURNING tm.user_id`.pipe(Effect.orDie, Effect.map((rows) => rows.length > 0)),
      listMembers: (organizationId, teamId, after, limit) => {
        const name = sql.literal(`lower(u.display_name) COLLATE "C"`)
        const range = after === undefined ? sql`true` : sql`(${name}, u.id) > (${String(after[0])}, ${String(after[1])})`
        return sql<Row>`
          SELECT tm.user_id, tm.role, lower(u.display_name) AS name
          FROM identity_team_members tm
          JOIN identity_teams t ON t.id = tm.team_id
          JOIN identity_users u ON u.id = tm.user_id
          WHERE t.id = ${teamId} AND t.organization_id = ${organizationId} AND ${range}
          ORDER BY ${name}, u.id LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(teamMembers.all),
          Effect.flatMap((rows) => Pagination.pageFromRows(rows, limit, (row) => [row.name, row.member.userId])),
          Effect.map((page) => ({ ...page, items: page.items.map((row) => row.member) }))
        )
      },
      remove: (organizationId, teamId) =>
        sql`DELETE FROM identity_teams WHERE organization_id = ${organizationId} AND id = ${teamId}`.pipe(
          Effect.orDie,
          Effect.asVoid
        )
    })
  })
)
