/**
 * Port: what content needs to know of an organization: a user's role and teams, its teams and its
 * members, from which content decides access; and the merge rules its spaces inherit. The server
 * implements it with the identity package, and tests with maps.
 */
import { Context, Effect, Layer, Option } from "effect"
import { type MergeRules, Pagination, type Roles } from "@quire/kernel"

/** A member of an organization. */
export interface OrganizationMember {
  readonly userId: string
  /** null: a guest. */
  readonly role: Roles.MemberRole | null
  /** Their place in the listing: [joinedAt (ISO), userId]. */
  readonly key: Pagination.CursorKey
}

/** The shape of `OrganizationMember.key`. */
export const memberKeyShape: Pagination.KeyShape = ["timestamp", "string"]

export class Memberships extends Context.Service<Memberships, {
  /** The user's role in the organization: none when not a member, `null` for a guest. */
  readonly roleOf: (organizationId: string, userId: string) => Effect.Effect<Option.Option<Roles.MemberRole | null>>
  /** The ids of the organization's teams the user belongs to. */
  readonly teamsOf: (organizationId: string, userId: string) => Effect.Effect<ReadonlyArray<string>>
  /** True when the team exists in the organization. */
  readonly hasTeam: (organizationId: string, teamId: string) => Effect.Effect<boolean>
  /** The user ids of the team's members (none when there is no such team). */
  readonly teamMembers: (organizationId: string, teamId: string) => Effect.Effect<ReadonlyArray<string>>
  /** The organization's members (guests included) in the order they joined, keyset-paginated on `key`. */
  readonly members: (
    organizationId: string,
    after: Pagination.CursorKey | undefined,
    limit: number
  ) => Effect.Effect<Pagination.Page<OrganizationMember>>
  /** The merge rules of the organization's spaces that inherit them (none for an unknown organization). */
  readonly mergeRules: (organizationId: string) => Effect.Effect<MergeRules.StandaloneConfiguration>
}>()("@quire/content/Memberships") {
  /**
   * Fixed memberships, keyed by `${organizationId}/${userId}`, and teams keyed by
   * `${organizationId}/${teamId}` with their members' user ids, and organizations' merge rules.
   */
  static readonly layerTest = (
    roles: ReadonlyMap<string, Roles.MemberRole | null>,
    teams: ReadonlyMap<string, ReadonlyArray<string>> = new Map(),
    mergeRules: ReadonlyMap<string, MergeRules.StandaloneConfiguration> = new Map()
  ) => {
    const teamsOf = (organizationId: string, userId: string) =>
      Array.from(teams)
        .filter(([key, members]) => key.startsWith(`${organizationId}/`) && members.includes(userId))
        .map(([key]) => key.slice(organizationId.length + 1))
    const epoch = new Date(0).toISOString()
    return Layer.succeed(Memberships, Memberships.of({
      roleOf: (organizationId, userId) => {
        const key = `${organizationId}/${userId}`
        return Effect.succeed(roles.has(key) ? Option.some(roles.get(key)!) : Option.none())
      },
      teamsOf: (organizationId, userId) => Effect.succeed(teamsOf(organizationId, userId)),
      hasTeam: (organizationId, teamId) => Effect.succeed(teams.has(`${organizationId}/${teamId}`)),
      teamMembers: (organizationId, teamId) => Effect.succeed(teams.get(`${organizationId}/${teamId}`) ?? []),
      members: (organizationId, after, limit) =>
        Pagination.paginateArray(
          Array.from(roles)
            .filter(([key]) => key.startsWith(`${organizationId}/`))
            .map(([key, role]) => {
              const userId = key.slice(organizationId.length + 1)
              return { userId, role, key: [epoch, userId] }
            }),
          (m) => m.key,
          { order: "asc", after, limit }
        ),
      mergeRules: (organizationId) => Effect.succeed(mergeRules.get(organizationId) ?? { type: "none" })
    }))
  }
}
