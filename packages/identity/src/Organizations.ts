/** Use cases on organizations: creation, settings, listings and invitations. */
import { Clock, Context, Duration, Effect, Layer, Option } from "effect"
import { Actor, Errors, Ids, Pagination, Roles, Transactor } from "@quire/kernel"
import { ensureOrganization } from "./Authorization.ts"
import type { LinkInvite, MembershipRole, Organization, OrganizationAccess, OrganizationPatch } from "./domain/Identity.ts"
import { MembersRepo } from "./MembersRepo.ts"
import { type LinkInvitePatch, organizationKeyShape, OrganizationsRepo } from "./OrganizationsRepo.ts"
import { UsersRepo } from "./UsersRepo.ts"
import { ensureUnscoped, reaches } from "./Scope.ts"

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
   * Existing users invited (not members yet): an instance administrator's invitation adds them at
   * once, an organization admin's waits for each of them to accept it.
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

/** An organization that claims an email domain, with the caller's membership (null: not a member). */
export interface EmailDomainOrganization {
  readonly organization: Organization
  readonly membership: MembershipRole | null
}

export interface OrganizationsShape {
  /**
   * The organization as the caller sees it; NotFound when the caller is not a member, or when
   * the caller's single sign-on scope is another organization.
   */
  readonly access: (organizationId: string) => Effect.Effect<OrganizationAccess, Errors.NotFound, Actor.Actor>
  /** Creates an organization administered by the caller; Forbidden to a single sign-on token (scoped to another one). */
  readonly create: (input: { readonly title: string; readonly emailDomains?: ReadonlyArray<string> | undefined }) => Effect.Effect<OrganizationAccess, Errors.Forbidden, Actor.Actor>
  readonly list: (page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<OrganizationAccess>, Errors.InvalidInput, Actor.Actor>
  readonly update: (organizationId: string, patch: OrganizationPatch) => Effect.Effect<OrganizationAccess, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor>
  /**
   * Organizations claiming `domain`: all of them when the caller's own email is in that domain,
   * otherwise only those the caller is a member of.
   */
  readonly listByEmailDomain: (domain: string) => Effect.Effect<ReadonlyArray<EmailDomainOrganization>, never, Actor.Actor>
  readonly invite: (organizationId: string, input: InviteInput) => Effect.Effect<InviteResult, Errors.NotFound | Errors.Forbidden, Actor.Actor>
  readonly createLinkInvite: (organizationId: string, input: LinkInviteInput) => Effect.Effect<LinkInviteView, Errors.NotFound | Errors.Forbidden, Actor.Actor>
  readonly listLinkInvites: (organizationId: string) => Effect.Effect<ReadonlyArray<LinkInviteView>, Errors.NotFound | Errors.Forbidden, Actor.Actor>
  /**
   * One invite link: admins see any of their organization's; anyone else, member or not, who
   * knows the link's id sees it while it can be used (see {@link OrganizationsShape.joinWithLinkInvite}).
   */
  readonly getLinkInvite: (organizationId: string, inviteId: string) => Effect.Effect<LinkInviteView, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor>
  /** Changes an invite link's role or expiry (admins). */
  readonly updateLinkInvite: (organizationId: string, inviteId: string, patch: LinkInvitePatch) => Effect.Effect<LinkInviteView, Errors.NotFound | Errors.Forbidden, Actor.Actor>
  /**
   * The caller joins with an invite link's role; a member whose role is lower gets the link's,
   * any other member is left as they are. NotFound for an unknown link, Forbidden when the
   * organization turned invite links off, InvalidInput once the link expired. Answers whether
   * the caller's membership changed.
   */
  readonly joinWithLinkInvite: (organizationId: string, inviteId: string) => Effect.Effect<boolean, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor>
  readonly deleteLinkInvite: (organizationId: string, inviteId: string) => Effect.Effect<void, Errors.NotFound | Errors.Forbidden, Actor.Actor>
  /** Drops email invitations nobody accepted within `emailInviteRetention`; answers how many. */
  readonly purgeStaleInvites: Effect.Effect<number>
}

/** Redundant for a member whose role is at least the link's (any member, for a guest link). */
const viewOf = (invite: LinkInvite, membership: Option.Option<MembershipRole>): LinkInviteView => ({
  invite,
  redundant: Option.isSome(membership) && Roles.roleRank(membership.value.role) >= Roles.roleRank(invite.role)
})

/** How long an invitation to an email without an account waits for that account. */
export const emailInviteRetention = Duration.days(30)

export class Organizations extends Context.Service<Organizations, OrganizationsShape>()("@quire/identity/Organizations") {
  static readonly layer = Layer.effect(
    Organizations,
    Effect.gen(function*() {
      const repo = yield* OrganizationsRepo
      const users = yield* UsersRepo
      const members = yield* MembersRepo
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const access = Effect.fn("Organizations.access")(function*(organizationId: string) {
        const actor = yield* Actor.Actor
        const found = reaches(actor, organizationId) ? yield* repo.findAccess(organizationId, actor.userId) : Option.none()
        if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "Organization", id: organizationId })
        return found.value
      })

      const adminAccess = Effect.fnUntraced(function*(organizationId: string, action: string) {
        const found = yield* access(organizationId)
        yield* ensureOrganization(found.membership, "admin", action)
        return found
      })

      const create = Effect.fn("Organizations.create")(function*(input: {
        readonly title: string
        readonly emailDomains?: ReadonlyArray<string> | undefined
      }) {
        const actor = yield* Actor.Actor
        yield* ensureUnscoped(actor, "create organizations")
        const organization: Organization = {
          id: yield* ids.make,
          title: input.title,
          createdAt: yield* now,
          emailDomains: (input.emailDomains ?? []).map((d) => d.toLowerCase()),
          hostname: null,
          defaultRole: null,
          defaultContentSite: null,
          logo: null,
          sso: false,
          ai: false,
          inviteLinks: false
        }
        yield* transactor.transaction(repo.insert(organization, actor.userId))
        return { organization, membership: { role: "admin" as const } }
      })

      const list = Effect.fn("Organizations.list")(function*(page: Pagination.PageRequest) {
        const actor = yield* Actor.Actor
        const after = yield* Pagination.afterOf(page, organizationKeyShape)
        if (actor.scope === undefined) return yield* repo.listForUser(actor.userId, after, Pagination.limitOf(page))
        // A scoped caller sees its one organization, on the first page.
        const found = after === undefined ? yield* repo.findAccess(actor.scope, actor.userId) : Option.none()
        return { items: Option.toArray(found) }
      })

      const update = Effect.fn("Organizations.update")(function*(organizationId: string, patch: OrganizationPatch) {
        const found = yield* adminAccess(organizationId, "change the organization's settings")
        if (patch.defaultContentSite != null) {
          // No docs site exists yet in this organization (sites arrive with the sites package).
          return yield* new Errors.InvalidInput({
            field: "defaultContent.site",
            reason: `site ${JSON.stringify(patch.defaultContentSite)} does not exist in this organization`
          })
        }
        const normalized: OrganizationPatch = patch.emailDomains === undefined
          ? patch
          : { ...patch, emailDomains: patch.emailDomains.map((d) => d.toLowerCase()) }
        const organization = yield* repo.update(organizationId, normalized)
        return { organization, membership: found.membership }
      })

      const listByEmailDomain = Effect.fn("Organizations.listByEmailDomain")(function*(domain: string) {
        const actor = yield* Actor.Actor
        const claimed = domain.toLowerCase()
        const caller = yield* users.findById(actor.userId)
        const inDomain = Option.isSome(caller) && caller.value.email.toLowerCase().split("@").pop() === claimed
        const found: Array<EmailDomainOrganization> = []
        for (const { organization } of yield* repo.listByEmailDomain(claimed, actor.userId)) {
          if (!reaches(actor, organization.id)) continue
          // The repository answers non-members as guests; the membership itself tells them apart.
          const member = yield* members.find(organization.id, actor.userId)
          if (Option.isSome(member)) found.push({ organization, membership: { role: member.value.role } })
          else if (inDomain) found.push({ organization, membership: null })
        }
        return found
      })

      const invite = Effect.fn("Organizations.invite")(function*(organizationId: string, input: InviteInput) {
        const actor = yield* Actor.Actor
        yield* adminAccess(organizationId, "invite members")
        const joinedAt = yield* now
        const invited: Array<string> = []
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
          if (Option.isSome(user)) invited.push(user.value.id)
          // The operator manages accounts already; anyone else's invitation is an offer its person accepts.
          if (Option.isSome(user) && actor.instanceAdmin) {
            yield* members.add({ organizationId, userId: user.value.id, role, joinedAt, sso: input.sso })
          } else {
            yield* repo.insertEmailInvite({ id: yield* ids.make, organizationId, email, role, sso: input.sso, createdAt: joinedAt })
          }
        }
        return { users: invited, invited: invitations.size }
      }, transactor.transaction)

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

      const purgeStaleInvites = Effect.gen(function*() {
        const cutoff = new Date((yield* Clock.currentTimeMillis) - Duration.toMillis(emailInviteRetention))
        return yield* repo.purgeEmailInvites(cutoff)
      }).pipe(Effect.withSpan("Organizations.purgeStaleInvites"))

      return Organizations.of({
        purgeStaleInvites,
        access,
        create,
        list,
        update,
        listByEmailDomain,
        invite,
        createLinkInvite,
        listLinkInvites,
        getLinkInvite,
        updateLinkInvite,
        joinWithLinkInvite,
        deleteLinkInvite
      })
    })
  )
}
