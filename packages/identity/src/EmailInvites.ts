/** Invitations sent to an email before its account existed: the account accepts them as it is created. */
import { Effect } from "effect"
import type { User } from "./domain/Identity.ts"
import type { MembersRepo } from "./MembersRepo.ts"
import type { OrganizationsRepo } from "./OrganizationsRepo.ts"

/**
 * Makes `user` a member of every organization that invited their email, with the invited role,
 * and forgets those invitations; answers the organizations joined. Run it in the transaction
 * that inserts the user.
 */
export const acceptEmailInvites = Effect.fnUntraced(function*(
  organizations: OrganizationsRepo["Service"],
  members: MembersRepo["Service"],
  user: User
) {
  const joined: Array<string> = []
  for (const invite of yield* organizations.takeEmailInvites(user.email.toLowerCase())) {
    const added = yield* members.add({
      organizationId: invite.organizationId,
      userId: user.id,
      role: invite.role,
      sso: invite.sso,
      joinedAt: user.createdAt
    })
    if (added) joined.push(invite.organizationId)
  }
  return joined
})
