/** Identity records as the domain sees them: no HTTP shapes, no SQL rows. */
import { Schema } from "effect"
import { type MergeRules, type Pagination, Roles } from "@quire/kernel"

/** A member's role in a team: owners manage it. */
export const TeamMemberRole = Schema.Literals(["owner", "member"])
export type TeamMemberRole = typeof TeamMemberRole.Type

/** The orders of a member listing. */
export const MemberSort = Schema.Literals(["joinedAt", "lastSeenAt", "name"])
export type MemberSort = typeof MemberSort.Type

/** A member listing's role filter: a role, or `guest` for members without one. */
export const MemberRoleFilter = Schema.Union([Roles.MemberRole, Schema.Literal("guest")])
export type MemberRoleFilter = typeof MemberRoleFilter.Type

export interface User {
  readonly id: string
  readonly email: string
  readonly displayName: string
  readonly photoURL: string | null
  readonly instanceAdmin: boolean
  readonly createdAt: Date
}

export interface ApiToken {
  readonly id: string
  readonly userId: string
  readonly label: string | null
  readonly createdAt: Date
  /** When it last authenticated a request, to the minute (see `Users.lastUsedPrecision`). */
  readonly lastUsedAt: Date | null
  /** After this instant the token is refused; null never expires. */
  readonly expiresAt: Date | null
  /** Issued by `Users.bootstrapAdmin`, which revokes it when the configured token changes. */
  readonly bootstrap: boolean
  /** Obtained through this organization's single sign-on: it reaches that organization only. */
  readonly organizationId: string | null
  /**
   * Created through a sign-in session (in the browser with its cookie, or by `quire login`'s
   * sign-in), not with another token: revoked when its person changes their password or signs
   * out everywhere, so that a stolen session's tokens end with it.
   */
  readonly fromSession: boolean
}

export interface Organization {
  readonly id: string
  readonly title: string
  readonly createdAt: Date
  readonly emailDomains: ReadonlyArray<string>
  readonly hostname: string | null
  readonly defaultRole: Roles.MemberRole | null
  readonly defaultContentSite: string | null
  readonly logo: string | null
  readonly sso: boolean
  readonly ai: boolean
  readonly inviteLinks: boolean
  /** The merge rules of the organization's spaces that inherit them (GitBook's MergeRulesStandaloneConfiguration). */
  readonly mergeRules: MergeRules.StandaloneConfiguration
}

/** A new organization: what it is named and when, every setting at its default (none set, features off). */
export const newOrganization = (
  fields: Pick<Organization, "id" | "title" | "createdAt" | "emailDomains">
): Organization => ({
  ...fields,
  hostname: null,
  defaultRole: null,
  defaultContentSite: null,
  logo: null,
  sso: false,
  ai: false,
  inviteLinks: false,
  mergeRules: { type: "none" }
})

/** An organization together with the caller's membership in it. */
export interface OrganizationAccess {
  readonly organization: Organization
  readonly membership: MembershipRole
}

/** A caller's standing in an organization: `role` null is a guest. */
export interface MembershipRole {
  readonly role: Roles.MemberRole | null
}

export interface Member {
  readonly organizationId: string
  readonly user: User
  readonly role: Roles.MemberRole | null
  readonly joinedAt: Date
  readonly lastSeenAt: Date | null
  readonly sso: boolean
  readonly disabled: boolean
  readonly teams: number
  readonly spaces: number
}

export interface Team {
  readonly id: string
  readonly organizationId: string
  readonly title: string
  readonly createdAt: Date
  readonly members: number
  readonly spaces: number
}

/**
 * An invite link: whoever knows its id (the link's secret) may join with its role until it
 * expires. Stored, `id` is the `Sealed.bearerHash` of the secret (the lookup key) and `sealedId`
 * the secret sealed under the instance secret, for the listings GitBook's API answers with it
 * (null: a link of an older Quire, whose `id` is still the secret, until the next start
 * seals it). The use cases answer links with `id` the secret again.
 */
export interface LinkInvite {
  readonly id: string
  readonly sealedId: string | null
  readonly organizationId: string
  readonly role: Roles.MemberRole | null
  readonly createdAt: Date
  /** After this instant the link no longer lets anyone join; null never expires. */
  readonly expiresAt: Date | null
}

/**
 * An invitation to join an organization, sent to an email: an offer that grants nothing until the
 * person with that email accepts it (signed in as themselves).
 */
export interface MemberInvite {
  /**
   * Stored, the hash of the invitation's id (a bearer value); as the use cases answer
   * it, the id itself.
   */
  readonly id: string
  /** The id sealed under the instance secret, for the listings that answer it; null for an invitation stored before (sealed at start). */
  readonly sealedId: string | null
  readonly organizationId: string
  /** Lower case. */
  readonly email: string
  readonly role: Roles.MemberRole | null
  /** Accepting makes them an SSO member: the organization's identity provider may then sign them in there. */
  readonly sso: boolean
  readonly createdAt: Date
}

/** A member of a team, with their role in it. */
export interface TeamMember {
  readonly userId: string
  readonly role: TeamMemberRole
}

export type OrganizationPatch = Partial<{
  readonly title: string
  readonly emailDomains: ReadonlyArray<string>
  readonly hostname: string | null
  readonly defaultRole: Roles.MemberRole | null
  readonly defaultContentSite: string | null
  readonly logo: string | null
  readonly sso: boolean
  readonly ai: boolean
  readonly inviteLinks: boolean
  readonly mergeRules: MergeRules.StandaloneConfiguration
}>

export interface MemberQuery {
  readonly role?: MemberRoleFilter | undefined
  readonly search?: string | undefined
  readonly sort: MemberSort
  readonly order: Pagination.Order
}
