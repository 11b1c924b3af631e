/** Whether a site is published (`publishSite` / `unpublishSite`), and where readers find it. */
import type { Site } from "@quire/api"
import { useState } from "react"
import { useMutation } from "../../api/react.ts"
import { ExportSite } from "./ExportSite.tsx"
import { publishSite, siteKey, sitesKey, unpublishSite, useAction } from "./queries.ts"

export const Publish = (props: { readonly organizationId: string; readonly site: Site; readonly publishedUrl: string | undefined }) => {
  const { site } = props
  const publish = useMutation(publishSite)
  const unpublish = useMutation(unpublishSite)
  const action = useAction()
  const [said, setSaid] = useState("")
  const toggle = async () => {
    const params = { organizationId: props.organizationId, siteId: site.id }
    const reactivityKeys = [siteKey(site.id), sitesKey(props.organizationId)]
    const done = await action.run(() => site.published ? unpublish({ params, reactivityKeys }) : publish({ params, reactivityKeys }))
    if (done) setSaid(site.published ? "Unpublished: its addresses answer “not found”." : "Published")
  }
  return (
    <section className="panel publish" aria-labelledby="publish-heading">
      <h2 id="publish-heading">{site.published ? "Published" : "Not published"}</h2>
      {site.published
        ? props.publishedUrl === undefined
          ? <p className="muted">{site.visibility === "share-link" ? "Readers open it through a share link: create one below." : "Its address appears here once the API gives it."}</p>
          : (
            <p>
              <a href={props.publishedUrl} target="_blank" rel="noreferrer" className="published-url">{props.publishedUrl}</a>
              {site.visibility === "share-link" ? <span className="meta"> (through a share link)</span> : null}
            </p>
          )
        : <p className="muted">Readers cannot open it yet.</p>}
      {site.permissions.edit ? (
        <button type="button" className={site.published ? undefined : "primary"} disabled={action.busy} aria-busy={action.busy} onClick={() => void toggle()}>
          {action.busy ? (site.published ? "Unpublishing…" : "Publishing…") : site.published ? "Unpublish" : "Publish"}
        </button>
      ) : null}
      {site.published && site.permissions.edit ? <ExportSite organizationId={props.organizationId} siteId={site.id} /> : null}
      {action.problem === undefined ? null : <p className="form-error" role="alert">{action.problem.message}</p>}
      <p className="status" role="status">{said}</p>
    </section>
  )
}
