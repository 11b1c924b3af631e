/** The space screen's reads beyond the page: comments on a page with their replies, and the space's open change requests. */
import { Effect } from "effect"
import { Atom } from "effect/reactivity"
import { QuireApi } from "../../api/client.ts"

export const commentsKey = (spaceId: string, pageId: string) => `space-comments:${spaceId}:${pageId}`

/** The comments on one page, oldest first, each with its replies. */
export const pageCommentsAtom = Atom.family((key: string) => {
  const [spaceId = "", pageId = ""] = key.split("\n")
  return QuireApi.runtime.atom(Effect.gen(function*() {
    const client = yield* QuireApi
    const list = yield* client.comments.listCommentsInSpace({ params: { spaceId }, query: { targetPage: pageId, order: "asc", format: "markdown", limit: 100 } })
    return yield* Effect.forEach(list.items, (comment) =>
      comment.replies === 0 ? Effect.succeed({ comment, replies: [] as const })
        : client.comments.listCommentRepliesInSpace({ params: { spaceId, commentId: comment.id }, query: { format: "markdown", limit: 100 } }).pipe(
          Effect.map((replies) => ({ comment, replies: replies.items }))
        ), { concurrency: 4 })
  })).pipe(Atom.withReactivity([commentsKey(spaceId, pageId)]))
})

export const openChangeRequestsAtom = Atom.family((spaceId: string) =>
  QuireApi.query("changeRequests", "listChangeRequestsForSpace", { params: { spaceId }, query: { status: "open", limit: 20 }, reactivityKeys: [`space:${spaceId}`] }))

/** The drafts a person started in a space (`<spaceId>\n<userId>`): change requests not yet open for review. */
export const draftChangeRequestsAtom = Atom.family((key: string) => {
  const [spaceId = "", creator = ""] = key.split("\n")
  return QuireApi.query("changeRequests", "listChangeRequestsForSpace", { params: { spaceId }, query: { status: "draft", creator, limit: 20 }, reactivityKeys: [`space:${spaceId}`] })
})

/** The newest revision of main (who and when it was made: the page's last edit as far as the API tells). */
export const latestRevisionAtom = Atom.family((spaceId: string) =>
  QuireApi.query("revisions", "listRevisionsInSpace", { params: { spaceId }, query: { limit: 1 }, reactivityKeys: [`space:${spaceId}`] }))

/** The reusable contents of the space's main content, with their markdown (Quire's listing). */
export const spaceReusableContentsAtom = Atom.family((spaceId: string) =>
  QuireApi.query("reusableContents", "listReusableContents", { params: { spaceId }, reactivityKeys: [`space:${spaceId}`] }))

/** The pages of main that link to a page (`<spaceId>\n<pageId>`), with their spaces: "Links to this page". */
export const pageBacklinksAtom = Atom.family((key: string) => {
  const [spaceId = "", pageId = ""] = key.split("\n")
  return QuireApi.query("links", "listPageBacklinks", { params: { spaceId, pageId }, query: { limit: 100 }, reactivityKeys: [`space:${spaceId}`] })
})

export const postSpaceComment = QuireApi.mutation("comments", "postCommentInSpace")
export const postSpaceReply = QuireApi.mutation("comments", "postCommentReplyInSpace")

/** What the space's change request list shows: statuses, mine only, awaiting my review. */
export interface ChangeRequestFilter {
  readonly statuses: ReadonlyArray<"draft" | "open" | "merged" | "archived">
  readonly creator?: string | undefined
  readonly requestedReviewer?: string | undefined
}

/** One page of a space's change requests (`JSON` of the space, the filter and the page's cursor). */
export const spaceChangeRequestsAtom = Atom.family((key: string) => {
  const { spaceId, filter, page } = JSON.parse(key) as { spaceId: string; filter: ChangeRequestFilter; page?: string }
  return QuireApi.query("changeRequests", "listChangeRequestsForSpace", {
    params: { spaceId },
    query: {
      status: filter.statuses,
      ...(filter.creator === undefined ? {} : { creator: filter.creator }),
      ...(filter.requestedReviewer === undefined ? {} : { requestedReviewer: filter.requestedReviewer }),
      ...(page === undefined ? {} : { page }),
      limit: 20
    },
    reactivityKeys: [`space:${spaceId}`]
  })
})
