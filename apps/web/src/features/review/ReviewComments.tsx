/**
 * The review's comments that are on no block shown (those on a block are beside it, DiffView.tsx):
 * the threads on the change request itself, and those on a page it does not change; and a new
 * comment on the change request.
 */
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
  /** The pages whose diff is shown: their block comments are beside their blocks. */
  readonly changedPages: ReadonlySet<string>
}) => {
  const params = { spaceId: props.spaceId, changeRequestId: String(props.number) }
  const atom = crCommentsAtom(`${props.spaceId}\n${props.number}`)
  const threads = useAtomValue(atom)
  const refresh = useRefresh()
  const done = useCallback(() => refresh(atom), [refresh, atom])
  const actions = useChangeRequestThreadActions(params, done)
  const post = useMutation(postComment)
  const me = useMe()
  const here = AsyncResult.isSuccess(threads)
    ? threads.value.filter((t) => decodeAnchor(t.comment.target.node?.id) === undefined || !props.changedPages.has(t.comment.target.page?.id ?? ""))
    : []
  return (
    <section aria-labelledby="comments-h">
      <h2 id="comments-h">Comments on the change request</h2>
      {AsyncResult.isInitial(threads) ? <Loading what="comments" />
        : AsyncResult.isFailure(threads) ? <Failure result={threads} />
        : here.length === 0 ? <p className="muted">No comments on the change request itself yet.</p>
        : here.map((t) => {
          const anchor = decodeAnchor(t.comment.target.node?.id)
          return (
            <div key={t.comment.id} id={`thread-${t.comment.id}`} tabIndex={-1}>
              <Thread thread={t} actions={actions} me={me} organizationId={props.organizationId}
                context={anchor && <p className="muted">On {t.comment.target.page?.title ?? "a page"}: “{anchor.quote}”</p>} />
            </div>
          )
        })}
      <NewComment id="new-comment" label="Comment on the change request" organizationId={props.organizationId} onPost={async (markdown) => {
        await post({ params, payload: { body: { markdown } } })
        done()
      }} />
    </section>
  )
}
