/** `/o/<orgId>`: the organization's spaces and collections as a tree, creating them (a new space opens on its first page), and its recent change requests. */
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useEffect, useMemo, useState } from "react"
import { orgKey, QuireApi } from "../api/client.ts"
import { organizationAtom, orgContentAtom, recentChangeRequestsAtom } from "../api/queries.ts"
import { useAtomValue, useMutation } from "../api/react.ts"
import { OrgTree } from "../features/org-tree/OrgTree.tsx"
import { SitesList } from "../features/sites/SitesList.tsx"
import { buildTree } from "../features/org-tree/tree-model.ts"
import { NewChangeRequestInOrganization } from "../features/editing/NewChangeRequest.tsx"
import { useStartFirstPage } from "../features/onboarding/first-page.ts"
import { navigate } from "../router.ts"
import { appPath, Link } from "../ui/Link.tsx"
import { Failure, Loading } from "../ui/States.tsx"
import { ChangeRequestState } from "../ui/ChangeRequestState.tsx"
import { AskIcon, ChangeRequestIcon, CheckIcon, FolderIcon, MembersIcon, PlusIcon, SettingsIcon, SpecIcon, TeamsIcon, TranslationIcon } from "../ui/icons.tsx"
import { EmptyState } from "../ui/EmptyState.tsx"

const createSpace = QuireApi.mutation("spaces", "createSpace")
const createCollection = QuireApi.mutation("collections", "createCollection")
const pingMember = QuireApi.mutation("members", "updateOrganizationMemberLastSeenAt")

const CreateForm = (props: { readonly organizationId: string; readonly kind: "space" | "collection"; readonly onDone: (message: string) => void }) => {
  const [title, setTitle] = useState("")
  const [error, setError] = useState<string | undefined>(undefined)
  const newSpace = useMutation(createSpace)
  const newCollection = useMutation(createCollection)
  const startFirstPage = useStartFirstPage()
  const [opening, setOpening] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const value = title.trim()
    if (value === "") {
      setError("Give it a title.")
      return
    }
    const reactivityKeys = [orgKey(props.organizationId)]
    let space: { readonly id: string } | undefined
    try {
      if (props.kind === "space") space = await newSpace({ params: { organizationId: props.organizationId }, payload: { title: value }, reactivityKeys })
      else await newCollection({ params: { organizationId: props.organizationId }, payload: { title: value }, reactivityKeys })
    } catch (cause) {
      setError(typeof cause === "object" && cause !== null && "message" in cause ? String(cause.message) : "The server refused it.")
      return
    }
    if (space === undefined) return props.onDone(`Created ${value}`)
    // A new space opens on its first page, to be typed into; if that fails, on the space, which offers it again.
    setOpening(true)
    const spaceId = space.id
    await startFirstPage(spaceId).catch(() => navigate(`/s/${spaceId}`))
  }
  return (
    <form className="toolbar" onSubmit={(event) => void submit(event)}>
      <label className="visually-hidden" htmlFor="new-title">Title of the new {props.kind}</label>
      <input id="new-title" style={{ maxWidth: "18rem" }} placeholder={`Title of the new ${props.kind}`} value={title} onChange={(event) => setTitle(event.target.value)} autoFocus
        aria-invalid={error === undefined ? undefined : true} aria-describedby={error === undefined ? undefined : "new-error"} />
      <button type="submit" className="primary" disabled={opening} aria-busy={opening}>{opening ? "Opening…" : "Create"}</button>
      <button type="button" onClick={() => props.onDone("")}>Cancel</button>
      {error === undefined ? null : <p id="new-error" className="field-error" role="alert" style={{ flexBasis: "100%" }}>{error}</p>}
    </form>
  )
}

const RecentChangeRequests = (props: { readonly organizationId: string }) => {
  const recent = useAtomValue(recentChangeRequestsAtom(props.organizationId))
  if (AsyncResult.isInitial(recent)) return <Loading what="change requests" />
  if (AsyncResult.isFailure(recent)) return <Failure result={recent} />
  if (recent.value.length === 0) return <EmptyState compact icon={<ChangeRequestIcon />} title="No open change requests." />
  return (
    <ul className="cr-list">
      {recent.value.map(({ cr, spaceTitle }) => (
        <li key={cr.id}>
          <Link className="card-row" href={appPath(cr.urls.app)}>
            <span className="card-row-icon"><ChangeRequestIcon /></span>
            <span className="card-row-text">
              <span className="card-row-title">#{cr.number} {cr.subject === "" ? "Untitled change request" : cr.subject}</span>
              <span className="meta">{spaceTitle} · {cr.createdBy.displayName}</span>
            </span>
            <ChangeRequestState status={cr.status} />
          </Link>
        </li>
      ))}
    </ul>
  )
}

