/**
 * The review's changed pages, each with its diff and a "Viewed" checkbox: the reviewer's marks are
 * kept by the server until a later revision changes the page again, and a viewed page folds away.
 */
import { AsyncResult } from "effect/reactivity"
import { lazy, Suspense, useEffect, useState } from "react"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { Failure, Loading } from "../../ui/States.tsx"
import { errorText } from "./action.ts"
import type { BlockComments } from "./DiffView.tsx"
import { pageSidesAtom, setViewedPage, viewedKey, viewedPagesAtom } from "./queries.ts"

const DiffView = lazy(() => import("./DiffView.tsx").then((m) => ({ default: m.DiffView })))

/** A page the change request creates or edits. */
export interface ChangedPage {
  readonly id: string
  readonly title: string
  readonly created: boolean
}

interface ChangedPagesProps {
  readonly spaceId: string
  readonly number: number
  readonly pages: ReadonlyArray<ChangedPage>
  /** The main revision the change request is compared with. */
  readonly base: string
  /** Whether the person may mark pages viewed (the review role); otherwise why not. */
  readonly canMark: boolean
  /** Merged or archived: no page is marked viewed any more, and nothing needs saying why. */
  readonly closed?: boolean
  /** The comments on a page's blocks, beside them. */
  readonly comments: (pageId: string) => BlockComments
  /** A page to show unfolded (a comment on it was asked for), again at each new `n`. */
  readonly reveal?: { readonly page: string; readonly n: number } | undefined
}

export const ChangedPages = (props: ChangedPagesProps) => {
  const viewed = useAtomValue(viewedPagesAtom(`${props.spaceId}\n${props.number}`))
  const marked = new Set(AsyncResult.isSuccess(viewed) ? viewed.value.items.map((mark) => mark.pageId) : [])
  const count = props.pages.filter((page) => marked.has(page.id)).length
  return (
    <section aria-labelledby="changes-h" className="review-changes">
      <div className="review-changes-head">
        <h2 id="changes-h">Changed pages</h2>
        {props.pages.length === 0 ? null : (
          <span className="review-viewed-count" role="status" data-testid="viewed-count">
            {count} of {props.pages.length} viewed
          </span>
        )}
      </div>
      {props.pages.length === 0 && <p className="muted">No page changed.</p>}
      {!props.canMark && props.closed !== true && props.pages.length > 0 ? <p className="muted">Your role in this space does not let you review, so you cannot mark pages viewed.</p> : null}
      {props.pages.map((page) => (
        <ChangedPageSection key={page.id} {...props} page={page} viewed={marked.has(page.id)} />
      ))}
    </section>
  )
}

const ChangedPageSection = (props: ChangedPagesProps & { readonly page: ChangedPage; readonly viewed: boolean }) => {
  const set = useMutation(setViewedPage)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>()
  // What the person just ticked, shown at once, until the server's marks say the same (or it refused).
  const [ticked, setTicked] = useState<boolean | undefined>()
  const [seen, setSeen] = useState(props.viewed)
  if (seen !== props.viewed) {
    setSeen(props.viewed)
    setTicked(undefined)
  }
  const viewed = ticked ?? props.viewed
  // A viewed page folds away; its reader may open it again without clearing the mark.
  const [shown, setShown] = useState(false)
  const { reveal } = props
  useEffect(() => {
    if (reveal?.page === props.page.id) setShown(true)
  }, [reveal, props.page.id])
  const open = !viewed || shown
  const checkboxId = `viewed-${props.page.id}`
  const bodyId = `changes-${props.page.id}`
  const toggle = (next: boolean) => {
    setBusy(true)
    setError(undefined)
    setTicked(next)
    set({
      params: { spaceId: props.spaceId, changeRequestId: String(props.number) },
      payload: { pageId: props.page.id, viewed: next },
      reactivityKeys: [viewedKey(props.spaceId, props.number)]
    }).then(() => setShown(false), (failure: unknown) => {
      setTicked(undefined)
      setError(`Could not save "Viewed": ${errorText(failure)}`)
    }).finally(() => setBusy(false))
  }
  return (
    <article className="review-changed-page" data-viewed={viewed} aria-labelledby={`title-${props.page.id}`}>
      <header className="review-changed-page-head">
        <h3 id={`title-${props.page.id}`}>{props.page.title}{props.page.created ? <span className="review-badge"> new</span> : null}</h3>
        {viewed ? (
          <button type="button" className="link" aria-expanded={open} aria-controls={bodyId} onClick={() => setShown(!shown)}>
            {open ? "Hide changes" : "Show changes"}
          </button>
        ) : null}
        {props.canMark ? (
          <label className="review-viewed" htmlFor={checkboxId}>
            <input id={checkboxId} type="checkbox" checked={viewed} disabled={busy} onChange={(event) => toggle(event.target.checked)} />
            Viewed
          </label>
        ) : null}
      </header>
      {error === undefined ? null : <p className="review-error" role="alert">{error}</p>}
      {open ? (
        <div id={bodyId}>
          <PageDiffSection spaceId={props.spaceId} number={props.number} pageId={props.page.id} base={props.page.created ? "" : props.base}
            comments={props.comments(props.page.id)} />
        </div>
      ) : null}
    </article>
  )
}

const PageDiffSection = (props: { spaceId: string; number: number; pageId: string; base: string; comments: BlockComments }) => {
  const result = useAtomValue(pageSidesAtom(`${props.spaceId}\n${props.number}\n${props.pageId}\n${props.base}`))
  if (AsyncResult.isFailure(result)) return <Failure result={result} />
  if (!AsyncResult.isSuccess(result)) return <Loading what="the page's changes" />
  return (
    <Suspense fallback={<Loading what="the diff" />}>
      <DiffView base={result.value.base} head={result.value.head} files={result.value.files} comments={props.comments} />
    </Suspense>
  )
}
