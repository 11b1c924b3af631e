/**
 * "Comments on this page" in the change request's editor: the review's threads anchored on the
 * open page (the same read as the review, crCommentsAtom), each the review's own thread component
 * (Threads.tsx: its comment, replies, reactions, a reply box and Resolve / Reopen, through the same
 * comment operations, `useChangeRequestThreadActions`), under the words it is on, whether it is open
 * and how many replies it has, and a link to it in the review.
 */
import { AsyncResult } from "effect/reactivity"
import { useCallback, useMemo } from "react"
import { spaceAtom } from "../../api/queries.ts"
import { failureOf, useAtomValue, useRefresh } from "../../api/react.ts"
import { Link } from "../../ui/Link.tsx"
import { messageOf } from "../../ui/States.tsx"
import { decodeAnchor } from "../review/anchors.ts"
import { crCommentsAtom } from "../review/queries.ts"
import { useMe } from "../review/ReviewComments.tsx"
import { useChangeRequestThreadActions } from "../review/thread-actions.ts"
import { Thread, type ThreadData } from "../review/Threads.tsx"
import "../review/review.css"

export const PageThreads = (props: { readonly spaceId: string; readonly number: number; readonly pageId: string }) => {
  const atom = crCommentsAtom(`${props.spaceId}\n${props.number}`)
  const result = useAtomValue(atom)
  const refresh = useRefresh()
  const done = useCallback(() => refresh(atom), [refresh, atom])
  const params = useMemo(() => ({ spaceId: props.spaceId, changeRequestId: String(props.number) }), [props.spaceId, props.number])
  const actions = useChangeRequestThreadActions(params, done)
  const me = useMe()
  const space = useAtomValue(spaceAtom(props.spaceId))
  const organizationId = AsyncResult.isSuccess(space) ? space.value.organization : undefined
  const review = `/s/${props.spaceId}/~/changes/${props.number}/~/review`
  const threads = AsyncResult.isSuccess(result) ? (result.value as ReadonlyArray<ThreadData>).filter((t) => t.comment.target.page?.id === props.pageId) : []
  return (
    <section aria-labelledby="page-threads-h" className="review-panel page-threads">
      <h2 id="page-threads-h">Comments on this page</h2>
      {AsyncResult.isFailure(result) ? <p className="form-error" role="alert">Could not read the comments: {messageOf(failureOf(result))}</p>
        : !AsyncResult.isSuccess(result) ? <p className="muted">Loading the comments…</p>
        : threads.length === 0 ? <p className="muted">No comments on this page. Comment on its changes in the <Link href={review}>review</Link>.</p>
        : (
          <ul className="page-threads-list" aria-label="Threads on this page">
            {threads.map((t) => {
              const quote = decodeAnchor(t.comment.target.node?.id)?.quote
              const resolved = t.comment.status === "resolved"
              const state = [resolved ? "Resolved" : "Open", t.replies.length === 0 ? "no reply" : `${t.replies.length} ${t.replies.length === 1 ? "reply" : "replies"}`].join(" · ")
              const context = (
                <p className="muted review-panel-where page-thread-context">
                  {quote === undefined || quote === "" ? null : <>On “{quote.length > 60 ? `${quote.slice(0, 59)}…` : quote}” · </>}
                  <span data-testid="thread-state">{state}</span> · <Link href={`${review}#thread-${t.comment.id}`}>Open in the review</Link>
                </p>
              )
              return (
                <li key={t.comment.id} data-resolved={resolved}>
                  <Thread thread={t} actions={actions} me={me} organizationId={organizationId} context={context} />
                </li>
              )
            })}
          </ul>
        )}
    </section>
  )
}
