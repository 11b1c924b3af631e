/** Port: organization memberships. */
import { Context, Effect, Layer, Option } from "effect"
import { Pagination, type Roles } from "@quire/kernel"
import type { Member, MemberQuery } from "./domain/Identity.ts"
import { IdentityMemory, memberKey, type MemberRow } from "./IdentityMemory.ts"

export interface NewMember {
  readonly organizationId: string
  readonly userId: string
  readonly role: Roles.MemberRole | null
  readonly joinedAt: Date
  readonly sso: boolean
}

export interface MembersRepoShape {
  readonly find: (organizationId: string, userId: string) => Effect.Effect<Option.Option<Member>>
  readonly list: (
    organizationId: string,
    query: MemberQuery,
    after: Pagination.CursorKey | undefined,
    limit: number
  ) => Effect.Effect<Pagination.Page<Member>>
  /** Adds a member; false when the user already was one (their membership is left as it was). */
  readonly add: (member: NewMember) => Effect.Effect<boolean>
  readonly setRole: (organizationId: string, userId: string, role: Roles.MemberRole | null) => Effect.Effect<void>
  readonly setSso: (organizationId: string, userId: string, sso: boolean) => Effect.Effect<void>
  readonly touch: (organizationId: string, userId: string, at: Date) => Effect.Effect<void>
  /** Removes the membership and the user's team memberships in the organization. */
  readonly remove: (organizationId: string, userId: string) => Effect.Effect<void>
  readonly countAdmins: (organizationId: string) => Effect.Effect<number>
}

/**
 * Sort key of a member listing. `name` sorts by lower-cased display name; a member never seen
 * sorts as the empty string under `lastSeenAt` (such members are filtered out anyway).
 */
export const memberKeyOf = (sort: MemberQuery["sort"]) => (m: Member): Pagination.CursorKey => {
  switch (sort) {
    case "joinedAt":
      return [m.joinedAt.toISOString(), m.user.id]
    case "lastSeenAt":
      return [m.lastSeenAt?.toISOString() ?? "", m.user.id]
    case "name":
      return [m.user.displayName.toLowerCase(), m.user.id]
  }
}

/** What each element of a member listing's key is, for the listing's sort. */
export const memberKeyShapeOf = (sort: MemberQuery["sort"]): Pagination.KeyShape =>
  sort === "name" ? ["string", "string"] : ["timestamp", "string"]

export class MembersRepo extends Context.Service<MembersRepo, MembersRepoShape>()("@quire/identity/MembersRepo") {
  static readonly layerMemory = Layer.effect(
    MembersRepo,
    Effect.gen(function*() {
      const store = yield* IdentityMemory
      const toMember = (row: MemberRow): Member => ({
        organizationId: row.organizationId,
        user: store.users.get(row.userId)!,
        role: row.role,
        joinedAt: row.joinedAt,
        lastSeenAt: row.lastSeenAt,
        sso: row.sso,
        disabled: row.disabled,
        teams: Array.from(store.teams.values()).filter((t) => t.organizationId === row.organizationId && t.members.has(row.userId)).length,
        spaces: 0
      })
      const rows = (organizationId: string) =>
        Array.from(store.members.values()).filter((m) => m.organizationId === organizationId)
      const update = (organizationId: string, userId: string, patch: Partial<MemberRow>) =>
        Effect.sync(() => {
          const key = memberKey(organizationId, userId)
          const row = store.members.get(key)
          if (row !== undefined) store.members.set(key, { ...row, ...patch })
        })
      return MembersRepo.of({
        find: (organizationId, userId) =>
          Effect.sync(() => Option.map(Option.fromNullishOr(store.members.get(memberKey(organizationId, userId))), toMember)),
        list: (organizationId, query, after, limit) =>
          Effect.suspend(() => {
            const search = query.search?.toLowerCase()
            const members = rows(organizationId).map(toMember).filter((m) =>
              (query.role === undefined || (query.role === "guest" ? m.role === null : m.role === query.role)) &&
              (search === undefined || m.user.displayName.toLowerCase().includes(search) ||
                m.user.email.toLowerCase().includes(search)) &&
              (query.sort !== "lastSeenAt" || m.lastSeenAt !== null)
            )
            return Pagination.paginateArray(members, memberKeyOf(query.sort), { order: query.order, after, limit })
          }),
        add: (member) =>
          Effect.sync(() => {
            const key = memberKey(member.organizationId, member.userId)
            if (store.members.has(key)) return false
            store.members.set(key, { ...member, lastSeenAt: null, disabled: false })
            return true
          }),
        setRole: (organizationId, userId, role) => update(organizationId, userId, { role }),
        setSso: (organizationId, userId, sso) => update(organizationId, userId, { sso }),
        touch: (organizationId, userId, at) => update(organizationId, userId, { lastSeenAt: at }),
        remove: (organizationId, userId) =>
          Effect.sync(() => {
            store.members.delete(memberKey(organizationId, userId))
            for (const team of store.teams.values()) {
              if (team.organizationId === organizationId) team.members.delete(userId)
            }
          }),
        countAdmins: (organizationId) => Effect.sync(() => rows(organizationId).filter((m) => m.role === "admin").length)
      })
    })
  )
}
