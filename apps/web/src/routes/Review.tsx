/**
 * `/s/<space>/~/changes/<n>/~/review`: a change request's review, under the header it shares with its
 * editor (ChangeRequestHeader.tsx): diff with each block's comments beside it, comments on the change
 * request, reviews, merge, conflicts; the sidebar lists the space's change requests
 * (SpaceChangeRequests.tsx); the right panel lists the
 * participants, the reviewers and their verdicts, and every thread with a link to its block.
 */
import { AsyncResult } from "effect/reactivity"
import { useCallback, useEffect, useMemo, useRef, useState } from "react"
import { spaceAtom } from "../api/queries.ts"
import { useAtomValue, useMutation, useRefresh } from "../api/react.ts"
import { useAction } from "../features/review/action.ts"
import { ChangedPages } from "../features/review/ChangedPages.tsx"
import { MergeBox } from "../features/merge-rules/MergeBox.tsx"
import { ChangeRequestHeader } from "../features/change-request/ChangeRequestHeader.tsx"
import { AgentReview } from "../features/review/AgentReview.tsx"
import { SpaceChangeRequests } from "../features/change-request/SpaceChangeRequests.tsx"
import { Conflicts } from "../features/review/Conflicts.tsx"
import { MentionInput } from "../features/review/MentionInput.tsx"
import { ReviewComments, useMe } from "../features/review/ReviewComments.tsx"
import { CheckStyle } from "../features/styleguides/CheckStyle.tsx"
import type { BlockComments } from "../features/review/DiffView.tsx"
import { ReviewPanel } from "../features/review/ReviewPanel.tsx"
import { useChangeRequestThreadActions } from "../features/review/thread-actions.ts"
import { NewComment, Thread, type ThreadData } from "../features/review/Threads.tsx"
import { decodeAnchor } from "../features/review/anchors.ts"
import { crCommentsAtom, membersAtom, mergeCR, postComment, requestReviewers, reviewAtom, submitReview, updateCR, withdrawReviewer } from "../features/review/queries.ts"
import { ChangeRequestState } from "../ui/ChangeRequestState.tsx"
import { BreadcrumbTail, Crumb, RightPanel, SidebarPages } from "../ui/Frame.tsx"
import { Link } from "../ui/Link.tsx"
import { Failure, Loading } from "../ui/States.tsx"
import { formatTime } from "../ui/time.ts"
import "../features/review/review.css"

export const Review = (props: { readonly spaceId: string; readonly number: number }) => {
  const atom = reviewAtom(`${props.spaceId}\n${props.number}`)
  const result = useAtomValue(atom)
  if (AsyncResult.isFailure(result)) return <div className="review-page"><Failure result={result} /></div>
  if (!AsyncResult.isSuccess(result)) return <div className="review-page"><Loading what="the change request" /></div>
  return <ReviewBody spaceId={props.spaceId} number={props.number} data={result.value} />
}

interface Props {
  readonly spaceId: string
  readonly number: number
  // oxlint-disable-next-line no-explicit-any
  readonly data: any
}


