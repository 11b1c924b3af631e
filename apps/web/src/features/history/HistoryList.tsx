/** Main's revisions newest first, a page of 20 at a time ("Load more"), each with its time, merged change request and changes. */
import { AsyncResult } from "effect/reactivity"
import { useState } from "react"
import { useAtomValue } from "../../api/react.ts"
import { appPath, Link } from "../../ui/Link.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { revisionsPageAtom } from "./queries.ts"
import { describeChange } from "./wording.ts"
import "../space/space.css"
import { formatTime } from "../../ui/time.ts"

const Batch = (props: { readonly spaceId: string; readonly page: string; readonly last: boolean; readonly onMore: (page: string) => void }) => {
  const result = useAtomValue(revisionsPageAtom(`${props.spaceId}\n${props.page}`))
  if (AsyncResult.isInitial(result)) return <li><Loading what="revisions" /></li>
  if (AsyncResult.isFailure(result)) return <li><Failure result={result} /></li>
  const next = result.value.next
  return (
    <>
      {result.value.items.map(({ revision, changes }) => (
        <li key={revision.id}>
          <p>
            <Link href={`/s/${props.spaceId}/~/revisions/${revision.id}/`}><strong>{formatTime(revision.createdAt)}</strong></Link>
            {" "}<span className="muted">{changes.mergedFrom === undefined ? (revision.type === "edits" ? "direct edit" : revision.type) : <>merged <Link href={appPath(changes.mergedFrom.urls.app)}>#{changes.mergedFrom.number} {changes.mergedFrom.subject ?? ""}</Link>{changes.mergedFrom.createdBy === undefined ? null : <> by {changes.mergedFrom.createdBy.displayName}</>}</>}</span>
          </p>
          {changes.changes.length === 0 ? <p className="muted">No page changes.</p>
            : <ul>{changes.changes.map((change, index) => <li key={index}>{describeChange(change)}</li>)}{changes.more === undefined || changes.more === 0 ? null : <li className="muted">and {changes.more} more</li>}</ul>}
        </li>
      ))}
      {props.last && next !== undefined ? <li><button type="button" className="button" onClick={() => props.onMore(next)}>Load more</button></li> : null}
    </>
  )
}

export const HistoryList = (props: { readonly spaceId: string }) => {
  const [pages, setPages] = useState<ReadonlyArray<string>>([""])
  return (
    <ol className="history-list" aria-label="Revisions">
      {pages.map((page, index) => (
        <Batch key={page} spaceId={props.spaceId} page={page} last={index === pages.length - 1} onMore={(more) => setPages([...pages, more])} />
      ))}
    </ol>
  )
}
