/**
 * Invitations as offers: an organization admin's invitation of an email grants nothing until the
 * person with that email, signed in as themselves, accepts it. It is offered to an account only
 * once the account proved that email (a squatter who signed up with someone's address
 * was offered their invitations), or to whoever opens the invitation's own link. They and the
 * inviting admins see it pending meanwhile; either may drop it (the person declines, an admin
 * withdraws it).
 */
import { AuditLog, userRef } from "@quire/audit"
import { Clock, Context, Effect, Layer, Option } from "effect"
import { Actor, Errors, Roles, Transactor } from "@quire/kernel"
import { ensureOrganization } from "./Authorization.ts"
import type { MemberInvite, Organization, OrganizationAccess } from "./domain/Identity.ts"
import { MembersRepo } from "./MembersRepo.ts"
import { Organizations } from "./Organizations.ts"
import { OrganizationsRepo } from "./OrganizationsRepo.ts"
import { reaches } from "./Scope.ts"
import { UsersRepo } from "./UsersRepo.ts"
import { EmailVerificationRepo } from "./EmailVerificationRepo.ts"
import { emailInviteIds } from "./organizations/EmailInviteIds.ts"

/** A pending invitation with the organization it is to. */
export interface MemberInviteView {
  readonly invite: MemberInvite
  readonly organization: Organization
}

type Denied = Errors.NotFound | Errors.Forbidden

export interface MemberInvitesShape {
  /** The organization's pending invitations (its admins). */
  readonly listForOrganization: (organizationId: string) => Effect.Effect<ReadonlyArray<MemberInviteView>, Denied, Actor.Actor>
  /** The caller's own pending invitations, once they proved their email (a scoped caller: those of its organization only). */
  readonly listForCaller: Effect.Effect<ReadonlyArray<MemberInviteView>, never, Actor.Actor>
  /**
   * The caller accepts an invitation to their own email: they become a member with its role (a
   * member already keeps the higher of the two roles). NotFound for anyone else's invitation.
   */
  readonly accept: (organizationId: string, inviteId: string) => Effect.Effect<OrganizationAccess, Errors.NotFound | Errors.Forbidden, Actor.Actor>
  /**
   * `accept` for a caller who opened the invitation's link (whoever has the link may answer it; a
   * mailed link also proved the email): their email must still be the invited one.
   */
  readonly acceptThroughLink: (organizationId: string, inviteId: string) => Effect.Effect<OrganizationAccess, Errors.NotFound | Errors.Forbidden, Actor.Actor>
  /** Drops a pending invitation: the invited person declines it, or an admin of the organization withdraws it. */
  readonly decline: (organizationId: string, inviteId: string) => Effect.Effect<void, Errors.NotFound, Actor.Actor>
}

