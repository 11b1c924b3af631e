/** Use cases on invitations by email: offers that wait for their person (an instance administrator's adds existing users at once). */
import { Clock, Duration, Effect, Option } from "effect"
import { caller as auditCaller, userRef } from "@quire/audit"
import { Actor, type Roles } from "@quire/kernel"
import type { InviteInput, InviteResult } from "./OrganizationTypes.ts"
import type { EmailVerificationRepoShape } from "../EmailVerificationRepo.ts"
import type { AccountMailShape } from "../signin/AccountMail.ts"
import { emailInviteIds } from "./EmailInviteIds.ts"
import { issueEmailInviteToken } from "./EmailInviteTokens.ts"
import type { OrganizationEdit } from "./OrganizationEdit.ts"

/** How long an invitation to an email without an account waits for that account. */
export const emailInviteRetention = Duration.days(30)

export const emailInvites = Effect.fnUntraced(function*(edit: OrganizationEdit, mail: AccountMailShape, verifications: EmailVerificationRepoShape) {
  const { repo, users, members, ids, transactor, audit, now, adminAccess } = edit
  const inviteIds = yield* emailInviteIds
  // Invitations of an older Quire keep their id in clear: hashed and sealed now, once.
  const legacy = yield* repo.sealLegacyEmailInvites(inviteIds.stored)
  if (legacy > 0) yield* Effect.logInfo(`Email invitations: stored the ids of ${legacy} invitations as hashes (sealed for listing)`)

  const record = Effect.fn("Organizations.invite")(function*(organizationId: string, input: InviteInput) {
    const actor = yield* Actor.Actor
    const { organization } = yield* adminAccess(organizationId, "invite members")
    const offers: Array<{ readonly email: string; readonly inviteId: string }> = []
    const joinedAt = yield* now
    // The users added at once (GitBook's `users`): only an instance administrator's invitation adds
    // anyone, so an organization admin's answer is the same for an email with an account and one
    // without, and tells nobody who has an account here.
    const added: Array<string> = []
    // One invitation per email; a later one for the same email wins.
    const invitations = new Map<string, Roles.MemberRole | null>()
    for (const item of input.emails) {
      const email = (typeof item === "string" ? item : item.email).toLowerCase()
      invitations.delete(email)
      invitations.set(email, typeof item === "string" ? input.role : item.role)
    }
    for (const [email, role] of invitations) {
      const user = yield* users.findByEmail(email)
      // A member stays as they are.
      if (Option.isSome(user) && Option.isSome(yield* members.find(organizationId, user.value.id))) continue
      // The operator manages accounts already, and adds one at once when it proved this email;
      // anyone else's invitation, or one to an unproven account, is an offer its person accepts.
      if (Option.isSome(user) && actor.instanceAdmin && (yield* verifications.isVerified(user.value.id))) {
        yield* members.add({ organizationId, userId: user.value.id, role, joinedAt, sso: input.sso })
        yield* audit.record({ organizationId, action: "member.joined", actor: yield* auditCaller, target: userRef(user.value.id, email), payload: { role, addedByInvite: true } })
        added.push(user.value.id)
      } else {
        // Ids' random ids have about 119 bits: enough for a secret.
        const inviteId = yield* ids.make
        yield* repo.insertEmailInvite({ ...inviteIds.stored(inviteId), organizationId, email, role, sso: input.sso, createdAt: joinedAt })
        yield* audit.record({ organizationId, action: "member.invited", actor: yield* auditCaller, target: { type: "email", id: email }, payload: { role, sso: input.sso } })
        offers.push({ email, inviteId })
      }
    }
    return { result: { users: added, invited: invitations.size }, offers, organizationTitle: organization.title }
  }, transactor.transaction)

  // Once the invitations are stored, each goes to its address with its own secret link (when
  // this instance sends mail; otherwise the admins pass the invitation's link on).
  const invite = (organizationId: string, input: InviteInput) =>
    Effect.flatMap(record(organizationId, input), ({ offers, organizationTitle, result }) =>
      mail.delivers
        ? Effect.as(
          Effect.forEach(offers, ({ email, inviteId }) =>
            Effect.flatMap(issueEmailInviteToken(organizationId, inviteId, email), (token) => mail.invitation(email, { organizationTitle, token })), {
            discard: true
          }),
          result as InviteResult
        )
        : Effect.succeed(result as InviteResult))

  const purgeStaleInvites = Effect.gen(function*() {
    const cutoff = new Date((yield* Clock.currentTimeMillis) - Duration.toMillis(emailInviteRetention))
    return yield* repo.purgeEmailInvites(cutoff)
  }).pipe(Effect.withSpan("Organizations.purgeStaleInvites"))

  return { invite, purgeStaleInvites }
})
