/**
 * `/o/<org>/sites/<site>`: a docs site's dashboard, as GitBook's. Its title and publishing above a
 * bar of tabs, each its own address: Overview (who reads it and where, its contents in short, its
 * views), Structure (sections, variants, spaces, groups), Customization (beside a preview), Audience
 * (visibility, share links, visitor authentication; who may change it), Insights, Findings (what
 * readers asked that the docs do not answer), Style guide, and for its editors
 * Settings (address, adaptive content; deletion for its admins). Loaded with `import()` (App.tsx), with its stylesheet.
 */
import type { ShareLink, Site as SiteResource } from "@quire/api"
import { AsyncResult, Atom } from "effect/reactivity"
import { type FormEvent, useState } from "react"
import { orgContentAtom } from "../api/queries.ts"
import { useAtomValue, useMutation } from "../api/react.ts"
import { Access } from "../features/sites/Access.tsx"
import { Customization } from "../features/sites/Customization.tsx"
import { Permissions } from "../features/sites/Permissions.tsx"
import { messageElse, messageFor } from "../features/sites/errors.ts"
import { Findings } from "../features/sites/findings/Findings.tsx"
import { Insights } from "../features/sites/insights/Insights.tsx"
import { Overview } from "../features/sites/Overview.tsx"
import { Publish } from "../features/sites/Publish.tsx"
import { Settings } from "../features/sites/Settings.tsx"
import { shareLinksAtom, siteAtom, siteKey, siteRef, sitesKey, structureAtom, updateSite, useAction } from "../features/sites/queries.ts"
import { Structure } from "../features/sites/structure/Structure.tsx"
import { StyleGuide } from "../features/styleguides/StyleGuide.tsx"
import "../features/sites/sites.css"
import { Field, FormActions } from "../ui/Field.tsx"
import { type SiteTab, siteTabLabels, siteTabs } from "../router.ts"
import { Link } from "../ui/Link.tsx"
import { type Tab, Tabs } from "../ui/Tabs.tsx"
import { Failure, Loading } from "../ui/States.tsx"

type Links = { readonly items: ReadonlyArray<ShareLink> }
const noLinks: Atom.Atom<AsyncResult.AsyncResult<Links, unknown>> = Atom.make(AsyncResult.initial<Links, unknown>())

/** The title, renamed in place by admins (`updateSiteById`). */
const Title = (props: { readonly organizationId: string; readonly site: SiteResource }) => {
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState("")
  const update = useMutation(updateSite)
  const action = useAction()
  const title = props.site.title === "" ? "Untitled site" : props.site.title
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const done = await action.run(() => update({
      params: { organizationId: props.organizationId, siteId: props.site.id },
      payload: { title: draft.trim() },
      reactivityKeys: [siteKey(props.site.id), sitesKey(props.organizationId)]
    }))
    if (done) setEditing(false)
  }
  if (editing) {
    const other = messageElse(action.problem, "title")
    return (
      <form className="inline-form site-title-form" onSubmit={(event) => void submit(event)} aria-label="Rename the site">
        <Field label="Site title" name="title" value={draft} onChange={setDraft} error={messageFor(action.problem, "title")} autoFocus />
        <FormActions error={other} busy={action.busy} label="Save" busyLabel="Saving…" onCancel={() => setEditing(false)} />
      </form>
    )
  }
  return (
    <div className="site-title">
      <h1>{title}</h1>
      {props.site.permissions.edit ? <button type="button" onClick={() => {
        setDraft(props.site.title)
        setEditing(true)
      }} aria-label="Rename the site">Rename</button> : null}
    </div>
  )
}

/** The tabs a person sees: Settings only for the site's editors. */
const tabsFor = (base: string, editor: boolean): ReadonlyArray<Tab> =>
  siteTabs.filter((tab) => tab !== "settings" || editor).map((tab) => ({ key: tab, label: siteTabLabels[tab], href: tab === "overview" ? base : `${base}/${tab}` }))

