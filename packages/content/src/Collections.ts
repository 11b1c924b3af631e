/**
 * Use cases on collections: nested folders of spaces whose `defaultLevel` applies to what they
 * contain; deleting one keeps its content.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { type Actor, Errors, Ids, Pagination, Transactor } from "@quire/kernel"
import * as Access from "./Access.ts"
import { collectionKey, collectionKeyShape, type CollectionPatch, CollectionsRepo } from "./CollectionsRepo.ts"
import { type CollectionAccess, ContentAccess } from "./ContentAccess.ts"
import type { Collection, DefaultLevel, Visibility } from "./domain/Space.ts"
import { PermissionsRepo } from "./PermissionsRepo.ts"
import { type ContentPosition, endPosition, place } from "./Placement.ts"
import { spaceKey, SpacesRepo } from "./SpacesRepo.ts"
import { StorageUsageRepo } from "./StorageUsageRepo.ts"
import { allPages, destination, loadSiblings, visibilityAt, visiblePage } from "./Tree.ts"

type Denied = Errors.NotFound | Errors.Forbidden

export interface CreateCollectionInput {
  readonly title?: string | undefined
  readonly description?: string | undefined
  /** The parent collection; absent: the organization's root. */
  readonly parent?: string | undefined
}

export interface CollectionUpdate {
  readonly title?: string | undefined
  /** An empty string removes the description. */
  readonly description?: string | undefined
  readonly defaultLevel?: DefaultLevel | undefined
}

export interface MoveCollectionInput {
  /** The new parent collection, null for the organization's root; absent keeps the parent. */
  readonly parent?: string | null | undefined
  readonly position?: ContentPosition | undefined
}

