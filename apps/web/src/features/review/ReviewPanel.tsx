/**
 * The review's side panel: who takes part (the author, contributors, reviewers, those who
 * commented), the reviewers with their verdicts and the requests still open, and every comment
 * thread with a link that brings its block into view (unfolding a page marked viewed).
 */
import type { MouseEvent } from "react"
import { decodeAnchor } from "./anchors.ts"
import type { ThreadData } from "./Threads.tsx"

interface Person {
  readonly id: string
  readonly displayName: string
}

export interface ReviewPanelProps {
  readonly author: Person
  readonly contributors: ReadonlyArray<{ readonly user: Person }>
  readonly reviews: ReadonlyArray<{ readonly id: string; readonly status: string; readonly reviewer: Person; readonly outdated: boolean }>
  readonly requested: ReadonlyArray<{ readonly user: Person }>
  readonly threads: ReadonlyArray<ThreadData> | undefined
  /** Brings a thread into view: its page unfolded, then the thread scrolled to and focused. */
  readonly onGo: (thread: ThreadData) => void
}

const verdict = (status: string) => status === "approved" ? "Approved" : "Changes requested"

/** The first words of a comment, mentions as names. */
const excerpt = (markdown: string) => {
  const text = markdown.replace(/@\[([^\]]*)\]\(user:[^)]*\)/g, "@$1").replace(/\s+/g, " ").trim()
  return text.length > 80 ? `${text.slice(0, 79)}…` : text
}

export const ReviewPanel = (props: ReviewPanelProps) => {
  const people = new Map<string, { readonly name: string; readonly roles: Set<string> }>()
  const add = (person: Person, role: string) => {
    const seen = people.get(person.id) ?? { name: person.displayName, roles: new Set<string>() }
    seen.roles.add(role)
    people.set(person.id, seen)
  }
  add(props.author, "author")
  for (const c of props.contributors) add(c.user, "contributor")
  for (const r of props.reviews) add(r.reviewer, "reviewer")
  for (const r of props.requested) add(r.user, "reviewer")
  for (const t of props.threads ?? []) {
    add(t.comment.postedBy, "commented")
    for (const reply of t.replies) add(reply.postedBy, "commented")
  }
  const go = (thread: ThreadData) => (event: MouseEvent) => {
    event.preventDefault()
    props.onGo(thread)
  }
  return (
    <div className="review-panel">
      <section aria-labelledby="panel-people-h">
        <h2 id="panel-people-h">Participants</h2>
        <ul className="review-panel-list">
          {[...people.entries()].map(([id, person]) => (
            <li key={id}>{person.name} <span className="muted">({[...person.roles].join(", ")})</span></li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="panel-reviewers-h">
        <h2 id="panel-reviewers-h">Reviewers</h2>
        {props.reviews.length + props.requested.length === 0 ? <p className="muted">No reviewer yet.</p> : (
          <ul className="review-panel-list">
            {props.reviews.map((r) => (
              <li key={r.id}>{r.reviewer.displayName} <span className="review-verdict" data-verdict={r.status}>{verdict(r.status)}</span>{r.outdated ? <span className="muted"> (on an older version)</span> : null}</li>
            ))}
            {props.requested.map((r) => <li key={r.user.id}>{r.user.displayName} <span className="review-verdict">Review requested</span></li>)}
          </ul>
        )}
      </section>
      <section aria-labelledby="panel-threads-h">
        <h2 id="panel-threads-h">Comments</h2>
        {props.threads === undefined ? <p className="muted">Loading the comments…</p>
          : props.threads.length === 0 ? <p className="muted">No comments yet.</p> : (
            <ul className="review-panel-list review-panel-threads">
              {props.threads.map((t) => {
                const anchor = decodeAnchor(t.comment.target.node?.id)
                const where = t.comment.target.page === undefined ? "On the change request" : `On ${t.comment.target.page.title ?? "a page"}${anchor === undefined ? "" : `: “${anchor.quote}”`}`
                const state = [t.comment.status === "resolved" ? "resolved" : undefined, t.replies.length === 0 ? undefined : `${t.replies.length} ${t.replies.length === 1 ? "reply" : "replies"}`].filter(Boolean).join(", ")
                return (
                  <li key={t.comment.id}>
                    <a href={`#thread-${t.comment.id}`} onClick={go(t)}>{t.comment.postedBy.displayName}: {excerpt(t.comment.body.markdown ?? "")}</a>
                    <span className="muted review-panel-where">{where}{state === "" ? "" : ` · ${state}`}</span>
                  </li>
                )
              })}
            </ul>
          )}
      </section>
    </div>
  )
}
