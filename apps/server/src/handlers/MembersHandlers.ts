/** Handlers of the members group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { type Member, Members } from "@quire/identity"
import * as DomainErrors from "../DomainErrors.ts"
import * as GrantCounts from "../GrantCounts.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"

export const layer = HttpApiBuilder.group(Api, "members", Effect.fn(function*(handlers) {
  const members = yield* Members
  const urls = yield* PublicUrl
  const counts = yield* GrantCounts.make
  const present = (m: Member) => Effect.map(counts.member(m.organizationId, m), (counted) => Presenters.member(urls, counted))
  return handlers
    .handle("listMembersInOrganizationById", ({ params, query }) =>
      members.list(params.organizationId, {
        role: query.role,
        search: query.search,
        sort: query.sort ?? "joinedAt",
        order: query.order ?? "desc"
      }, query).pipe(
        DomainErrors.api,
        Effect.flatMap(({ page }) =>
          Effect.map(counts.members(params.organizationId, page.items), (items) =>
            Presenters.list({ ...page, items }, (m) => Presenters.member(urls, m))))
      ))
    .handle("getMemberInOrganizationById", ({ params }) =>
      members.get(params.organizationId, params.userId).pipe(DomainErrors.api, Effect.flatMap(present)))
    .handle("updateMemberInOrganizationById", ({ params, payload }) =>
      payload.role === undefined
        ? members.get(params.organizationId, params.userId).pipe(DomainErrors.api, Effect.flatMap(present))
        : members.updateRole(params.organizationId, params.userId, payload.role).pipe(
          DomainErrors.api,
          Effect.flatMap(present)
        ))
    .handle("removeMemberFromOrganizationById", ({ params }) =>
      members.remove(params.organizationId, params.userId).pipe(DomainErrors.api))
    .handle("setUserAsSSOMemberForOrganization", ({ params }) =>
      members.setSso(params.organizationId, params.userId).pipe(DomainErrors.api, Effect.flatMap(present)))
    .handle("listTeamsForOrganizationMember", ({ params, query }) =>
      members.listTeams(params.organizationId, params.userId, query.title, query).pipe(
        DomainErrors.api,
        Effect.flatMap(({ access, page }) =>
          Effect.map(counts.teams(params.organizationId, page.items.map((m) => m.team)), (teams) =>
            Presenters.list(page, (m) => ({
              team: Presenters.team(access.membership.role, teams.find((t) => t.id === m.team.id) ?? m.team),
              member: { role: m.role }
            })))
        )
      ))
    .handle("updateOrganizationMemberLastSeenAt", ({ params }) =>
      members.ping(params.organizationId).pipe(
        DomainErrors.api,
        Effect.flatMap(({ member, visitorClaims }) =>
          Effect.map(present(member), (presented) => ({ ...presented, serviceVisitorClaims: visitorClaims })))
      ))
}))
