/**
 * Port: the caller's role in an organization. Content decides access from it; the server
 * implements it with the identity package, and tests with a map.
 */
import { Context, Effect, Layer, Option } from "effect"
import type { Roles } from "@quire/kernel"

export class Memberships extends Context.Service<Memberships, {
  /** The user's role in the organization: none when not a member, `null` for a guest. */
  readonly roleOf: (organizationId: string, userId: string) => Effect.Effect<Option.Option<Roles.MemberRole | null>>
}>()("@quire/content/Memberships") {
  /** Fixed memberships, keyed by `${organizationId}/${userId}`. */
  static readonly layerTest = (roles: ReadonlyMap<string, Roles.MemberRole | null>) =>
    Layer.succeed(Memberships, Memberships.of({
      roleOf: (organizationId, userId) => {
        const key = `${organizationId}/${userId}`
        return Effect.succeed(roles.has(key) ? Option.some(roles.get(key)!) : Option.none())
      }
    }))
}
