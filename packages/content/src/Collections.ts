/**
 * Use cases on collections: nested folders of spaces whose `defaultLevel` applies to what they
 * contain; deleting one keeps its content. Moves and transfers are in collections/CollectionMoves.ts.
 */
import { AuditLog, caller as auditCaller } from "@quire/audit"
import { Context, Effect, Layer, Option } from "effect"
import { type Actor, type Errors, Pagination } from "@quire/kernel"
import * as Access from "./Access.ts"
import * as CollectionEdit from "./collections/CollectionEdit.ts"
import { collectionMoves } from "./collections/CollectionMoves.ts"
import type { CollectionUpdate, CreateCollectionInput, MoveCollectionInput } from "./collections/CollectionTypes.ts"
import { collectionKey, collectionKeyShape } from "./CollectionsRepo.ts"
import type { CollectionAccess } from "./ContentAccess.ts"
import type { Collection, DefaultLevel } from "./domain/Space.ts"
import { destination, visibilityAt, visiblePage } from "./Tree.ts"

export type * from "./collections/CollectionTypes.ts"

type Denied = Errors.NotFound | Errors.Forbidden

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
      const edit = yield* CollectionEdit.make
      const audit = yield* AuditLog
      const { repo, spaces, grants, access, ids, transactor, now, organization, updated, spacesIn, childrenOf } = edit

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
          position: edit.endPosition(createdAt.getTime()),
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
        yield* audit.record({
          organizationId: collection.organizationId,
          action: "collection.deleted",
          actor: yield* auditCaller,
          target: { type: "collection", id: collectionId, label: collection.title }
        })
      }, transactor.transaction)

      return Collections.of({ create, list, get, update, remove, ...collectionMoves(edit, audit) })
    })
  )
}
