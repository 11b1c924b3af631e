/** Handlers of the teams group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { Teams } from "@quire/identity"
import * as DomainErrors from "../DomainErrors.ts"
import * as GrantCounts from "../GrantCounts.ts"
import * as Presenters from "../Presenters.ts"

export const layer = HttpApiBuilder.group(Api, "teams", Effect.fn(function*(handlers) {
  const teams = yield* Teams
  const counts = yield* GrantCounts.make
  const present = ({ access, team }: Effect.Success<ReturnType<typeof teams.get>>) =>
    Effect.map(counts.team(access.organization.id, team), (counted) => Presenters.team(access.membership.role, counted))
  return handlers
    .handle("listTeamsInOrganizationById", ({ params, query }) =>
      teams.list(params.organizationId, { title: query.title, owner: query.owner }, query).pipe(
        DomainErrors.api,
        Effect.flatMap(({ access, page }) =>
          Effect.map(counts.teams(params.organizationId, page.items), (items) =>
            Presenters.list({ ...page, items }, (t) => Presenters.team(access.membership.role, t))))
      ))
    .handle("createOrganizationTeam", ({ params, payload }) =>
      teams.create(params.organizationId, payload).pipe(DomainErrors.api, Effect.flatMap(present)))
    .handle("getTeamInOrganizationById", ({ params }) =>
      teams.get(params.organizationId, params.teamId).pipe(DomainErrors.api, Effect.flatMap(present)))
    .handle("updateTeamInOrganizationById", ({ params, payload }) =>
      teams.rename(params.organizationId, params.teamId, payload.title).pipe(DomainErrors.api, Effect.flatMap(present)))
    .handle("removeTeamFromOrganizationById", ({ params }) =>
      teams.remove(params.organizationId, params.teamId).pipe(DomainErrors.api))
}))
