/**
 * "Comments on this page" in the change request's editor: the review's threads anchored on the
 * open page (the same read as the review, crCommentsAtom), each with the words it is on, its
 * author, its replies and whether it is resolved, linking to the thread in the review, where it
 * is answered and resolved.
 */
import { AsyncResult } from "effect/reactivity"
import { failureOf, useAtomValue } from "../../api/react.ts"
import { Link } from "../../ui/Link.tsx"
import { messageOf } from "../../ui/States.tsx"
import { decodeAnchor } from "../review/anchors.ts"
import { crCommentsAtom } from "../review/queries.ts"
import type { ThreadData } from "../review/Threads.tsx"
import "../review/review.css"

/** The first words of a comment, mentions as names. */
const excerpt = (markdown: string) => {
  const text = markdown.replace(/@\[([^\]]*)\]\(user:[^)]*\)/g, "@$1").replace(/\s+/g, " ").trim()
  return text.length > 80 ? `${text.slice(0, 79)}…` : text
}

export const PageThreads = (props: { readonly spaceId: string; readonly number: number; readonly pageId: string }) => {
  const result = useAtomValue(crCommentsAtom(`${props.spaceId}\n${props.number}`))
  const review = `/s/${props.spaceId}/~/changes/${props.number}/~/review`
  const threads = AsyncResult.isSuccess(result) ? (result.value as ReadonlyArray<ThreadData>).filter((t) => t.comment.target.page?.id === props.pageId) : []
  return (
    <section aria-labelledby="page-threads-h" className="review-panel page-threads">
      <h2 id="page-threads-h">Comments on this page</h2>
      {AsyncResult.isFailure(result) ? <p className="form-error" role="alert">Could not read the comments: {messageOf(failureOf(result))}</p>
        : !AsyncResult.isSuccess(result) ? <p className="muted">Loading the comments…</p>
        : threads.length === 0 ? <p className="muted">No comments on this page. Comment on its changes in the <Link href={review}>review</Link>.</p>
        : (
          <ul className="review-panel-list review-panel-threads">
            {threads.map((t) => {
              const quote = decodeAnchor(t.comment.target.node?.id)?.quote
              const resolved = t.comment.status === "resolved"
              const state = [resolved ? "Resolved" : "Open", t.replies.length === 0 ? "no reply" : `${t.replies.length} ${t.replies.length === 1 ? "reply" : "replies"}`].join(" · ")
              return (
                <li key={t.comment.id} data-resolved={resolved}>
                  {quote === undefined || quote === "" ? null : <span className="muted review-panel-where">On “{quote.length > 60 ? `${quote.slice(0, 59)}…` : quote}”</span>}
                  <Link href={`${review}#thread-${t.comment.id}`}>{t.comment.postedBy.displayName}: {excerpt(t.comment.body.markdown ?? "")}</Link>
                  <span className="muted review-panel-where">{state}</span>
                </li>
              )
            })}
          </ul>
        )}
    </section>
  )
}
