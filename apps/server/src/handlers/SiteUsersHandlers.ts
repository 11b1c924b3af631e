/** Handlers of the site-users group: who can access a site with their role on it, and the users' grants. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, type UserSitePermission, type UserSitePermissionOrigin } from "@quire/api"
import { Members } from "@quire/identity"
import { Pagination } from "@quire/kernel"
import { type SiteMemberRole, SiteGrants } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"
import * as SiteGrantViews from "../SiteGrantViews.ts"

const user = (id: string) => ({ kind: "user" as const, id })

/** GitBook's origin of a member's site role. */
const originOf = (organizationId: string, siteId: string, { origin }: SiteMemberRole): UserSitePermissionOrigin => {
  switch (origin.kind) {
    case "organization":
      return { type: "organization", organization: organizationId }
    case "team":
      return { type: "site", site: siteId, reason: "team", team: origin.teamId }
    default:
      return { type: "site", site: siteId, reason: origin.kind }
  }
}

export const layer = HttpApiBuilder.group(Api, "siteUsers", Effect.fn(function*(handlers) {
  const grants = yield* SiteGrants
  const members = yield* Members
  const views = yield* SiteGrantViews.make

  /** The ids of the organization's members whose name or email contains `search` (identity's search, as the members listing does). */
  const found = Effect.fnUntraced(function*(organizationId: string, search: string | undefined) {
    if (search === undefined) return undefined
    const ids = new Set<string>()
    let page: Pagination.PageRequest = { limit: Pagination.maxLimit }
    for (;;) {
      const listed = yield* members.list(organizationId, { search, sort: "joinedAt", order: "asc" }, page)
      for (const member of listed.page.items) ids.add(member.user.id)
      if (listed.page.next === undefined) return ids
      page = { limit: Pagination.maxLimit, page: listed.page.next }
    }
  })

  return handlers
    .handle("listPermissionsAggregateInSite", ({ params, query }) =>
      Effect.flatMap(found(params.organizationId, query.search), (users) =>
        grants.aggregate(params.organizationId, params.siteId, { role: query.role, team: query.team, users }, query)).pipe(
        DomainErrors.api,
        Effect.flatMap((list) =>
          views.withUsers(list, (member, presented): UserSitePermission => ({
            permission: member.role,
            user: presented,
            origin: originOf(params.organizationId, params.siteId, member),
            disabled: false
          })))
      ))
    .handle("listUserPermissionsInSite", ({ params, query }) =>
      grants.list(params.organizationId, params.siteId, "user", query).pipe(
        DomainErrors.api,
        Effect.flatMap(({ organizationId, page }) =>
          views.withUsers(
            { organizationId, page: { ...page, items: page.items.map((g) => ({ userId: g.principal.id, role: g.role })) } },
            (grant, presented) => ({ permission: grant.role, user: presented })
          ))
      ))
    .handle("updateUserPermissionInSite", ({ params, payload }) =>
      grants.update(params.organizationId, params.siteId, user(params.userId), payload.role).pipe(DomainErrors.api))
    .handle("removeUserFromSite", ({ params }) =>
      grants.remove(params.organizationId, params.siteId, user(params.userId)).pipe(DomainErrors.api, Effect.map(SiteGrantViews.removal)))
}))
