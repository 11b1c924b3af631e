/**
 * Use cases on organizations: creation, settings and listings here; invitations by email
 * (organizations/EmailInvites.ts) and invite links (organizations/InviteLinks.ts) beside.
 */
import { Config, Context, Effect, Layer, Option } from "effect"
import { caller as auditCaller, userRef } from "@quire/audit"
import { Actor, Errors, MergeRules, Pagination } from "@quire/kernel"
import { type MembershipRole, newOrganization, type Organization, type OrganizationAccess, type OrganizationPatch } from "./domain/Identity.ts"
import { type LinkInvitePatch, organizationKeyShape } from "./OrganizationsRepo.ts"
import { emailInvites } from "./organizations/EmailInvites.ts"
import { inviteLinks } from "./organizations/InviteLinks.ts"
import * as OrganizationEdit from "./organizations/OrganizationEdit.ts"
import type { InviteInput, InviteResult, LinkInviteInput, LinkInviteView } from "./organizations/OrganizationTypes.ts"
import { ensureUnscoped, reaches } from "./Scope.ts"
import { EmailVerificationRepo } from "./EmailVerificationRepo.ts"
import { accountMail } from "./signin/AccountMail.ts"

export type * from "./organizations/OrganizationTypes.ts"

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
  /** Whether the caller may create an organization now; when not, the reason in words (the same `create` would refuse with). */
  readonly mayCreate: Effect.Effect<{ readonly allowed: true } | { readonly allowed: false; readonly reason: string }, never, Actor.Actor>
  readonly list: (page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<OrganizationAccess>, Errors.InvalidInput, Actor.Actor>
  readonly update: (organizationId: string, patch: OrganizationPatch) => Effect.Effect<OrganizationAccess, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor>
  /**
   * Organizations claiming `domain`: all of them when the caller's own email is in that domain,
   * otherwise only those the caller is a member of.
   */
  readonly listByEmailDomain: (domain: string) => Effect.Effect<ReadonlyArray<EmailDomainOrganization>, never, Actor.Actor>
  /**
   * The caller joins, with the organization's default role (a reader's without one), when their
   * verified email's domain is one of its `emailDomains`; a member is left as they are. NotFound
   * when the organization does not exist or does not claim the caller's domain (and they are no
   * member); InvalidInput when it does but the caller's email is not verified. Answers whether the
   * caller became a member.
   */
  readonly joinByEmailDomain: (organizationId: string) => Effect.Effect<boolean, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor>
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

export { emailInviteRetention } from "./organizations/EmailInvites.ts"

/**
 * Who may create organizations: `QUIRE_ORG_CREATION` (`anyone`, the default, or `admins`: instance
 * administrators only), and `QUIRE_ORGS_PER_USER` organizations per creator (5; 0: no cap;
 * instance administrators have none). Each organization has its own storage quota, so the cap is
 * what keeps one person from multiplying it.
 */
export const OrganizationCreation = Config.all({
  who: Config.Literals(["anyone", "admins"], "QUIRE_ORG_CREATION").pipe(Config.withDefault("anyone" as const)),
  perUser: Config.Int("QUIRE_ORGS_PER_USER").pipe(Config.withDefault(5))
})

export class Organizations extends Context.Service<Organizations, OrganizationsShape>()("@quire/identity/Organizations") {
  static readonly layer = Layer.effect(
    Organizations,
    Effect.gen(function*() {
      const edit = yield* OrganizationEdit.make
      const { repo, users, members, ids, transactor, audit, now, access, adminAccess } = edit
      const creation = yield* Effect.orDie(OrganizationCreation)
      const mail = yield* accountMail
      const verifications = yield* EmailVerificationRepo

      /** Why the caller may not create an organization now; nothing when they may. */
      const refusal = Effect.fnUntraced(function*(actor: Actor.ActorShape) {
        const unscoped = yield* Effect.flip(ensureUnscoped(actor, "create organizations")).pipe(Effect.option)
        if (unscoped._tag === "Some") return unscoped
        if (creation.who === "admins" && !actor.instanceAdmin) {
          return Option.some(new Errors.Forbidden({ reason: "Only an instance administrator can create organizations on this instance (QUIRE_ORG_CREATION=admins)" }))
        }
        if (!actor.instanceAdmin && creation.perUser > 0 && (yield* repo.countCreatedBy(actor.userId)) >= creation.perUser) {
          return Option.some(new Errors.Forbidden({
            reason: `You have created ${creation.perUser} organizations, the most one person may (QUIRE_ORGS_PER_USER); ask an instance administrator`
          }))
        }
        return Option.none<Errors.Forbidden>()
      })

      const mayCreate = Effect.flatMap(Effect.service(Actor.Actor), (actor) =>
        Effect.map(refusal(actor), (refused) =>
          Option.match(refused, {
            onNone: () => ({ allowed: true as const }),
            onSome: (error) => ({ allowed: false as const, reason: error.reason })
          })))

      const create = Effect.fn("Organizations.create")(function*(input: {
        readonly title: string
        readonly emailDomains?: ReadonlyArray<string> | undefined
      }) {
        const actor = yield* Actor.Actor
        const organization = newOrganization({
          id: yield* ids.make,
          title: input.title,
          createdAt: yield* now,
          emailDomains: (input.emailDomains ?? []).map((d) => d.toLowerCase())
        })
        // Checked in the transaction: two creations at once do not both pass the cap.
        yield* transactor.transaction(Effect.gen(function*() {
          const refused = yield* refusal(actor)
          if (Option.isSome(refused)) return yield* refused.value
          yield* repo.insert(organization, actor.userId)
        }))
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
        if (patch.mergeRules !== undefined) {
          const refused = MergeRules.refusal(patch.mergeRules)
          if (refused !== undefined) return yield* new Errors.InvalidInput(refused)
        }
        const normalized: OrganizationPatch = patch.emailDomains === undefined
          ? patch
          : { ...patch, emailDomains: patch.emailDomains.map((d) => d.toLowerCase()) }
        // The names of the settings that change (never their values), recorded with the change.
        const before = found.organization as unknown as Readonly<Record<string, unknown>>
        const fields = Object.entries(normalized)
          .filter(([field, value]) => value !== undefined && JSON.stringify(value) !== JSON.stringify(before[field] ?? null))
          .map(([field]) => field)
        const organization = yield* transactor.transaction(Effect.gen(function*() {
          const updated = yield* repo.update(organizationId, normalized)
          if (fields.length > 0) {
            yield* audit.record({
              organizationId,
              action: "organization.settings-changed",
              actor: yield* auditCaller,
              target: { type: "organization", id: organizationId, label: updated.title },
              payload: { fields: fields.join(",") }
            })
          }
          return updated
        }))
        return { organization, membership: found.membership }
      })

      const listByEmailDomain = Effect.fn("Organizations.listByEmailDomain")(function*(domain: string) {
        const actor = yield* Actor.Actor
        const claimed = domain.toLowerCase()
        const caller = yield* users.findById(actor.userId)
        // Only a proven email puts the caller in its domain (anyone could sign up with any address).
        const inDomain = Option.isSome(caller) && caller.value.email.toLowerCase().split("@").pop() === claimed &&
          (yield* verifications.isVerified(caller.value.id))
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

      const joinByEmailDomain = Effect.fn("Organizations.joinByEmailDomain")(function*(organizationId: string) {
        const actor = yield* Actor.Actor
        if (!reaches(actor, organizationId)) yield* ensureUnscoped(actor, "join other organizations")
        const notFound = new Errors.NotFound({ resource: "Organization", id: organizationId })
        const organization = yield* repo.find(organizationId)
        if (Option.isNone(organization)) return yield* notFound
        if (Option.isSome(yield* members.find(organizationId, actor.userId))) return false
        const caller = yield* users.findById(actor.userId)
        const domain = Option.isSome(caller) ? caller.value.email.toLowerCase().split("@").pop() ?? "" : ""
        // Not revealed to someone whose domain it does not claim: the same answer as no organization.
        if (domain === "" || !organization.value.emailDomains.includes(domain)) return yield* notFound
        if (!(yield* verifications.isVerified(actor.userId))) {
          return yield* new Errors.InvalidInput({ field: "email", reason: `verify your email address (${domain}) before joining by its domain` })
        }
        const role = organization.value.defaultRole ?? "read"
        const added = yield* members.add({ organizationId, userId: actor.userId, role, joinedAt: yield* now, sso: false })
        if (added) {
          yield* audit.record({ organizationId, action: "member.joined", actor: userRef(actor.userId), target: userRef(actor.userId), payload: { role, emailDomain: domain } })
        }
        return added
      }, transactor.transaction)

      return Organizations.of({ access, create, mayCreate, list, update, listByEmailDomain, joinByEmailDomain, ...(yield* emailInvites(edit, mail, verifications)), ...(yield* inviteLinks(edit)) })
    })
  )
}
