/**
 * An email invitation's id is a bearer value: `<organizationId>.<inviteId>` lets its
 * holder sign the invited email up. It is stored as its hash, which every lookup uses, and sealed
 * under the instance secret for the listings that answer it (GitBook's API does), as invite links'
 * secrets are (`InviteLinks`).
 */
import { Effect, Option } from "effect"
import { Sealed } from "@quire/kernel"
import type { MemberInvite } from "../domain/Identity.ts"

/** The purpose of the key that seals email invitations' ids. */
export const emailInviteSealPurpose = "quire/identity/email-invite-id/v1"

/** Whether `id` is a stored invitation's id (a hash) rather than its id: an admin may name an invitation whose id no longer opens. */
const storedIdPattern = /^[0-9a-f]{64}$/

export interface EmailInviteIds {
  /** What a new invitation of id `id` stores. */
  readonly stored: (id: string) => { readonly id: string; readonly sealedId: string }
  /** The stored id of the invitation whose id is `id`. */
  readonly storedId: (id: string) => string
  /** Whether an admin's `id` may name an invitation by its stored id. */
  readonly maybeStoredId: (id: string) => boolean
  /** The invitation as the use cases answer it: its id, or its stored id when the sealed id does not open (another instance secret). */
  readonly revealed: <A extends MemberInvite>(invite: A) => A
}

export const emailInviteIds: Effect.Effect<EmailInviteIds> = Effect.map(Sealed.keyFor(emailInviteSealPurpose), (key) => ({
  stored: (id) => ({ id: Sealed.bearerHash(id), sealedId: Sealed.seal(key, id) }),
  storedId: (id) => Sealed.bearerHash(id),
  maybeStoredId: (id) => storedIdPattern.test(id),
  revealed: (invite) => {
    const id = invite.sealedId === null ? Option.none<string>() : Sealed.open(key, invite.sealedId)
    return { ...invite, id: Option.getOrElse(id, () => invite.id) }
  }
}))
