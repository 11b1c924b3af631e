/**
 * The customization of a site (`updateSiteCustomizationById`): a form over the fields of
 * ./customization-model.ts beside a preview of the published site drawn with what was last saved.
 * The API's refusal is said under the field it names. The organization's custom fonts (./Fonts.tsx) sit under the form.
 */
import type { Site, SiteStructure } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { Field } from "../../ui/Field.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { type Draft, fieldPaths, modes, pageActions, type Settings, themes, toDraft, toSettings } from "./customization-model.ts"
import { messageElse, messageFor } from "./errors.ts"
import { Fonts } from "./Fonts.tsx"
import { Preview } from "./Preview.tsx"
import { customizationAtom, siteKey, siteRef, updateCustomization, useAction } from "./queries.ts"

const labels: Record<(typeof pageActions)[number], string> = {
  markdown: "Copy as Markdown", pdf: "Export as PDF", git: "Edit on Git", "external-ai": "Open in ChatGPT / Claude", assistant: "Ask the assistant", mcp: "Connect with MCP"
}

/** A color typed as `#rrggbb`, with a swatch beside it. */
export const ColorField = (props: { readonly label: string; readonly value: string; readonly onChange: (value: string) => void; readonly error: string | undefined; readonly hint?: string }) => {
  const id = useId()
  const valid = /^#(?:[0-9a-fA-F]{3}){1,2}$/.test(props.value.trim())
  const described = [props.hint === undefined ? undefined : `${id}-hint`, props.error === undefined ? undefined : `${id}-error`].filter(Boolean).join(" ")
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <div className="color-input">
        <span className="swatch" aria-hidden="true" style={valid ? { background: props.value.trim() } : undefined} />
        <input id={id} value={props.value} onChange={(event) => props.onChange(event.target.value)} spellCheck={false}
          aria-invalid={props.error === undefined ? undefined : true} aria-describedby={described === "" ? undefined : described} />
      </div>
      {props.hint === undefined ? null : <span id={`${id}-hint`} className="hint">{props.hint}</span>}
      {props.error === undefined ? null : <p id={`${id}-error`} className="field-error" role="alert">{props.error}</p>}
    </div>
  )
}

const Choice = <A extends string>(props: { readonly label: string; readonly value: A; readonly options: ReadonlyArray<A>; readonly onChange: (value: A) => void; readonly error?: string | undefined }) => {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} value={props.value} onChange={(event) => props.onChange(event.target.value as A)} aria-invalid={props.error === undefined ? undefined : true}
        aria-describedby={props.error === undefined ? undefined : `${id}-error`}>
        {props.options.map((option) => <option key={option} value={option}>{option[0]!.toUpperCase() + option.slice(1)}</option>)}
      </select>
      {props.error === undefined ? null : <p id={`${id}-error`} className="field-error" role="alert">{props.error}</p>}
    </div>
  )
}

const Group = (props: { readonly legend: string; readonly children: ReactNode }) => (
  <fieldset className="form-group">
    <legend>{props.legend}</legend>
    {props.children}
  </fieldset>
)

