/**
 * Use cases on invite links: admins manage them; anyone who knows a usable link joins with its
 * role. A link's secret (its id on the wire) is stored as its hash, which every lookup uses, and
 * sealed under the instance secret for the listings that answer it (GitBook's API does).
 */
import { Effect, Option } from "effect"
import { caller as auditCaller, userRef } from "@quire/audit"
import { Actor, Errors, Roles, Sealed } from "@quire/kernel"
import type { LinkInvite, MembershipRole } from "../domain/Identity.ts"
import type { LinkInviteInput, LinkInviteView } from "./OrganizationTypes.ts"
import type { LinkInvitePatch } from "../OrganizationsRepo.ts"
import { ensureUnscoped, reaches } from "../Scope.ts"
import type { OrganizationEdit } from "./OrganizationEdit.ts"

/** Redundant for a member whose role is at least the link's (any member, for a guest link). */
const viewOf = (invite: LinkInvite, membership: Option.Option<MembershipRole>): LinkInviteView => ({
  invite,
  redundant: Option.isSome(membership) && Roles.roleRank(membership.value.role) >= Roles.roleRank(invite.role)
})

/** The purpose of the key that seals invite links' secrets. */
export const linkInviteSealPurpose = "quire/identity/invite-link-secret/v1"

/** Whether `id` is a stored link's id (a hash) rather than a secret: an admin may name a link whose secret no longer opens by it. */
const storedIdPattern = /^[0-9a-f]{64}$/

