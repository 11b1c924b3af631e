/**
 * The audit log screens: `/o/<org>/audit-log` (the organization's, for its admins, through
 * `listOrganizationAuditEvents`) and `/settings/instance-audit-log` (the whole instance's, for
 * instance administrators, through `GET /admin/audit-events`, whose pages carry the current names of
 * the people, teams, content, sites and organizations their events refer to, and each event's
 * organization). A table of events as sentences, newest first, filtered by action, actor and
 * dates, a page at a time; an id only where the thing is gone.
 */
import { Effect } from "effect"
import { AsyncResult, Atom } from "effect/reactivity"
import { type FormEvent, useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { organizationAtom, orgContentAtom } from "../../api/queries.ts"
import { useAtomValue } from "../../api/react.ts"
import { describeAgent } from "../../routes/Settings.tsx"
import { Field } from "../../ui/Field.tsx"
import { Link } from "../../ui/Link.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { formatTime } from "../../ui/time.ts"
import { membersAtom, teamsAtom } from "../admin/queries.ts"
import { sitesAtom } from "../sites/queries.ts"
import { OrgTabs, SelectField } from "../admin/ui.tsx"
import { type AuditEventView, describeParts, type NameOf, type Part } from "./wording.ts"
import "./audit.css"
import { EmptyState } from "../../ui/EmptyState.tsx"
import { AuditIcon } from "../../ui/icons.tsx"

/** What the listing asks for: the filters as the API takes them, and the page's cursor. */
interface Request {
  readonly organizationId?: string
  readonly action?: string
  readonly actor?: string
  readonly from?: string
  readonly to?: string
  readonly page?: string
}

interface EventPage {
  readonly items: ReadonlyArray<AuditEventView & { readonly organizationId?: string | null }>
  readonly next?: { readonly page: string }
  /** The instance's log: the current name of what its events refer to, `type:id` to name (a thing gone since is not there). */
  readonly names?: { readonly [key: string]: string }
}

const pageSize = 25

/** The organization's events for a request (its JSON is the key). */
const orgEventsAtom = Atom.family((key: string) => {
  const { organizationId = "", ...query } = JSON.parse(key) as Request
  return QuireApi.query("auditEvents", "listOrganizationAuditEvents", { params: { organizationId }, query: { ...query, limit: pageSize } })
})

const orgActionsAtom = Atom.family((organizationId: string) =>
  QuireApi.query("auditEvents", "listOrganizationAuditEventActions", { params: { organizationId } }))

/** A GET of the instance's log (outside `/v1`, with the session cookie); the server's message when refused. */
const adminGet = <A,>(path: string) =>
  Effect.tryPromise({
    try: async () => {
      const response = await fetch(path, { credentials: "same-origin", headers: { accept: "application/json" } })
      const body = await response.json() as A | { error: { message: string } }
      if (!response.ok) throw new Error((body as { error: { message: string } }).error?.message ?? `The server answered ${response.status}`)
      return body as A
    },
    catch: (error) => (error instanceof Error ? error : new Error(String(error)))
  })

const instanceEventsAtom = Atom.family((key: string) => {
  const request = JSON.parse(key) as Request
  const query = new URLSearchParams({ limit: String(pageSize) })
  for (const name of ["action", "actor", "from", "to", "page"] as const) {
    const value = request[name]
    if (value !== undefined) query.set(name, value)
  }
  return Atom.make(adminGet<EventPage>(`/admin/audit-events?${query.toString()}`))
})

const instanceActionsAtom = Atom.make(adminGet<{ readonly items: ReadonlyArray<{ readonly id: string; readonly label: string }> }>("/admin/audit-event-actions"))

/** A date field's day as the instant it starts or ends, in the reader's time zone. */
const dayBound = (day: string, end: boolean): string | undefined => {
  if (day === "") return undefined
  const at = new Date(`${day}T${end ? "23:59:59.999" : "00:00:00"}`)
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString()
}

interface Filters {
  readonly action: string
  readonly actor: string
  readonly from: string
  readonly to: string
}

const noFilters: Filters = { action: "", actor: "", from: "", to: "" }

const FilterForm = (props: {
  readonly applied: Filters
  readonly actions: ReadonlyArray<{ readonly id: string; readonly label: string }>
  /** The people to choose among; none: the actor is typed as an id. */
  readonly people: ReadonlyArray<{ readonly id: string; readonly name: string }> | undefined
  readonly onApply: (filters: Filters) => void
}) => {
  const [draft, setDraft] = useState<Filters>(props.applied)
  const [errors, setErrors] = useState<Partial<Record<keyof Filters, string>>>({})
  const set = (key: keyof Filters) => (value: string) => setDraft({ ...draft, [key]: value })
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const found: Partial<Record<keyof Filters, string>> = {}
    if (draft.from !== "" && dayBound(draft.from, false) === undefined) found.from = "Enter a date."
    if (draft.to !== "" && dayBound(draft.to, true) === undefined) found.to = "Enter a date."
    if (found.from === undefined && found.to === undefined && draft.from !== "" && draft.to !== "" && draft.to < draft.from) {
      found.to = "The end date is before the start date."
    }
    setErrors(found)
    if (Object.keys(found).length === 0) props.onApply(draft)
  }
  return (
    <form className="audit-filters" onSubmit={onSubmit} noValidate aria-label="Filter the audit log">
      <SelectField label="Action" name="action" value={draft.action} onChange={set("action")}
        options={[{ value: "", label: "Any action" }, ...props.actions.map((a) => ({ value: a.id, label: a.label }))]} />
      {props.people === undefined
        ? <Field label="Actor (user id)" name="actor" value={draft.actor} onChange={set("actor")} autoComplete="off" />
        : (
          <SelectField label="Actor" name="actor" value={draft.actor} onChange={set("actor")}
            options={[{ value: "", label: "Anyone" }, ...props.people.map((p) => ({ value: p.id, label: p.name }))]} />
        )}
      <Field label="From" name="from" type="date" value={draft.from} onChange={set("from")} error={errors.from} />
      <Field label="To" name="to" type="date" value={draft.to} onChange={set("to")} error={errors.to} />
      <div className="toolbar audit-filter-actions">
        <button type="submit" className="primary">Apply filters</button>
        <button type="button" onClick={() => { setDraft(noFilters); setErrors({}); props.onApply(noFilters) }}>Clear</button>
      </div>
    </form>
  )
}

