/**
 * What the change-request use cases share: a change request found by id or number in a space the
 * caller can view, its view, its head revision, and its branch as a head the RevisionWriter moves.
 */
import { Clock, Effect, Option } from "effect"
import { Actor, Errors, Ids, Transactor } from "@quire/kernel"
import { Access, type ContentChange, ContentAccess, type Head, type Revision, RevisionWriter, type SpaceAccess, SpaceContent, Spaces } from "@quire/content"
import type { BranchHead, ChangeRequestView } from "./ChangeRequestTypes.ts"
import { ChangeRequestsRepo } from "../ChangeRequestsRepo.ts"
import { ChangeRequestWrites } from "../ChangeRequestWrites.ts"
import type { ChangeRequest } from "../domain/ChangeRequest.ts"
import { ReviewsRepo } from "../ReviewsRepo.ts"
import { SpaceCountersRepo } from "../SpaceCountersRepo.ts"

type Denied = Errors.NotFound | Errors.Forbidden

/** True when the space's main content moved since the change request was last brought up to date. */
export const isOutdated = (cr: ChangeRequest, spaceRevision: string): boolean =>
  cr.status !== "merged" && cr.revisionMergedAncestor !== spaceRevision

export const view = (spaceAccess: SpaceAccess, changeRequest: ChangeRequest): ChangeRequestView => ({
  access: spaceAccess,
  changeRequest,
  outdated: isOutdated(changeRequest, spaceAccess.space.revisionId)
})

/** Built once by the ChangeRequests layer and handed to each group of use cases. */
export const make = Effect.gen(function*() {
  const repo = yield* ChangeRequestsRepo
  const reviews = yield* ReviewsRepo
  const access = yield* ContentAccess
  const counters = yield* SpaceCountersRepo
  const writer = yield* RevisionWriter
  const writes = yield* ChangeRequestWrites
  const content = yield* SpaceContent
  const spaces = yield* Spaces
  const ids = yield* Ids.Ids
  const transactor = yield* Transactor.Transactor
  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

  /** The change request `ref` (an id or a number) of a space the caller can view. */
  const resolve = Effect.fnUntraced(function*(spaceId: string, ref: string) {
    const spaceAccess = yield* access.space(spaceId)
    const byNumber = /^[1-9][0-9]{0,8}$/.test(ref) ? yield* repo.findByNumber(spaceId, Number(ref)) : Option.none()
    const found = Option.isSome(byNumber) ? byNumber : yield* repo.find(ref)
    if (Option.isNone(found) || found.value.spaceId !== spaceId) {
      return yield* new Errors.NotFound({ resource: "Change request", id: ref })
    }
    return { access: spaceAccess, changeRequest: found.value }
  })

  const revisionOf = (cr: ChangeRequest) =>
    content.revisionById(cr.revision).pipe(
      Effect.catchTag("NotFound", () => Effect.die(new Error(`Change request ${cr.id} points at a missing revision ${cr.revision}`)))
    )

  const branchHead = (spaceId: string, ref: string, action: string): Head<BranchHead, Denied | Errors.InvalidInput, Actor.Actor> => ({
    read: Effect.gen(function*() {
      const found = yield* resolve(spaceId, ref)
      yield* Access.ensure(found.access.permissions.edit, `change the content of this change request`)
      const cr = found.changeRequest
      if (cr.status === "merged" || cr.status === "archived") {
        return yield* new Errors.InvalidInput({
          field: "changeRequestId",
          reason: `change request ${cr.number} is ${cr.status}; only draft and open change requests can be ${action}`
        })
      }
      return { ...found, space: found.access.space, revisionId: cr.revision }
    }),
    move: (head, next) => repo.setRevision(head.changeRequest.id, head.revisionId, next.id, next.createdAt),
    main: false,
    describe: (head) => `change request ${head.changeRequest.number}`
  })

  /**
   * Writes a change request's branch through the RevisionWriter; the editor becomes a contributor,
   * and so do `coauthors` (the others who typed in a live-edited page this write saves). The
   * write is announced once committed (`live`: the shared document whose markdown it saves).
   */
  const commitTo = <C extends ContentChange, E, R>(
    spaceId: string,
    ref: string,
    build: (parent: Revision) => Effect.Effect<C, E, R>,
    coauthors: ReadonlyArray<string> = [],
    live?: string,
    andThen: Effect.Effect<void, E, R> = Effect.void
  ) =>
    Effect.gen(function*() {
      const actor = yield* Actor.Actor
      const editors = Array.from(new Set([actor.userId, ...coauthors]))
      const written = yield* writer.write(branchHead(spaceId, ref, "edited"), build, {
        within: ({ head }) =>
          Effect.gen(function*() {
            const at = yield* now
            for (const userId of editors) {
              yield* repo.addContributor(head.changeRequest.id, userId)
              yield* reviews.recordEdit(spaceId, head.changeRequest.id, userId, at)
            }
            // The conflicts of an earlier merge or update were about the content this edit changed.
            if (head.changeRequest.conflicts !== null) yield* repo.setConflicts(head.changeRequest.id, null)
            yield* andThen
          })
      })
      const changeRequest = Option.getOrElse(yield* repo.find(written.head.changeRequest.id), () => written.head.changeRequest)
      yield* writes.written({ spaceId, changeRequestId: changeRequest.id, live })
      return { ...view(written.head.access, changeRequest), revision: written.revision, change: written.change }
    })

  return { repo, reviews, access, counters, content, spaces, ids, transactor, now, resolve, revisionOf, branchHead, commitTo, writes }
})

export type Branch = Effect.Success<typeof make>