const ReviewBody = (props: Props) => {
  const { cr, reviews, requested, contributors, changes, conflicts, mergeRules } = props.data
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
  const [reveal, setReveal] = useState<{ readonly page: string; readonly n: number } | undefined>(undefined)
  const base: string = cr.revisionMergedAncestor ?? cr.revisionInitial
  const space = useAtomValue(spaceAtom(props.spaceId))
  const organizationId = AsyncResult.isSuccess(space) ? space.value.organization : undefined
  // A merged or archived change request takes no review and no merge: nothing is offered that would be refused.
  const closed = cr.status === "merged" || cr.status === "archived"
  // Its author does not review it (the API refuses) unless the space's merge rules let them approve it.
  const isAuthor = me !== undefined && cr.createdBy.id === me
  // The rules that apply (the server's answer): the space's own, or its organization's when it follows them.
  const authorApproves = mergeRules.rules.type === "rules" && (mergeRules.rules.rules as ReadonlyArray<{ rule: string }>).some((rule) => rule.rule === "allow_author_approval")
  // What the person's role lets them do here (nothing is offered until the space says).
  const permissions = AsyncResult.isSuccess(space) ? space.value.permissions : undefined
  const pages = (changes as ReadonlyArray<{ type: string; page: { id: string; title: string } }>).filter((c) => c.type === "page_edited" || c.type === "page_created")
  const changedPages = useMemo(() => new Set(pages.map((c) => c.page.id)), [pages])
  const threads = useThreads(props.spaceId, props.number)
  const comments = useBlockComments(props.spaceId, props.number, organizationId, threads.list)
  // A thread asked for from the panel: its page unfolds, then it is scrolled to once drawn (its diff loads on demand).
  const go = (thread: ThreadData) => {
    const page = thread.comment.target.page?.id
    if (page !== undefined && changedPages.has(page) && decodeAnchor(thread.comment.target.node?.id) !== undefined) setReveal((was) => ({ page, n: (was?.n ?? 0) + 1 }))
    const until = Date.now() + 10_000
    const find = () => {
      const el = document.getElementById(`thread-${thread.comment.id}`)
      if (el !== null) {
        el.scrollIntoView({ block: "center" })
        el.focus({ preventScroll: true })
      } else if (Date.now() < until) setTimeout(find, 100)
    }
    find()
  }
  // Opened on a thread (`#thread-<id>`, as the editor's "Comments on this page" link): brought into view once the threads are read.
  const shown = useRef<string | undefined>(undefined)
  useEffect(() => {
    const hash = window.location.hash
    if (threads.list === undefined || !hash.startsWith("#thread-") || shown.current === hash) return
    shown.current = hash
    const thread = threads.list.find((t) => `#thread-${t.comment.id}` === hash)
    if (thread !== undefined) go(thread)
  })
  return (
    <div className="review-page">
      <SidebarPages>
        <SpaceChangeRequests spaceId={props.spaceId} current={cr} />
      </SidebarPages>
      <RightPanel label="Page details">
        <ReviewPanel author={cr.createdBy} contributors={contributors} reviews={reviews} requested={requested} threads={threads.list} onGo={go} />
      </RightPanel>
      <BreadcrumbTail>
        <Crumb><Link href={`/s/${props.spaceId}/~/changes/${props.number}`}><span className="crumb-long">Change request </span>#{cr.number}</Link> <ChangeRequestState status={cr.status} /></Crumb>
        <Crumb current>Review</Crumb>
      </BreadcrumbTail>
      <ChangeRequestHeader spaceId={props.spaceId} cr={cr} view="review" editable={false} onChanged={reload}>
        <div className="review-meta">
          <span>By {cr.createdBy.displayName}</span>
          {cr.outdated && <span>Main has changed since this was made.</span>}
          <span>Contributors: {[...new Set(contributors.map((c: { user: { displayName: string } }) => c.user.displayName))].join(", ") || "none"}</span>
        </div>
      </ChangeRequestHeader>
      <section aria-labelledby="reviewers-h">
        <h2 id="reviewers-h">Reviews</h2>
        <ul>
          {reviews.map((r: { id: string; status: string; reviewer: { displayName: string }; outdated: boolean }) => (
            <li key={r.id}>{r.reviewer.displayName}: {r.status === "approved" ? "approved" : "requested changes"}{r.outdated ? " (on an older version)" : ""}</li>
          ))}
          {requested.map((r: { user: { id: string; displayName: string }; agentReview?: AgentReviewState }) => (
            <RequestedReviewer key={r.user.id} params={params} user={r.user} agentReview={r.agentReview} me={me} canEdit={!closed && permissions?.edit === true} onDone={reload} />
          ))}
          {reviews.length + requested.length === 0 && <li className="muted">No reviews yet.</li>}
        </ul>
        {closed ? null : (
          <>
            <RequestReview spaceId={props.spaceId} params={params} onDone={reload} />
            {permissions?.comment === true ? <AgentReview params={params} onDone={reload} /> : null}
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
        {!closed && !isAuthor && permissions?.review === false ? <p className="muted">Your role in this space does not let you review: you may comment.</p> : null}
        {closed || (isAuthor && !authorApproves) || permissions?.review !== true ? null : <div className="review-toolbar">
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
              ? `Merged${cr.mergedBy === undefined ? "" : ` by ${cr.mergedBy.displayName}`}${cr.mergedAt === undefined ? "" : ` ${formatTime(cr.mergedAt)}`}. This change request is merged into the space: its content is read-only and its review is closed; its discussion stays open.`
              : "This change request is archived: reopen it above to review or merge it."}
          </p>
        </section>
      ) : (
        <MergeBox space={AsyncResult.isSuccess(space) ? space.value : undefined} status={cr.status} conflicts={conflicts.count} check={mergeRules}
          onMerge={() => merge({ params, reactivityKeys: [`space:${props.spaceId}`] }).finally(reload)} onUpdate={() => update({ params }).finally(reload)} />
      )}
      {conflicts.count > 0 && <Conflicts key={`${conflicts.revision}:${conflicts.mainRevision}`} params={params} conflicts={conflicts} titles={new Map(pages.map((c) => [c.page.id, c.page.title]))} onDone={reload} />}
      <ChangedPages spaceId={props.spaceId} number={props.number} base={base}
        pages={pages.map((c) => ({ id: c.page.id, title: c.page.title, created: c.type === "page_created" }))}
        canMark={!closed && AsyncResult.isSuccess(space) && space.value.permissions.review} closed={closed}
        comments={comments} reveal={reveal} />
      {closed || permissions?.comment !== true ? null
        : <CheckStyle spaceId={props.spaceId} number={props.number} organizationId={organizationId} comments={crCommentsAtom(`${props.spaceId}\n${props.number}`)} />}
      <ReviewComments spaceId={props.spaceId} number={props.number} organizationId={organizationId} changedPages={changedPages} />
    </div>
  )
}

