/**
 * Content's Memberships port, answered by the identity package: a user's role and teams in an
 * organization, its teams and its members.
 */
import { Effect, Layer, Option } from "effect"
import { Memberships } from "@quire/content"
import { MembersRepo, OrganizationsRepo, TeamsRepo } from "@quire/identity"
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
      roleOf: (organizationId, userId) =>
        Effect.map(organizations.findAccess(organizationId, userId), Option.map((access) => access.membership.role)),
      teamsOf,
      hasTeam: (organizationId, teamId) => Effect.map(teams.find(organizationId, teamId), Option.isSome),
      members: Effect.fnUntraced(function*(organizationId, after, limit) {
        const page = yield* members.list(organizationId, { sort: "joinedAt", order: "asc" }, after, limit)
        return {
          ...page,
          items: yield* Effect.forEach(page.items, (m) =>
            Effect.map(teamsOf(organizationId, m.user.id), (ids) => ({
              userId: m.user.id,
              role: m.role,
              teams: ids,
              key: [m.joinedAt.toISOString(), m.user.id]
            })))
        }
      })
    })
  })
)
