/** Identity's MembershipDependents port: a member or a team that leaves an organization takes content's grants to them. */
import { Layer } from "effect"
import { PermissionsRepo } from "@quire/content"
import { MembershipDependents } from "@quire/identity"

export const layer = Layer.effect(
  MembershipDependents,
  PermissionsRepo.useSync((grants) =>
    MembershipDependents.of({
      removeMember: (organizationId, userId) => grants.removePrincipal(organizationId, { kind: "user", id: userId }),
      removeTeam: (organizationId, teamId) => grants.removePrincipal(organizationId, { kind: "team", id: teamId })
    })
  )
)
