/**
 * `/s/<space>/~/change-requests`: the space's change requests, filtered as GitBook's list is
 * (status, created by me, awaiting my review), newest first, a page at a time ("Load more"
 * follows the listing's `next.page` cursor), with "New change request" and whether authors may
 * approve their own (a space admin's merge rule).
 */
import type { ChangeRequest } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { useState } from "react"
import { spaceAtom } from "../api/queries.ts"
import { useAtomValue } from "../api/react.ts"
import { NewChangeRequest } from "../features/editing/NewChangeRequest.tsx"
import { AuthorApproval } from "../features/space/AuthorApproval.tsx"
import { useMe } from "../features/review/ReviewComments.tsx"
import { type ChangeRequestFilter, spaceChangeRequestsAtom } from "../features/space/queries.ts"
import "../features/space/space.css"
import { appPath, Link } from "../ui/Link.tsx"
import { Failure, Loading } from "../ui/States.tsx"
import { formatTime } from "../ui/time.ts"
import { EmptyState } from "../ui/EmptyState.tsx"
import { BackIcon, ChangeRequestIcon, NoResultsIcon } from "../ui/icons.tsx"

type Status = ChangeRequestFilter["statuses"][number]

const statuses: ReadonlyArray<{ readonly value: Status; readonly label: string }> = [
  { value: "open", label: "In review" },
  { value: "draft", label: "Draft" },
  { value: "merged", label: "Merged" },
  { value: "archived", label: "Archived" }
]

const statusLabel = (status: string) => statuses.find((s) => s.value === status)?.label ?? status

interface Filters {
  readonly shown: ReadonlyArray<Status>
  readonly mine: boolean
  readonly reviewing: boolean
}

const defaultShown: ReadonlyArray<Status> = ["open", "draft"]

/** The filters the address holds (`?status=open&status=draft&mine=1&reviewing=1`), so a reload or a shared link keeps them. */
const filtersOfAddress = (): Filters => {
  const params = new URLSearchParams(window.location.search)
  const named = params.getAll("status").filter((value): value is Status => statuses.some((s) => s.value === value))
  return { shown: params.has("status") ? named : defaultShown, mine: params.get("mine") === "1", reviewing: params.get("reviewing") === "1" }
}

/** Writes the filters into the address, in place (no new history entry a filter). */
const writeAddress = (filters: Filters) => {
  const params = new URLSearchParams()
  const isDefault = filters.shown.length === defaultShown.length && defaultShown.every((s) => filters.shown.includes(s))
  // No status at all is written `status=` (the default is written as nothing).
  if (!isDefault) for (const status of filters.shown.length === 0 ? [""] : filters.shown) params.append("status", status)
  if (filters.mine) params.set("mine", "1")
  if (filters.reviewing) params.set("reviewing", "1")
  const query = params.toString()
  window.history.replaceState(window.history.state, "", `${window.location.pathname}${query === "" ? "" : `?${query}`}${window.location.hash}`)
}