/** Where a named thing opens in the app, when it still exists there (the organization's log only). */
type HrefOf = (type: string, id: string) => string | undefined

/** A sentence with its names: a link where the thing can be opened, else the name with its id in the title. */
const Sentence = (props: { readonly parts: ReadonlyArray<Part>; readonly hrefOf: HrefOf }) => (
  <>
    {props.parts.map((part, index) => {
      if (typeof part === "string") return part
      const href = props.hrefOf(part.type, part.id)
      const title = `${part.type} ${part.id}`
      return href === undefined
        ? <span key={index} className="audit-name" title={title} data-id={part.id}>{part.name}</span>
        : <Link key={index} href={href} className="audit-name" title={title} data-id={part.id}>{part.name}</Link>
    })}
  </>
)

const EventsTable = (props: {
  readonly result: AsyncResult.AsyncResult<EventPage, unknown>
  /** The names the page does not carry (the organization's log reads them from /v1). */
  readonly nameOf: NameOf
  readonly hrefOf: HrefOf
  readonly labels: ReadonlyMap<string, string>
  /** The instance's log: each event's organization, in a column of its own. */
  readonly showOrganization?: boolean
  readonly pageNumber: number
  readonly onOlder: (cursor: string) => void
  readonly onNewer: () => void
}) => {
  const { result } = props
  if (AsyncResult.isFailure(result)) return <Failure result={result} />
  if (!AsyncResult.isSuccess(result)) return <Loading what="the events" />
  const { items, next } = result.value
  const names = result.value.names ?? {}
  const nameOf: NameOf = (type, id) => names[`${type}:${id}`] ?? props.nameOf(type, id)
  // An organization by its name now, else (deleted since) by a short form of its id.
  const organization = (id: string | null | undefined) => {
    if (id === null || id === undefined) return <span className="muted">The instance</span>
    const name = names[`organization:${id}`]
    return name === undefined
      ? <span className="audit-name" title={`organization ${id}`} data-id={id}>organization {id.length > 10 ? `${id.slice(0, 8)}…` : id}</span>
      : <span className="audit-name" title={`organization ${id}`} data-id={id}>{name}</span>
  }
  return (
    <section aria-labelledby="audit-events-heading" className="admin-section">
      <h2 id="audit-events-heading" className="visually-hidden">Events</h2>
      {items.length === 0 ? <EmptyState status icon={<AuditIcon size={20} />} title="No event matches.">Widen the dates, or clear a filter.</EmptyState> : (
        <table className="admin-table audit-table">
          <thead><tr><th scope="col">When</th><th scope="col">What happened</th>{props.showOrganization === true ? <th scope="col">Organization</th> : null}<th scope="col" className="wide">Action</th><th scope="col" className="wide">From</th></tr></thead>
          <tbody>
            {items.map((event) => (
              <tr key={event.id} data-action={event.action}>
                <td className="audit-when"><time dateTime={event.occurredAt}>{formatTime(event.occurredAt)}</time></td>
                <td><Sentence parts={describeParts(event, nameOf)} hrefOf={props.hrefOf} /></td>
                {props.showOrganization === true ? <td>{organization(event.organizationId)}</td> : null}
                <td className="wide"><span className="audit-action">{props.labels.get(event.action) ?? event.action}</span></td>
                <td className="wide muted small">
                  {event.client?.address ?? (event.actor.type === "system" ? "Command line" : "")}
                  {event.client?.userAgent === undefined ? null : <div>{describeAgent(event.client.userAgent)}</div>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav className="toolbar audit-pages" aria-label="Pages of the audit log">
        <button type="button" disabled={props.pageNumber === 1} onClick={props.onNewer}>Newer</button>
        <span className="muted" aria-live="polite">Page {props.pageNumber}</span>
        <button type="button" disabled={next === undefined} onClick={() => next !== undefined && props.onOlder(next.page)}>Older</button>
      </nav>
    </section>
  )
}

/** The filters applied and the cursors of the pages read so far (the first is the newest page's: none). */
const usePaging = () => {
  const [filters, setFilters] = useState<Filters>(noFilters)
  const [cursors, setCursors] = useState<ReadonlyArray<string | undefined>>([undefined])
  const request: Request = {
    ...(filters.action === "" ? {} : { action: filters.action }),
    ...(filters.actor === "" ? {} : { actor: filters.actor }),
    ...(dayBound(filters.from, false) === undefined ? {} : { from: dayBound(filters.from, false)! }),
    ...(dayBound(filters.to, true) === undefined ? {} : { to: dayBound(filters.to, true)! }),
    ...(cursors.at(-1) === undefined ? {} : { page: cursors.at(-1)! })
  }
  return {
    filters,
    request,
    pageNumber: cursors.length,
    apply: (next: Filters) => { setFilters(next); setCursors([undefined]) },
    older: (cursor: string) => setCursors([...cursors, cursor]),
    newer: () => setCursors(cursors.slice(0, -1))
  }
}

const OrgLog = (props: { readonly organizationId: string }) => {
  const paging = usePaging()
  const members = useAtomValue(membersAtom(props.organizationId))
  const actions = useAtomValue(orgActionsAtom(props.organizationId))
  const teams = useAtomValue(teamsAtom(props.organizationId))
  const content = useAtomValue(orgContentAtom(props.organizationId))
  const sites = useAtomValue(sitesAtom(props.organizationId))
  const events = useAtomValue(orgEventsAtom(JSON.stringify({ organizationId: props.organizationId, ...paging.request })))
  const people = AsyncResult.isSuccess(members) ? members.value.items.map((m) => ({ id: m.user.id, name: m.user.displayName })) : []
  // The names /v1 gives now, by kind; a thing deleted since, or out of the reader's sight, keeps the label the event recorded.
  const names = new Map<string, string>([
    ...people.map((p) => [`user:${p.id}`, p.name] as const),
    ...(AsyncResult.isSuccess(teams) ? teams.value.items.map((t) => [`team:${t.id}`, t.title] as const) : []),
    ...(AsyncResult.isSuccess(content) ? content.value.spaces.map((s) => [`space:${s.id}`, s.title] as const) : []),
    ...(AsyncResult.isSuccess(content) ? content.value.collections.map((c) => [`collection:${c.id}`, c.title] as const) : []),
    ...(AsyncResult.isSuccess(sites) ? sites.value.items.map((s) => [`site:${s.id}`, s.title] as const) : [])
  ])
  const org = props.organizationId
  const hrefOf: HrefOf = (type, id) => {
    if (!names.has(`${type}:${id}`)) return undefined
    if (type === "space") return `/s/${id}`
    if (type === "collection") return `/o/${org}/c/${id}`
    if (type === "site") return `/o/${org}/sites/${id}`
    if (type === "team") return `/o/${org}/teams`
    return undefined
  }
  const actionList = AsyncResult.isSuccess(actions) ? actions.value.items : []
  return (
    <>
      <FilterForm applied={paging.filters} actions={actionList} people={people} onApply={paging.apply} />
      <EventsTable result={events as AsyncResult.AsyncResult<EventPage, unknown>} nameOf={(type, id) => names.get(`${type}:${id}`)} hrefOf={hrefOf} labels={new Map(actionList.map((a) => [a.id, a.label]))}
        pageNumber={paging.pageNumber} onOlder={paging.older} onNewer={paging.newer} />
    </>
  )
}

/** `/o/<org>/audit-log`. */
export const OrgAuditLog = (props: { readonly organizationId: string }) => {
  const org = useAtomValue(organizationAtom(props.organizationId))
  if (AsyncResult.isFailure(org)) return <Failure result={org} />
  if (!AsyncResult.isSuccess(org)) return <Loading what="the organization" />
  return (
    <div className="admin">
      <OrgTabs organizationId={props.organizationId} current="audit-log" title={org.value.title} admin={org.value.permissions.admin} />
      <h1>Audit log</h1>
      {org.value.permissions.admin
        ? <><p className="muted">Who changed who can do what in {org.value.title}, and when, newest first.</p><OrgLog organizationId={props.organizationId} /></>
        : <p className="panel" role="alert">Only the organization’s administrators can read its audit log.</p>}
    </div>
  )
}

/** `/settings/instance-audit-log`: every organization's events and the instance's own. */
export const InstanceAuditLog = (props: { readonly me: { readonly id: string; readonly displayName: string } }) => {
  const paging = usePaging()
  const actions = useAtomValue(instanceActionsAtom)
  const events = useAtomValue(instanceEventsAtom(JSON.stringify(paging.request)))
  const actionList = AsyncResult.isSuccess(actions) ? actions.value.items : []
  return (
    <div className="admin">
      <h2>Instance audit log</h2>
      <p className="muted">Sign-ins, tokens and instance administration, and every organization’s events, newest first.</p>
      <FilterForm applied={paging.filters} actions={actionList} people={undefined} onApply={paging.apply} />
      <EventsTable result={events} nameOf={(type, id) => (type === "user" && id === props.me.id ? props.me.displayName : undefined)} hrefOf={() => undefined} labels={new Map(actionList.map((a) => [a.id, a.label]))}
        showOrganization pageNumber={paging.pageNumber} onOlder={paging.older} onNewer={paging.newer} />
    </div>
  )
}

export default OrgAuditLog
