/**
 * Identity's MembershipDependents port: a member or a team that leaves an organization takes
 * content's and sites' grants to them; a member takes their conversations with the organization's
 * assistant (reviews'), which nobody else could read.
 */
import { Effect, Layer } from "effect"
import { PermissionsRepo } from "@quire/content"
import { MembershipDependents } from "@quire/identity"
import { OrganizationConversationsRepo } from "@quire/reviews"
import { SitePermissionsRepo } from "@quire/sites"

export const layer = Layer.effect(
  MembershipDependents,
  Effect.gen(function*() {
    const grants = yield* PermissionsRepo
    const siteGrants = yield* SitePermissionsRepo
    const conversations = yield* OrganizationConversationsRepo
    return MembershipDependents.of({
      removeMember: (organizationId, userId) =>
        grants.removePrincipal(organizationId, { kind: "user", id: userId }).pipe(
          Effect.andThen(siteGrants.removePrincipal(organizationId, { kind: "user", id: userId })),
          Effect.andThen(conversations.removeMember(organizationId, userId))
        ),
      removeTeam: (organizationId, teamId) =>
        Effect.andThen(
          grants.removePrincipal(organizationId, { kind: "team", id: teamId }),
          siteGrants.removePrincipal(organizationId, { kind: "team", id: teamId })
        )
    })
  })
)
