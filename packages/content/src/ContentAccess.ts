/**
 * Resolves the caller's effective role on a space or a collection (see Access.ts for the rules):
 * their organization role, the levels of the content and its collections, and the grants to them
 * and their teams. A caller who may not see the content gets NotFound: they learn nothing about it.
 */
import { Context, Effect, Layer, Option } from "effect"
import { Actor, Errors, MergeRules, Roles } from "@quire/kernel"
import * as Access from "./Access.ts"
import { CollectionsRepo } from "./CollectionsRepo.ts"
import type { Collection, Space } from "./domain/Space.ts"
import { Memberships } from "./Memberships.ts"
import { PermissionsRepo, type TargetKind } from "./PermissionsRepo.ts"
import { SpacesRepo } from "./SpacesRepo.ts"

type Role = Roles.MemberRole | null

export interface SpaceAccess {
  readonly space: Space
  readonly role: Role
  readonly permissions: Access.SpacePermissions
}

export interface CollectionAccess {
  readonly collection: Collection
  readonly role: Role
  readonly permissions: Access.CollectionPermissions
}

/**
 * Access to many records of one organization (listings): the member's organization role, teams
 * and grants are looked up once, and each collection's chain of levels once, however many items
 * share them.
 */
export interface OrganizationAccessResolver {
  /** The member's standing in the organization: none when not a member. */
  readonly organizationRole: Option.Option<Role>
  readonly ofSpace: (space: Space) => Effect.Effect<SpaceAccess>
  readonly ofCollection: (collection: Collection) => Effect.Effect<CollectionAccess>
}

export interface ContentAccessShape {
  /** The caller's standing in an organization: none when not a member. */
  readonly organizationRole: (organizationId: string) => Effect.Effect<Option.Option<Role>, never, Actor.Actor>
  /**
   * The caller's role in an organization they are a member of with a role; to others and to guests
   * (who see only what they were given) the organization does not exist: NotFound.
   */
  readonly organizationMember: (organizationId: string) => Effect.Effect<Roles.MemberRole, Errors.NotFound, Actor.Actor>
  /** A space the caller can view (not in the trash unless `includeDeleted`). */
  readonly space: (spaceId: string, options?: { readonly includeDeleted?: boolean }) => Effect.Effect<SpaceAccess, Errors.NotFound, Actor.Actor>
  /** The caller's access to a space record already loaded (for listings). */
  readonly ofSpace: (space: Space) => Effect.Effect<SpaceAccess, never, Actor.Actor>
  readonly collection: (collectionId: string) => Effect.Effect<CollectionAccess, Errors.NotFound, Actor.Actor>
  readonly ofCollection: (collection: Collection) => Effect.Effect<CollectionAccess, never, Actor.Actor>
  /** A resolver for the records of one organization, for the caller or for another user (`userId`). */
  readonly inOrganization: (organizationId: string, userId?: string) => Effect.Effect<OrganizationAccessResolver, never, Actor.Actor>
  /** The merge rules that apply to a space: its own, or its organization's when it inherits them. */
  readonly mergeRules: (space: Space) => Effect.Effect<MergeRules.StandaloneConfiguration>
}

/** A member's grants in one organization (theirs and their teams'), the highest role per target. */
type GrantIndex = ReadonlyMap<string, Roles.MemberRole>

const targetKey = (kind: TargetKind, id: string) => `${kind}/${id}`

/** The roles `grants` gives on a record and the collections holding it (`chain`). */
const grantedOn = (grants: GrantIndex, own: string | undefined, chain: ReadonlyArray<Collection>): Array<Roles.MemberRole> => {
  const roles: Array<Roles.MemberRole> = []
  const add = (role: Roles.MemberRole | undefined) => {
    if (role !== undefined) roles.push(role)
  }
  if (grants.size === 0) return roles
  if (own !== undefined) add(grants.get(targetKey("space", own)))
  for (const collection of chain) add(grants.get(targetKey("collection", collection.id)))
  return roles
}

const levels = (chain: ReadonlyArray<Collection>) => chain.map((c) => c.defaultLevel)

const spaceAccess = (space: Space, role: Option.Option<Role>, grants: GrantIndex, chain: ReadonlyArray<Collection>): SpaceAccess => {
  const effective = Access.effectiveRole(Option.getOrNull(role), [space.defaultLevel, ...levels(chain)], grantedOn(grants, space.id, chain))
  return { space, role: effective, permissions: Access.spacePermissions(effective) }
}

/**
 * A published site's reader reads the spaces the site shows it, in the site's organization, and
 * nothing else: no role, so every other check of content refuses it as it refuses an outsider.
 */
const siteReaderAccess = (space: Space, reader: Actor.SiteReader): SpaceAccess => {
  const reads = space.organizationId === reader.organizationId && reader.spaceIds.includes(space.id)
  const role = reads ? "read" : null
  return { space, role, permissions: Access.spacePermissions(role) }
}

/** `chain` starts with the collection itself. */
const collectionAccess = (
  collection: Collection,
  role: Option.Option<Role>,
  grants: GrantIndex,
  chain: ReadonlyArray<Collection>
): CollectionAccess => {
  const effective = Access.effectiveRole(Option.getOrNull(role), levels(chain), grantedOn(grants, undefined, chain))
  return { collection, role: effective, permissions: Access.collectionPermissions(effective) }
}