export const ChangeRequests = (props: { readonly spaceId: string }) => {
  const space = useAtomValue(spaceAtom(props.spaceId))
  const me = useMe()
  const [filters, setFilters] = useState<Filters>(filtersOfAddress)
  const { shown, mine, reviewing } = filters
  const update = (next: Partial<Filters>) => {
    const merged = { ...filters, ...next }
    writeAddress(merged)
    setFilters(merged)
  }
  const setMine = (on: boolean) => update({ mine: on })
  const setReviewing = (on: boolean) => update({ reviewing: on })
  if (AsyncResult.isFailure(space)) return <Failure result={space} />
  const filter: ChangeRequestFilter = {
    statuses: statuses.map((s) => s.value).filter((s) => shown.includes(s)),
    ...(mine && me !== undefined ? { creator: me } : {}),
    ...(reviewing && me !== undefined ? { requestedReviewer: me } : {})
  }
  const toggle = (status: Status, on: boolean) => update({ shown: on ? [...shown, status] : shown.filter((s) => s !== status) })
  return (
    <div className="cr-list-page">
      <h1>Change requests{AsyncResult.isSuccess(space) ? <span className="muted"> in {space.value.title}</span> : null}</h1>
      <div className="toolbar">
        <Link className="button" href={`/s/${props.spaceId}`}><BackIcon />Back to the space</Link>
        {AsyncResult.isSuccess(space) ? <NewChangeRequest spaceId={props.spaceId} canEdit={space.value.permissions.edit} /> : null}
      </div>
      <form className="cr-filters" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
        <fieldset>
          <legend>Status</legend>
          {statuses.map((s) => (
            <label key={s.value}>
              <input type="checkbox" name="status" value={s.value} checked={shown.includes(s.value)} onChange={(event) => toggle(s.value, event.target.checked)} />
              {s.label}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>People</legend>
          <label><input type="checkbox" checked={mine} onChange={(event) => setMine(event.target.checked)} />Created by me</label>
          <label><input type="checkbox" checked={reviewing} onChange={(event) => setReviewing(event.target.checked)} />Awaiting my review</label>
        </fieldset>
      </form>
      {filter.statuses.length === 0
        ? <p className="muted" role="status">Pick at least one status to list change requests.</p>
        // A new filter starts from the first page again.
        : <Results key={JSON.stringify(filter)} spaceId={props.spaceId} filter={filter} />}
      {AsyncResult.isSuccess(space) ? (
        <section aria-labelledby="cr-rules-h" className="cr-rules">
          <h2 id="cr-rules-h">Approvals</h2>
          <AuthorApproval space={space.value} />
        </section>
      ) : null}
    </div>
  )
}

/** The pages of the list loaded so far: the first, then one more per "Load more". */
const Results = (props: { readonly spaceId: string; readonly filter: ChangeRequestFilter }) => {
  const [cursors, setCursors] = useState<ReadonlyArray<string | undefined>>([undefined])
  return (
    <ul className="space-cr-list" aria-label="Change requests">
      {cursors.map((cursor, index) => (
        <ResultPage key={cursor ?? ""} spaceId={props.spaceId} filter={props.filter} cursor={cursor} first={index === 0}
          onMore={index === cursors.length - 1 ? (next) => setCursors([...cursors, next]) : undefined} />
      ))}
    </ul>
  )
}

const ResultPage = (props: {
  readonly spaceId: string
  readonly filter: ChangeRequestFilter
  readonly cursor: string | undefined
  readonly first: boolean
  /** Set on the last page loaded: asks for the page after it. */
  readonly onMore: ((cursor: string) => void) | undefined
}) => {
  const list = useAtomValue(spaceChangeRequestsAtom(JSON.stringify({ spaceId: props.spaceId, filter: props.filter, page: props.cursor })))
  if (AsyncResult.isInitial(list)) return <li className="cr-list-note"><Loading what="change requests" /></li>
  if (AsyncResult.isFailure(list)) return <li className="cr-list-note"><Failure result={list} /></li>
  const next = list.value.next?.page
  return (
    <>
      {props.first && list.value.items.length === 0 ? <li className="cr-list-note"><NoChangeRequests filter={props.filter} /></li> : null}
      {list.value.items.map((cr) => <ChangeRequestRow key={cr.id} cr={cr} />)}
      {next !== undefined && props.onMore !== undefined ? (
        <li className="cr-list-note"><button type="button" onClick={() => props.onMore?.(next)}>Load more</button></li>
      ) : null}
    </>
  )
}

const ChangeRequestRow = (props: { readonly cr: ChangeRequest }) => {
  const { cr } = props
  return (
    <li className="cr-row" data-status={cr.status}>
      <Link className="cr-row-title" href={appPath(cr.urls.app)}>
        <ChangeRequestIcon /><span className="cr-row-number">#{cr.number}</span> {cr.subject === "" ? "Untitled change request" : cr.subject}
      </Link>
      <span className="cr-row-meta">
        <span className="cr-row-status" data-testid="cr-status">{statusLabel(cr.status)}</span>
        <span>by {cr.createdBy.displayName}</span>
        <span>updated <time dateTime={cr.updatedAt}>{formatTime(cr.updatedAt)}</time></span>
      </span>
    </li>
  )
}

/** Why the list is empty, and what to do about it. */
const NoChangeRequests = (props: { readonly filter: ChangeRequestFilter }) => {
  const narrowed = props.filter.creator !== undefined || props.filter.requestedReviewer !== undefined
  const all = props.filter.statuses.length === statuses.length
  return narrowed
    ? <EmptyState status icon={<NoResultsIcon size={20} />} title="No change request matches these filters.">Clear “Created by me” or “Awaiting my review”, or tick more statuses.</EmptyState>
    : all
      ? <EmptyState status icon={<ChangeRequestIcon size={20} />} title="No change requests yet">Start one with “New change request”: your edits stay apart from the published content until they are merged.</EmptyState>
      : <EmptyState status icon={<NoResultsIcon size={20} />} title="No change request has these statuses">Tick more statuses above, or start one with “New change request”.</EmptyState>
}
