/**
 * Conflicts a writer resolves. A change request keeps the conflicts its last merge or update found;
 * the writer settles each one (main's side, the change request's, or new markdown for a hunk) and
 * the settled merge becomes one revision of the change request (type `update`, parents: its head
 * and main) that moves its merge base to main, so the next merge is clean unless main moved again.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { Actor, Errors } from "@quire/kernel"
import { Access, PublishedContent, SpaceContent, type SpaceAccess, RevisionWriter } from "@quire/content"
import { ChangeRequestWrites } from "./ChangeRequestWrites.ts"
import { ChangeRequests, type ChangeRequestView, isOutdated } from "./ChangeRequests.ts"
import { ChangeRequestsRepo } from "./ChangeRequestsRepo.ts"
import type { ChangeRequest } from "./domain/ChangeRequest.ts"
import type { ConflictsFound, ConflictTake, MergeConflict } from "./domain/MergeConflict.ts"
import { mergeRevisions, updateFromMain } from "./Merges.ts"
import { conflictKey, type Resolution, resolvable } from "./ThreeWayMerge.ts"

type Denied = Errors.NotFound | Errors.Forbidden

/** The writer's answer to one conflict, as the API takes it. */
export interface ConflictChoice {
  /** The conflict's id (`c1`, …). */
  readonly conflict: string
  readonly take: ConflictTake
  /** With `take: "markdown"`: the lines that replace the hunk. */
  readonly markdown?: string | undefined
}

/** A change request's conflicts, as the caller may see them. */
export interface ConflictList {
  readonly access: SpaceAccess
  readonly changeRequest: ChangeRequest
  readonly conflicts: ReadonlyArray<MergeConflict>
  /** Where they were found; null without conflicts. */
  readonly found: ConflictsFound | null
  /** True when main moved since they were found: an update finds the conflicts with the current content. */
  readonly stale: boolean
}

export interface ConflictResolutionShape {
  /** The conflicts the change request's last merge or update found (none when it had none or since it changed). */
  readonly list: (spaceId: string, ref: string) => Effect.Effect<ConflictList, Errors.NotFound, Actor.Actor>
  /**
   * Settles every conflict at once: one new revision of the change request, with main as its second
   * parent, holding main's changes, the change request's and the choices. 400 for a choice that
   * names no conflict or leaves one out; 409 when there is nothing to resolve, or main or the change
   * request moved since the conflicts were found.
   */
  readonly resolve: (
    spaceId: string,
    ref: string,
    choices: ReadonlyArray<ConflictChoice>
  ) => Effect.Effect<ChangeRequestView, Denied | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
}

/** A conflict in a line: its id, where it is and what kind. */
export const describe = (c: MergeConflict): string => `${c.id} (${c.path}: ${c.kind}${c.field === undefined ? "" : ` ${c.field}`})`

const invalid = (field: string, reason: string) => Effect.fail(new Errors.InvalidInput({ field, reason }))

/** The choices checked against the conflicts: each names one conflict, once, with what it needs; every conflict has one. */
export const checkChoices = (
  conflicts: ReadonlyArray<MergeConflict>,
  choices: ReadonlyArray<ConflictChoice>
): Effect.Effect<ReadonlyMap<string, Resolution>, Errors.InvalidInput> =>
  Effect.gen(function*() {
    const byId = new Map(conflicts.map((c) => [c.id, c]))
    const resolutions = new Map<string, Resolution>()
    const chosen = new Set<string>()
    for (const [i, choice] of choices.entries()) {
      const c = byId.get(choice.conflict)
      if (c === undefined) {
        return yield* invalid(`resolutions[${i}].conflict`, `no conflict ${JSON.stringify(choice.conflict)} on this change request (its conflicts: ${conflicts.map((c) => c.id).join(", ")})`)
      }
      if (chosen.has(c.id)) return yield* invalid(`resolutions[${i}].conflict`, `${c.id} is resolved twice`)
      chosen.add(c.id)
      if (!resolvable(c)) {
        return yield* invalid(
          `resolutions[${i}].take`,
          `${describe(c)}: two sibling pages have the same slug; give the change request's page another slug (update_page) and merge again`
        )
      }
      if (choice.take === "markdown") {
        if (c.kind !== "content") {
          return yield* invalid(`resolutions[${i}].take`, `markdown resolves only content conflicts; ${describe(c)} takes "main" or "change-request"`)
        }
        if (choice.markdown === undefined) return yield* invalid(`resolutions[${i}].markdown`, `is required with take "markdown"`)
        resolutions.set(conflictKey(c), { markdown: choice.markdown })
      } else {
        if (choice.markdown !== undefined) return yield* invalid(`resolutions[${i}].markdown`, `is only given with take "markdown" (this one takes "${choice.take}")`)
        resolutions.set(conflictKey(c), { side: choice.take === "main" ? "ours" : "theirs" })
      }
    }
    const missing = conflicts.filter((c) => !chosen.has(c.id))
    if (missing.length > 0) {
      return yield* invalid("resolutions", `every conflict is resolved in one call; without a resolution: ${missing.map(describe).join(", ")}`)
    }
    return resolutions
  })

