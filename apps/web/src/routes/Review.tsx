/** `/s/<space>/~/changes/<n>/~/review`: a change request's review (diff, comments, reviews, merge, conflicts). */
import { MergeBlockers } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { useState } from "react"
import { spaceAtom } from "../api/queries.ts"
import { useAtomValue, useMutation, useRefresh } from "../api/react.ts"
import { useAction } from "../features/review/action.ts"
import { ChangedPages } from "../features/review/ChangedPages.tsx"
import { Conflicts } from "../features/review/Conflicts.tsx"
import { MentionInput } from "../features/review/MentionInput.tsx"
import { ReviewComments, useMe } from "../features/review/ReviewComments.tsx"
import { crCommentsAtom, membersAtom, mergeCR, requestReviewers, reviewAtom, submitReview, updateCR, withdrawReviewer } from "../features/review/queries.ts"
import { ChangeRequestState } from "../ui/ChangeRequestState.tsx"
import { BreadcrumbTail, Crumb } from "../ui/Frame.tsx"
import { Link } from "../ui/Link.tsx"
import { Failure, Loading } from "../ui/States.tsx"
import { formatTime } from "../ui/time.ts"
import "../features/review/review.css"

export const Review = (props: { readonly spaceId: string; readonly number: number }) => {
  const atom = reviewAtom(`${props.spaceId}\n${props.number}`)
  const result = useAtomValue(atom)
  if (AsyncResult.isFailure(result)) return <main className="review-page"><Failure result={result} /></main>
  if (!AsyncResult.isSuccess(result)) return <main className="review-page"><Loading what="the change request" /></main>
  return <ReviewBody spaceId={props.spaceId} number={props.number} data={result.value} />
}

interface Props {
  readonly spaceId: string
  readonly number: number
  // oxlint-disable-next-line no-explicit-any
  readonly data: any
}


const ReviewBody = (props: Props) => {
  const { cr, reviews, requested, contributors, changes, conflicts } = props.data
  const params = { spaceId: props.spaceId, changeRequestId: String(props.number) }
  const refresh = useRefresh()
  // A review's comment is posted as a comment of the change request: the threads are read again too.
  const reload = () => {
    refresh(reviewAtom(`${props.spaceId}\n${props.number}`))
    refresh(crCommentsAtom(`${props.spaceId}\n${props.number}`))
  }
  const submit = useMutation(submitReview)
  const merge = useMutation(mergeCR)
  const update = useMutation(updateCR)
  const action = useAction()
  const me = useMe()
  const [reviewText, setReviewText] = useState("")
  const [blockComment, setBlockComment] = useState<{ page: string; node: string; quote: string } | undefined>()
  const base: string = cr.revisionMergedAncestor ?? cr.revisionInitial
  const space = useAtomValue(spaceAtom(props.spaceId))
  const organizationId = AsyncResult.isSuccess(space) ? space.value.organization : undefined
  const blockers = MergeBlockers.mergeBlockers({
    status: cr.status, subject: cr.subject, outdated: cr.outdated, conflicts: conflicts.count, reviews, requested: requested.length,
    rules: AsyncResult.isSuccess(space) ? space.value.mergeRules : undefined
  })
  // A merged or archived change request takes no review and no merge: nothing is offered that would be refused.
  const closed = cr.status === "merged" || cr.status === "archived"
  // Its author does not review it (the API refuses) unless the space's merge rules let them approve it.
  const isAuthor = me !== undefined && cr.createdBy.id === me
  const authorApproves = AsyncResult.isSuccess(space) && space.value.mergeRules.type === "rules" &&
    space.value.mergeRules.rules.some((rule) => rule.rule === "allow_author_approval")
  const pages = (changes as ReadonlyArray<{ type: string; page: { id: string; title: string } }>).filter((c) => c.type === "page_edited" || c.type === "page_created")
  return (
    <main className="review-page">
      <BreadcrumbTail>
        <Crumb><Link href={`/s/${props.spaceId}/~/changes/${props.number}`}><span className="crumb-long">Change request </span>#{cr.number}</Link> <ChangeRequestState status={cr.status} /></Crumb>
        <Crumb current>Review</Crumb>
      </BreadcrumbTail>
      <header>
        <p><a href={`/s/${props.spaceId}/~/changes/${props.number}`}>Change request #{cr.number}</a></p>
        <h1>{cr.subject === "" ? "Untitled change request" : cr.subject}</h1>
        <div className="review-meta">
          <span className="review-status" data-testid="status">{cr.status}</span>
          <span>By {cr.createdBy.displayName}</span>
          {cr.outdated && <span>Main has changed since this was made.</span>}
          <span>Contributors: {[...new Set(contributors.map((c: { user: { displayName: string } }) => c.user.displayName))].join(", ") || "none"}</span>
        </div>
      </header>
      <section aria-labelledby="reviewers-h">
        <h2 id="reviewers-h">Reviews</h2>
        <ul>
          {reviews.map((r: { id: string; status: string; reviewer: { displayName: string }; outdated: boolean }) => (
            <li key={r.id}>{r.reviewer.displayName}: {r.status === "approved" ? "approved" : "requested changes"}{r.outdated ? " (on an older version)" : ""}</li>
          ))}
          {requested.map((r: { user: { id: string; displayName: string } }) => (
            <RequestedReviewer key={r.user.id} params={params} user={r.user} onDone={reload} />
          ))}
          {reviews.length + requested.length === 0 && <li className="muted">No reviews yet.</li>}
        </ul>
        {closed ? null : (
          <>
            <RequestReview spaceId={props.spaceId} params={params} onDone={reload} />
            <MentionInput id="review-text" label="Review comment (optional)" value={reviewText} onChange={setReviewText} organizationId={organizationId} />
          </>
        )}
        {!closed && isAuthor ? (
          <p className="muted">
            {authorApproves
              ? "You wrote this change request. This space's merge rules let its author approve it; you may also ask a reviewer above."
              : "You wrote this change request: someone else reviews it. Ask a reviewer above."}
          </p>
        ) : null}
        {closed || (isAuthor && !authorApproves) ? null : <div className="review-toolbar">
          <button type="button" disabled={action.busy} onClick={() => void action.run(async () => { await submit({ params, payload: { status: "approved", ...(reviewText === "" ? {} : { comment: { markdown: reviewText } }) } }); setReviewText(""); reload() })}>Approve</button>
          {isAuthor ? null : <button type="button" disabled={action.busy} onClick={() => void action.run(async () => { await submit({ params, payload: { status: "changes-requested", ...(reviewText === "" ? {} : { comment: { markdown: reviewText } }) } }); setReviewText(""); reload() })}>Request changes</button>}
        </div>}
        {action.error && <p className="review-error" role="alert">{action.error}</p>}
      </section>
      {closed ? (
        <section aria-labelledby="merge-h">
          <h2 id="merge-h">{cr.status === "merged" ? "Merged" : "Archived"}</h2>
          <p role="status">
            {cr.status === "merged"
              ? `Merged${cr.mergedBy === undefined ? "" : ` by ${cr.mergedBy.displayName}`}${cr.mergedAt === undefined ? "" : ` ${formatTime(cr.mergedAt)}`}. This change request is merged into the space: it is read-only, and its review is closed.`
              : "This change request is archived: reopen it from its page to review or merge it."}
          </p>
        </section>
      ) : (
        <section aria-labelledby="merge-h">
          <h2 id="merge-h">Merge</h2>
          {blockers.length > 0 && <ul id="merge-blockers">{blockers.map((b) => <li key={b}>{b}</li>)}</ul>}
          <div className="review-toolbar">
            <button type="button" disabled={action.busy || blockers.length > 0} aria-describedby={blockers.length > 0 ? "merge-blockers" : undefined} onClick={() => void action.run(async () => { await merge({ params }).finally(reload) })}>Merge</button>
            <button type="button" disabled={action.busy} onClick={() => void action.run(async () => { await update({ params }).finally(reload) })}>Update from main</button>
          </div>
        </section>
      )}
      {conflicts.count > 0 && <Conflicts key={`${conflicts.revision}:${conflicts.mainRevision}`} params={params} conflicts={conflicts} titles={new Map(pages.map((c) => [c.page.id, c.page.title]))} onDone={reload} />}
      <ChangedPages spaceId={props.spaceId} number={props.number} base={base}
        pages={pages.map((c) => ({ id: c.page.id, title: c.page.title, created: c.type === "page_created" }))}
        canMark={AsyncResult.isSuccess(space) && space.value.permissions.review}
        onComment={(page, node, quote) => setBlockComment({ page, node, quote })} />
      <ReviewComments spaceId={props.spaceId} number={props.number} organizationId={organizationId} blockComment={blockComment} clearBlock={() => setBlockComment(undefined)} />
    </main>
  )
}

