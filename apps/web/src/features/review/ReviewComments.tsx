/** The review's comments: every thread of the change request (on it, or on a block of a page), and a new comment on it or on the block chosen in a diff. */
import { AsyncResult } from "effect/reactivity"
import { useCallback } from "react"
import { sessionAtom } from "../../api/session.ts"
import { useAtomValue, useMutation, useRefresh } from "../../api/react.ts"
import { Failure, Loading } from "../../ui/States.tsx"
import { decodeAnchor } from "./anchors.ts"
import { crCommentsAtom, postComment } from "./queries.ts"
import { useChangeRequestThreadActions } from "./thread-actions.ts"
import { NewComment, Thread } from "./Threads.tsx"

export const useMe = (): string | undefined => {
  const session = useAtomValue(sessionAtom)
  return AsyncResult.isSuccess(session) && session.value.signedIn ? session.value.info.user.id : undefined
}

export const ReviewComments = (props: {
  readonly spaceId: string
  readonly number: number
  readonly organizationId: string | undefined
  readonly blockComment: { page: string; node: string; quote: string } | undefined
  readonly clearBlock: () => void
}) => {
  const params = { spaceId: props.spaceId, changeRequestId: String(props.number) }
  const atom = crCommentsAtom(`${props.spaceId}\n${props.number}`)
  const threads = useAtomValue(atom)
  const refresh = useRefresh()
  const done = useCallback(() => refresh(atom), [refresh, atom])
  const actions = useChangeRequestThreadActions(params, done)
  const post = useMutation(postComment)
  const me = useMe()
  const block = props.blockComment
  return (
    <section aria-labelledby="comments-h">
      <h2 id="comments-h">Comments</h2>
      {AsyncResult.isInitial(threads) ? <Loading what="comments" />
        : AsyncResult.isFailure(threads) ? <Failure result={threads} />
        : threads.value.length === 0 ? <p className="muted">No comments yet.</p>
        : threads.value.map((t) => {
          const anchor = decodeAnchor(t.comment.target.node?.id)
          return (
            <Thread key={t.comment.id} thread={t} actions={actions} me={me} organizationId={props.organizationId}
              context={anchor && <p className="muted">On {t.comment.target.page?.title ?? "a page"}: “{anchor.quote}”</p>} />
          )
        })}
      {block && (
        <p>Commenting on: “{block.quote}” <button type="button" onClick={props.clearBlock}>Comment on the whole change request instead</button></p>
      )}
      <NewComment id="new-comment" label={block ? "Comment on this block" : "Comment on the change request"} organizationId={props.organizationId} onPost={async (markdown) => {
        await post({ params, payload: { body: { markdown }, ...(block === undefined ? {} : { page: block.page, node: block.node }) } })
        props.clearBlock()
        done()
      }} />
    </section>
  )
}
