/** Use cases on invitations by email: offers that wait for their person (an instance administrator's adds existing users at once). */
import { Clock, Duration, Effect, Option } from "effect"
import { Actor, type Roles } from "@quire/kernel"
import type { InviteInput } from "../Organizations.ts"
import type { OrganizationEdit } from "./OrganizationEdit.ts"

/** How long an invitation to an email without an account waits for that account. */
export const emailInviteRetention = Duration.days(30)

export const emailInvites = (edit: OrganizationEdit) => {
  const { repo, users, members, ids, transactor, now, adminAccess } = edit

  const invite = Effect.fn("Organizations.invite")(function*(organizationId: string, input: InviteInput) {
    const actor = yield* Actor.Actor
    yield* adminAccess(organizationId, "invite members")
    const joinedAt = yield* now
    // The users added at once (GitBook's `users`): only an instance administrator's invitation adds
    // anyone, so an organization admin's answer is the same for an email with an account and one
    // without, and tells nobody who has an account here (issue 34).
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
      // The operator manages accounts already; anyone else's invitation is an offer its person accepts.
      if (Option.isSome(user) && actor.instanceAdmin) {
        yield* members.add({ organizationId, userId: user.value.id, role, joinedAt, sso: input.sso })
        added.push(user.value.id)
      } else {
        yield* repo.insertEmailInvite({ id: yield* ids.make, organizationId, email, role, sso: input.sso, createdAt: joinedAt })
      }
    }
    return { users: added, invited: invitations.size }
  }, transactor.transaction)

  const purgeStaleInvites = Effect.gen(function*() {
    const cutoff = new Date((yield* Clock.currentTimeMillis) - Duration.toMillis(emailInviteRetention))
    return yield* repo.purgeEmailInvites(cutoff)
  }).pipe(Effect.withSpan("Organizations.purgeStaleInvites"))

  return { invite, purgeStaleInvites }
}