/** A requested reviewer, with "Withdraw" (removeRequestedReviewerFromChangeRequest) beside them. */
const RequestedReviewer = (props: { params: { spaceId: string; changeRequestId: string }; user: { id: string; displayName: string }; onDone: () => void }) => {
  const withdraw = useMutation(withdrawReviewer)
  const action = useAction()
  return (
    <li>
      {props.user.displayName}: review requested{" "}
      <button type="button" className="link" disabled={action.busy} aria-label={`Withdraw the review request of ${props.user.displayName}`}
        onClick={() => void action.run(async () => { await withdraw({ params: { ...props.params, userId: props.user.id } }); props.onDone() })}>Withdraw</button>
      {action.error && <span className="review-error" role="alert"> {action.error}</span>}
    </li>
  )
}

const RequestReview = (props: { spaceId: string; params: { spaceId: string; changeRequestId: string }; onDone: () => void }) => {
  const space = useAtomValue(spaceAtom(props.spaceId))
  const org = AsyncResult.isSuccess(space) ? space.value.organization : ""
  const members = useAtomValue(membersAtom(org))
  const request = useMutation(requestReviewers)
  const action = useAction()
  const [user, setUser] = useState("")
  if (org === "" || !AsyncResult.isSuccess(members)) return null
  return (
    <div className="review-toolbar">
      <label htmlFor="reviewer">Ask for a review</label>
      <select id="reviewer" value={user} onChange={(e) => setUser(e.target.value)}>
        <option value="">Pick a member</option>
        {members.value.items.map((m) => <option key={m.user.id} value={m.user.id}>{m.user.displayName}</option>)}
      </select>
      <button type="button" disabled={user === "" || action.busy} onClick={() => void action.run(async () => { await request({ params: props.params, payload: { users: [user] } }); props.onDone() })}>Request review</button>
      {action.error && <span className="review-error" role="alert">{action.error}</span>}
    </div>
  )
}
