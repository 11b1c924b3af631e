/** The organization's docs sites on its home: each linking to its screen; "New site" for admins. */
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useState } from "react"
import { organizationAtom } from "../../api/queries.ts"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { navigate } from "../../router.ts"
import { Field, FormActions } from "../../ui/Field.tsx"
import { Link } from "../../ui/Link.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { messageElse, messageFor } from "./errors.ts"
import { createSite, sitesAtom, sitesKey, useAction } from "./queries.ts"
import { visibilityLabel } from "./wording.ts"
import { EmptyState } from "../../ui/EmptyState.tsx"
import { PlusIcon, SiteIcon } from "../../ui/icons.tsx"

const NewSite = (props: { readonly organizationId: string; readonly onCancel: () => void }) => {
  const [title, setTitle] = useState("")
  const create = useMutation(createSite)
  const action = useAction()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    let id: string | undefined
    const done = await action.run(async () => {
      const site = await create({ params: { organizationId: props.organizationId }, payload: { title: title.trim() }, reactivityKeys: [sitesKey(props.organizationId)] })
      id = site.id
    })
    if (done && id !== undefined) navigate(`/o/${props.organizationId}/sites/${id}`)
  }
  const other = messageElse(action.problem, "title")
  return (
    <form className="panel site-form" onSubmit={(event) => void submit(event)} aria-label="New site">
      <Field label="Title of the new site" name="title" value={title} onChange={setTitle} error={messageFor(action.problem, "title")} autoFocus />
      <FormActions error={other} busy={action.busy} label="Create site" busyLabel="Creating…" onCancel={props.onCancel} />
    </form>
  )
}

export const SitesList = (props: { readonly organizationId: string }) => {
  const org = useAtomValue(organizationAtom(props.organizationId))
  const sites = useAtomValue(sitesAtom(props.organizationId))
  const [creating, setCreating] = useState(false)
  const admin = AsyncResult.isSuccess(org) && org.value.permissions.admin
  return (
    <section aria-labelledby="sites-heading" className="sites-list">
      <h2 id="sites-heading">Sites</h2>
      {admin && !creating ? <div className="toolbar"><button type="button" onClick={() => setCreating(true)}><PlusIcon />New site</button></div> : null}
      {creating ? <NewSite organizationId={props.organizationId} onCancel={() => setCreating(false)} /> : null}
      {AsyncResult.isFailure(sites) ? <Failure result={sites} /> : !AsyncResult.isSuccess(sites) ? <Loading what="sites" /> : sites.value.items.length === 0
        ? <EmptyState icon={<SiteIcon size={20} />} title="No sites yet">{admin ? "A site publishes spaces for readers, on its own address. Create one with “New site”." : "A site publishes spaces for readers; an administrator of the organization creates them."}</EmptyState>
        : (
          <ul className="cr-list">
            {sites.value.items.map((site) => (
              <li key={site.id}>
                <Link className="card-row" href={`/o/${props.organizationId}/sites/${site.id}`}>
                  <span className="card-row-icon"><SiteIcon /></span>
                  <span className="card-row-text">
                    <span className="card-row-title">{site.title === "" ? "Untitled site" : site.title}</span>
                    <span className="meta">{site.published ? "Published" : "Not published"} · {visibilityLabel(site.visibility)} · {site.siteSpaces} {site.siteSpaces === 1 ? "space" : "spaces"}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
    </section>
  )
}
