/** The space screen's parts around the page: table of contents, last edit, comment threads (the review screen's), open change requests. */
import { AsyncResult } from "effect/reactivity"
import { useCallback } from "react"
import { spaceAtom } from "../../api/queries.ts"
import { useAtomValue, useMutation, useRefresh } from "../../api/react.ts"
import { useMe } from "../review/ReviewComments.tsx"
import { useSpaceThreadActions } from "../review/thread-actions.ts"
import { NewComment, Thread } from "../review/Threads.tsx"
import "../review/review.css"
import { appPath, Link } from "../../ui/Link.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { draftChangeRequestsAtom, pageBacklinksAtom, pageCommentsAtom, latestRevisionAtom, openChangeRequestsAtom, postSpaceComment, spaceReusableContentsAtom } from "./queries.ts"
import type { TocEntry } from "./toc.ts"
import "./space.css"
import { formatTime } from "../../ui/time.ts"
import { EmptyState } from "../../ui/EmptyState.tsx"
import { ChangeRequestIcon, CommentIcon, HistoryIcon } from "../../ui/icons.tsx"

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


/** Who and when: the API gives the page's `updatedAt` and the latest revision's time; no editor (docs/web-api.md proposes `lastEditedBy`). */
export const LastEdit = (props: { readonly spaceId: string; readonly updatedAt: string | undefined }) => {
  const latest = useAtomValue(latestRevisionAtom(props.spaceId))
  if (props.updatedAt !== undefined) return <p className="muted space-last-edit">Last edited {formatTime(props.updatedAt)}</p>
  // The API gives no page's time nor editor: the space's newest revision is the honest bound.
  const at = AsyncResult.isSuccess(latest) ? latest.value.items[0]?.createdAt : undefined
  return at === undefined ? null : <p className="muted space-last-edit">Space last changed {formatTime(at)}</p>
}

/** A change request in the side panel's lists: a row like the sidebar's, its icon and its number and subject. */
const ChangeRequestLink = (props: { readonly cr: { readonly number: number; readonly subject: string; readonly urls: { readonly app: string } } }) => (
  <Link className="space-side-row" href={appPath(props.cr.urls.app)}>
    <ChangeRequestIcon />
    <span>#{props.cr.number} {props.cr.subject === "" ? "Untitled" : props.cr.subject}</span>
  </Link>
)

/** The drafts the signed-in person started in the space, when there are some: where their unsubmitted edits are. */
const YourDrafts = (props: { readonly spaceId: string; readonly me: string }) => {
  const drafts = useAtomValue(draftChangeRequestsAtom(`${props.spaceId}\n${props.me}`))
  if (!AsyncResult.isSuccess(drafts) || drafts.value.items.length === 0) return null
  return (
    <>
      <h3 id="space-drafts">Your drafts</h3>
      <ul aria-labelledby="space-drafts">
        {drafts.value.items.map((cr) => <li key={cr.id}><ChangeRequestLink cr={cr} /></li>)}
      </ul>
    </>
  )
}

export const OpenChangeRequests = (props: { readonly spaceId: string }) => {
  const list = useAtomValue(openChangeRequestsAtom(props.spaceId))
  const me = useMe()
  return (
    <section aria-labelledby="space-crs" className="space-crs">
      <h2 id="space-crs">Change requests</h2>
      {AsyncResult.isInitial(list) ? <Loading what="change requests" />
        : AsyncResult.isFailure(list) ? <Failure result={list} />
        : list.value.items.length === 0 ? <EmptyState compact icon={<ChangeRequestIcon />} title="No open change requests." />
        : <ul>{list.value.items.map((cr) => <li key={cr.id}><ChangeRequestLink cr={cr} /></li>)}</ul>}
      {me === undefined ? null : <YourDrafts spaceId={props.spaceId} me={me} />}
      <div className="space-side-links">
        <Link className="button" href={`/s/${props.spaceId}/~/change-requests`}><ChangeRequestIcon />All change requests</Link>
        <Link className="button" href={`/s/${props.spaceId}/~/history`}><HistoryIcon />History</Link>
      </div>
    </section>
  )
}

