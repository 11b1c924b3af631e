/** Site grants presented with identity's users and teams, for the site-permissions and site-users handlers. */
import { Effect, Option } from "effect"
import type { TeamSitePermissionOverride } from "@quire/api"
import { ContentAccess } from "@quire/content"
import { Authorization, type Team, Teams, Users } from "@quire/identity"
import type { Pagination, Roles } from "@quire/kernel"
import type { SiteList } from "@quire/sites"
import * as GrantCounts from "./GrantCounts.ts"
import * as Presenters from "./Presenters.ts"
import { PublicUrl } from "./PublicUrl.ts"

/** The presenters, over the server's services (a handler group builds them once). */
export const make = Effect.gen(function*() {
  const access = yield* ContentAccess
  const usersService = yield* Users
  const teams = yield* Teams
  const urls = yield* PublicUrl
  const counts = yield* GrantCounts.make

  /** Each item's user (emails shown to those who may list the organization's members, as that listing does); users gone are left out. */
  const withUsers = <A extends { readonly userId: string }, B>(
    { organizationId, page }: SiteList<A>,
    present: (item: A, user: ReturnType<typeof Presenters.user>) => B
  ) =>
    Effect.gen(function*() {
      const callerRole = Option.getOrNull(yield* access.organizationRole(organizationId))
      const showEmail = Authorization.organizationPermissions(callerRole).listMembers
      const items: Array<B> = []
      for (const item of page.items) {
        const found = yield* Effect.option(usersService.get(item.userId))
        if (Option.isSome(found)) items.push(present(item, Presenters.user(urls, found.value, { showEmail })))
      }
      return Presenters.list({ ...page, items }, (item) => item)
    })

  const withTeams = ({ organizationId, page }: SiteList<{ readonly teamId: string; readonly role: Roles.MemberRole }>) =>
    Effect.gen(function*() {
      const callerRole = Option.getOrNull(yield* access.organizationRole(organizationId))
      const present: Array<{ readonly role: Roles.MemberRole; readonly team: Team }> = []
      for (const { role, teamId } of page.items) {
        const found = yield* Effect.option(teams.get(organizationId, teamId))
        if (Option.isSome(found)) present.push({ role, team: found.value.team })
      }
      const counted = yield* counts.teams(organizationId, present.map((p) => p.team))
      const items = counted.map((team, i): TeamSitePermissionOverride => ({ permission: present[i]!.role, team: Presenters.team(callerRole, team) }))
      return Presenters.list({ ...page, items } satisfies Pagination.Page<TeamSitePermissionOverride>, (item) => item)
    })

  return { withUsers, withTeams }
})

/** DELETE answers 205 when a grant was removed, 204 when there was none. */
export const removal = (removed: boolean) => removed ? "removed" as const : "absent" as const
