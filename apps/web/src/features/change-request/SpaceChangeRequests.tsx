/**
 * The space's change requests beside a change request's review, as GitBook's list on the left of
 * its change request: filtered by status and "Yours" (`listChangeRequestsForSpace`, the query the
 * space's list reads), twenty at a time with "Load more" (the API's `next.page`), the one shown
 * marked; a state change made on the screen moves the list to the shown one's new status. Drawn in the workspace's sidebar, so a narrow screen
 * reaches it from the header's button that opens the sidebar.
 */
import type { ChangeRequest } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { useEffect, useId, useRef, useState } from "react"
import { useAtomValue } from "../../api/react.ts"
import { stateWords } from "../../ui/ChangeRequestState.tsx"
import { ChangeRequestIcon } from "../../ui/icons.tsx"
import { Link } from "../../ui/Link.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { useMe } from "../review/ReviewComments.tsx"
import { type ChangeRequestFilter, spaceChangeRequestsAtom } from "../space/queries.ts"

type Status = ChangeRequestFilter["statuses"][number]

const statuses: ReadonlyArray<Status> = ["open", "draft", "merged", "archived"]

export const SpaceChangeRequests = (props: { readonly spaceId: string; readonly current: ChangeRequest }) => {
  const me = useMe()
  const id = useId()
  // First the change requests in the state of the one shown, so that it is in the list.
  const [status, setStatus] = useState<Status>(statuses.find((s) => s === props.current.status) ?? "open")
  const [mine, setMine] = useState(false)
  // When the one shown changes state here (submitted, archived, reopened, merged), the list follows it to its new status;
  // the move invalidated the space's lists (`space:<id>`), so each is read anew.
  const shownStatus = props.current.status
  const seen = useRef(shownStatus)
  useEffect(() => {
    if (seen.current === shownStatus) return
    seen.current = shownStatus
    const next = statuses.find((s) => s === shownStatus)
    if (next !== undefined) setStatus(next)
  }, [shownStatus])
  const filter: ChangeRequestFilter = { statuses: [status], ...(mine && me !== undefined ? { creator: me } : {}) }
  const label = `${stateWords[status] ?? status}${mine ? ", yours" : ""}`
  return (
    <nav className="sidebar-section space-crs-nav" aria-labelledby={`${id}-h`}>
      <h2 className="sidebar-heading" id={`${id}-h`}>Change requests</h2>
      <div className="space-crs-filters">
        <label htmlFor={`${id}-status`} className="visually-hidden">Status</label>
        <select id={`${id}-status`} value={status} onChange={(event) => setStatus(event.target.value as Status)}>
          {statuses.map((s) => <option key={s} value={s}>{stateWords[s] ?? s}</option>)}
        </select>
        <label><input type="checkbox" checked={mine} disabled={me === undefined} onChange={(event) => setMine(event.target.checked)} /> Yours</label>
      </div>
      {/* A new filter starts from the first page again. */}
      <Pages key={JSON.stringify(filter)} spaceId={props.spaceId} filter={filter} label={label} currentId={props.current.id}
        empty={mine ? `None of yours is ${(stateWords[status] ?? status).toLowerCase()}.` : `No change request is ${(stateWords[status] ?? status).toLowerCase()}.`} />
      <p className="sidebar-note"><Link className="button" href={`/s/${props.spaceId}/~/change-requests`}><ChangeRequestIcon />All change requests</Link></p>
    </nav>
  )
}

interface ListProps {
  readonly spaceId: string
  readonly filter: ChangeRequestFilter
  readonly label: string
  readonly currentId: string
  readonly empty: string
}

/** The pages of the list loaded so far: the first, then one more per "Load more" (the API's `next.page`). */
const Pages = (props: ListProps) => {
  const [cursors, setCursors] = useState<ReadonlyArray<string | undefined>>([undefined])
  const first = useAtomValue(spaceChangeRequestsAtom(JSON.stringify({ spaceId: props.spaceId, filter: props.filter, page: undefined })))
  if (AsyncResult.isFailure(first)) return <Failure result={first} />
  if (!AsyncResult.isSuccess(first)) return <Loading what="change requests" />
  if (first.value.items.length === 0) return <p className="muted sidebar-note" role="status">{props.empty}</p>
  return (
    <ul className="sidebar-tree" aria-label={`Change requests: ${props.label}`}>
      {cursors.map((cursor, index) => (
        <Page key={cursor ?? ""} {...props} cursor={cursor}
          onMore={index === cursors.length - 1 ? (next) => setCursors([...cursors, next]) : undefined} />
      ))}
    </ul>
  )
}

const Page = (props: ListProps & {
  readonly cursor: string | undefined
  /** Set on the last page loaded: asks for the page after it. */
  readonly onMore: ((cursor: string) => void) | undefined
}) => {
  const list = useAtomValue(spaceChangeRequestsAtom(JSON.stringify({ spaceId: props.spaceId, filter: props.filter, page: props.cursor })))
  const more = useRef<HTMLLIElement>(null)
  if (AsyncResult.isFailure(list)) return <li className="sidebar-note"><Failure result={list} /></li>
  if (!AsyncResult.isSuccess(list)) return <li className="sidebar-note"><Loading what="more change requests" /></li>
  const next = list.value.next?.page
  return (
    <>
      {list.value.items.map((cr, index) => (
        <li key={cr.id}>
          <Link className="sidebar-link" href={`/s/${props.spaceId}/~/changes/${cr.number}/~/review`} aria-current={cr.id === props.currentId ? "page" : undefined}
            data-first-of-page={index === 0 && props.cursor !== undefined ? true : undefined}>
            <span className="sidebar-icon">#{cr.number}</span>{" "}
            <span className="sidebar-title">{cr.subject === undefined || cr.subject === "" ? "Untitled change request" : cr.subject}</span>
          </Link>
        </li>
      ))}
      {next !== undefined && props.onMore !== undefined
        ? (
          <li className="sidebar-note" ref={more}>
            <button type="button" className="link" onClick={() => {
              // The focus goes to the first change request of the page it loads, once drawn.
              const list = more.current?.parentElement
              props.onMore?.(next)
              const until = Date.now() + 10_000
              const focus = () => {
                const first = list?.querySelector<HTMLElement>(`a[data-first-of-page]:not([data-focused])`)
                if (first !== null && first !== undefined) {
                  first.setAttribute("data-focused", "")
                  first.focus()
                } else if (Date.now() < until) setTimeout(focus, 50)
              }
              focus()
            }}>Load more</button>
          </li>
        )
        : null}
    </>
  )
}