export class ContentAccess extends Context.Service<ContentAccess, ContentAccessShape>()("@quire/content/ContentAccess") {
  static readonly layer = Layer.effect(
    ContentAccess,
    Effect.gen(function*() {
      const memberships = yield* Memberships
      const permissions = yield* PermissionsRepo
      const spaces = yield* SpacesRepo
      const collections = yield* CollectionsRepo

      const organizationRole = (organizationId: string) =>
        Effect.flatMap(Effect.service(Actor.Actor), (actor) => memberships.roleOf(organizationId, actor.userId))

      const organizationMember = (organizationId: string) =>
        Effect.flatMap(organizationRole(organizationId), (role) =>
          Option.isNone(role) || role.value === null
            ? Effect.fail(new Errors.NotFound({ resource: "Organization", id: organizationId }))
            : Effect.succeed(role.value))

      /**
       * A user's standing in an organization: their role (none: not a member) and, unless they
       * administer it anyway, the grants to them and their teams, read once.
       */
      const standing = Effect.fnUntraced(function*(organizationId: string, userId: string) {
        const role = yield* memberships.roleOf(organizationId, userId)
        const grants = new Map<string, Roles.MemberRole>()
        if (Option.isNone(role) || role.value === "admin") return { role, grants }
        const teams = yield* memberships.teamsOf(organizationId, userId)
        const held = yield* permissions.ofPrincipals(organizationId, [
          { kind: "user", id: userId },
          ...teams.map((id) => ({ kind: "team" as const, id }))
        ])
        for (const grant of held) {
          const key = targetKey(grant.target.kind, grant.target.id)
          grants.set(key, Roles.maxRole(grants.get(key) ?? null, grant.role) ?? grant.role)
        }
        return { role, grants }
      })

      const callerStanding = (organizationId: string) =>
        Effect.flatMap(Effect.service(Actor.Actor), (actor) => standing(organizationId, actor.userId))

      const chainOf = (collectionId: string | null): Effect.Effect<ReadonlyArray<Collection>> =>
        collectionId === null ? Effect.succeed([]) : collections.ancestry(collectionId)

      const ofSpace = Effect.fnUntraced(function*(space: Space) {
        const actor = yield* Actor.Actor
        if (actor.siteReader !== undefined) return siteReaderAccess(space, actor.siteReader)
        const { grants, role } = yield* callerStanding(space.organizationId)
        return spaceAccess(space, role, grants, yield* chainOf(space.parentId))
      })

      const ofCollection = Effect.fnUntraced(function*(collection: Collection) {
        const { grants, role } = yield* callerStanding(collection.organizationId)
        const parents = yield* chainOf(collection.parentId)
        return collectionAccess(collection, role, grants, [collection, ...parents])
      })

      const space = Effect.fn("ContentAccess.space")(function*(spaceId: string, options?: { readonly includeDeleted?: boolean }) {
        const found = yield* spaces.find(spaceId)
        const notFound = new Errors.NotFound({ resource: "Space", id: spaceId })
        if (Option.isNone(found) || (found.value.deletedAt !== null && options?.includeDeleted !== true)) {
          return yield* notFound
        }
        const access = yield* ofSpace(found.value)
        if (!access.permissions.view) return yield* notFound
        return access
      })

      const collection = Effect.fn("ContentAccess.collection")(function*(collectionId: string) {
        const found = yield* collections.find(collectionId)
        const notFound = new Errors.NotFound({ resource: "Collection", id: collectionId })
        if (Option.isNone(found)) return yield* notFound
        const access = yield* ofCollection(found.value)
        if (!access.permissions.view) return yield* notFound
        return access
      })

      const inOrganization = Effect.fnUntraced(function*(organizationId: string, userId?: string) {
        const reader = userId === undefined ? (yield* Actor.Actor).siteReader : undefined
        if (reader !== undefined) {
          return {
            organizationRole: Option.none(),
            ofSpace: (s: Space) => Effect.succeed(siteReaderAccess(s, reader)),
            ofCollection: (c: Collection) => Effect.succeed({ collection: c, role: null, permissions: Access.collectionPermissions(null) })
          } satisfies OrganizationAccessResolver
        }
        const { grants, role } = userId === undefined
          ? yield* callerStanding(organizationId)
          : yield* standing(organizationId, userId)
        const chains = new Map<string, ReadonlyArray<Collection>>()
        const cachedChainOf = (collectionId: string | null): Effect.Effect<ReadonlyArray<Collection>> => {
          if (collectionId === null) return Effect.succeed([])
          const known = chains.get(collectionId)
          return known === undefined
            ? Effect.tap(chainOf(collectionId), (chain) => Effect.sync(() => chains.set(collectionId, chain)))
            : Effect.succeed(known)
        }
        return {
          organizationRole: role,
          ofSpace: (s: Space) => Effect.map(cachedChainOf(s.parentId), (chain) => spaceAccess(s, role, grants, chain)),
          ofCollection: (c: Collection) =>
            Effect.map(cachedChainOf(c.parentId), (chain) => collectionAccess(c, role, grants, [c, ...chain]))
        } satisfies OrganizationAccessResolver
      })

      const mergeRules = (space: Space) =>
        space.mergeRules.type === "inherit"
          ? memberships.mergeRules(space.organizationId)
          : Effect.succeed(MergeRules.effective(space.mergeRules, { type: "none" }))

      return ContentAccess.of({ organizationRole, organizationMember, space, ofSpace, collection, ofCollection, inOrganization, mergeRules })
    })
  )
}
