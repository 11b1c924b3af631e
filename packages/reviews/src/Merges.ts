/**
 * Merging a change request into its space's main content, and updating a change request with
 * main's changes, with ThreeWayMerge, through the RevisionWriter.
 */
import { AuditLog, type AuditLogShape, caller as auditCaller } from "@quire/audit"
import { Clock, Context, Data, Effect, Layer, Option } from "effect"
import { Actor, Errors } from "@quire/kernel"
import { Access, breather, type ContentChange, PublishedContent, type Revision, RevisionWriter, SpaceContent, type SpaceAccess } from "@quire/content"
import { ChangeRequestWrites } from "./ChangeRequestWrites.ts"
import { ChangeRequests } from "./ChangeRequests.ts"
import { ChangeRequestsRepo } from "./ChangeRequestsRepo.ts"
import { LiveDocuments } from "./LiveDocuments.ts"
import * as MergeRules from "./MergeRules.ts"
import { type ChangeRequest, countersOf } from "./domain/ChangeRequest.ts"
import { boundForStorage } from "./domain/MergeConflict.ts"
import * as Notify from "./notifications/Notify.ts"
import { mergeReusableContents } from "./ReusableContentMerge.ts"
import { SpaceCountersRepo } from "./SpaceCountersRepo.ts"
import {
  documentsToRead,
  documentTriples,
  type MergeConflict,
  type MergeResult,
  mergeTextSteps,
  type Resolution,
  type TextMerge,
  textMergeKey,
  threeWayMerge
} from "./ThreeWayMerge.ts"

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

/** The merge found conflicts (between main's revision `main` and the change request's `head`): the write stops and nothing moves. */
class Conflicting extends Data.TaggedError("Conflicting")<{
  readonly conflicts: ReadonlyArray<MergeConflict>
  readonly main: string
  readonly head: string
}> {}

/**
 * Three-way merge of main (`ours`) and a change request's head (`theirs`) from `base`, reading only
 * the documents both sides changed; with `resolutions`, the conflicts they name are settled.
 */
export const mergeRevisions = Effect.fnUntraced(function*(
  published: PublishedContent["Service"],
  base: Revision,
  ours: Revision,
  theirs: Revision,
  resolutions?: ReadonlyMap<string, Resolution>
) {
  const documents = yield* published.documents(documentsToRead(base, ours, theirs))
  // The line merges of long pages give the event loop back between their steps.
  const textMerges = new Map<string, TextMerge>()
  const breathe = breather()
  for (const [b, o, t] of documentTriples(base, ours, theirs)) {
    const [bt, ot, tt] = [documents.get(b), documents.get(o), documents.get(t)]
    if (bt === undefined || ot === undefined || tt === undefined) continue
    const steps = mergeTextSteps(bt, ot, tt)
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done === true) {
        textMerges.set(textMergeKey(b, o, t), step.value)
        break
      }
      yield* breathe
    }
  }
  return threeWayMerge({ base, ours, theirs, documents, textMerges, resolutions }) satisfies MergeResult
})

/**
 * A change request's head (`theirs`) brought up to date with main (`ours`) by their clean merge
 * `merged`: the branch keeps its variables, takes main's reusable contents with its own changes
 * since `base` (mergeReusableContents) and records main as its other parent.
 */
export const updateFromMain = (merged: Extract<MergeResult, { readonly kind: "merged" }>, base: Revision, ours: Revision, theirs: Revision) => ({
  pages: merged.pages,
  files: merged.files,
  variables: theirs.variables,
  reusableContents: mergeReusableContents(base.reusableContents, ours.reusableContents, theirs.reusableContents),
  documents: merged.newDocuments,
  type: "update" as const,
  otherParents: [ours.id]
})

/** A merge onto the main the change request was last brought up to date with: its content as it is. */
const fastForward = (theirs: Revision): ContentChange => ({
  pages: theirs.pages,
  files: theirs.files,
  variables: theirs.variables,
  reusableContents: theirs.reusableContents ?? [],
  type: "merge",
  otherParents: [theirs.id]
})

