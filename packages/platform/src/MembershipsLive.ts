/**
 * Content's Memberships port, answered by the identity package: a user's role and teams in an
 * organization, its teams, their members and the organization's members, and its merge rules.
 */
import { Effect, Layer, Option } from "effect"
import { Memberships } from "@quire/content"
import { MembersRepo, OrganizationsRepo, Scope, TeamsRepo } from "@quire/identity"
import { Pagination } from "@quire/kernel"

export const layer = Layer.effect(
  Memberships,
  Effect.gen(function*() {
    const organizations = yield* OrganizationsRepo
    const members = yield* MembersRepo
    const teams = yield* TeamsRepo

    const teamsOf = Effect.fnUntraced(function*(organizationId: string, userId: string) {
      const ids: Array<string> = []
      let after: Pagination.CursorKey | undefined
      for (;;) {
        const page = yield* teams.list(organizationId, { member: userId }, after, Pagination.maxLimit)
        ids.push(...page.items.map((t) => t.id))
        const last = page.items.at(-1)
        if (page.next === undefined || last === undefined) return ids
        after = [last.createdAt.toISOString(), last.id]
      }
    })

    return Memberships.of({
      // A caller scoped to one organization (single sign-on) is no member of any other: every
      // content, site and search decision reads its standing here.
      roleOf: (organizationId, userId) =>
        Effect.flatMap(Scope.callerReaches(organizationId, userId), (reached) =>
          reached
            ? Effect.map(organizations.findAccess(organizationId, userId), Option.map((access) => access.membership.role))
            : Effect.succeed(Option.none())),
      teamsOf: (organizationId, userId) =>
        Effect.flatMap(Scope.callerReaches(organizationId, userId), (reached) => (reached ? teamsOf(organizationId, userId) : Effect.succeed([]))),
      hasTeam: (organizationId, teamId) => Effect.map(teams.find(organizationId, teamId), Option.isSome),
      teamMembers: Effect.fnUntraced(function*(organizationId: string, teamId: string) {
        const ids: Array<string> = []
        let after: Pagination.CursorKey | undefined
        for (;;) {
          const page = yield* teams.listMembers(organizationId, teamId, after, Pagination.maxLimit)
          ids.push(...page.items.map((m) => m.userId))
          if (page.next === undefined) return ids
          // The listing's key (display name, id) is not on its items: the cursor we were given carries it.
          after = yield* Effect.orDie(Pagination.decodeCursor(page.next))
        }
      }),
      members: (organizationId, after, limit) =>
        Effect.map(members.list(organizationId, { sort: "joinedAt", order: "asc" }, after, limit), (page) => ({
          ...page,
          items: page.items.map((m) => ({ userId: m.user.id, role: m.role, key: [m.joinedAt.toISOString(), m.user.id] }))
        })),
      mergeRules: (organizationId) =>
        Effect.map(organizations.find(organizationId), (found) => Option.match(found, { onNone: () => ({ type: "none" as const }), onSome: (o) => o.mergeRules }))
    })
  })
)
