/** Handlers of the members group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { type Member, Members } from "@quire/identity"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"

export const layer = HttpApiBuilder.group(Api, "members", Effect.fn(function*(handlers) {
  const members = yield* Members
  const urls = yield* PublicUrl
  const present = (m: Member) => Presenters.member(urls, m)
  return handlers
    .handle("listMembersInOrganizationById", ({ params, query }) =>
      members.list(params.organizationId, {
        role: query.role,
        search: query.search,
        sort: query.sort ?? "joinedAt",
        order: query.order ?? "desc"
      }, query).pipe(DomainErrors.api, Effect.map(({ page }) => Presenters.list(page, present))))
    .handle("getMemberInOrganizationById", ({ params }) =>
      members.get(params.organizationId, params.userId).pipe(DomainErrors.api, Effect.map(present)))
    .handle("updateMemberInOrganizationById", ({ params, payload }) =>
      payload.role === undefined
        ? members.get(params.organizationId, params.userId).pipe(DomainErrors.api, Effect.map(present))
        : members.updateRole(params.organizationId, params.userId, payload.role).pipe(
          DomainErrors.api,
          Effect.map(present)
        ))
    .handle("removeMemberFromOrganizationById", ({ params }) =>
      members.remove(params.organizationId, params.userId).pipe(DomainErrors.api))
    .handle("setUserAsSSOMemberForOrganization", ({ params }) =>
      members.setSso(params.organizationId, params.userId).pipe(DomainErrors.api, Effect.map(present)))
    .handle("listTeamsForOrganizationMember", ({ params, query }) =>
      members.listTeams(params.organizationId, params.userId, query.title, query).pipe(
        DomainErrors.api,
        Effect.map(({ access, page }) =>
          Presenters.list(page, (m) => ({
            team: Presenters.team(access.membership.role, m.team),
            member: { role: m.role }
          }))
        )
      ))
    .handle("updateOrganizationMemberLastSeenAt", ({ params }) =>
      members.ping(params.organizationId).pipe(
        DomainErrors.api,
        Effect.map(({ member, visitorClaims }) => ({ ...present(member), serviceVisitorClaims: visitorClaims }))
      ))
}))
