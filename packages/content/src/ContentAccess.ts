/**
 * Resolves the caller's effective role on a space or a collection (see Access.ts for the rules).
 * A caller who may not see the content gets NotFound: they learn nothing about it.
 */
import { Context, Effect, Layer, Option } from "effect"
import { Actor, Errors } from "@quire/kernel"
import * as Access from "./Access.ts"
import { CollectionsRepo } from "./CollectionsRepo.ts"
import type { Collection, DefaultLevel, Space } from "./domain/Space.ts"
import { Memberships } from "./Memberships.ts"
import { SpacesRepo } from "./SpacesRepo.ts"
import type { Roles } from "@quire/kernel"

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
 * Access to many records of one organization (listings): the member's organization role is
 * looked up once, and each collection's chain of levels once, however many items share them.
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
  /** A space the caller can view (not in the trash unless `includeDeleted`). */
  readonly space: (spaceId: string, options?: { readonly includeDeleted?: boolean }) => Effect.Effect<SpaceAccess, Errors.NotFound, Actor.Actor>
  /** The caller's access to a space record already loaded (for listings). */
  readonly ofSpace: (space: Space) => Effect.Effect<SpaceAccess, never, Actor.Actor>
  readonly collection: (collectionId: string) => Effect.Effect<CollectionAccess, Errors.NotFound, Actor.Actor>
  readonly ofCollection: (collection: Collection) => Effect.Effect<CollectionAccess, never, Actor.Actor>
  /** A resolver for the records of one organization, for the caller or for another user (`userId`). */
  readonly inOrganization: (organizationId: string, userId?: string) => Effect.Effect<OrganizationAccessResolver, never, Actor.Actor>
}

export class ContentAccess extends Context.Service<ContentAccess, ContentAccessShape>()("@quire/content/ContentAccess") {
  static readonly layer = Layer.effect(
    ContentAccess,
    Effect.gen(function*() {
      const memberships = yield* Memberships
      const spaces = yield* SpacesRepo
      const collections = yield* CollectionsRepo

      const organizationRole = (organizationId: string) =>
        Effect.flatMap(Effect.service(Actor.Actor), (actor) => memberships.roleOf(organizationId, actor.userId))

      const levels = (parentId: string | null) =>
        parentId === null
          ? Effect.succeed([])
          : Effect.map(collections.ancestry(parentId), (chain) => chain.map((c) => c.defaultLevel))

      const ofSpace = Effect.fnUntraced(function*(space: Space) {
        const orgRole = Option.getOrNull(yield* organizationRole(space.organizationId))
        const role = Access.effectiveRole(orgRole, [space.defaultLevel, ...(yield* levels(space.parentId))])
        return { space, role, permissions: Access.spacePermissions(role) }
      })

      const ofCollection = Effect.fnUntraced(function*(collection: Collection) {
        const orgRole = Option.getOrNull(yield* organizationRole(collection.organizationId))
        const role = Access.effectiveRole(orgRole, yield* levels(collection.id))
        return { collection, role, permissions: Access.collectionPermissions(role) }
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
        const role = userId === undefined
          ? yield* organizationRole(organizationId)
          : yield* memberships.roleOf(organizationId, userId)
        const orgRole = Option.getOrNull(role)
        const chains = new Map<string, ReadonlyArray<DefaultLevel>>()
        const chainOf = (collectionId: string | null): Effect.Effect<ReadonlyArray<DefaultLevel>> => {
          if (collectionId === null) return Effect.succeed([])
          const known = chains.get(collectionId)
          return known === undefined
            ? Effect.tap(levels(collectionId), (chain) => Effect.sync(() => chains.set(collectionId, chain)))
            : Effect.succeed(known)
        }
        return {
          organizationRole: role,
          ofSpace: (s: Space) =>
            Effect.map(chainOf(s.parentId), (chain): SpaceAccess => {
              const effective = Access.effectiveRole(orgRole, [s.defaultLevel, ...chain])
              return { space: s, role: effective, permissions: Access.spacePermissions(effective) }
            }),
          ofCollection: (c: Collection) =>
            Effect.map(chainOf(c.parentId), (chain): CollectionAccess => {
              const effective = Access.effectiveRole(orgRole, [c.defaultLevel, ...chain])
              return { collection: c, role: effective, permissions: Access.collectionPermissions(effective) }
            })
        } satisfies OrganizationAccessResolver
      })

      return ContentAccess.of({ organizationRole, space, ofSpace, collection, ofCollection, inOrganization })
    })
  )
}
