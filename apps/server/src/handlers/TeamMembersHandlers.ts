/** Handlers of the teamMembers group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { Teams } from "@quire/identity"
import * as DomainErrors from "../DomainErrors.ts"
import * as GrantCounts from "../GrantCounts.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"

export const layer = HttpApiBuilder.group(Api, "teamMembers", Effect.fn(function*(handlers) {
  const teams = yield* Teams
  const urls = yield* PublicUrl
  const counts = yield* GrantCounts.make
  return handlers
    .handle("listTeamMembersInOrganizationById", ({ params, query }) =>
      teams.listMembers(params.organizationId, params.teamId, query).pipe(
        DomainErrors.api,
        Effect.flatMap(({ access, page }) =>
          Effect.map(counts.members(params.organizationId, page.items.map((m) => m.member)), (members) =>
            Presenters.list(page, (m) => Presenters.teamMember(urls, access.membership.role, {
              ...m,
              member: members.find((counted) => counted.user.id === m.member.user.id) ?? m.member
            }))))
      ))
    .handle("updateMembersInOrganizationTeam", ({ params, payload }) =>
      teams.updateMembers(params.organizationId, params.teamId, payload).pipe(DomainErrors.api))
    .handle("addMemberToOrganizationTeamById", ({ params, payload }) =>
      teams.addMember(params.organizationId, params.teamId, params.userId, payload?.role).pipe(DomainErrors.api))
    .handle("deleteMemberFromOrganizationTeamById", ({ params }) =>
      teams.removeMember(params.organizationId, params.teamId, params.userId).pipe(
        DomainErrors.api,
        Effect.map((removed) => (removed ? "removed" as const : "absent" as const))
      ))
}))