export const OrgHome = (props: { readonly organizationId: string }) => {
  const org = useAtomValue(organizationAtom(props.organizationId))
  const content = useAtomValue(orgContentAtom(props.organizationId))
  const [creating, setCreating] = useState<"space" | "collection" | undefined>(undefined)
  const [message, setMessage] = useState("")
  const ping = useMutation(pingMember)
  // The organization answers only its members: once it has, opening it is what the members screen's
  // "last seen" records (GitBook's ping); nothing the person sees depends on it, so a failure is let go.
  const member = AsyncResult.isSuccess(org)
  useEffect(() => {
    if (member) ping({ params: { organizationId: props.organizationId } }).catch(() => undefined)
  }, [member, props.organizationId, ping])
  const tree = useMemo(() => AsyncResult.isSuccess(content)
    ? buildTree([
      ...content.value.collections.map((c) => ({ kind: "collection" as const, id: c.id, title: c.title, parent: c.parent, manage: c.permissions.admin })),
      ...content.value.spaces.map((s) => ({ kind: "space" as const, id: s.id, title: s.title, emoji: s.emoji, parent: s.parent, manage: s.permissions.admin }))
    ])
    : undefined, [content])
  if (AsyncResult.isFailure(org)) return <Failure result={org} />
  const canCreate = AsyncResult.isSuccess(org) && org.value.permissions.createContent
  return (
    <>
      <div className="org-title">
        <h1>{AsyncResult.isSuccess(org) ? org.value.title : "Organization"}</h1>
        {/* The organization's other screens, as the quiet buttons of a toolbar rather than a row of underlined links. */}
        <nav className="org-admin-links toolbar" aria-label="Organization">
          <Link className="button" href={`/o/${props.organizationId}/members`}><MembersIcon />Members</Link>
          <Link className="button" href={`/o/${props.organizationId}/teams`}><TeamsIcon />Teams</Link>
          <Link className="button" href={`/o/${props.organizationId}/openapi`}><SpecIcon />OpenAPI specs</Link>
          <Link className="button" href={`/o/${props.organizationId}/translations`}><TranslationIcon />Translations</Link>
          <Link className="button" href={`/o/${props.organizationId}/assistant`}><AskIcon />Assistant</Link>
          <Link className="button" href={`/o/${props.organizationId}/freshness`}><CheckIcon />Freshness</Link>
          {AsyncResult.isSuccess(org) && org.value.permissions.admin
            ? <Link className="button" href={`/o/${props.organizationId}/settings`}><SettingsIcon />Settings</Link>
            : null}
        </nav>
      </div>
      <div className="columns">
        <section aria-labelledby="spaces-heading">
          <h2 id="spaces-heading">Spaces</h2>
          {creating === undefined ? (
            <div className="toolbar">
              {/* Creating content needs the create role or above: a reviewer or reader is not offered what the API would refuse. */}
              {canCreate ? <button type="button" onClick={() => setCreating("space")}><PlusIcon />New space</button> : null}
              {canCreate ? <button type="button" onClick={() => setCreating("collection")}><FolderIcon />New collection</button> : null}
              <span className="status" role="status">{message}</span>
            </div>
          ) : <CreateForm organizationId={props.organizationId} kind={creating} onDone={(done) => {
            setCreating(undefined)
            setMessage(done)
          }} />}
          {AsyncResult.isFailure(content) ? <Failure result={content} /> : tree === undefined ? <Loading what="spaces" /> : <OrgTree organizationId={props.organizationId} tree={tree} />}
          {AsyncResult.isSuccess(content) && [...content.value.spaces, ...content.value.collections].some((item) => item.permissions.admin)
            ? <p className="muted small">Drag a row to reorder it or drop it on a collection; or use Move… from the keyboard.</p>
            : null}
        </section>
        <div>
          <section aria-labelledby="cr-heading">
            <h2 id="cr-heading">Recent change requests</h2>
            {AsyncResult.isSuccess(content) ? (
              <div className="toolbar">
                <NewChangeRequestInOrganization spaces={content.value.spaces.map((space) => ({ id: space.id, title: space.title, canEdit: space.permissions.edit }))} />
              </div>
            ) : null}
            <RecentChangeRequests organizationId={props.organizationId} />
          </section>
          {/* Sites are for the organization's members: a guest (no role) is answered 404 for them. */}
          {AsyncResult.isSuccess(org) && org.value.permissions.listMembers ? <SitesList organizationId={props.organizationId} /> : null}
        </div>
      </div>
    </>
  )
}