export class MemberInvites extends Context.Service<MemberInvites, MemberInvitesShape>()("@quire/identity/MemberInvites") {
  static readonly layer = Layer.effect(
    MemberInvites,
    Effect.gen(function*() {
      const organizations = yield* Organizations
      const repo = yield* OrganizationsRepo
      const users = yield* UsersRepo
      const members = yield* MembersRepo
      const transactor = yield* Transactor.Transactor
      const audit = yield* AuditLog
      const verifications = yield* EmailVerificationRepo
      // Invitations are stored by the hash of their id (a bearer value), answered with the id.
      const inviteIds = yield* emailInviteIds
      const callerVerified = Effect.flatMap(Actor.Actor, (actor) => verifications.isVerified(actor.userId))
      const unproven = new Errors.Forbidden({
        reason: "Confirm your email first: invitations are offered to an account that proved its email, or through the link the invitation came with"
      })

      const viewsOf = Effect.fnUntraced(function*(invites: ReadonlyArray<MemberInvite>) {
        const views: Array<MemberInviteView> = []
        for (const invite of invites) {
          const organization = yield* repo.find(invite.organizationId)
          if (Option.isSome(organization)) views.push({ invite: inviteIds.revealed(invite), organization: organization.value })
        }
        return views
      })

      const callerEmail = Effect.gen(function*() {
        const actor = yield* Actor.Actor
        const user = yield* users.findById(actor.userId)
        return Option.map(user, (u) => u.email.toLowerCase())
      })

      const listForOrganization = Effect.fn("MemberInvites.listForOrganization")(function*(organizationId: string) {
        const access = yield* organizations.access(organizationId)
        yield* ensureOrganization(access.membership, "admin", "list the organization's invitations")
        return yield* viewsOf(yield* repo.listEmailInvites({ organizationId }))
      })

      const listForCaller = Effect.gen(function*() {
        const actor = yield* Actor.Actor
        const email = yield* callerEmail
        if (Option.isNone(email) || !(yield* callerVerified)) return []
        const invites = yield* repo.listEmailInvites({ email: email.value })
        return yield* viewsOf(invites.filter((invite) => reaches(actor, invite.organizationId)))
      }).pipe(Effect.withSpan("MemberInvites.listForCaller"))

      /** The invitation, when the caller is the person it invites (and may reach its organization). */
      const ownInvite = Effect.fnUntraced(function*(organizationId: string, inviteId: string) {
        const actor = yield* Actor.Actor
        const notFound = new Errors.NotFound({ resource: "Invite", id: inviteId })
        if (!reaches(actor, organizationId)) return yield* notFound
        const [invite, email] = [yield* repo.findEmailInvite(organizationId, inviteIds.storedId(inviteId)), yield* callerEmail]
        if (Option.isNone(invite) || Option.isNone(email) || invite.value.email !== email.value) return yield* notFound
        return invite.value
      })

      const acceptOwn = Effect.fnUntraced(function*(organizationId: string, inviteId: string, throughLink: boolean) {
        const actor = yield* Actor.Actor
        const invite = yield* ownInvite(organizationId, inviteId)
        if (!throughLink && !(yield* callerVerified)) return yield* unproven
        yield* repo.takeEmailInvite(organizationId, invite.email)
        const member = yield* members.find(organizationId, actor.userId)
        if (Option.isNone(member)) {
          const joinedAt = new Date(yield* Clock.currentTimeMillis)
          yield* members.add({ organizationId, userId: actor.userId, role: invite.role, sso: invite.sso, joinedAt })
          yield* audit.record({ organizationId, action: "member.joined", actor: userRef(actor.userId), target: userRef(actor.userId), payload: { role: invite.role } })
        } else {
          const role = Roles.maxRole(member.value.role, invite.role)
          if (role !== member.value.role) {
            yield* members.setRole(organizationId, actor.userId, role)
            yield* audit.record({
              organizationId,
              action: "member.role-changed",
              actor: userRef(actor.userId),
              target: userRef(actor.userId),
              payload: { from: member.value.role, to: role }
            })
          }
          if (invite.sso && !member.value.sso) yield* members.setSso(organizationId, actor.userId, true)
        }
        return yield* Effect.orDie(organizations.access(organizationId))
      })
      const accept = Effect.fn("MemberInvites.accept")(function*(organizationId: string, inviteId: string) {
        return yield* acceptOwn(organizationId, inviteId, false)
      }, transactor.transaction)
      const acceptThroughLink = Effect.fn("MemberInvites.acceptThroughLink")(function*(organizationId: string, inviteId: string) {
        return yield* acceptOwn(organizationId, inviteId, true)
      }, transactor.transaction)

      /** The organization's invitation of id `inviteId`, or, for its admins, whose stored id it is (one whose sealed id no longer opens). */
      const adminInvite = Effect.fnUntraced(function*(organizationId: string, inviteId: string) {
        const byId = yield* repo.findEmailInvite(organizationId, inviteIds.storedId(inviteId))
        if (Option.isSome(byId) || !inviteIds.maybeStoredId(inviteId)) return byId
        return yield* repo.findEmailInvite(organizationId, inviteId)
      })

      const decline = Effect.fn("MemberInvites.decline")(function*(organizationId: string, inviteId: string) {
        const actor = yield* Actor.Actor
        const admin = reaches(actor, organizationId)
          ? Option.exists(yield* repo.findAccess(organizationId, actor.userId), (a) => Roles.atLeast(a.membership.role, "admin"))
          : false
        if (!admin && !(yield* callerVerified)) return yield* new Errors.NotFound({ resource: "Invite", id: inviteId })
        const invite = admin ? yield* adminInvite(organizationId, inviteId) : Option.some(yield* ownInvite(organizationId, inviteId))
        if (Option.isNone(invite)) return yield* new Errors.NotFound({ resource: "Invite", id: inviteId })
        yield* repo.takeEmailInvite(organizationId, invite.value.email)
      }, transactor.transaction)

      return MemberInvites.of({ listForOrganization, listForCaller, accept, acceptThroughLink, decline })
    })
  )
}