const Form = (props: {
  readonly organizationId: string
  readonly site: Site
  readonly saved: Settings
  readonly onSaved: () => void
  /** The customization as the form reads now, saved or not: the preview follows it as one types. */
  readonly onDraft: (settings: Settings) => void
}) => {
  const [draft, setDraft] = useState<Draft>(() => toDraft(props.saved, props.site.title))
  // On each change of the draft only (the saved settings are a new object at every render above).
  const latest = useRef(props)
  latest.current = props
  useEffect(() => latest.current.onDraft(toSettings(latest.current.saved, draft)), [draft])
  const save = useMutation(updateCustomization)
  const action = useAction()
  const [said, setSaid] = useState("")
  const set = <K extends keyof Draft>(key: K) => (value: Draft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }))
    setSaid("")
  }
  const error = (key: keyof typeof fieldPaths) => messageFor(action.problem, fieldPaths[key])
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setSaid("")
    const done = await action.run(() => save({
      params: { organizationId: props.organizationId, siteId: props.site.id },
      payload: toSettings(props.saved, draft),
      reactivityKeys: [siteKey(props.site.id)]
    }))
    if (done) {
      setSaid("Saved. The preview shows it.")
      props.onSaved()
    }
  }
  const setLink = (index: number, key: "title" | "url", value: string) =>
    set("links")(draft.links.map((link, i) => i === index ? { ...link, [key]: value } : link))
  const linkError = (index: number) => messageFor(action.problem, `${fieldPaths.links}[${index}]`)
  const other = messageElse(action.problem, ...Object.values(fieldPaths))
  return (
    <form className="customization-form" onSubmit={(event) => void submit(event)} aria-label="Customization" noValidate>
      <Field label="Site title" name="title" value={draft.title} onChange={set("title")} error={error("title")} hint="Shown in the header and the browser's tab." />
      <Group legend="Colors and theme">
        <div className="field-row">
          <ColorField label="Primary color (light)" value={draft.primaryLight} onChange={set("primaryLight")} error={error("primaryLight")} hint="#rrggbb" />
          <ColorField label="Primary color (dark)" value={draft.primaryDark} onChange={set("primaryDark")} error={error("primaryDark")} hint="#rrggbb" />
        </div>
        <ColorField label="Tint color" value={draft.tint} onChange={set("tint")} error={error("tint")} hint="Tints backgrounds; empty for none." />
        <div className="field-row">
          <Choice label="Theme" value={draft.theme} options={themes} onChange={set("theme")} error={error("theme")} />
          <Choice label="Default mode" value={draft.mode} options={modes} onChange={set("mode")} error={error("mode")} />
        </div>
        <label className="check"><input type="checkbox" checked={draft.toggeable} onChange={(event) => set("toggeable")(event.target.checked)} /> Readers may switch between light and dark</label>
      </Group>
      <Group legend="Header">
        <Field label="Logo URL" name="logo" type="url" value={draft.logo} onChange={set("logo")} error={error("logo")} hint="Shown instead of the title; empty for none." />
        <Field label="Favicon URL" name="favicon" type="url" value={draft.favicon} onChange={set("favicon")} error={error("favicon")} />
        <div className="header-links">
          <p className="group-label" id="header-links-label">Header links</p>
          {draft.links.length === 0 ? <p className="muted">No links.</p> : null}
          {draft.links.map((link, index) => (
            <div className="header-link" key={index} role="group" aria-label={`Header link ${index + 1}`}>
              <Field label={`Link ${index + 1} text`} name={`link-title-${index}`} value={link.title} onChange={(value) => setLink(index, "title", value)} />
              <Field label={`Link ${index + 1} URL`} name={`link-url-${index}`} type="url" value={link.url} onChange={(value) => setLink(index, "url", value)} error={linkError(index)} />
              <button type="button" className="link danger" onClick={() => set("links")(draft.links.filter((_, i) => i !== index))} aria-label={`Remove link ${index + 1}`}>Remove</button>
            </div>
          ))}
          <button type="button" onClick={() => set("links")([...draft.links, { title: "", url: "" }])}>Add a header link</button>
        </div>
      </Group>
      <Group legend="Announcement">
        <label className="check"><input type="checkbox" checked={draft.announcementEnabled} onChange={(event) => set("announcementEnabled")(event.target.checked)} /> Show an announcement above the header</label>
        <Field label="Announcement text" name="announcement" value={draft.announcement} onChange={set("announcement")} error={error("announcement")} />
      </Group>
      <Group legend="Footer and pages">
        <Field label="Copyright line" name="copyright" value={draft.copyright} onChange={set("copyright")} error={error("copyright")} />
        <p className="group-label">Page actions</p>
        <div className="checks">
          {pageActions.map((item) => (
            <label key={item} className="check">
              <input type="checkbox" checked={draft.pageActions.includes(item)}
                onChange={(event) => set("pageActions")(event.target.checked ? [...draft.pageActions, item] : draft.pageActions.filter((other) => other !== item))} />
              {labels[item]}
            </label>
          ))}
        </div>
        {error("pageActions") === undefined ? null : <p className="field-error" role="alert">{error("pageActions")}</p>}
      </Group>
      <Group legend="Ask">
        <label className="check">
          <input type="checkbox" name="ask" checked={draft.ask} onChange={(event) => set("ask")(event.target.checked)} aria-describedby="ask-hint" /> Readers can ask questions about the site
        </label>
        <p id="ask-hint" className="hint">An “Ask” button beside the site’s search answers a reader’s question from the pages that reader may see, citing them. It needs an AI model on the server (<code>QUIRE_AI_URL</code>); without one, readers see no button.</p>
        {error("ask") === undefined ? null : <p className="field-error" role="alert">{error("ask")}</p>}
      </Group>
      {other === undefined ? null : <p className="form-error" role="alert">{other}</p>}
      <div className="toolbar sticky-actions">
        <button type="submit" className="primary" disabled={action.busy} aria-busy={action.busy}>{action.busy ? "Saving…" : "Save customization"}</button>
        <span className="status" role="status">{said}</span>
      </div>
    </form>
  )
}

export const Customization = (props: { readonly organizationId: string; readonly site: Site; readonly structure: SiteStructure | undefined; readonly publishedUrl: string | undefined }) => {
  const ref = siteRef(props.organizationId, props.site.id)
  const customization = useAtomValue(customizationAtom(ref))
  const [live, setLive] = useState<Settings | undefined>(undefined)
  if (AsyncResult.isFailure(customization)) return <Failure result={customization} />
  if (!AsyncResult.isSuccess(customization)) return <Loading what="the customization" />
  const { updatedAt: _, ...saved } = customization.value
  return (
    <div className="customization">
      <div className="customization-main">
        {props.site.permissions.edit
          ? <Form organizationId={props.organizationId} site={props.site} saved={saved} onSaved={() => undefined} onDraft={setLive} />
          : <p className="muted">Only the site's editors and the organization's admins customize a site.</p>}
        <Fonts organizationId={props.organizationId} siteId={props.site.id} saved={saved} canEdit={props.site.permissions.edit} />
      </div>
      <Preview site={props.site} settings={live ?? saved} structure={props.structure} publishedUrl={props.publishedUrl} />
    </div>
  )
}