export interface CollectionsShape {
  readonly create: (organizationId: string, input: CreateCollectionInput) => Effect.Effect<CollectionAccess, Denied | Errors.InvalidInput, Actor.Actor>
  /** The organization's collections the caller can see: every level when `nested`, else the top level only. */
  readonly list: (organizationId: string, options: { readonly nested: boolean }, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<CollectionAccess>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  readonly get: (collectionId: string) => Effect.Effect<CollectionAccess, Errors.NotFound, Actor.Actor>
  readonly update: (collectionId: string, update: CollectionUpdate) => Effect.Effect<CollectionAccess, Denied, Actor.Actor>
  /** Deletes the collection, its content moving up to its parent; nothing happens when it does not exist. */
  readonly remove: (collectionId: string) => Effect.Effect<void, Errors.Forbidden, Actor.Actor>
  readonly move: (collectionId: string, input: MoveCollectionInput) => Effect.Effect<CollectionAccess, Denied | Errors.InvalidInput, Actor.Actor>
  /** Moves the collection and everything inside it to the root of another organization where the caller is an admin. */
  readonly transfer: (collectionId: string, organizationId: string) => Effect.Effect<CollectionAccess, Denied | Errors.InvalidInput, Actor.Actor>
}

/** A level inherited from a collection that goes away becomes explicit. */
const keepLevel = (own: DefaultLevel, fromParent: DefaultLevel): DefaultLevel =>
  own === "inherit" ? fromParent : own

export class Collections extends Context.Service<Collections, CollectionsShape>()("@quire/content/Collections") {
  static readonly layer = Layer.effect(
    Collections,
    Effect.gen(function*() {
      const repo = yield* CollectionsRepo
      const spaces = yield* SpacesRepo
      const usage = yield* StorageUsageRepo
      const grants = yield* PermissionsRepo
      const access = yield* ContentAccess
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const organization = Effect.fnUntraced(function*(organizationId: string) {
        const resolver = yield* access.inOrganization(organizationId)
        if (Option.isNone(resolver.organizationRole)) {
          return yield* new Errors.NotFound({ resource: "Organization", id: organizationId })
        }
        return resolver
      })

      const updated = Effect.fnUntraced(function*(collectionId: string, patch: CollectionPatch) {
        const collection = yield* repo.update(collectionId, patch)
        if (Option.isNone(collection)) return yield* new Errors.NotFound({ resource: "Collection", id: collectionId })
        return yield* access.ofCollection(collection.value)
      })

      /** The spaces directly in a collection, those in the trash included. */
      const spacesIn = (collection: Collection) =>
        allPages(
          (after, limit) =>
            spaces.list({ organizationId: collection.organizationId, parentId: collection.id, includeDeleted: true }, after, limit),
          spaceKey
        )

      const childrenOf = (collection: Collection) =>
        allPages(
          (after, limit) => repo.list({ organizationId: collection.organizationId, parentId: collection.id }, after, limit),
          collectionKey
        )

      const create = Effect.fn("Collections.create")(function*(organizationId: string, input: CreateCollectionInput) {
        const resolver = yield* organization(organizationId)
        const parentId = input.parent ?? null
        const target = yield* destination(repo, resolver, organizationId, parentId, "parent")
        yield* Access.ensure(target.permissions.create, target.collection === null
          ? "create collections in this organization"
          : "create collections in this collection")
        const createdAt = yield* now
        const collection: Collection = {
          id: yield* ids.make,
          organizationId,
          parentId,
          title: input.title ?? "Untitled",
          description: input.description === undefined || input.description === "" ? null : input.description,
          defaultLevel: "inherit",
          position: endPosition(createdAt.getTime()),
          createdAt,
          updatedAt: createdAt
        }
        yield* repo.insert(collection)
        return yield* resolver.ofCollection(collection)
      })

      const list = Effect.fn("Collections.list")(function*(
        organizationId: string,
        options: { readonly nested: boolean },
        page: Pagination.PageRequest
      ) {
        const resolver = yield* organization(organizationId)
        const after = yield* Pagination.afterOf(page, collectionKeyShape)
        return yield* visiblePage(
          (cursor, limit) => repo.list({ organizationId, ...(options.nested ? {} : { parentId: null }) }, cursor, limit),
          collectionKey,
          (collection) =>
            Effect.map(resolver.ofCollection(collection), (a) => a.permissions.view ? Option.some(a) : Option.none()),
          after,
          Pagination.limitOf(page)
        )
      })

      const get = Effect.fn("Collections.get")(function*(collectionId: string) {
        return yield* access.collection(collectionId)
      })

      const update = Effect.fn("Collections.update")(function*(collectionId: string, input: CollectionUpdate) {
        const { permissions } = yield* access.collection(collectionId)
        yield* Access.ensure(permissions.admin, "change this collection's settings")
        return yield* updated(collectionId, {
          ...(input.title === undefined ? {} : { title: input.title }),
          ...(input.description === undefined ? {} : { description: input.description === "" ? null : input.description }),
          ...(input.defaultLevel === undefined ? {} : { defaultLevel: input.defaultLevel }),
          updatedAt: yield* now
        })
      })

      const remove = Effect.fn("Collections.remove")(function*(collectionId: string) {
        const found = yield* Effect.option(access.collection(collectionId))
        if (Option.isNone(found)) return
        yield* Access.ensure(found.value.permissions.admin, "delete this collection")
        const { collection } = found.value
        const at = yield* now
        for (const child of yield* childrenOf(collection)) {
          yield* repo.update(child.id, {
            parentId: collection.parentId,
            defaultLevel: keepLevel(child.defaultLevel, collection.defaultLevel),
            updatedAt: at
          })
        }
        for (const space of yield* spacesIn(collection)) {
          yield* spaces.update(space.id, {
            parentId: collection.parentId,
            defaultLevel: keepLevel(space.defaultLevel, collection.defaultLevel),
            visibility: visibilityAt(space.visibility, collection.parentId),
            updatedAt: at
          })
        }
        // Its grants go with it: what they opened is no longer in it.
        yield* grants.removeTarget({ kind: "collection", id: collectionId })
        yield* repo.remove(collectionId)
      }, transactor.transaction)

      const move = Effect.fn("Collections.move")(function*(collectionId: string, input: MoveCollectionInput) {
        const { collection, permissions } = yield* access.collection(collectionId)
        yield* Access.ensure(permissions.admin, "move this collection")
        if (input.parent === undefined && input.position === undefined) {
          return yield* new Errors.InvalidInput({ reason: "give a parent or a position to move the collection to" })
        }
        const parentId = input.parent === undefined ? collection.parentId : input.parent
        if (parentId !== collection.parentId) {
          if (parentId === collectionId) {
            return yield* new Errors.InvalidInput({ field: "parent", reason: "a collection cannot be moved into itself" })
          }
          const resolver = yield* access.inOrganization(collection.organizationId)
          const target = yield* destination(repo, resolver, collection.organizationId, parentId, "parent")
          if (parentId !== null && (yield* repo.ancestry(parentId)).some((c) => c.id === collectionId)) {
            return yield* new Errors.InvalidInput({
              field: "parent",
              reason: "a collection cannot be moved into one of its own sub-collections"
            })
          }
          yield* Access.ensure(target.permissions.create, "move collections there")
        }
        const siblings = yield* loadSiblings(spaces, repo, collection.organizationId, parentId)
        const others = siblings.filter((s) => !(s.type === "collection" && s.id === collectionId))
        const at = yield* now
        const placement = yield* place({ type: "collection", id: collectionId }, others, input.position, at.getTime())
        const current = siblings.findIndex((s) => s.type === "collection" && s.id === collectionId)
        if (parentId === collection.parentId && placement.index === current) {
          return yield* new Errors.InvalidInput({ reason: "the collection is already there: the move would change nothing" })
        }
        for (const sibling of placement.renumbered) {
          yield* sibling.type === "space"
            ? spaces.update(sibling.id, { position: sibling.position })
            : repo.update(sibling.id, { position: sibling.position })
        }
        return yield* updated(collectionId, { parentId, position: placement.position, updatedAt: at })
      }, transactor.transaction)

      const transfer = Effect.fn("Collections.transfer")(function*(collectionId: string, organizationId: string) {
        const { collection, permissions } = yield* access.collection(collectionId)
        yield* Access.ensure(permissions.admin, "transfer this collection")
        if (organizationId === collection.organizationId) {
          return yield* new Errors.InvalidInput({
            field: "organization",
            reason: "the collection already belongs to this organization: the transfer would change nothing"
          })
        }
        const role = yield* access.organizationRole(organizationId)
        if (Option.isNone(role) || role.value !== "admin") {
          return yield* new Errors.InvalidInput({
            field: "organization",
            reason: `you must be an admin of organization ${JSON.stringify(organizationId)} to transfer collections to it`
          })
        }
        // Everything inside goes along: the caller must administer all of it.
        const resolver = yield* access.inOrganization(collection.organizationId)
        const subtree: Array<Collection> = [collection]
        const contained: Array<{ readonly id: string; readonly visibility: Visibility }> = []
        for (let i = 0; i < subtree.length; i++) {
          const current = subtree[i]!
          for (const space of yield* spacesIn(current)) {
            const { permissions: own } = yield* resolver.ofSpace(space)
            if (!own.admin) {
              return yield* new Errors.InvalidInput({
                reason: `the collection cannot be moved: you are not an admin of its space ${JSON.stringify(space.id)}`
              })
            }
            contained.push(space)
          }
          for (const child of yield* childrenOf(current)) {
            const { permissions: own } = yield* resolver.ofCollection(child)
            if (!own.admin) {
              return yield* new Errors.InvalidInput({
                reason: `the collection cannot be moved: you are not an admin of its collection ${JSON.stringify(child.id)}`
              })
            }
            subtree.push(child)
          }
        }
        const at = yield* now
        // Grants were to people of the organization the content leaves.
        for (const space of contained) {
          yield* spaces.update(space.id, { organizationId, updatedAt: at })
          yield* usage.moveSpace(space.id, organizationId)
          yield* grants.removeTarget({ kind: "space", id: space.id })
        }
        for (const child of subtree) yield* grants.removeTarget({ kind: "collection", id: child.id })
        for (const child of subtree.slice(1)) yield* repo.update(child.id, { organizationId, updatedAt: at })
        return yield* updated(collectionId, { organizationId, parentId: null, position: endPosition(at.getTime()), updatedAt: at })
      }, transactor.transaction)

      return Collections.of({ create, list, get, update, remove, move, transfer })
    })
  )
}
