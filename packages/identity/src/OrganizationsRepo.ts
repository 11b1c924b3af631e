/** Port: organizations, the caller's access to them, and their invitations. */
import { Context, Effect, Layer, Option } from "effect"
import { compareCodePoints, Pagination, type Roles } from "@quire/kernel"
import type { LinkInvite, Organization, OrganizationAccess, OrganizationPatch } from "./domain/Identity.ts"
import { emailInviteKey, IdentityMemory, memberKey } from "./IdentityMemory.ts"
import type { EmailInviteRow } from "./IdentityMemory.ts"

/** What an invite link's update may change. */
export type LinkInvitePatch = Partial<Pick<LinkInvite, "role" | "expiresAt">>

export interface OrganizationsRepoShape {
  /** Stores a new organization with `adminUserId`, its creator, as its first admin. */
  readonly insert: (organization: Organization, adminUserId: string) => Effect.Effect<void>
  /**
   * How many existing organizations `userId` created. In a transaction, it also holds the
   * creator's row until the transaction ends, so that one person's concurrent creations count
   * one after the other.
   */
  readonly countCreatedBy: (userId: string) => Effect.Effect<number>
  /** The organization, whoever asks (the use cases decide who may see it). */
  readonly find: (organizationId: string) => Effect.Effect<Option.Option<Organization>>
  /** The organization with the caller's role, or none when the caller is not a member. */
  readonly findAccess: (organizationId: string, userId: string) => Effect.Effect<Option.Option<OrganizationAccess>>
  readonly listForUser: (
    userId: string,
    after: Pagination.CursorKey | undefined,
    limit: number
  ) => Effect.Effect<Pagination.Page<OrganizationAccess>>
  /** The organizations claiming `domain` (ignoring case), oldest first, with `userId`'s role (null when not a member). */
  readonly listByEmailDomain: (domain: string, userId: string) => Effect.Effect<ReadonlyArray<OrganizationAccess>>
  readonly update: (organizationId: string, patch: OrganizationPatch) => Effect.Effect<Organization>
  readonly insertLinkInvite: (invite: LinkInvite) => Effect.Effect<void>
  /** The invite link `inviteId` of the organization, expired or not. */
  readonly findLinkInvite: (organizationId: string, inviteId: string) => Effect.Effect<Option.Option<LinkInvite>>
  /** Changes an invite link's role or expiry; none when the organization has no such link. */
  readonly updateLinkInvite: (
    organizationId: string,
    inviteId: string,
    patch: LinkInvitePatch
  ) => Effect.Effect<Option.Option<LinkInvite>>
  /** The organization's invite links, oldest first. */
  readonly listLinkInvites: (organizationId: string) => Effect.Effect<ReadonlyArray<LinkInvite>>
  readonly deleteLinkInvite: (organizationId: string, inviteId: string) => Effect.Effect<void>
  /**
   * Links stored before their secrets were hashed (`sealedId` null): each gets `seal(id)`'s id
   * and sealed id, in one transaction. Answers how many.
   */
  readonly sealLegacyLinkInvites: (seal: (id: string) => { readonly id: string; readonly sealedId: string }) => Effect.Effect<number>
  /** Remembers a pending invitation; one for the same organization and email replaces it (id included). */
  readonly insertEmailInvite: (invite: EmailInviteRow) => Effect.Effect<void>
  /**
   * Email invitations stored before their ids were hashed (`sealedId` null): each gets `seal(id)`'s
   * id and sealed id, in one transaction. Answers how many.
   */
  readonly sealLegacyEmailInvites: (seal: (id: string) => { readonly id: string; readonly sealedId: string }) => Effect.Effect<number>
  /** The organization's pending invitation whose stored id is `inviteId`. */
  readonly findEmailInvite: (organizationId: string, inviteId: string) => Effect.Effect<Option.Option<EmailInviteRow>>
  /** The pending invitations of an organization (`organizationId`) or of an email (`email`, lower case), oldest first. */
  readonly listEmailInvites: (filter: { readonly organizationId: string } | { readonly email: string }) => Effect.Effect<ReadonlyArray<EmailInviteRow>>
  /** Removes and returns the organization's pending invitation of `email` (lower case). */
  readonly takeEmailInvite: (organizationId: string, email: string) => Effect.Effect<Option.Option<EmailInviteRow>>
  /** Deletes the email invitations created before `before`; answers how many. */
  readonly purgeEmailInvites: (before: Date) => Effect.Effect<number>
}

/** Sort key of organization listings. */
export const organizationKey = (o: Organization): Pagination.CursorKey => [o.createdAt.toISOString(), o.id]
export const organizationKeyShape: Pagination.KeyShape = ["timestamp", "string"]

const linkInviteKey = (i: LinkInvite): Pagination.CursorKey => [i.createdAt.toISOString(), i.id]