export const Site = (props: { readonly organizationId: string; readonly siteId: string; readonly tab: SiteTab }) => {
  const ref = siteRef(props.organizationId, props.siteId)
  const site = useAtomValue(siteAtom(ref))
  const structure = useAtomValue(structureAtom(ref))
  const content = useAtomValue(orgContentAtom(props.organizationId))
  const shareSite = AsyncResult.isSuccess(site) && site.value.visibility === "share-link" && site.value.permissions.edit
  const links = useAtomValue<AsyncResult.AsyncResult<Links, unknown>>(shareSite ? shareLinksAtom(ref) : noLinks)
  const base = `/o/${props.organizationId}/sites/${props.siteId}`
  if (!AsyncResult.isSuccess(site)) {
    return (
      <div className="site-screen">
        <p className="crumbs"><Link href={`/o/${props.organizationId}`}>Organization</Link> / Sites</p>
        <h1>Site</h1>
        {AsyncResult.isFailure(site) ? <Failure result={site} /> : <Loading what="the site" />}
      </div>
    )
  }
  const value = site.value
  // A share-link site opens only through one of its links: its first active one.
  const shareUrl = AsyncResult.isSuccess(links) ? links.value.items.find((link) => link.active)?.urls.published : undefined
  const publishedUrl = value.visibility === "share-link" ? shareUrl : value.urls.published
  const tab = props.tab
  return (
    <div className="site-screen">
      <p className="crumbs"><Link href={`/o/${props.organizationId}`}>Organization</Link> / Sites</p>
      <div className="site-head">
        <Title organizationId={props.organizationId} site={value} />
        <Publish organizationId={props.organizationId} site={value} publishedUrl={value.published ? publishedUrl : undefined} />
      </div>
      {value.permissions.edit ? null : (
        <p className="site-note" role="note">
          You can view this site. Its settings, structure and publishing are changed by its editors and the organization's admins: ask
          one of them for the editor role on it (Audience, Permissions).
        </p>
      )}
      <Tabs label="Site dashboard" tabs={tabsFor(base, value.permissions.edit)} current={tab} />
      {tab === "overview" ? <Overview organizationId={props.organizationId} site={value} structure={structure} base={base} /> : null}
      {tab === "structure" ? (
        <section aria-labelledby="structure-heading" className="site-part">
          <h2 id="structure-heading">Sections and spaces</h2>
          {AsyncResult.isFailure(structure) ? <Failure result={structure} /> : AsyncResult.isFailure(content) ? <Failure result={content} /> : !AsyncResult.isSuccess(structure) || !AsyncResult.isSuccess(content)
            ? <Loading what="the structure" />
            : <Structure organizationId={props.organizationId} siteId={props.siteId} admin={value.permissions.edit} structure={structure.value} spaces={content.value.spaces} />}
        </section>
      ) : null}
      {tab === "customization" ? (
        <section aria-labelledby="customization-heading" className="site-part">
          <h2 id="customization-heading">Customization</h2>
          <Customization organizationId={props.organizationId} site={value} structure={AsyncResult.isSuccess(structure) ? structure.value : undefined} publishedUrl={value.published ? publishedUrl : undefined} />
        </section>
      ) : null}
      {tab === "audience" ? (
        <>
          <section aria-labelledby="access-heading" className="site-part">
            <h2 id="access-heading">Visibility</h2>
            <Access organizationId={props.organizationId} site={value} />
          </section>
          <section aria-labelledby="permissions-heading" className="site-part">
            <h2 id="permissions-heading">Permissions</h2>
            <Permissions organizationId={props.organizationId} site={value} />
          </section>
        </>
      ) : null}
      {tab === "insights" ? <Insights organizationId={props.organizationId} site={value} /> : null}
      {tab === "findings" ? <Findings organizationId={props.organizationId} site={value} /> : null}
      {tab === "styleguide" ? <StyleGuide organizationId={props.organizationId} site={value} /> : null}
      {tab === "settings" ? (
        value.permissions.edit ? (
          <section aria-labelledby="settings-heading" className="site-part">
            <h2 id="settings-heading">Settings</h2>
            <Settings organizationId={props.organizationId} site={value} />
          </section>
        ) : <p className="site-note" role="note">A site's settings are shown to its editors and the organization's admins.</p>
      ) : null}
    </div>
  )
}
