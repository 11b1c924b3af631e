/** The review's comment threads (on the change request or on a block of a page) and its conflicts, each resolved in the page. */
import { AsyncResult } from "effect/reactivity"
import { useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { useAtomValue, useMutation, useRefresh } from "../../api/react.ts"
import { decodeAnchor } from "./anchors.ts"
import { useAction } from "./action.ts"
import { postComment, postReply, resolveConflicts, updateComment } from "./queries.ts"


type Params = { readonly spaceId: string; readonly changeRequestId: string }

interface CommentItem {
  readonly id: string
  readonly postedBy: { readonly displayName: string }
  readonly body: { readonly markdown: string }
  readonly status: string
  readonly replies: number
  readonly reactions: ReadonlyArray<{ readonly emoji: string; readonly count: number }>
  readonly target: { readonly node?: { readonly id: string }; readonly page?: { readonly title?: string } }
}

export const Comments = (props: {
  readonly params: Params
  readonly comments: ReadonlyArray<CommentItem>
  readonly blockComment: { page: string; node: string; quote: string } | undefined
  readonly clearBlock: () => void
  readonly onDone: () => void
}) => {
  const post = useMutation(postComment)
  const run = useAction()
  const [text, setText] = useState("")
  const send = () => run.run(async () => {
    const target = props.blockComment === undefined ? {} : { page: props.blockComment.page, node: props.blockComment.node }
    await post({ params: props.params, payload: { body: { markdown: text }, ...target } })
    setText("")
    props.clearBlock()
    props.onDone()
  })
  return (
    <section aria-labelledby="comments-h">
      <h2 id="comments-h">Comments</h2>
      {props.comments.length === 0 && <p className="muted">No comments yet.</p>}
      {props.comments.map((c) => <Thread key={c.id} params={props.params} comment={c} onDone={props.onDone} />)}
      {props.blockComment && (
        <p>Commenting on: “{props.blockComment.quote}” <button type="button" onClick={props.clearBlock}>Comment on the whole change request instead</button></p>
      )}
      <label htmlFor="new-comment">{props.blockComment ? "Comment on this block" : "Comment on the change request"}</label>
      <textarea id="new-comment" value={text} onChange={(e) => setText(e.target.value)} />
      <button type="button" disabled={text.trim() === "" || run.busy} onClick={() => void send()}>Post comment</button>
      {run.error && <p className="review-error" role="alert">{run.error}</p>}
    </section>
  )
}

const Thread = (props: { readonly params: Params; readonly comment: CommentItem; readonly onDone: () => void }) => {
  const c = props.comment
  const repliesAtom = QuireApi.query("changeRequestComments", "listCommentRepliesInChangeRequest", { params: { ...props.params, commentId: c.id }, query: { format: "markdown" } })
  const [atom] = useState(() => repliesAtom)
  const replies = useAtomValue(atom)
  const refresh = useRefresh()
  const reply = useMutation(postReply)
  const update = useMutation(updateComment)
  const run = useAction()
  const [text, setText] = useState("")
  const anchor = decodeAnchor(c.target.node?.id)
  const resolved = c.status === "resolved"
  return (
    <article className="review-thread" aria-label={`Comment by ${c.postedBy.displayName}`}>
      {anchor && <p className="muted">On {c.target.page?.title ?? "a page"}: “{anchor.quote}”</p>}
      <p><strong>{c.postedBy.displayName}</strong>{resolved ? " (resolved)" : ""}</p>
      <p>{c.body.markdown}</p>
      {c.reactions.length > 0 && <p>{c.reactions.map((r) => `${r.emoji} ${r.count}`).join(" ")}</p>}
      {AsyncResult.isSuccess(replies) && replies.value.items.map((r) => (
        <div key={r.id} className="review-reply"><strong>{r.postedBy.displayName}</strong>: {r.body.markdown}</div>
      ))}
      <label htmlFor={`reply-${c.id}`}>Reply</label>
      <textarea id={`reply-${c.id}`} value={text} onChange={(e) => setText(e.target.value)} />
      <div className="review-toolbar">
        <button type="button" disabled={text.trim() === "" || run.busy} onClick={() => void run.run(async () => { await reply({ params: { ...props.params, commentId: c.id }, query: { format: "markdown" }, payload: { body: { markdown: text } } }); setText(""); refresh(atom); props.onDone() })}>Reply</button>
        <button type="button" disabled={run.busy} onClick={() => void run.run(async () => { await update({ params: { ...props.params, commentId: c.id }, payload: { resolved: !resolved } }); props.onDone() })}>{resolved ? "Reopen" : "Resolve"}</button>
        <button type="button" disabled={run.busy} aria-label="React with a thumbs up" onClick={() => void run.run(async () => { await update({ params: { ...props.params, commentId: c.id }, payload: { addReactions: ["👍"] } as never }); props.onDone() })}>👍</button>
      </div>
      {run.error && <p className="review-error" role="alert">{run.error}</p>}
    </article>
  )
}

interface ConflictItem {
  readonly id: string
  readonly path: string
  readonly kind: string
  readonly hunks?: ReadonlyArray<{ readonly base: string; readonly ours: string; readonly theirs: string }>
}

export const Conflicts = (props: { readonly params: Params; readonly conflicts: { readonly items: ReadonlyArray<ConflictItem>; readonly stale: boolean }; readonly onDone: () => void }) => {
  const resolve = useMutation(resolveConflicts)
  const run = useAction()
  const [picks, setPicks] = useState<Record<string, { take: "main" | "change-request" | "markdown"; markdown?: string }>>({})
  const all = props.conflicts.items.every((c) => picks[c.id] !== undefined)
  return (
    <section aria-labelledby="conflicts-h">
      <h2 id="conflicts-h">Conflicts</h2>
      {props.conflicts.stale && <p>Main moved since these were found: update from main first.</p>}
      {props.conflicts.items.map((c) => {
        const hunk = c.hunks?.[0]
        const pick = picks[c.id]
        return (
          <fieldset key={c.id} className="review-conflict">
            <legend>{c.path} ({c.kind})</legend>
            {hunk && (
              <>
                <p>Main:</p><pre>{hunk.ours}</pre>
                <p>This change:</p><pre>{hunk.theirs}</pre>
              </>
            )}
            <label><input type="radio" name={`take-${c.id}`} checked={pick?.take === "main"} onChange={() => setPicks({ ...picks, [c.id]: { take: "main" } })} /> Keep main</label>
            <label><input type="radio" name={`take-${c.id}`} checked={pick?.take === "change-request"} onChange={() => setPicks({ ...picks, [c.id]: { take: "change-request" } })} /> Keep this change</label>
            {hunk && <label><input type="radio" name={`take-${c.id}`} checked={pick?.take === "markdown"} onChange={() => setPicks({ ...picks, [c.id]: { take: "markdown", markdown: hunk.theirs } })} /> Edit the merged text</label>}
            {pick?.take === "markdown" && (
              <textarea aria-label={`Merged text of ${c.path}`} value={pick.markdown ?? ""} onChange={(e) => setPicks({ ...picks, [c.id]: { take: "markdown", markdown: e.target.value } })} />
            )}
          </fieldset>
        )
      })}
      <button type="button" disabled={!all || run.busy} onClick={() => void run.run(async () => {
        await resolve({ params: props.params, payload: { resolutions: props.conflicts.items.map((c) => ({ conflict: c.id, ...picks[c.id]! })) } })
        props.onDone()
      })}>Resolve conflicts</button>
      {!all && <p className="muted">Pick a side for each conflict to resolve them.</p>}
      {run.error && <p className="review-error" role="alert">{run.error}</p>}
    </section>
  )
}
