/** Use cases on the trash: a deleted space stays restorable for `trashRetention`, then is purged with everything of it. */
import { caller as auditCaller } from "@quire/audit"
import { Clock, Duration, Effect, Option } from "effect"
import { Errors } from "@quire/kernel"
import * as Access from "../Access.ts"
import { visibilityAt } from "../Tree.ts"
import type { SpaceEdit } from "./SpaceEdit.ts"

/** How long a deleted space stays restorable before it is removed for good. */
export const trashRetention = Duration.days(7)

const purgeBatch = 100

export const spaceTrash = (edit: SpaceEdit) => {
  const { audit, repo, collections, revisions, searchIndex, importRuns, usage, dependents, grants, access, transactor, now, updated } = edit

  const remove = Effect.fn("Spaces.remove")(function*(spaceId: string) {
    const found = yield* Effect.option(access.space(spaceId))
    if (Option.isNone(found)) return
    yield* Access.ensure(found.value.permissions.admin, "delete this space")
    const { space } = found.value
    const at = yield* now
    yield* repo.update(spaceId, { deletedAt: at, updatedAt: at })
    yield* audit.record({ organizationId: space.organizationId, action: "space.deleted", actor: yield* auditCaller, target: { type: "space", id: spaceId, label: space.title } })
  }, transactor.transaction)

  const restore = Effect.fn("Spaces.restore")(function*(spaceId: string) {
    const found = yield* access.space(spaceId, { includeDeleted: true })
    yield* Access.ensure(found.permissions.admin, "restore this space")
    const { space } = found
    if (space.deletedAt === null) return found
    const at = yield* now
    if (at.getTime() - space.deletedAt.getTime() > Duration.toMillis(trashRetention)) {
      return yield* new Errors.InvalidInput({
        reason: `Space ${JSON.stringify(spaceId)} was deleted more than 7 days ago and can no longer be restored`
      })
    }
    const parent = space.parentId === null ? Option.none() : yield* collections.find(space.parentId)
    const parentGone = space.parentId !== null &&
      (Option.isNone(parent) || parent.value.organizationId !== space.organizationId)
    const restored = yield* updated(spaceId, {
      deletedAt: null,
      updatedAt: at,
      ...(parentGone ? { parentId: null, visibility: visibilityAt(space.visibility, null) } : {})
    })
    yield* audit.record({ organizationId: space.organizationId, action: "space.restored", actor: yield* auditCaller, target: { type: "space", id: spaceId, label: space.title } })
    return restored
  }, transactor.transaction)

  const purgeDeleted = Effect.gen(function*() {
    const cutoff = new Date((yield* Clock.currentTimeMillis) - Duration.toMillis(trashRetention))
    let purged = 0
    for (;;) {
      const batch = yield* repo.listDeletedBefore(cutoff, purgeBatch)
      for (const space of batch) {
        // Everything of the space, in every package, or nothing.
        yield* transactor.transaction(Effect.all([
          dependents.removeSpace(space.id),
          revisions.removeForSpace(space.id),
          usage.releaseSpace(space.id),
          grants.removeTarget({ kind: "space", id: space.id }),
          searchIndex.removeSpace(space.id),
          importRuns.removeOfSpace(space.id),
          repo.remove(space.id)
        ], { discard: true }))
      }
      purged += batch.length
      if (batch.length < purgeBatch) return purged
    }
  }).pipe(Effect.withSpan("Spaces.purgeDeleted"))

  return { remove, restore, purgeDeleted }
}