/** The change request's threads (undefined while loading or unreadable: the comments section says why). */
const useThreads = (spaceId: string, number: number) => {
  const result = useAtomValue(crCommentsAtom(`${spaceId}\n${number}`))
  return { list: AsyncResult.isSuccess(result) ? result.value as ReadonlyArray<ThreadData> : undefined }
}

/** Each page's block comments for its diff: the threads drawn in the margin, and the box of a new one, posted on the block. */
const useBlockComments = (spaceId: string, number: number, organizationId: string | undefined, threads: ReadonlyArray<ThreadData> | undefined) => {
  const params = useMemo(() => ({ spaceId, changeRequestId: String(number) }), [spaceId, number])
  const atom = crCommentsAtom(`${spaceId}\n${number}`)
  const refresh = useRefresh()
  const done = useCallback(() => refresh(atom), [refresh, atom])
  const actions = useChangeRequestThreadActions(params, done)
  const post = useMutation(postComment)
  const me = useMe()
  return useCallback((pageId: string): BlockComments => ({
    threads: (threads ?? []).filter((t) => t.comment.target.page?.id === pageId && decodeAnchor(t.comment.target.node?.id) !== undefined),
    renderThread: (thread) => {
      // The words it is on, above it: a comment on a selection names them.
      const quote = decodeAnchor(thread.comment.target.node?.id)?.quote ?? ""
      const context = quote === "" ? undefined : <p className="muted review-quote">“{quote.length > 80 ? `${quote.slice(0, 80)}…` : quote}”</p>
      return <Thread thread={thread} actions={actions} me={me} organizationId={organizationId} context={context} />
    },
    renderComposer: (node, _quote, close) => (
      <NewComment id={`new-comment-${pageId}`} label="Comment on this block" organizationId={organizationId} autoFocus onCancel={close}
        onPost={async (markdown) => {
          await post({ params, payload: { body: { markdown }, page: pageId, node } })
          close()
          done()
        }} />
    )
  }), [threads, actions, me, organizationId, post, params, done])
}

/**
 * A requested reviewer, with the removal of the request (removeRequestedReviewerFromChangeRequest)
 * beside them: "Decline" for the reviewer themselves, "Withdraw" for whoever may edit the change
 * request, nothing for others (the API would refuse them).
 */
const RequestedReviewer = (props: {
  params: { spaceId: string; changeRequestId: string }
  user: { id: string; displayName: string }
  agentReview: AgentReviewState | undefined
  me: string | undefined
  canEdit: boolean
  onDone: () => void
}) => {
  const withdraw = useMutation(withdrawReviewer)
  const action = useAction()
  const mine = props.me === props.user.id
  const remove = () => void action.run(async () => { await withdraw({ params: { ...props.params, userId: props.user.id } }); props.onDone() })
  // The agent's review runs in the background: read again until it is done or failed.
  const working = props.agentReview?.status === "pending" || props.agentReview?.status === "running"
  const onDone = useRef(props.onDone)
  onDone.current = props.onDone
  useEffect(() => {
    if (!working) return
    const timer = setInterval(() => onDone.current(), 2000)
    return () => clearInterval(timer)
  }, [working])
  return (
    <li data-reviewer={props.user.id}>
      {mine ? "You" : props.user.displayName}: {props.agentReview === undefined ? "review requested" : agentReviewWords(props.agentReview)}{" "}
      {mine
        ? <button type="button" className="link" disabled={action.busy} aria-label="Decline the review request made to you" onClick={remove}>Decline</button>
        : props.canEdit
        ? <button type="button" className="link" disabled={action.busy} aria-label={`Withdraw the review request of ${props.user.displayName}`} onClick={remove}>Withdraw</button>
        : null}
      {action.error && <span className="review-error" role="alert"> {action.error}</span>}
    </li>
  )
}

/** Where the agent's review stands (GitBook's requested reviewer, with Quire's `agentReview`). */
interface AgentReviewState {
  readonly status: "pending" | "running" | "done" | "failed"
  readonly comments: number
  readonly message?: string
}

const agentReviewWords = (state: AgentReviewState) => {
  switch (state.status) {
    case "pending":
      return "review requested, about to start"
    case "running":
      return "reviewing…"
    case "done":
      return state.comments === 0 ? "reviewed, nothing to comment on" : `reviewed, ${state.comments} comment${state.comments === 1 ? "" : "s"} on the pages`
    case "failed":
      return `the review failed: ${state.message ?? "no reason given"}`
  }
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
        <option value="agent">Agent (reviews in the background, as you)</option>
        {members.value.items.map((m) => <option key={m.user.id} value={m.user.id}>{m.user.displayName}</option>)}
      </select>
      <button type="button" disabled={user === "" || action.busy} onClick={() => void action.run(async () => { await request({ params: props.params, payload: { users: [user] } }); props.onDone() })}>Request review</button>
      {action.error && <span className="review-error" role="alert">{action.error}</span>}
    </div>
  )
}
