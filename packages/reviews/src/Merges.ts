/**
 * Merging a change request into its space's main content, and updating a change request with
 * main's changes, both with the three-way merge of ThreeWayMerge.
 *
 * Merge needs the space's `merge` permission (review or above) and an unlocked space; update
 * needs `edit`. Neither touches anything when the merge has conflicts: the answer lists them, so a
 * person can resolve them in the change request (update_page) and merge again.
 */
import { Clock, Context, Data, Effect, Layer, Option } from "effect"
import { Actor, Errors, Ids, Transactor } from "@quire/kernel"
import { Access, type Revision, RevisionsRepo, SpaceContent, type SpaceAccess, SpacesRepo } from "@quire/content"
import { ChangeRequests } from "./ChangeRequests.ts"
import { ChangeRequestsRepo } from "./ChangeRequestsRepo.ts"
import { type ChangeRequest, countersOf } from "./domain/ChangeRequest.ts"
import { documentsToRead, type MergeConflict, threeWayMerge } from "./ThreeWayMerge.ts"

type Denied = Errors.NotFound | Errors.Forbidden

/** The outcome of a merge or an update: the resulting revision, or the conflicts and the revision left as it was. */
export type MergeOutcome =
  | { readonly result: "merge" | "update"; readonly revision: string; readonly changeRequest: ChangeRequest; readonly access: SpaceAccess }
  | {
    readonly result: "conflicts"
    readonly revision: string
    readonly conflicts: ReadonlyArray<MergeConflict>
    readonly changeRequest: ChangeRequest
    readonly access: SpaceAccess
  }

export interface MergesShape {
  /** Merges the change request into main: a new main revision (type `merge`), the change request merged. */
  readonly merge: (spaceId: string, ref: string) => Effect.Effect<MergeOutcome, Denied | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
  /** Brings main's changes into the change request: a new head whose parents are the old head and main. */
  readonly update: (spaceId: string, ref: string) => Effect.Effect<MergeOutcome, Denied | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
}

class Conflicting extends Data.TaggedError("Conflicting")<{ readonly main: string; readonly conflicts: ReadonlyArray<MergeConflict> }> {}
class LostRace extends Data.TaggedError("LostRace")<{}> {}

const attempts = 5