export class ConflictResolution extends Context.Service<ConflictResolution, ConflictResolutionShape>()("@quire/reviews/ConflictResolution") {
  static readonly layer = Layer.effect(
    ConflictResolution,
    Effect.gen(function*() {
      const changeRequests = yield* ChangeRequests
      const repo = yield* ChangeRequestsRepo
      const published = yield* PublishedContent
      const content = yield* SpaceContent
      const writer = yield* RevisionWriter
      const writes = yield* ChangeRequestWrites

      const stored = (revisionId: string) =>
        content.revisionById(revisionId).pipe(
          Effect.catchTag("NotFound", () => Effect.die(new Error(`A change request's conflicts point at a missing revision ${revisionId}`)))
        )

      const list = Effect.fn("ConflictResolution.list")(function*(spaceId: string, ref: string) {
        const found = yield* changeRequests.get(spaceId, ref)
        const cr = found.changeRequest
        return {
          access: found.access,
          changeRequest: cr,
          conflicts: cr.conflicts ?? [],
          found: cr.conflictsFound,
          stale: cr.conflictsFound !== null && cr.conflictsFound.main !== found.access.space.revisionId
        }
      })

      const resolve = Effect.fn("ConflictResolution.resolve")(function*(spaceId: string, ref: string, choices: ReadonlyArray<ConflictChoice>) {
        const found = yield* changeRequests.get(spaceId, ref)
        yield* Access.ensure(found.access.permissions.edit, "resolve the conflicts of this change request")
        const cr = found.changeRequest
        if (cr.status === "merged" || cr.status === "archived") {
          return yield* new Errors.InvalidInput({ field: "changeRequestId", reason: `change request ${cr.number} is ${cr.status}; it has nothing to resolve` })
        }
        const at = cr.conflictsFound
        if (cr.conflicts === null || cr.conflicts.length === 0 || at === null) {
          return yield* new Errors.Conflict({ reason: `Change request ${cr.number} has no conflicts to resolve (merge or update it to find them)` })
        }
        const resolutions = yield* checkChoices(cr.conflicts, choices)
        const actor = yield* Actor.Actor
        const now = new Date(yield* Clock.currentTimeMillis)
        const written = yield* writer.write(
          changeRequests.branchHead(spaceId, ref, "resolved"),
          (theirs, head) =>
            Effect.gen(function*() {
              const current = head.changeRequest
              if (theirs.id !== at.head || current.conflictsFound?.head !== at.head || current.conflictsFound.main !== at.main) {
                return yield* new Errors.Conflict({
                  reason: `Change request ${cr.number} changed since its conflicts were found; update it again (quire cr update) and resolve what it reports`
                })
              }
              if (head.space.revisionId !== at.main) {
                return yield* new Errors.Conflict({
                  reason: `The space's content changed since the conflicts were found (they are against revision ${at.main}, main is at ${head.space.revisionId}); ` +
                    "update the change request again (quire cr update) and resolve the conflicts it reports"
                })
              }
              const ours = yield* stored(at.main)
              const base = yield* stored(current.revisionMergedAncestor)
              const merged = yield* mergeRevisions(published, base, ours, theirs, resolutions)
              if (merged.kind === "conflicts") {
                return yield* new Errors.InvalidInput({
                  field: "resolutions",
                  reason: `with these resolutions the merge still conflicts: ${merged.conflicts.map(describe).join(", ")}; choose differently`
                })
              }
              return updateFromMain(merged, base, ours, theirs)
            }),
          {
            within: ({ head }) =>
              Effect.gen(function*() {
                const id = head.changeRequest.id
                yield* repo.addContributor(id, actor.userId)
                yield* repo.setConflicts(id, null)
                return Option.getOrElse(yield* repo.update(id, { revisionMergedAncestor: at.main, updatedAt: now }), () => head.changeRequest)
              })
          }
        )
        const access = written.head.access
        yield* writes.written({ spaceId, changeRequestId: written.result.id })
        return { access, changeRequest: written.result, outdated: isOutdated(written.result, access.space.revisionId) }
      })

      return ConflictResolution.of({ list, resolve })
    })
  )
}
