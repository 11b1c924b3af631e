/**
 * The inputs and views of invitations that the Organizations service and the modules of its jobs
 * (`organizations/*`) share, so that those modules need not import the service.
 */
import type { Roles } from "@quire/kernel"
import type { LinkInvite } from "../domain/Identity.ts"

/** One invitation with a role of its own (GitBook's `{email, role}` form). */
export interface Invitation {
  readonly email: string
  readonly role: Roles.MemberRole | null
}

export interface InviteInput {
  /** Emails invited with `role`, or invitations whose role overrides it. */
  readonly emails: ReadonlyArray<string | Invitation>
  readonly role: Roles.MemberRole | null
  readonly sso: boolean
}

export interface InviteResult {
  /**
   * The users added to the organization: an instance administrator's invitation adds existing
   * users at once; an organization admin's adds nobody (each person accepts their offer), so its
   * answer is the same whether an email has an account or not.
   */
  readonly users: ReadonlyArray<string>
  /** Number of emails invited, including those still without an account. */
  readonly invited: number
}

/** What an invite link is created with. */
export interface LinkInviteInput {
  readonly role: Roles.MemberRole | null
  /** When the link stops letting people join; null or absent: never. */
  readonly expiresAt?: Date | null | undefined
}

/**
 * An invite link as its caller sees it: `redundant` when joining with it would give the caller
 * nothing (they are a member with at least its role).
 */
export interface LinkInviteView {
  readonly invite: LinkInvite
  readonly redundant: boolean
}
