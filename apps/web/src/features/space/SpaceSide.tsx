/** The space screen's parts around the page: table of contents, last edit, comments with replies, open change requests. */
import { AsyncResult } from "effect/reactivity"
import { useState } from "react"
import { useAtomValue, useMutation, useRefresh } from "../../api/react.ts"
import { appPath, Link } from "../../ui/Link.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { pageCommentsAtom, latestRevisionAtom, openChangeRequestsAtom, postSpaceComment, postSpaceReply } from "./queries.ts"
import type { TocEntry } from "./toc.ts"
import "./space.css"

export const Toc = (props: { readonly entries: ReadonlyArray<TocEntry> }) =>
  props.entries.length === 0 ? null : (
    <nav aria-label="On this page" className="space-toc">
      <h2>On this page</h2>
      <ul>
        {props.entries.map((entry) => (
          <li key={entry.id} className={entry.level === 3 ? "toc-sub" : undefined}>
            <a href={`#${entry.id}`} onClick={(event) => {
              event.preventDefault()
              document.getElementById(entry.id)?.scrollIntoView({ block: "start" })
              history.replaceState(history.state, "", `#${entry.id}`)
            }}>{entry.text}</a>
          </li>
        ))}
      </ul>
    </nav>
  )

const when = (iso: string | undefined) => iso === undefined ? "" : new Date(iso).toLocaleString()

/** Who and when: the API gives the page's `updatedAt` and the latest revision's time; no editor (docs/web-api.md proposes `lastEditedBy`). */
export const LastEdit = (props: { readonly spaceId: string; readonly updatedAt: string | undefined }) => {
  const latest = useAtomValue(latestRevisionAtom(props.spaceId))
  if (props.updatedAt !== undefined) return <p className="muted space-last-edit">Last edited {when(props.updatedAt)}</p>
  // The API gives no page's time nor editor: the space's newest revision is the honest bound.
  const at = AsyncResult.isSuccess(latest) ? latest.value.items[0]?.createdAt : undefined
  return at === undefined ? null : <p className="muted space-last-edit">Space last changed {when(at)}</p>
}

export const OpenChangeRequests = (props: { readonly spaceId: string }) => {
  const list = useAtomValue(openChangeRequestsAtom(props.spaceId))
  return (
    <section aria-labelledby="space-crs" className="space-crs">
      <h2 id="space-crs">Change requests</h2>
      {AsyncResult.isInitial(list) ? <Loading what="change requests" />
        : AsyncResult.isFailure(list) ? <Failure result={list} />
        : list.value.items.length === 0 ? <p className="muted">No open change requests.</p>
        : <ul>{list.value.items.map((cr) => <li key={cr.id}><Link href={appPath(cr.urls.app)}>#{cr.number} {cr.subject ?? "Untitled"}</Link></li>)}</ul>}
      <p><Link href={`/s/${props.spaceId}/~/history`}>History</Link></p>
    </section>
  )
}

const bodyText = (body: unknown) =>
  typeof body === "object" && body !== null && "markdown" in body && typeof body.markdown === "string" ? body.markdown : ""

const Reply = (props: { readonly spaceId: string; readonly commentId: string; readonly onDone: () => void }) => {
  const post = useMutation(postSpaceReply)
  const [text, setText] = useState("")
  const [error, setError] = useState<string | undefined>(undefined)
  const id = `reply-${props.commentId}`
  return (
    <form className="space-reply" onSubmit={(event) => {
      event.preventDefault()
      post({ params: { spaceId: props.spaceId, commentId: props.commentId }, payload: { body: { markdown: text } } }).then(
        () => { setText(""); props.onDone() },
        (failure: unknown) => setError(`Could not reply: ${failure instanceof Error ? failure.message : String(failure)}`))
    }}>
      <label htmlFor={id}>Reply</label>
      <input id={id} value={text} onChange={(event) => setText(event.target.value)} />
      <button type="submit" className="button" disabled={text.trim() === ""}>Reply</button>
      {error === undefined ? null : <p role="alert" className="form-error">{error}</p>}
    </form>
  )
}

export const PageComments = (props: { readonly spaceId: string; readonly pageId: string }) => {
  const atom = pageCommentsAtom(`${props.spaceId}\n${props.pageId}`)
  const comments = useAtomValue(atom)
  const refresh = useRefresh()
  const post = useMutation(postSpaceComment)
  const [text, setText] = useState("")
  const [error, setError] = useState<string | undefined>(undefined)
  const done = () => refresh(atom)
  return (
    <section aria-labelledby="space-comments" className="space-comments">
      <h2 id="space-comments">Comments</h2>
      {AsyncResult.isInitial(comments) ? <Loading what="comments" />
        : AsyncResult.isFailure(comments) ? <Failure result={comments} />
        : comments.value.length === 0 ? <p className="muted">No comments on this page yet.</p>
        : <ul className="space-comment-list">{comments.value.map(({ comment, replies }) => (
          <li key={comment.id}>
            <p><strong>{comment.postedBy.displayName}</strong> <span className="muted">{when(comment.postedAt)}</span></p>
            <p className="space-comment-body">{bodyText(comment.body)}</p>
            {replies.length === 0 ? null : <ul>{replies.map((reply) => (
              <li key={reply.id}><p><strong>{reply.postedBy.displayName}</strong> <span className="muted">{when(reply.postedAt)}</span></p><p className="space-comment-body">{bodyText(reply.body)}</p></li>
            ))}</ul>}
            <Reply spaceId={props.spaceId} commentId={comment.id} onDone={done} />
          </li>
        ))}</ul>}
      <form onSubmit={(event) => {
        event.preventDefault()
        setError(undefined)
        post({ params: { spaceId: props.spaceId }, payload: { body: { markdown: text }, page: props.pageId } }).then(
          () => { setText(""); done() },
          (failure: unknown) => setError(`Could not post the comment: ${failure instanceof Error ? failure.message : String(failure)}`))
      }}>
        <label htmlFor="space-new-comment">Comment on this page</label>
        <textarea id="space-new-comment" value={text} onChange={(event) => setText(event.target.value)} />
        <button type="submit" className="button" disabled={text.trim() === ""}>Post comment</button>
        {error === undefined ? null : <p role="alert" className="form-error">{error}</p>}
      </form>
    </section>
  )
}
