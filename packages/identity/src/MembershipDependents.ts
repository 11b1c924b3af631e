/**
 * Port: what other packages keep about a member or a team of an organization (content's grants on
 * spaces and collections). Identity calls it in the transaction that removes the member or the
 * team, so nothing they were given outlives them; platform implements it over content.
 */
import { Context, Effect, Layer } from "effect"

export interface MembershipDependentsShape {
  /** Removes what other packages keep about the user as a member of the organization. */
  readonly removeMember: (organizationId: string, userId: string) => Effect.Effect<void>
  /** Removes what other packages keep about the team. */
  readonly removeTeam: (organizationId: string, teamId: string) => Effect.Effect<void>
}

export class MembershipDependents extends Context.Service<MembershipDependents, MembershipDependentsShape>()(
  "@quire/identity/MembershipDependents"
) {
  /** No other package keeps anything about members (identity used on its own). */
  static readonly layerNone = Layer.succeed(
    MembershipDependents,
    MembershipDependents.of({ removeMember: () => Effect.void, removeTeam: () => Effect.void })
  )
}
