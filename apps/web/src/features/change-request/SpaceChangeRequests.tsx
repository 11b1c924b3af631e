/**
 * The space's change requests beside a change request's review, as GitBook's list on the left of
 * its change request: filtered by status and "Yours" (`listChangeRequestsForSpace`, the query the
 * space's list reads), the one shown marked. Drawn in the workspace's sidebar, so a narrow screen
 * reaches it from the header's button that opens the sidebar.
 */
import type { ChangeRequest } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { useId, useState } from "react"
import { useAtomValue } from "../../api/react.ts"
import { stateWords } from "../../ui/ChangeRequestState.tsx"
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
  const filter: ChangeRequestFilter = { statuses: [status], ...(mine && me !== undefined ? { creator: me } : {}) }
  const list = useAtomValue(spaceChangeRequestsAtom(JSON.stringify({ spaceId: props.spaceId, filter, page: undefined })))
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
      {AsyncResult.isFailure(list) ? <Failure result={list} />
        : !AsyncResult.isSuccess(list) ? <Loading what="change requests" />
        : list.value.items.length === 0 ? <p className="muted sidebar-note" role="status">{mine ? `None of yours is ${(stateWords[status] ?? status).toLowerCase()}.` : `No change request is ${(stateWords[status] ?? status).toLowerCase()}.`}</p>
        : (
          <ul className="sidebar-tree" aria-label={`Change requests: ${stateWords[status] ?? status}${mine ? ", yours" : ""}`}>
            {list.value.items.map((cr) => (
              <li key={cr.id}>
                <Link className="sidebar-link" href={`/s/${props.spaceId}/~/changes/${cr.number}/~/review`} aria-current={cr.id === props.current.id ? "page" : undefined}>
                  <span className="sidebar-icon">#{cr.number}</span>{" "}
                  <span className="sidebar-title">{cr.subject === undefined || cr.subject === "" ? "Untitled change request" : cr.subject}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      <p className="sidebar-note"><Link href={`/s/${props.spaceId}/~/change-requests`}>All change requests</Link></p>
    </nav>
  )
}