export class Merges extends Context.Service<Merges, MergesShape>()("@quire/reviews/Merges") {
  static readonly layer = Layer.effect(
    Merges,
    Effect.gen(function*() {
      const changeRequests = yield* ChangeRequests
      const repo = yield* ChangeRequestsRepo
      const spaces = yield* SpacesRepo
      const revisions = yield* RevisionsRepo
      const content = yield* SpaceContent
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const stored = (revisionId: string) =>
        content.revisionById(revisionId).pipe(
          Effect.catchTag("NotFound", () => Effect.die(new Error(`A change request points at a missing revision ${revisionId}`)))
        )

      /** The change request, checked to be mergeable by the caller. */
      const mergeable = Effect.fnUntraced(function*(spaceId: string, ref: string, permission: "merge" | "edit") {
        const found = yield* changeRequests.get(spaceId, ref)
        const { permissions, space } = found.access
        yield* Access.ensure(permissions[permission], permission === "merge" ? "merge change requests in this space" : "update this change request")
        if (space.editMode === "locked") {
          return yield* new Errors.Forbidden({
            reason: `Space ${JSON.stringify(spaceId)} is locked: set its editMode to "live" to change its content`
          })
        }
        const cr = found.changeRequest
        if (cr.status === "merged" || cr.status === "archived") {
          return yield* new Errors.InvalidInput({
            field: "changeRequestId",
            reason: `change request ${cr.number} is ${cr.status}; only draft and open change requests can be merged or updated`
          })
        }
        return found
      })

      /** Three-way merge of main (`ours`) and the change request's head (`theirs`) from the change request's ancestor. */
      const combine = Effect.fnUntraced(function*(cr: ChangeRequest, ours: Revision, theirs: Revision) {
        const base = yield* stored(cr.revisionMergedAncestor)
        const documents = yield* revisions.documents(documentsToRead(base, ours, theirs))
        return threeWayMerge({ base, ours, theirs, documents })
      })

      const merge = Effect.fn("Merges.merge")(function*(spaceId: string, ref: string) {
        const found = yield* mergeable(spaceId, ref, "merge")
        const cr = found.changeRequest
        const theirs = yield* stored(cr.revision)
        const at = yield* now
        const outcome = yield* transactor.transaction(Effect.gen(function*() {
          // A lost race runs the build again on the newer main: two merges never lose either.
          const next = yield* content.commit(spaceId, (ours) =>
            Effect.gen(function*() {
              if (ours.id === cr.revisionMergedAncestor) {
                return { pages: theirs.pages, files: theirs.files, variables: theirs.variables, type: "merge" as const, otherParents: [theirs.id] }
              }
              const merged = yield* combine(cr, ours, theirs)
              if (merged.kind === "conflicts") return yield* new Conflicting({ main: ours.id, conflicts: merged.conflicts })
              return { pages: merged.pages, files: merged.files, documents: merged.newDocuments, type: "merge" as const, otherParents: [theirs.id] }
            }))
          const moved = yield* repo.setStatus(cr.id, cr.status, "merged", at)
          // Someone merged, archived or reopened it meanwhile: the whole merge rolls back.
          if (Option.isNone(moved)) return yield* new Errors.Conflict({ reason: `Change request ${cr.number} changed during the merge; try again` })
          const before = countersOf(cr.status)
          yield* spaces.addToCounters(spaceId, { changeRequestsOpen: -before.changeRequestsOpen, changeRequestsDraft: -before.changeRequestsDraft })
          if (cr.conflicts !== null) yield* repo.setConflicts(cr.id, null)
          const updated = yield* repo.update(cr.id, { revisionMerged: next.id, updatedAt: at })
          return { result: "merge" as const, revision: next.id, changeRequest: Option.getOrElse(updated, () => moved.value), access: found.access }
        })).pipe(
          // Kept on the change request (outside the rolled-back transaction) until it changes or merges cleanly.
          Effect.catchTag("Conflicting", (c) =>
            Effect.map(repo.setConflicts(cr.id, c.conflicts), (stored) => ({
              result: "conflicts" as const,
              revision: c.main,
              conflicts: c.conflicts,
              changeRequest: Option.getOrElse(stored, () => cr),
              access: found.access
            })))
        )
        return outcome satisfies MergeOutcome
      })

      const update = Effect.fn("Merges.update")(function*(spaceId: string, ref: string) {
        for (let n = 1; ; n++) {
          const found = yield* mergeable(spaceId, ref, "edit")
          const cr = found.changeRequest
          const mainId = found.access.space.revisionId
          if (mainId === cr.revisionMergedAncestor) {
            const current = cr.conflicts === null ? cr : Option.getOrElse(yield* repo.setConflicts(cr.id, null), () => cr)
            return { result: "update" as const, revision: cr.revision, changeRequest: current, access: found.access } satisfies MergeOutcome
          }
          const [ours, theirs] = [yield* stored(mainId), yield* stored(cr.revision)]
          const merged = yield* combine(cr, ours, theirs)
          if (merged.kind === "conflicts") {
            const current = Option.getOrElse(yield* repo.setConflicts(cr.id, merged.conflicts), () => cr)
            return { result: "conflicts" as const, revision: cr.revision, conflicts: merged.conflicts, changeRequest: current, access: found.access } satisfies MergeOutcome
          }
          const actor = yield* Actor.Actor
          const at = yield* now
          const next: Revision = {
            id: yield* ids.make,
            spaceId,
            parents: [theirs.id, ours.id],
            type: "update",
            pages: merged.pages,
            files: merged.files,
            variables: theirs.variables,
            git: null,
            createdAt: at
          }
          const moved = yield* transactor.transaction(Effect.gen(function*() {
            yield* revisions.insert(next, merged.newDocuments)
            if (!(yield* repo.setRevision(cr.id, theirs.id, next.id, at))) return yield* new LostRace()
            yield* repo.addContributor(cr.id, actor.userId)
            if (cr.conflicts !== null) yield* repo.setConflicts(cr.id, null)
            return yield* repo.update(cr.id, { revisionMergedAncestor: ours.id, updatedAt: at })
          })).pipe(Effect.catchTag("LostRace", () => Effect.succeedNone))
          if (Option.isSome(moved)) {
            return { result: "update" as const, revision: next.id, changeRequest: moved.value, access: found.access } satisfies MergeOutcome
          }
          if (n >= attempts) {
            return yield* new Errors.Conflict({ reason: `Change request ${cr.number} kept changing during the update; try again` })
          }
        }
      })

      return Merges.of({
        merge: (spaceId, ref) => merge(spaceId, ref) as Effect.Effect<MergeOutcome, Denied | Errors.InvalidInput | Errors.Conflict, Actor.Actor>,
        update: (spaceId, ref) => update(spaceId, ref) as Effect.Effect<MergeOutcome, Denied | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
      })
    })
  )
}
