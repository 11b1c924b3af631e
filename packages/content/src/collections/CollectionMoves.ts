/**
 * Use cases that move a collection: within its organization's tree (never into itself), or with
 * everything inside it to the root of another organization.
 */
import { Effect } from "effect"
import { type AuditLogShape, caller as auditCaller } from "@quire/audit"
import { Errors } from "@quire/kernel"
import * as Access from "../Access.ts"
import type { MoveCollectionInput } from "./CollectionTypes.ts"
import type { Collection, Visibility } from "../domain/Space.ts"
import { destination, ensureTransferTarget, reposition } from "../Tree.ts"
import type { CollectionEdit } from "./CollectionEdit.ts"

/** A transfer refused: the caller does not administer something inside the collection. */
const notAdmin = (kind: "space" | "collection", id: string) =>
  new Errors.InvalidInput({ reason: `the collection cannot be moved: you are not an admin of its ${kind} ${JSON.stringify(id)}` })

export const collectionMoves = (edit: CollectionEdit, audit: AuditLogShape) => {
  const { repo, spaces, usage, grants, access, transactor, endPosition, now, updated, spacesIn, childrenOf } = edit

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
    const at = yield* now
    const position = yield* reposition(spaces, repo, { ...collection, type: "collection" }, parentId, input.position, at, endPosition)
    return yield* updated(collectionId, { parentId, position, updatedAt: at })
  }, transactor.transaction)

  /** The collection and the collections and spaces inside it; InvalidInput when the caller does not administer all of them. */
  const administeredSubtree = Effect.fnUntraced(function*(collection: Collection) {
    const resolver = yield* access.inOrganization(collection.organizationId)
    const subtree: Array<Collection> = [collection]
    const contained: Array<{ readonly id: string; readonly visibility: Visibility }> = []
    for (let i = 0; i < subtree.length; i++) {
      const current = subtree[i]!
      for (const space of yield* spacesIn(current)) {
        if (!(yield* resolver.ofSpace(space)).permissions.admin) return yield* notAdmin("space", space.id)
        contained.push(space)
      }
      for (const child of yield* childrenOf(current)) {
        if (!(yield* resolver.ofCollection(child)).permissions.admin) return yield* notAdmin("collection", child.id)
        subtree.push(child)
      }
    }
    return { subtree, contained }
  })

  const transfer = Effect.fn("Collections.transfer")(function*(collectionId: string, organizationId: string) {
    const { collection, permissions } = yield* access.collection(collectionId)
    yield* Access.ensure(permissions.admin, "transfer this collection")
    yield* ensureTransferTarget(access, "collection", collection.organizationId, organizationId)
    // Everything inside goes along: the caller must administer all of it.
    const { subtree, contained } = yield* administeredSubtree(collection)
    const at = yield* now
    // Grants were to people of the organization the content leaves.
    const actor = yield* auditCaller
    for (const space of contained) {
      yield* spaces.update(space.id, { organizationId, updatedAt: at })
      yield* usage.moveSpace(space.id, organizationId)
      yield* grants.removeTarget({ kind: "space", id: space.id })
      // Each space in the log of the organization it leaves and of the one it joins, as a space's own transfer.
      for (const organization of [collection.organizationId, organizationId]) {
        yield* audit.record({
          organizationId: organization,
          action: "space.transferred",
          actor,
          target: { type: "space", id: space.id },
          payload: { from: collection.organizationId, to: organizationId, collection: collectionId }
        })
      }
    }
    for (const child of subtree) yield* grants.removeTarget({ kind: "collection", id: child.id })
    for (const child of subtree.slice(1)) yield* repo.update(child.id, { organizationId, updatedAt: at })
    return yield* updated(collectionId, { organizationId, parentId: null, position: endPosition(at.getTime()), updatedAt: at })
  }, transactor.transaction)

  return { move, transfer }
}
