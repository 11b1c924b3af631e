/** Use cases on invite links: admins manage them; anyone who knows a usable link joins with its role. */
import { Effect, Option } from "effect"
import { Actor, Errors, Roles } from "@quire/kernel"
import type { LinkInvite, MembershipRole } from "../domain/Identity.ts"
import type { LinkInviteInput, LinkInviteView } from "../Organizations.ts"
import type { LinkInvitePatch } from "../OrganizationsRepo.ts"
import { ensureUnscoped, reaches } from "../Scope.ts"
import type { OrganizationEdit } from "./OrganizationEdit.ts"

/** Redundant for a member whose role is at least the link's (any member, for a guest link). */
const viewOf = (invite: LinkInvite, membership: Option.Option<MembershipRole>): LinkInviteView => ({
  invite,
  redundant: Option.isSome(membership) && Roles.roleRank(membership.value.role) >= Roles.roleRank(invite.role)
})

export const inviteLinks = (edit: OrganizationEdit) => {
  const { repo, members, ids, transactor, now, adminAccess } = edit

  const findLinkInvite = Effect.fnUntraced(function*(organizationId: string, inviteId: string) {
    const found = yield* repo.findLinkInvite(organizationId, inviteId)
    if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "Invite", id: inviteId })
    return found.value
  })

  /** The link when it lets people join now. */
  const usableLinkInvite = Effect.fnUntraced(function*(organizationId: string, inviteId: string) {
    const invite = yield* findLinkInvite(organizationId, inviteId)
    const organization = yield* repo.find(organizationId)
    if (Option.isSome(organization) && !organization.value.inviteLinks) {
      return yield* new Errors.Forbidden({
        reason: "Invite links are turned off in this organization: an administrator turns them on with its inviteLinks setting"
      })
    }
    const at = yield* now
    if (invite.expiresAt !== null && invite.expiresAt <= at) {
      return yield* new Errors.InvalidInput({
        field: "inviteId",
        reason: `this invite link expired at ${invite.expiresAt.toISOString()}; ask an administrator of the organization for a new one`
      })
    }
    return invite
  })

  const createLinkInvite = Effect.fn("Organizations.createLinkInvite")(function*(
    organizationId: string,
    input: LinkInviteInput
  ) {
    const found = yield* adminAccess(organizationId, "create invite links")
    const invite: LinkInvite = {
      id: yield* ids.make,
      organizationId,
      role: input.role,
      createdAt: yield* now,
      expiresAt: input.expiresAt ?? null
    }
    yield* repo.insertLinkInvite(invite)
    return viewOf(invite, Option.some(found.membership))
  })

  const listLinkInvites = Effect.fn("Organizations.listLinkInvites")(function*(organizationId: string) {
    const found = yield* adminAccess(organizationId, "list invite links")
    const invites = yield* repo.listLinkInvites(organizationId)
    return invites.map((invite) => viewOf(invite, Option.some(found.membership)))
  })

  const getLinkInvite = Effect.fn("Organizations.getLinkInvite")(function*(organizationId: string, inviteId: string) {
    const actor = yield* Actor.Actor
    const membership = reaches(actor, organizationId)
      ? Option.map(yield* repo.findAccess(organizationId, actor.userId), (found) => found.membership)
      : Option.none()
    const admin = Option.isSome(membership) && Roles.atLeast(membership.value.role, "admin")
    const invite = admin ? yield* findLinkInvite(organizationId, inviteId) : yield* usableLinkInvite(organizationId, inviteId)
    return viewOf(invite, membership)
  })

  const updateLinkInvite = Effect.fn("Organizations.updateLinkInvite")(function*(
    organizationId: string,
    inviteId: string,
    patch: LinkInvitePatch
  ) {
    const found = yield* adminAccess(organizationId, "change invite links")
    const updated = yield* repo.updateLinkInvite(organizationId, inviteId, patch)
    if (Option.isNone(updated)) return yield* new Errors.NotFound({ resource: "Invite", id: inviteId })
    return viewOf(updated.value, Option.some(found.membership))
  })

  const joinWithLinkInvite = Effect.fn("Organizations.joinWithLinkInvite")(function*(organizationId: string, inviteId: string) {
    const actor = yield* Actor.Actor
    if (!reaches(actor, organizationId)) yield* ensureUnscoped(actor, "join other organizations")
    const invite = yield* usableLinkInvite(organizationId, inviteId)
    const member = yield* members.find(organizationId, actor.userId)
    if (Option.isNone(member)) {
      return yield* members.add({ organizationId, userId: actor.userId, role: invite.role, joinedAt: yield* now, sso: false })
    }
    if (viewOf(invite, Option.some(member.value)).redundant) return false
    yield* members.setRole(organizationId, actor.userId, invite.role)
    return true
  }, transactor.transaction)

  const deleteLinkInvite = Effect.fn("Organizations.deleteLinkInvite")(function*(organizationId: string, inviteId: string) {
    yield* adminAccess(organizationId, "delete invite links")
    yield* repo.deleteLinkInvite(organizationId, inviteId)
  })

  return { createLinkInvite, listLinkInvites, getLinkInvite, updateLinkInvite, joinWithLinkInvite, deleteLinkInvite }
}
