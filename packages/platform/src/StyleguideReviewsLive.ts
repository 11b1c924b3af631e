/**
 * Sites' StyleguideReviews port, answered by the reviews package: a style guide check reads a
 * change request's pages and posts its findings through reviews' Comments use case, as the person
 * who ran the check (their permissions, the open-comment counters, notifications as for anyone).
 */
import { Effect, Layer } from "effect"
import { flattenPages, SpaceContent } from "@quire/content"
import { ChangeRequests, type ChangeRequestView, CommentRules, Comments } from "@quire/reviews"
import { type ReviewPage, StyleguideReviews } from "@quire/sites"

export const layer = Layer.effect(
  StyleguideReviews,
  Effect.gen(function*() {
    const changeRequests = yield* ChangeRequests
    const comments = yield* Comments
    const content = yield* SpaceContent
    const targetOf = (view: ChangeRequestView) => ({
      id: view.changeRequest.id,
      number: view.changeRequest.number,
      spaceId: view.changeRequest.spaceId,
      open: view.changeRequest.status === "draft" || view.changeRequest.status === "open",
      canComment: CommentRules.canDiscuss(view.access.permissions)
    })
    return StyleguideReviews.of({
      changeRequest: (spaceId, ref) => Effect.map(changeRequests.get(spaceId, ref), targetOf),
      open: (spaceId, subject) => Effect.map(changeRequests.create(spaceId, { subject }), targetOf),
      pages: (spaceId, changeRequestId, which) =>
        Effect.gen(function*() {
          const head = yield* changeRequests.content(spaceId, changeRequestId)
          const base = which === "changed"
            ? yield* content.revisionById(head.changeRequest.revisionMergedAncestor).pipe(Effect.orDie)
            : undefined
          const before = new Map(base === undefined ? [] : flattenPages(base.pages).map(({ page }) => [page.id, page.document] as const))
          const out: Array<ReviewPage> = []
          for (const { page } of flattenPages(head.revision.pages)) {
            if (page.type !== "document") continue
            if (base !== undefined && before.get(page.id) === page.document) continue
            const read = yield* changeRequests.page(spaceId, changeRequestId, page.id)
            out.push({ id: page.id, title: page.title, markdown: read.markdown ?? "" })
          }
          return out
        }),
      comment: (spaceId, changeRequestId, input) =>
        Effect.map(comments.post({ spaceId, changeRequestId }, input), (view) => view.comment.id)
    })
  })
)