/** A merge onto a main that moved: the clean three-way merge from `merged.base`, reusable contents too. */
const mergeOf = (merged: Extract<MergeResult, { readonly kind: "merged" }> & { readonly base: Revision }, ours: Revision, theirs: Revision): ContentChange => ({
  pages: merged.pages,
  files: merged.files,
  reusableContents: mergeReusableContents(merged.base.reusableContents, ours.reusableContents, theirs.reusableContents),
  documents: merged.newDocuments,
  type: "merge",
  otherParents: [theirs.id]
})

/** A revision a change request points at (a missing one is a defect). */
const storedIn = (content: SpaceContent["Service"]) => (revisionId: string) =>
  content.revisionById(revisionId).pipe(
    Effect.catchTag("NotFound", () => Effect.die(new Error(`A change request points at a missing revision ${revisionId}`)))
  )

/** The merge in the audit log, inside the merge's own write. */
const recordMerge = (audit: AuditLogShape, organizationId: string, cr: ChangeRequest, revisionId: string) =>
  Effect.flatMap(auditCaller, (actor) =>
    audit.record({
      organizationId,
      action: "change-request.merged",
      actor,
      target: { type: "change-request", id: cr.id, label: `#${cr.number}${cr.subject === "" ? "" : ` ${cr.subject}`}` },
      payload: { spaceId: cr.spaceId, number: cr.number, revision: revisionId }
    }))

