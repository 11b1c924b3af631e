/** Use cases that move a space: within its organization's tree, or to the root of another organization. */
import { Effect } from "effect"
import { caller as auditCaller } from "@quire/audit"
import { Errors } from "@quire/kernel"
import * as Access from "../Access.ts"
import type { MoveInput } from "./SpaceTypes.ts"
import { destination, ensureTransferTarget, reposition, visibilityAt } from "../Tree.ts"
import type { SpaceEdit } from "./SpaceEdit.ts"

export const spaceMoves = (edit: SpaceEdit) => {
  const { audit, repo, collections, usage, grants, access, transactor, endPosition, now, updated } = edit

  const move = Effect.fn("Spaces.move")(function*(spaceId: string, input: MoveInput) {
    const { space, permissions } = yield* access.space(spaceId)
    yield* Access.ensure(permissions.admin, "move this space")
    if (input.parent === undefined && input.position === undefined) {
      return yield* new Errors.InvalidInput({ reason: "give a parent or a position to move the space to" })
    }
    const parentId = input.parent === undefined ? space.parentId : input.parent
    if (parentId !== space.parentId) {
      const resolver = yield* access.inOrganization(space.organizationId)
      const target = yield* destination(collections, resolver, space.organizationId, parentId, "parent")
      yield* Access.ensure(target.permissions.create, "move spaces there")
    }
    const at = yield* now
    const position = yield* reposition(repo, collections, { ...space, type: "space" }, parentId, input.position, at, endPosition)
    return yield* updated(spaceId, { parentId, position, visibility: visibilityAt(space.visibility, parentId), updatedAt: at })
  }, transactor.transaction)

  const transfer = Effect.fn("Spaces.transfer")(function*(spaceId: string, organizationId: string) {
    const { space, permissions } = yield* access.space(spaceId)
    yield* Access.ensure(permissions.admin, "transfer this space")
    yield* ensureTransferTarget(access, "space", space.organizationId, organizationId)
    const at = yield* now
    // Its files now count against the organization it joins; its grants were to people of the one it leaves.
    yield* usage.moveSpace(spaceId, organizationId)
    yield* grants.removeTarget({ kind: "space", id: spaceId })
    const moved = yield* updated(spaceId, {
      organizationId,
      parentId: null,
      position: endPosition(at.getTime()),
      visibility: visibilityAt(space.visibility, null),
      updatedAt: at
    })
    // In the log of the organization it leaves and of the one it joins.
    const actor = yield* auditCaller
    for (const organization of [space.organizationId, organizationId]) {
      yield* audit.record({
        organizationId: organization,
        action: "space.transferred",
        actor,
        target: { type: "space", id: spaceId, label: space.title },
        payload: { from: space.organizationId, to: organizationId }
      })
    }
    return moved
  }, transactor.transaction)

  return { move, transfer }
}
