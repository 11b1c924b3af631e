/**
 * Comment threads, the same on the review screen (comments on the change request or on a block of
 * a page) and the space screen (comments on a page): the comment, its replies nested under it, a
 * reply box, resolve / reopen, reactions on the comment and each reply, `@mentions` in every box.
 * What each action calls is the screen's `ThreadActions` (thread-actions.ts).
 */
import type { Comment, CommentReply } from "@quire/api"
import type { ReactNode } from "react"
import { useEffect, useState } from "react"
import { useAction } from "./action.ts"
import { CommentText, MentionInput } from "./MentionInput.tsx"
import { Reactions } from "./Reactions.tsx"
import type { ThreadActions } from "./thread-actions.ts"
import { formatTime } from "../../ui/time.ts"

export interface ThreadData {
  readonly comment: Comment
  readonly replies: ReadonlyArray<CommentReply>
}


const Byline = (props: { readonly name: string; readonly at: string }) => (
  <p className="thread-byline"><strong>{props.name}</strong> <span className="muted">{formatTime(props.at)}</span></p>
)

const ReplyItem = (props: { readonly commentId: string; readonly reply: CommentReply; readonly actions: ThreadActions; readonly me: string | undefined }) => {
  const run = useAction()
  const r = props.reply
  return (
    <li className="thread-reply">
      <Byline name={r.postedBy.displayName} at={r.postedAt} />
      <CommentText markdown={r.body.markdown} />
      <Reactions reactions={r.reactions} me={props.me} busy={run.busy} on={`${r.postedBy.displayName}'s answer`} onToggle={(emoji, add) => void run.run(async () => {
        await props.actions.updateReply(props.commentId, r.id, add ? { addedReactions: [emoji] } : { removedReactions: [emoji] })
        props.actions.done()
      })} />
      {run.error && <p className="review-error" role="alert">{run.error}</p>}
    </li>
  )
}

export const Thread = (props: {
  readonly thread: ThreadData
  readonly actions: ThreadActions
  readonly me: string | undefined
  readonly organizationId: string | undefined
  /** Above the comment: what it is about (a block's quote). */
  readonly context?: ReactNode
}) => {
  const c = props.thread.comment
  const run = useAction()
  const [text, setText] = useState("")
  const resolved = c.status === "resolved"
  const send = () => run.run(async () => {
    await props.actions.reply(c.id, text)
    setText("")
    props.actions.done()
  })
  return (
    <article className={`review-thread${resolved ? " review-thread-resolved" : ""}`} aria-label={`Comment by ${c.postedBy.displayName}`}>
      {props.context}
      <div className="thread-head">
        <Byline name={c.postedBy.displayName} at={c.postedAt} />
        {resolved && <span className="thread-status">Resolved{c.resolvedBy ? ` by ${c.resolvedBy.displayName}` : ""}</span>}
        <button type="button" className="link" disabled={run.busy} onClick={() => void run.run(async () => {
          await props.actions.update(c.id, { resolved: !resolved })
          props.actions.done()
        })}>{resolved ? "Reopen" : "Resolve"}</button>
      </div>
      <CommentText markdown={c.body.markdown} />
      <Reactions reactions={c.reactions} me={props.me} busy={run.busy} on={`${c.postedBy.displayName}'s comment`} onToggle={(emoji, add) => void run.run(async () => {
        await props.actions.update(c.id, add ? { addedReactions: [emoji] } : { removedReactions: [emoji] })
        props.actions.done()
      })} />
      {props.thread.replies.length > 0 && (
        <ol className="thread-replies" aria-label={`Replies to ${c.postedBy.displayName}`}>
          {props.thread.replies.map((r) => <ReplyItem key={r.id} commentId={c.id} reply={r} actions={props.actions} me={props.me} />)}
        </ol>
      )}
      <form className="thread-reply-form" onSubmit={(event) => {
        event.preventDefault()
        if (text.trim() !== "") void send()
      }}>
        <MentionInput id={`reply-${c.id}`} label="Reply" value={text} onChange={setText} organizationId={props.organizationId} />
        <button type="submit" disabled={text.trim() === "" || run.busy}>Reply</button>
      </form>
      {run.error && <p className="review-error" role="alert">{run.error}</p>}
    </article>
  )
}

/** A new comment: its box (with mentions) and button; `onPost` sends it. */
export const NewComment = (props: {
  readonly id: string
  readonly label: string
  readonly organizationId: string | undefined
  readonly onPost: (markdown: string) => Promise<unknown>
  /** The box takes the focus when it shows (opened by "Comment" on a block). */
  readonly autoFocus?: boolean
  /** Shown as "Cancel", and on Escape: the box closes. */
  readonly onCancel?: () => void
}) => {
  const run = useAction()
  const [text, setText] = useState("")
  const { autoFocus, id } = props
  useEffect(() => {
    if (autoFocus === true) document.getElementById(id)?.focus()
  }, [autoFocus, id])
  return (
    <form className="thread-new" onKeyDown={(event) => {
      // Escape closes the mention list first (MentionInput stops it); then the box.
      if (event.key === "Escape" && !event.defaultPrevented && props.onCancel !== undefined) props.onCancel()
    }} onSubmit={(event) => {
      event.preventDefault()
      if (text.trim() === "") return
      void run.run(async () => {
        await props.onPost(text)
        setText("")
      })
    }}>
      <MentionInput id={props.id} label={props.label} value={text} onChange={setText} organizationId={props.organizationId} />
      <div className="thread-new-actions">
        <button type="submit" disabled={text.trim() === "" || run.busy}>Post comment</button>
        {props.onCancel === undefined ? null : <button type="button" className="link" onClick={props.onCancel}>Cancel</button>}
      </div>
      {run.error && <p className="review-error" role="alert">{run.error}</p>}
    </form>
  )
}