export class Merges extends Context.Service<Merges, MergesShape>()("@quire/reviews/Merges") {
  static readonly layer = Layer.effect(
    Merges,
    Effect.gen(function*() {
      const changeRequests = yield* ChangeRequests
      const repo = yield* ChangeRequestsRepo
      const live = yield* LiveDocuments
      const counters = yield* SpaceCountersRepo
      const published = yield* PublishedContent
      const content = yield* SpaceContent
      const writer = yield* RevisionWriter
      const writes = yield* ChangeRequestWrites
      const enforceMergeRules = yield* MergeRules.enforcer
      const notify = yield* Notify.make
      const audit = yield* AuditLog
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const stored = storedIn(content)

      /** The change request, checked to be mergeable by the caller (the RevisionWriter checks again, and the lock, on every attempt). */
      const mergeable = Effect.fnUntraced(function*(spaceId: string, ref: string, permission: "merge" | "edit") {
        const found = yield* changeRequests.get(spaceId, ref)
        yield* Access.ensure(
          found.access.permissions[permission],
          permission === "merge" ? "merge change requests in this space" : "update this change request"
        )
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
        const merged = yield* mergeRevisions(published, base, ours, theirs)
        if (merged.kind === "conflicts") return yield* new Conflicting({ conflicts: merged.conflicts, main: ours.id, head: theirs.id })
        return { ...merged, base }
      })

      /**
       * Keeps the conflicts on the change request (outside the write, which rolled back) until it
       * changes, merges cleanly or they are resolved; only if its head is still the one merged.
       */
      const conflicted = (found: { readonly access: SpaceAccess; readonly changeRequest: ChangeRequest }, revision: string) =>
        (c: Conflicting) =>
          Effect.map(keepConflicts(found.changeRequest.id, c), (kept) => ({
            result: "conflicts" as const,
            revision,
            conflicts: boundForStorage(c.conflicts),
            changeRequest: Option.getOrElse(kept, () => found.changeRequest),
            access: found.access
          }))

      const keepConflicts = (id: string, c: Conflicting) =>
        Effect.flatMap(repo.find(id), (current) =>
          Option.isSome(current) && current.value.revision === c.head
            ? repo.setConflicts(id, { conflicts: boundForStorage(c.conflicts), main: c.main, head: c.head })
            : Effect.succeed(current))

      const merge = Effect.fn("Merges.merge")(function*(spaceId: string, ref: string) {
        const checked = yield* mergeable(spaceId, ref, "merge")
        // Edits live editing acknowledged ("Saved") but has not written to their pages yet (its
        // write back waits for typing to pause, or a server stopped first) are written first:
        // the merge takes what people saw saved. The change request then has a new head (and
        // merge rules see it).
        const wrote = yield* live.writeUnwritten(checked.changeRequest.id)
        const found = wrote > 0 ? yield* mergeable(spaceId, ref, "merge") : checked
        yield* enforceMergeRules(found.access.space, found.changeRequest, (yield* Actor.Actor).userId)
        const cr = found.changeRequest
        const theirs = yield* stored(cr.revision)
        const at = yield* now
        // A lost race runs the build again on the newer main: two merges never lose either.
        const outcome: MergeOutcome = yield* writer.write(
          content.mainHead(spaceId, "merge"),
          (ours): Effect.Effect<ContentChange, Conflicting> =>
            ours.id === cr.revisionMergedAncestor
              ? Effect.succeed(fastForward(theirs))
              : Effect.map(combine(cr, ours, theirs), (merged) => mergeOf(merged, ours, theirs)),
          {
            within: ({ revision }) =>
              Effect.gen(function*() {
                const moved = yield* repo.setStatus(cr.id, cr.status, "merged", at)
                // Someone merged, archived or reopened it meanwhile: the whole merge rolls back.
                if (Option.isNone(moved)) return yield* new Errors.Conflict({ reason: `Change request ${cr.number} changed during the merge; try again` })
                const before = countersOf(cr.status)
                yield* counters.add(spaceId, { changeRequestsOpen: -before.changeRequestsOpen, changeRequestsDraft: -before.changeRequestsDraft })
                if (cr.conflicts !== null) yield* repo.setConflicts(cr.id, null)
                // Its author and editors hear of the merge (not whoever merged it).
                const merged = moved.value
                yield* notify.record([merged.createdBy, ...merged.contributors].map((userId) => ({
                  userId,
                  kind: "change_request_merged" as const,
                  spaceId,
                  changeRequestId: cr.id
                })))
                yield* recordMerge(audit, found.access.space.organizationId, cr, revision.id)
                return Option.getOrElse(yield* repo.update(cr.id, { revisionMerged: revision.id, mergedBy: (yield* Actor.Actor).userId, mergedAt: at, updatedAt: at }), () => moved.value)
              })
          }
        ).pipe(
          // Live editing closes the change request's shared documents to typing at once.
          Effect.tap((written) => writes.written({ spaceId, changeRequestId: written.result.id, status: "merged" })),
          Effect.map((written) => ({ result: "merge" as const, revision: written.revision.id, changeRequest: written.result, access: found.access })),
          Effect.catchTag("Conflicting", (c) => conflicted(found, found.access.space.revisionId)(c))
        )
        return outcome
      })

      const update = Effect.fn("Merges.update")(function*(spaceId: string, ref: string) {
        const found = yield* mergeable(spaceId, ref, "edit")
        const cr = found.changeRequest
        if (found.access.space.revisionId === cr.revisionMergedAncestor) {
          const current = cr.conflicts === null ? cr : Option.getOrElse(yield* repo.setConflicts(cr.id, null), () => cr)
          return { result: "update" as const, revision: cr.revision, changeRequest: current, access: found.access } satisfies MergeOutcome
        }
        const actor = yield* Actor.Actor
        const at = yield* now
        const outcome: MergeOutcome = yield* writer.write(
          changeRequests.branchHead(spaceId, ref, "merged or updated"),
          (theirs, head) =>
            Effect.gen(function*() {
              const ours = yield* stored(head.space.revisionId)
              const merged = yield* combine(head.changeRequest, ours, theirs)
              return updateFromMain(merged, merged.base, ours, theirs)
            }),
          {
            within: ({ change, head }) =>
              Effect.gen(function*() {
                const id = head.changeRequest.id
                yield* repo.addContributor(id, actor.userId)
                if (head.changeRequest.conflicts !== null) yield* repo.setConflicts(id, null)
                const main = change.otherParents[0]!
                return Option.getOrElse(yield* repo.update(id, { revisionMergedAncestor: main, updatedAt: at }), () => head.changeRequest)
              })
          }
        ).pipe(
          Effect.tap((written) => writes.written({ spaceId, changeRequestId: written.result.id })),
          Effect.map((written) => ({ result: "update" as const, revision: written.revision.id, changeRequest: written.result, access: found.access })),
          Effect.catchTag("Conflicting", (c) => conflicted(found, cr.revision)(c))
        )
        return outcome
      })

      return Merges.of({ merge, update })
    })
  )
}