/** The first words of a reusable content's markdown, as a reader would see them (tags and marks left out). */
const firstWords = (markdown: string): string => {
  const line = markdown.split("\n").map((text) => text.replace(/\{%[^%]*%\}|[#>*_`|]/g, "").trim()).find((text) => text !== "") ?? ""
  return line.length > 80 ? `${line.slice(0, 79)}…` : line
}

/**
 * The space's reusable contents, read-only (as GitBook lists them beside the pages): changed, like
 * pages, in a change request. Nothing is shown while the space has none.
 */
export const SpaceReusableContents = (props: { readonly spaceId: string }) => {
  const list = useAtomValue(spaceReusableContentsAtom(props.spaceId))
  if (!AsyncResult.isSuccess(list) || list.value.items.length === 0) return null
  return (
    <section aria-labelledby="space-reusable" className="space-crs space-reusable">
      <h2 id="space-reusable">Reusable content</h2>
      <ul>
        {list.value.items.map((item) => (
          <li key={item.id}>
            <span>{item.title}</span>
            {firstWords(item.markdown ?? "") === "" ? null : <span className="muted small space-reusable-words">{firstWords(item.markdown ?? "")}</span>}
          </li>
        ))}
      </ul>
      <p className="muted small">Changed in a change request, like pages.</p>
    </section>
  )
}

/**
 * "Links to this page": the pages of the main content that link to it (GitBook's backlinks), each
 * a link to that page, in its space when it is another. Said plainly when there are none.
 */
export const PageBacklinks = (props: { readonly spaceId: string; readonly pageId: string }) => {
  const list = useAtomValue(pageBacklinksAtom(`${props.spaceId}\n${props.pageId}`))
  const pages = AsyncResult.isSuccess(list) ? list.value.items.flatMap((item) => item.kind === "page" ? [item] : []) : []
  return (
    <section aria-labelledby="space-backlinks" className="space-crs space-backlinks">
      <h2 id="space-backlinks">Links to this page</h2>
      {AsyncResult.isInitial(list) ? <Loading what="links to this page" />
        : AsyncResult.isFailure(list) ? <Failure result={list} />
        : pages.length === 0 ? <p className="muted small">No page links here yet.</p>
        : (
          <ul>
            {pages.map((item) => (
              <li key={`${item.space.id}:${item.page.id}`}>
                <Link className="space-side-row" href={`/s/${item.space.id}/${item.page.path}`}>
                  <span>{item.page.title}</span>
                  {item.space.id === props.spaceId ? null : <span className="muted small"> in {item.space.title}</span>}
                </Link>
              </li>
            ))}
          </ul>
        )}
    </section>
  )
}

/** The page's comment threads (resolve, reactions, replies, mentions: the review screen's components) and a new comment. */
export const PageComments = (props: { readonly spaceId: string; readonly pageId: string }) => {
  const atom = pageCommentsAtom(`${props.spaceId}\n${props.pageId}`)
  const comments = useAtomValue(atom)
  const space = useAtomValue(spaceAtom(props.spaceId))
  const organizationId = AsyncResult.isSuccess(space) ? space.value.organization : undefined
  const refresh = useRefresh()
  const done = useCallback(() => refresh(atom), [refresh, atom])
  const actions = useSpaceThreadActions(props.spaceId, done)
  const post = useMutation(postSpaceComment)
  const me = useMe()
  return (
    <section aria-labelledby="space-comments" className="space-comments">
      <h2 id="space-comments">Comments</h2>
      {AsyncResult.isInitial(comments) ? <Loading what="comments" />
        : AsyncResult.isFailure(comments) ? <Failure result={comments} />
        : comments.value.length === 0 ? <EmptyState compact icon={<CommentIcon />} title="No comments on this page yet." />
        : <div className="space-comment-list">{comments.value.map((thread) => (
          <Thread key={thread.comment.id} thread={thread} actions={actions} me={me} organizationId={organizationId} />
        ))}</div>}
      <NewComment id="space-new-comment" label="Comment on this page" organizationId={organizationId} onPost={async (markdown) => {
        await post({ params: { spaceId: props.spaceId }, payload: { body: { markdown }, page: props.pageId } })
        done()
      }} />
    </section>
  )
}
