/** The review screen's reads (the change request with its reviews, reviewers, contributors, changes, conflicts and the merge rules that block it; its comment threads) and writes. */
import { Effect } from "effect"
import { Atom } from "effect/reactivity"
import type { Comment, CommentReply } from "@quire/api"
import { QuireApi } from "../../api/client.ts"
import { changeRequestFiles, revisionFiles } from "../files/queries.ts"

export const reviewKey = (spaceId: string, number: number) => `review:${spaceId}:${number}`

export const reviewAtom = Atom.family((key: string) => {
  const [spaceId = "", n = "0"] = key.split("\n")
  const params = { spaceId, changeRequestId: n }
  return QuireApi.runtime.atom(Effect.gen(function*() {
    const client = yield* QuireApi
    const cr = yield* client.changeRequests.getChangeRequestById({ params })
    const [reviews, requested, contributors, changes, conflicts, mergeRules] = yield* Effect.all([
      client.changeRequestReviews.getReviewsByChangeRequestId({ params, query: { format: "markdown" } }),
      client.changeRequestReviews.getRequestedReviewersByChangeRequestId({ params, query: {} }),
      client.changeRequestReviews.getContributorsByChangeRequestId({ params }),
      client.changeRequestChanges.getChangeRequestChanges({ params, query: { limit: 100 } }),
      client.changeRequestConflicts.listChangeRequestConflicts({ params }),
      // Which merge rules block the person's merge, as the server's merge would check them.
      client.changeRequestReviews.getMergeRulesForChangeRequest({ params })
    ], { concurrency: "unbounded" })
    return { cr, reviews: reviews.items, requested: requested.items, contributors: contributors.items, changes: changes.changes, conflicts, mergeRules }
  })).pipe(Atom.withReactivity([reviewKey(spaceId, Number(n))]))
})

export const commentsKey = (spaceId: string, number: number) => `review-comments:${spaceId}:${number}`

/** The change request's comments, oldest first, each with its replies (a thread as the screen shows it). */
export const crCommentsAtom = Atom.family((key: string) => {
  const [spaceId = "", n = "0"] = key.split("\n")
  const params = { spaceId, changeRequestId: n }
  return QuireApi.runtime.atom(Effect.gen(function*() {
    const client = yield* QuireApi
    const list = yield* client.changeRequestComments.listCommentsInChangeRequest({ params, query: { format: "markdown", order: "asc", limit: 100 } })
    return yield* Effect.forEach(list.items, (comment) =>
      comment.replies === 0 ? Effect.succeed({ comment, replies: [] as ReadonlyArray<CommentReply> })
        : client.changeRequestComments.listCommentRepliesInChangeRequest({ params: { ...params, commentId: comment.id }, query: { format: "markdown", limit: 100 } }).pipe(
          Effect.map((replies): { comment: Comment; replies: ReadonlyArray<CommentReply> } => ({ comment, replies: replies.items }))
        ), { concurrency: 4 })
  })).pipe(Atom.withReactivity([commentsKey(spaceId, Number(n))]))
})

/** Base and head markdown of one changed page, with the files of each side (the diff draws their images). */
export const pageSidesAtom = Atom.family((key: string) => {
  const [spaceId = "", n = "0", pageId = "", base = ""] = key.split("\n")
  return QuireApi.runtime.atom(Effect.gen(function*() {
    const client = yield* QuireApi
    const head = yield* client.changeRequestContent.getPageInChangeRequestById({ params: { spaceId, changeRequestId: n, pageId }, query: { format: "markdown" } }).pipe(
      Effect.map((p) => ("markdown" in p && typeof p.markdown === "string" ? p.markdown : "")),
      Effect.catch(() => Effect.succeed(""))
    )
    const old = base === "" ? "" : yield* client.revisions.getPageInRevisionById({ params: { spaceId, revisionId: base, pageId }, query: { format: "markdown" } }).pipe(
      Effect.map((p) => ("markdown" in p && typeof p.markdown === "string" ? p.markdown : "")),
      Effect.catch(() => Effect.succeed(""))
    )
    const [baseFiles, headFiles] = yield* Effect.all([base === "" ? Effect.succeed([]) : revisionFiles(spaceId, base), changeRequestFiles(spaceId, n)], { concurrency: 2 })
    return { base: old, head, files: { base: baseFiles, head: headFiles } }
  })).pipe(Atom.withReactivity([reviewKey(spaceId, Number(n))]))
})

export const submitReview = QuireApi.mutation("changeRequestReviews", "submitChangeRequestReview")
export const requestReviewers = QuireApi.mutation("changeRequestReviews", "requestReviewersForChangeRequest")
export const postComment = QuireApi.mutation("changeRequestComments", "postCommentInChangeRequest")
export const postReply = QuireApi.mutation("changeRequestComments", "postCommentReplyInChangeRequest")
export const updateComment = QuireApi.mutation("changeRequestComments", "updateCommentInChangeRequest")
export const updateReply = QuireApi.mutation("changeRequestComments", "updateCommentReplyInChangeRequest")
export const withdrawReviewer = QuireApi.mutation("changeRequestReviews", "removeRequestedReviewerFromChangeRequest")
export const mergeCR = QuireApi.mutation("changeRequests", "mergeChangeRequest")
export const updateCR = QuireApi.mutation("changeRequests", "updateChangeRequest")
/** A change request's PATCH (its status, here): sent with `space:<id>`, so the space's lists and counters read it anew. */
export const updateCRById = QuireApi.mutation("changeRequests", "updateChangeRequestById")
export const resolveConflicts = QuireApi.mutation("changeRequestConflicts", "resolveChangeRequestConflicts")
export const membersAtom = Atom.family((organizationId: string) =>
  QuireApi.query("members", "listMembersInOrganizationById", { params: { organizationId }, query: { limit: 100 } }))
/** Members whose name or email holds the text (`${organizationId}\n${text}`): for organizations past the first 100. */
export const memberSearchAtom = Atom.family((key: string) => {
  const [organizationId = "", search = ""] = key.split("\n")
  return QuireApi.query("members", "listMembersInOrganizationById", { params: { organizationId }, query: { limit: 20, search } })
})

export const viewedKey = (spaceId: string, number: number) => `viewed:${spaceId}:${number}`

/** The signed-in person's "Viewed" marks on the change request's pages (`<spaceId>\n<number>`). */
export const viewedPagesAtom = Atom.family((key: string) => {
  const [spaceId = "", n = "0"] = key.split("\n")
  return QuireApi.query("changeRequestReviews", "listViewedPagesInChangeRequest", {
    params: { spaceId, changeRequestId: n },
    reactivityKeys: [viewedKey(spaceId, Number(n)), reviewKey(spaceId, Number(n))]
  })
})
export const setViewedPage = QuireApi.mutation("changeRequestReviews", "setViewedPageInChangeRequest")
