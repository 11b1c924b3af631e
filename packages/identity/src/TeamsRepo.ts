/** Port: teams of an organization and their members. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore, Pagination } from "@quire/kernel"
import type { Team, TeamMember, TeamMemberRole } from "./domain/Identity.ts"
import { IdentityMemory, type TeamRow } from "./IdentityMemory.ts"

export interface TeamFilter {
  /** Case-insensitive substring of the title. */
  readonly title?: string | undefined
  /** Only teams this user belongs to. */
  readonly member?: string | undefined
  /** Only teams this user owns (can manage). */
  readonly owner?: string | undefined
}

export interface TeamMembership {
  readonly team: Team
  readonly role: TeamMemberRole
}

export interface TeamsRepoShape {
  readonly insert: (
    team: Omit<Team, "members" | "spaces">,
    members: ReadonlyArray<{ readonly userId: string; readonly role: TeamMemberRole }>
  ) => Effect.Effect<void>
  readonly find: (organizationId: string, teamId: string) => Effect.Effect<Option.Option<Team>>
  readonly list: (
    organizationId: string,
    filter: TeamFilter,
    after: Pagination.CursorKey | undefined,
    limit: number
  ) => Effect.Effect<Pagination.Page<Team>>
  /** The teams `userId` belongs to, with their role in each. */
  readonly listForMember: (
    organizationId: string,
    userId: string,
    title: string | undefined,
    after: Pagination.CursorKey | undefined,
    limit: number
  ) => Effect.Effect<Pagination.Page<TeamMembership>>
  readonly rename: (organizationId: string, teamId: string, title: string) => Effect.Effect<void>
  /** Adds `userId` to the team as a member; nothing when they already belong to it. */
  readonly addMember: (organizationId: string, teamId: string, userId: string) => Effect.Effect<void>
  /** `userId`'s role in the team; none when they are not in it. */
  readonly findMember: (organizationId: string, teamId: string, userId: string) => Effect.Effect<Option.Option<TeamMemberRole>>
  /** Adds `userId` with `role`, or changes their role when they already belong to the team. */
  readonly setMember: (organizationId: string, teamId: string, userId: string, role: TeamMemberRole) => Effect.Effect<void>
  /** Takes `userId` out of the team; false when they were not in it. */
  readonly removeMember: (organizationId: string, teamId: string, userId: string) => Effect.Effect<boolean>
  /** The team's members by display name (ignoring case), then id. */
  readonly listMembers: (
    organizationId: string,
    teamId: string,
    after: Pagination.CursorKey | undefined,
    limit: number
  ) => Effect.Effect<Pagination.Page<TeamMember>>
  readonly remove: (organizationId: string, teamId: string) => Effect.Effect<void>
}

export const teamKey = (t: Team): Pagination.CursorKey => [t.createdAt.toISOString(), t.id]
export const teamKeyShape: Pagination.KeyShape = ["timestamp", "string"]

/** Sort key of a team's member listing: the lower-cased display name, then the user id. */
export const teamMemberKeyShape: Pagination.KeyShape = ["string", "string"]

export class TeamsRepo extends Context.Service<TeamsRepo, TeamsRepoShape>()("@quire/identity/TeamsRepo") {
  static readonly layerMemory = Layer.effect(
    TeamsRepo,
    Effect.gen(function*() {
      const store = yield* IdentityMemory
      const toTeam = (row: TeamRow): Team => ({
        id: row.id,
        organizationId: row.organizationId,
        title: row.title,
        createdAt: row.createdAt,
        members: row.members.size,
        spaces: 0
      })
      const memberKey = (m: TeamMember): Pagination.CursorKey => [
        (store.users.get(m.userId)?.displayName ?? "").toLowerCase(),
        m.userId
      ]
      const row = (organizationId: string, teamId: string) => {
        const team = store.teams.get(teamId)
        return team?.organizationId === organizationId ? team : undefined
      }
      return TeamsRepo.of({
        addMember: (organizationId, teamId, userId) =>
          Effect.sync(() => {
            const team = row(organizationId, teamId)
            if (team !== undefined && !team.members.has(userId)) team.members.set(userId, "member")
          }),
        insert: (team, members) =>
          Effect.sync(() =>
            void store.teams.set(team.id, { ...team, members: new MemoryStore.TxMap(members.map((m) => [m.userId, m.role])) })
          ),
        find: (organizationId, teamId) =>
          Effect.sync(() => Option.map(Option.fromNullishOr(row(organizationId, teamId)), toTeam)),
        list: (organizationId, filter, after, limit) =>
          Effect.suspend(() => {
            const title = filter.title?.toLowerCase()
            const teams = Array.from(store.teams.values()).filter((t) =>
              t.organizationId === organizationId &&
              (title === undefined || t.title.toLowerCase().includes(title)) &&
              (filter.member === undefined || t.members.has(filter.member)) &&
              (filter.owner === undefined || t.members.get(filter.owner) === "owner")
            )
            return Pagination.paginateArray(teams.map(toTeam), teamKey, { order: "asc", after, limit })
          }),
        listForMember: (organizationId, userId, title, after, limit) =>
          Effect.suspend(() => {
            const needle = title?.toLowerCase()
            const memberships = Array.from(store.teams.values())
              .filter((t) =>
                t.organizationId === organizationId && t.members.has(userId) &&
                (needle === undefined || t.title.toLowerCase().includes(needle))
              )
              .map((t) => ({ team: toTeam(t), role: t.members.get(userId)! }))
            return Pagination.paginateArray(memberships, (m) => teamKey(m.team), { order: "asc", after, limit })
          }),
        rename: (organizationId, teamId, title) =>
          Effect.sync(() => {
            const team = row(organizationId, teamId)
            if (team !== undefined) store.teams.set(teamId, { ...team, title })
          }),
        findMember: (organizationId, teamId, userId) =>
          Effect.sync(() => Option.fromNullishOr(row(organizationId, teamId)?.members.get(userId))),
        setMember: (organizationId, teamId, userId, role) =>
          Effect.sync(() => void row(organizationId, teamId)?.members.set(userId, role)),
        removeMember: (organizationId, teamId, userId) =>
          Effect.sync(() => row(organizationId, teamId)?.members.delete(userId) ?? false),
        listMembers: (organizationId, teamId, after, limit) =>
          Effect.suspend(() => {
            const team = row(organizationId, teamId)
            const members = Array.from(team?.members ?? []).map(([userId, role]) => ({ userId, role }))
            return Pagination.paginateArray(members, memberKey, { order: "asc", after, limit })
          }),
        remove: (organizationId, teamId) =>
          Effect.sync(() => {
            if (row(organizationId, teamId) !== undefined) store.teams.delete(teamId)
          })
      })
    })
  )
}
