/**
 * What a comment thread does, whichever screen shows it: reply, resolve or reopen, add or remove
 * a reaction on the comment or a reply. One adapter per kind of comment (a change request's, a
 * space's), so the thread components are the same on the review and the space screens.
 */
import { useMemo } from "react"
import { QuireApi } from "../../api/client.ts"
import { useMutation } from "../../api/react.ts"
import { postSpaceReply } from "../space/queries.ts"
import { postReply, updateComment, updateReply } from "./queries.ts"

export interface ReactionChange {
  readonly addedReactions?: ReadonlyArray<string>
  readonly removedReactions?: ReadonlyArray<string>
}

export interface ThreadActions {
  readonly reply: (commentId: string, markdown: string) => Promise<unknown>
  readonly update: (commentId: string, change: ReactionChange & { readonly resolved?: boolean }) => Promise<unknown>
  readonly updateReply: (commentId: string, replyId: string, change: ReactionChange) => Promise<unknown>
  /** Reads the threads again after a change. */
  readonly done: () => void
}

const updateSpaceComment = QuireApi.mutation("comments", "updateCommentInSpace")
const updateSpaceReply = QuireApi.mutation("comments", "updateCommentReplyInSpace")

export const useChangeRequestThreadActions = (params: { readonly spaceId: string; readonly changeRequestId: string }, done: () => void): ThreadActions => {
  const reply = useMutation(postReply)
  const update = useMutation(updateComment)
  const updateR = useMutation(updateReply)
  const { spaceId, changeRequestId } = params
  return useMemo(() => ({
    reply: (commentId, markdown) => reply({ params: { spaceId, changeRequestId, commentId }, query: { format: "markdown" }, payload: { body: { markdown } } }),
    update: (commentId, change) => update({ params: { spaceId, changeRequestId, commentId }, payload: change }),
    updateReply: (commentId, commentReplyId, change) => updateR({ params: { spaceId, changeRequestId, commentId, commentReplyId }, payload: change }),
    done
  }), [spaceId, changeRequestId, reply, update, updateR, done])
}

export const useSpaceThreadActions = (spaceId: string, done: () => void): ThreadActions => {
  const reply = useMutation(postSpaceReply)
  const update = useMutation(updateSpaceComment)
  const updateR = useMutation(updateSpaceReply)
  return useMemo(() => ({
    reply: (commentId, markdown) => reply({ params: { spaceId, commentId }, payload: { body: { markdown } } }),
    update: (commentId, change) => update({ params: { spaceId, commentId }, payload: change }),
    updateReply: (commentId, commentReplyId, change) => updateR({ params: { spaceId, commentId, commentReplyId }, payload: change }),
    done
  }), [spaceId, reply, update, updateR, done])
}
