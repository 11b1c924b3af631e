/** Handlers of the teams group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { Teams } from "@quire/identity"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"

export const layer = HttpApiBuilder.group(Api, "teams", Effect.fn(function*(handlers) {
  const teams = yield* Teams
  const present = ({ access, team }: Effect.Success<ReturnType<typeof teams.get>>) =>
    Presenters.team(access.membership.role, team)
  return handlers
    .handle("listTeamsInOrganizationById", ({ params, query }) =>
      teams.list(params.organizationId, { title: query.title, owner: query.owner }, query).pipe(
        DomainErrors.api,
        Effect.map(({ access, page }) => Presenters.list(page, (t) => Presenters.team(access.membership.role, t)))
      ))
    .handle("createOrganizationTeam", ({ params, payload }) =>
      teams.create(params.organizationId, payload).pipe(DomainErrors.api, Effect.map(present)))
    .handle("getTeamInOrganizationById", ({ params }) =>
      teams.get(params.organizationId, params.teamId).pipe(DomainErrors.api, Effect.map(present)))
    .handle("updateTeamInOrganizationById", ({ params, payload }) =>
      teams.rename(params.organizationId, params.teamId, payload.title).pipe(DomainErrors.api, Effect.map(present)))
    .handle("removeTeamFromOrganizationById", ({ params }) =>
      teams.remove(params.organizationId, params.teamId).pipe(DomainErrors.api))
}))