export class OrganizationsRepo extends Context.Service<OrganizationsRepo, OrganizationsRepoShape>()(
  "@quire/identity/OrganizationsRepo"
) {
  static readonly layerMemory = Layer.effect(
    OrganizationsRepo,
    Effect.gen(function*() {
      const store = yield* IdentityMemory
      const access = (organization: Organization, userId: string): OrganizationAccess | undefined => {
        const row = store.members.get(memberKey(organization.id, userId))
        return row === undefined ? undefined : { organization, membership: { role: row.role } }
      }
      const linkInvite = (organizationId: string, inviteId: string) => {
        const invite = store.linkInvites.get(inviteId)
        return invite?.organizationId === organizationId ? invite : undefined
      }
      return OrganizationsRepo.of({
        insert: (organization, adminUserId) =>
          Effect.sync(() => {
            store.organizations.set(organization.id, organization)
            store.organizationCreators.set(organization.id, adminUserId)
            store.members.set(memberKey(organization.id, adminUserId), {
              organizationId: organization.id,
              userId: adminUserId,
              role: "admin" as Roles.MemberRole,
              joinedAt: organization.createdAt,
              lastSeenAt: null,
              sso: false,
              disabled: false
            })
          }),
        countCreatedBy: (userId) =>
          Effect.sync(() =>
            Array.from(store.organizationCreators).filter(([id, creator]) => creator === userId && store.organizations.has(id)).length
          ),
        find: (organizationId) => Effect.sync(() => Option.fromNullishOr(store.organizations.get(organizationId))),
        findAccess: (organizationId, userId) =>
          Effect.sync(() => {
            const organization = store.organizations.get(organizationId)
            return Option.fromNullishOr(organization === undefined ? undefined : access(organization, userId))
          }),
        listForUser: (userId, after, limit) =>
          Effect.suspend(() => {
            const all = Array.from(store.organizations.values()).flatMap((o) => access(o, userId) ?? [])
            return Pagination.paginateArray(all, (a) => organizationKey(a.organization), { order: "asc", after, limit })
          }),
        listByEmailDomain: (domain, userId) =>
          Effect.sync(() =>
            Array.from(store.organizations.values())
              .filter((o) => o.emailDomains.includes(domain.toLowerCase()))
              .toSorted((a, b) => Pagination.compareKeys(organizationKey(a), organizationKey(b)))
              .map((organization) => access(organization, userId) ?? { organization, membership: { role: null } })
          ),
        update: (organizationId, patch) =>
          Effect.sync(() => {
            const next = { ...store.organizations.get(organizationId)!, ...patch }
            store.organizations.set(organizationId, next)
            return next
          }),
        insertLinkInvite: (invite) => Effect.sync(() => void store.linkInvites.set(invite.id, invite)),
        findLinkInvite: (organizationId, inviteId) => Effect.sync(() => Option.fromNullishOr(linkInvite(organizationId, inviteId))),
        updateLinkInvite: (organizationId, inviteId, patch) =>
          Effect.sync(() => {
            const found = linkInvite(organizationId, inviteId)
            if (found === undefined) return Option.none()
            const next = { ...found, ...patch }
            store.linkInvites.set(inviteId, next)
            return Option.some(next)
          }),
        listLinkInvites: (organizationId) =>
          Effect.sync(() =>
            Array.from(store.linkInvites.values())
              .filter((i) => i.organizationId === organizationId)
              .toSorted((a, b) => Pagination.compareKeys(linkInviteKey(a), linkInviteKey(b)))
          ),
        deleteLinkInvite: (organizationId, inviteId) =>
          Effect.sync(() => {
            if (store.linkInvites.get(inviteId)?.organizationId === organizationId) store.linkInvites.delete(inviteId)
          }),
        sealLegacyLinkInvites: (seal) =>
          Effect.sync(() => {
            let sealed = 0
            for (const invite of Array.from(store.linkInvites.values())) {
              if (invite.sealedId !== null) continue
              const next = seal(invite.id)
              store.linkInvites.delete(invite.id)
              store.linkInvites.set(next.id, { ...invite, ...next })
              sealed++
            }
            return sealed
          }),
        insertEmailInvite: (invite) =>
          Effect.sync(() => {
            const key = emailInviteKey(invite.organizationId, invite.email)
            // A renewed invite moves to the end, as a new one.
            store.emailInvites.delete(key)
            store.emailInvites.set(key, invite)
          }),
        sealLegacyEmailInvites: (seal) =>
          Effect.sync(() => {
            let sealed = 0
            for (const [key, invite] of Array.from(store.emailInvites)) {
              if (invite.sealedId !== null) continue
              store.emailInvites.set(key, { ...invite, ...seal(invite.id) })
              sealed++
            }
            return sealed
          }),
        findEmailInvite: (organizationId, inviteId) =>
          Effect.sync(() =>
            Option.fromNullishOr(
              Array.from(store.emailInvites.values()).find((i) => i.id === inviteId && i.organizationId === organizationId)
            )
          ),
        listEmailInvites: (filter) =>
          Effect.sync(() =>
            Array.from(store.emailInvites.values())
              .filter((i) => ("email" in filter ? i.email === filter.email : i.organizationId === filter.organizationId))
              .toSorted((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || compareCodePoints(a.id, b.id))
          ),
        takeEmailInvite: (organizationId, email) =>
          Effect.sync(() => {
            const key = emailInviteKey(organizationId, email)
            const found = store.emailInvites.get(key)
            store.emailInvites.delete(key)
            return Option.fromNullishOr(found)
          }),
        purgeEmailInvites: (before) =>
          Effect.sync(() => {
            const stale = Array.from(store.emailInvites.values()).filter((i) => i.createdAt < before)
            for (const invite of stale) store.emailInvites.delete(emailInviteKey(invite.organizationId, invite.email))
            return stale.length
          })
      })
    })
  )
}
