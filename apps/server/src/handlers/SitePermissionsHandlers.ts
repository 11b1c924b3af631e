/** Handlers of the site-permissions group: inviting users and teams to a site, and the teams' grants. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { SiteGrants } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"
import * as SiteGrantViews from "../SiteGrantViews.ts"

const team = (id: string) => ({ kind: "team" as const, id })

export const layer = HttpApiBuilder.group(Api, "sitePermissions", Effect.fn(function*(handlers) {
  const grants = yield* SiteGrants
  const views = yield* SiteGrantViews.make
  return handlers
    .handle("inviteToSite", ({ params, payload }) => grants.invite(params.organizationId, params.siteId, payload).pipe(DomainErrors.api))
    .handle("listTeamPermissionsInSite", ({ params, query }) =>
      grants.list(params.organizationId, params.siteId, "team", query).pipe(
        DomainErrors.api,
        Effect.flatMap(({ organizationId, page }) =>
          views.withTeams({ organizationId, page: { ...page, items: page.items.map((g) => ({ teamId: g.principal.id, role: g.role })) } }))
      ))
    .handle("updateTeamPermissionInSite", ({ params, payload }) =>
      grants.update(params.organizationId, params.siteId, team(params.teamId), payload.role).pipe(DomainErrors.api))
    .handle("removeTeamFromSite", ({ params }) =>
      grants.remove(params.organizationId, params.siteId, team(params.teamId)).pipe(DomainErrors.api, Effect.map(SiteGrantViews.removal)))
}))
