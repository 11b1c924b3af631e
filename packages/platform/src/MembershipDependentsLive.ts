/** Identity's MembershipDependents port: a member or a team that leaves an organization takes content's and sites' grants to them. */
import { Effect, Layer } from "effect"
import { PermissionsRepo } from "@quire/content"
import { MembershipDependents } from "@quire/identity"
import { SitePermissionsRepo } from "@quire/sites"

export const layer = Layer.effect(
  MembershipDependents,
  Effect.gen(function*() {
    const grants = yield* PermissionsRepo
    const siteGrants = yield* SitePermissionsRepo
    return MembershipDependents.of({
      removeMember: (organizationId, userId) =>
        Effect.andThen(
          grants.removePrincipal(organizationId, { kind: "user", id: userId }),
          siteGrants.removePrincipal(organizationId, { kind: "user", id: userId })
        ),
      removeTeam: (organizationId, teamId) =>
        Effect.andThen(
          grants.removePrincipal(organizationId, { kind: "team", id: teamId }),
          siteGrants.removePrincipal(organizationId, { kind: "team", id: teamId })
        )
    })
  })
)
