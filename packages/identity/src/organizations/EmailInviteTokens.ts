/**
 * An email invitation's own secret link, the one Quire mails to the invited address: a signed
 * token (kernel SignedToken, purpose `email-invite`, 30 days) of the organization, the invitation
 * and its email. Only its reader can open it, so accepting through it proves the mailbox; the
 * invitation's id, which its organization's admins see, proves nothing.
 */
import { Duration, Effect, Option, Schema } from "effect"
import { SignedToken } from "@quire/kernel"

const Payload = Schema.Struct({ o: Schema.String, i: Schema.String, e: Schema.String })

const key = SignedToken.keyFor("email-invite")
/** As long as an invitation waits (`emailInviteRetention`). */
const lifetime = Duration.days(30)

/** The secret link's token of the invitation `inviteId` of `email` to `organizationId`. */
export const issueEmailInviteToken = (organizationId: string, inviteId: string, email: string): Effect.Effect<string> =>
  Effect.flatMap(key, (k) =>
    SignedToken.issue(k, Payload, { o: organizationId, i: inviteId, e: email }, { expiresIn: Duration.toSeconds(lifetime) }))

/** What a secret link's token names; none for anything else (an `<organizationId>.<inviteId>` token among them). */
export const openEmailInviteToken = (
  token: string
): Effect.Effect<Option.Option<{ readonly organizationId: string; readonly inviteId: string; readonly email: string }>> =>
  Effect.flatMap(key, (k) =>
    Effect.map(SignedToken.open(k, Payload, token), Option.map(({ value }) => ({ organizationId: value.o, inviteId: value.i, email: value.e }))))