export const inviteLinks = Effect.fnUntraced(function*(edit: OrganizationEdit) {
  const { repo, members, ids, transactor, audit, now, adminAccess } = edit
  const key = yield* Sealed.keyFor(linkInviteSealPurpose)
  const stored = (secret: string) => ({ id: Sealed.bearerHash(secret), sealedId: Sealed.seal(key, secret) })
  // Links of an older Quire keep their secret as their id: hashed and sealed now, once.
  const legacy = yield* repo.sealLegacyLinkInvites(stored)
  if (legacy > 0) yield* Effect.logInfo(`Invite links: stored the secrets of ${legacy} links as hashes (sealed for listing)`)

  /** The link as the API answers it: its id is its secret, or its stored id when the secret does not open (another instance secret). */
  const revealed = (invite: LinkInvite): LinkInvite => {
    const secret = invite.sealedId === null ? Option.none<string>() : Sealed.open(key, invite.sealedId)
    return { ...invite, id: Option.getOrElse(secret, () => invite.id) }
  }

  /** The organization's link whose secret is `inviteId` (or, for an admin, whose stored id is). */
  const lookup = Effect.fnUntraced(function*(organizationId: string, inviteId: string, admin: boolean) {
    const bySecret = yield* repo.findLinkInvite(organizationId, Sealed.bearerHash(inviteId))
    if (Option.isSome(bySecret) || !admin || !storedIdPattern.test(inviteId)) return bySecret
    return yield* repo.findLinkInvite(organizationId, inviteId)
  })

  const findLinkInvite = Effect.fnUntraced(function*(organizationId: string, inviteId: string, admin: boolean) {
    const found = yield* lookup(organizationId, inviteId, admin)
    if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "Invite", id: inviteId })
    return found.value
  })

  /** The link when it lets people join now. */
  const usableLinkInvite = Effect.fnUntraced(function*(organizationId: string, inviteId: string) {
    const invite = yield* findLinkInvite(organizationId, inviteId, false)
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
    // Ids' random ids have about 119 bits: enough for a secret.
    const secret = yield* ids.make
    const invite: LinkInvite = {
      ...stored(secret),
      organizationId,
      role: input.role,
      createdAt: yield* now,
      expiresAt: input.expiresAt ?? null
    }
    yield* repo.insertLinkInvite(invite)
    // The link by its stored id (a hash): its secret lets people join and never enters the log.
    yield* audit.record({
      organizationId,
      action: "invite-link.created",
      actor: yield* auditCaller,
      target: { type: "invite-link", id: invite.id },
      payload: { role: invite.role, expiresAt: invite.expiresAt?.toISOString() ?? null }
    })
    return viewOf({ ...invite, id: secret }, Option.some(found.membership))
  }, transactor.transaction)

  const listLinkInvites = Effect.fn("Organizations.listLinkInvites")(function*(organizationId: string) {
    const found = yield* adminAccess(organizationId, "list invite links")
    const invites = yield* repo.listLinkInvites(organizationId)
    return invites.map((invite) => viewOf(revealed(invite), Option.some(found.membership)))
  })

  const getLinkInvite = Effect.fn("Organizations.getLinkInvite")(function*(organizationId: string, inviteId: string) {
    const actor = yield* Actor.Actor
    const membership = reaches(actor, organizationId)
      ? Option.map(yield* repo.findAccess(organizationId, actor.userId), (found) => found.membership)
      : Option.none()
    const admin = Option.isSome(membership) && Roles.atLeast(membership.value.role, "admin")
    const invite = admin ? yield* findLinkInvite(organizationId, inviteId, true) : yield* usableLinkInvite(organizationId, inviteId)
    return viewOf(revealed(invite), membership)
  })

  const updateLinkInvite = Effect.fn("Organizations.updateLinkInvite")(function*(
    organizationId: string,
    inviteId: string,
    patch: LinkInvitePatch
  ) {
    const found = yield* adminAccess(organizationId, "change invite links")
    const existing = yield* findLinkInvite(organizationId, inviteId, true)
    const updated = yield* repo.updateLinkInvite(organizationId, existing.id, patch)
    if (Option.isNone(updated)) return yield* new Errors.NotFound({ resource: "Invite", id: inviteId })
    yield* audit.record({
      organizationId,
      action: "invite-link.changed",
      actor: yield* auditCaller,
      target: { type: "invite-link", id: existing.id },
      payload: { from: existing.role, to: updated.value.role, expiresAt: updated.value.expiresAt?.toISOString() ?? null }
    })
    return viewOf(revealed(updated.value), Option.some(found.membership))
  }, transactor.transaction)

  const joinWithLinkInvite = Effect.fn("Organizations.joinWithLinkInvite")(function*(organizationId: string, inviteId: string) {
    const actor = yield* Actor.Actor
    if (!reaches(actor, organizationId)) yield* ensureUnscoped(actor, "join other organizations")
    const invite = yield* usableLinkInvite(organizationId, inviteId)
    const member = yield* members.find(organizationId, actor.userId)
    if (Option.isNone(member)) {
      const added = yield* members.add({ organizationId, userId: actor.userId, role: invite.role, joinedAt: yield* now, sso: false })
      if (added) yield* audit.record({ organizationId, action: "member.joined", actor: userRef(actor.userId), target: userRef(actor.userId), payload: { role: invite.role, inviteLink: invite.id } })
      return added
    }
    if (viewOf(invite, Option.some(member.value)).redundant) return false
    yield* members.setRole(organizationId, actor.userId, invite.role)
    yield* audit.record({
      organizationId,
      action: "member.role-changed",
      actor: userRef(actor.userId),
      target: userRef(actor.userId),
      payload: { from: member.value.role, to: invite.role, inviteLink: invite.id }
    })
    return true
  }, transactor.transaction)

  const deleteLinkInvite = Effect.fn("Organizations.deleteLinkInvite")(function*(organizationId: string, inviteId: string) {
    yield* adminAccess(organizationId, "delete invite links")
    const existing = yield* lookup(organizationId, inviteId, true)
    if (Option.isSome(existing)) yield* repo.deleteLinkInvite(organizationId, existing.value.id)
  })

  return { createLinkInvite, listLinkInvites, getLinkInvite, updateLinkInvite, joinWithLinkInvite, deleteLinkInvite }
})
