/**
 * Use cases of a reviewer's "Viewed" marks on the pages a change request changes: a mark holds
 * while the page at the change request's head is as it was when marked.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { Access, flattenPages, type Revision, SpaceContent, type SpaceAccess } from "@quire/content"
import { Actor, Errors } from "@quire/kernel"
import { ChangeRequests } from "./ChangeRequests.ts"
import type { ChangeRequest } from "./domain/ChangeRequest.ts"
import { pageFingerprint, type ViewedPage } from "./domain/ViewedPage.ts"
import { ViewedPagesRepo } from "./ViewedPagesRepo.ts"

/** The caller's marks that still hold, by page id. */
export interface ViewedPagesView {
  readonly changeRequest: ChangeRequest
  readonly access: SpaceAccess
  readonly pages: ReadonlyArray<ViewedPage>
}

export interface ViewedPagesShape {
  /** The caller's marks on pages unchanged since (needs view permission). */
  readonly list: (spaceId: string, ref: string) => Effect.Effect<ViewedPagesView, Errors.NotFound, Actor.Actor>
  /**
   * Marks a page the change request has or had (a deleted one too) viewed by the caller, or
   * clears the mark (needs the review permission); answers the marks as `list` does.
   */
  readonly set: (
    spaceId: string,
    ref: string,
    pageId: string,
    viewed: boolean
  ) => Effect.Effect<ViewedPagesView, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor>
}

/** Stands for a page the head no longer has: a mark on a deleted page holds until it comes back. */
const absent = "absent"

/** Each page of the revision by id, as its fingerprint. */
const fingerprints = (revision: Revision): ReadonlyMap<string, string> =>
  new Map(flattenPages(revision.pages).map(({ page }) => [page.id, pageFingerprint(page)]))

export class ViewedPages extends Context.Service<ViewedPages, ViewedPagesShape>()("@quire/reviews/ViewedPages") {
  static readonly layer = Layer.effect(
    ViewedPages,
    Effect.gen(function*() {
      const repo = yield* ViewedPagesRepo
      const changeRequests = yield* ChangeRequests
      const content = yield* SpaceContent

      const holding = Effect.fnUntraced(function*(found: { readonly changeRequest: ChangeRequest; readonly revision: Revision }, userId: string) {
        const current = fingerprints(found.revision)
        const marks = yield* repo.list(found.changeRequest.id, userId)
        return marks.filter((mark) => (current.get(mark.pageId) ?? absent) === mark.fingerprint)
      })

      const list = Effect.fn("ViewedPages.list")(function*(spaceId: string, ref: string) {
        const found = yield* changeRequests.content(spaceId, ref)
        const actor = yield* Actor.Actor
        return { changeRequest: found.changeRequest, access: found.access, pages: yield* holding(found, actor.userId) }
      })

      const set = Effect.fn("ViewedPages.set")(function*(spaceId: string, ref: string, pageId: string, viewed: boolean) {
        const found = yield* changeRequests.content(spaceId, ref)
        yield* Access.ensure(found.access.permissions.review, "mark pages of this change request viewed")
        const actor = yield* Actor.Actor
        const cr = found.changeRequest
        if (viewed) {
          let fingerprint = fingerprints(found.revision).get(pageId)
          if (fingerprint === undefined) {
            // A page the change request deleted is one of its changes too.
            const base = yield* content.revisionById(cr.revisionMergedAncestor).pipe(Effect.orDie)
            if (!fingerprints(base).has(pageId)) {
              return yield* new Errors.InvalidInput({ field: "pageId", reason: "is not a page of this change request" })
            }
            fingerprint = absent
          }
          const viewedAt = new Date(yield* Clock.currentTimeMillis)
          yield* repo.put({ spaceId: cr.spaceId, changeRequestId: cr.id, userId: actor.userId, pageId, fingerprint, revision: cr.revision, viewedAt })
        } else {
          yield* repo.remove(cr.id, actor.userId, pageId)
        }
        return { changeRequest: cr, access: found.access, pages: yield* holding(found, actor.userId) }
      })

      return ViewedPages.of({ list, set })
    })
  )
}
