/** Content's Memberships port, answered by the identity package: a user's role in an organization. */
import { Effect, Layer, Option } from "effect"
import { Memberships } from "@quire/content"
import { OrganizationsRepo } from "@quire/identity"

export const layer = Layer.effect(
  Memberships,
  Effect.gen(function*() {
    const organizations = yield* OrganizationsRepo
    return Memberships.of({
      roleOf: (organizationId, userId) =>
        Effect.map(organizations.findAccess(organizationId, userId), Option.map((access) => access.membership.role))
    })
  })
)
