/**
 * A site's settings: its address (a hostname of its own and its DNS status, a base path), adaptive content (on or
 * off, and the JSON schema of the claims visitors bring, checked by the server), AI & MCP (the editing
 * agent's settings, the assistant's MCP servers: features/agents), its channels (./Channels.tsx),
 * and deleting it.
 * For the site's editors (the screen shows this part to them alone); deleting it for its admins.
 */
import type { Site } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useEffect, useId, useState } from "react"
import { failureOf, useAtomValue, useMutation } from "../../api/react.ts"
import { navigate } from "../../router.ts"
import { Field, FormActions } from "../../ui/Field.tsx"
import { apiErrorName, Failure, Loading } from "../../ui/States.tsx"
import { Confirm } from "../admin/ui.tsx"
import { SiteAgent } from "../agents/SiteAgent.tsx"
import { Channels } from "./Channels.tsx"
import { messageElse, messageFor } from "./errors.ts"
import { HostnameDns } from "./HostnameDns.tsx"
import { adaptiveSchemaAtom, deleteSite, siteKey, siteRef, sitesKey, updateAdaptiveSchema, updateSite, useAction } from "./queries.ts"

/** `hostname` and `basename`: empty removes them (null), as `updateSiteById` takes it. */
const Address = (props: { readonly organizationId: string; readonly site: Site }) => {
  const { site } = props
  const [hostname, setHostname] = useState(site.hostname ?? "")
  const [basename, setBasename] = useState(site.basename ?? "")
  const [said, setSaid] = useState("")
  const update = useMutation(updateSite)
  const action = useAction()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setSaid("")
    const host = hostname.trim().toLowerCase()
    const base = basename.trim()
    const done = await action.run(() => update({
      params: { organizationId: props.organizationId, siteId: site.id },
      payload: { hostname: host === "" ? null : host, basename: base === "" ? null : base },
      reactivityKeys: [siteKey(site.id), sitesKey(props.organizationId)]
    }))
    if (done) setSaid(host === "" ? "Saved. The site is served at Quire's own address." : `Saved. Point ${host}'s DNS at this server to serve the site there.`)
  }
  return (
    <form className="panel site-form" onSubmit={(event) => void submit(event)} aria-label="Address" noValidate>
      <h3>Address</h3>
      <Field label="Hostname" name="hostname" value={hostname} onChange={setHostname} error={messageFor(action.problem, "hostname")}
        hint="A domain of its own, such as docs.example.com. Empty: the site lives under this server's /~sites/ address." />
      <Field label="Base path" name="basename" value={basename} onChange={setBasename} error={messageFor(action.problem, "basename")}
        hint="The path the site is served under behind a proxy, such as docs. Empty: none." />
      <FormActions error={messageElse(action.problem, "hostname", "basename")} busy={action.busy} label="Save hostname and path" busyLabel="Saving…" />
      <p className="status" role="status">{said}</p>
    </form>
  )
}

const pretty = (value: unknown) => JSON.stringify(value, null, 2)

/** The schema text as the person typed it, or the reason it is not a JSON object. */
const parseSchema = (text: string): { readonly schema: Record<string, unknown> } | { readonly problem: string } => {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === "object" && value !== null && !Array.isArray(value) ? { schema: value as Record<string, unknown> } : { problem: "The schema must be a JSON object, such as { \"type\": \"object\" }." }
  } catch (error) {
    return { problem: `This is not valid JSON: ${error instanceof Error ? error.message : String(error)}` }
  }
}

const exampleSchema = pretty({
  type: "object",
  properties: { plan: { type: "string", enum: ["free", "pro"], description: "The reader's plan" } },
  additionalProperties: false
})

/** The claims' schema (`updateSiteAdaptiveSchema`), read once adaptive content is on (a site without one answers 404). */
const ClaimsSchema = (props: { readonly organizationId: string; readonly site: Site }) => {
  const { site } = props
  const current = useAtomValue(adaptiveSchemaAtom(siteRef(props.organizationId, site.id)))
  const none = AsyncResult.isFailure(current) && apiErrorName(failureOf(current)) === "NotFound"
  const loaded = AsyncResult.isSuccess(current) ? pretty(current.value.jsonSchema) : none ? "" : undefined
  const [text, setText] = useState<string | undefined>(undefined)
  const [local, setLocal] = useState<string | undefined>(undefined)
  const [said, setSaid] = useState("")
  const save = useMutation(updateAdaptiveSchema)
  const action = useAction()
  const id = useId()
  useEffect(() => {
    if (text === undefined && loaded !== undefined) setText(loaded === "" ? exampleSchema : loaded)
  }, [loaded, text])
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setSaid("")
    const parsed = parseSchema(text ?? "")
    if ("problem" in parsed) {
      setLocal(parsed.problem)
      return
    }
    setLocal(undefined)
    const done = await action.run(() => save({ params: { organizationId: props.organizationId, siteId: site.id }, payload: { jsonSchema: parsed.schema }, reactivityKeys: [siteKey(site.id)] }))
    if (done) setSaid("Saved the schema.")
  }
  if (AsyncResult.isFailure(current) && !none) return <Failure result={current} />
  if (text === undefined) return <Loading what="the adaptive schema" />
  // The server names the place in the schema (`jsonSchema.properties.plan`): said with the words, from the schema's root.
  const place = action.problem?.field?.replace(/^jsonSchema\.?/, "") ?? ""
  const refused = messageFor(action.problem, "jsonSchema")
  const error = local ?? (refused === undefined || place === "" ? refused : `${place}: ${refused}`)
  return (
    <form onSubmit={(event) => void submit(event)} aria-label="Claims schema" noValidate>
      <div className="field">
        <label htmlFor={id}>Claims schema (JSON Schema)</label>
        <textarea id={id} className="code-input" rows={10} value={text} spellCheck={false} onChange={(event) => setText(event.target.value)}
          aria-invalid={error === undefined ? undefined : true} aria-describedby={`${id}-hint${error === undefined ? "" : ` ${id}-error`}`} />
        <span id={`${id}-hint`} className="hint">{none ? "No schema yet: this example describes a claim `plan`. " : ""}Conditions in pages read these claims, such as visitor.claims.plan == "pro".</span>
        {error === undefined ? null : <p id={`${id}-error`} className="field-error" role="alert">{error}</p>}
      </div>
      <FormActions error={messageElse(action.problem, "jsonSchema")} busy={action.busy} label="Save schema" busyLabel="Saving…" />
      <p className="status" role="status">{said}</p>
    </form>
  )
}

/** Adaptive content: the switch (`updateSiteById` `adaptiveContent`) and, when on, the claims' schema. */
const Adaptive = (props: { readonly organizationId: string; readonly site: Site }) => {
  const { site } = props
  const [said, setSaid] = useState("")
  const update = useMutation(updateSite)
  const action = useAction()
  // Drawn as asked at once; back to what the site says when the API refuses.
  const [enabled, setEnabled] = useState(site.adaptiveContent.enabled)
  useEffect(() => setEnabled(site.adaptiveContent.enabled), [site.adaptiveContent.enabled])
  const toggle = (enabled: boolean) => void action.run(async () => {
    setEnabled(enabled)
    await update({ params: { organizationId: props.organizationId, siteId: site.id }, payload: { adaptiveContent: { enabled } }, reactivityKeys: [siteKey(site.id)] })
    setSaid(enabled ? "Adaptive content is on." : "Adaptive content is off.")
  }).then((done) => done ? undefined : setEnabled(site.adaptiveContent.enabled))
  return (
    <div className="panel site-form">
      <h3>Adaptive content</h3>
      <label className="check">
        <input type="checkbox" checked={enabled} disabled={action.busy || !site.permissions.editAdaptiveSchema} onChange={(event) => toggle(event.target.checked)} />
        Show readers content that depends on the claims their sign-in brings
      </label>
      {action.problem === undefined ? null : <p className="form-error" role="alert">{action.problem.message}</p>}
      <p className="status" role="status">{said}</p>
      {enabled ? <ClaimsSchema organizationId={props.organizationId} site={site} /> : null}
    </div>
  )
}

/** Deleting the site, after a confirmation; its spaces stay. */
const Danger = (props: { readonly organizationId: string; readonly site: Site }) => {
  const [asking, setAsking] = useState(false)
  const remove = useMutation(deleteSite)
  const action = useAction()
  const title = props.site.title === "" ? "Untitled site" : props.site.title
  const confirm = async () => {
    const done = await action.run(() => remove({ params: { organizationId: props.organizationId, siteId: props.site.id }, reactivityKeys: [sitesKey(props.organizationId)] }))
    if (done) navigate(`/o/${props.organizationId}`)
  }
  return (
    <div className="panel site-form">
      <h3>Delete the site</h3>
      <p className="muted">Its published pages stop answering. The spaces it shows are kept.</p>
      <button type="button" className="danger" onClick={() => setAsking(true)}>Delete site…</button>
      {asking ? (
        <Confirm title={`Delete ${title}?`} action="Delete site" busyAction="Deleting…" onConfirm={confirm} onClose={() => setAsking(false)} problem={action.problem?.message}>
          <p>Readers can no longer open it, and its share links stop working. Its spaces stay in the organization.</p>
        </Confirm>
      ) : null}
    </div>
  )
}

export const Settings = (props: { readonly organizationId: string; readonly site: Site }) => (
  <div className="site-settings">
    <Address organizationId={props.organizationId} site={props.site} />
    {props.site.hostname === undefined || props.site.hostname === null ? null : <HostnameDns hostname={props.site.hostname} canCheck={props.site.permissions.edit} />}
    {props.site.permissions.viewAdaptiveSchema ? <Adaptive organizationId={props.organizationId} site={props.site} /> : null}
    <SiteAgent organizationId={props.organizationId} site={props.site} />
    <Channels organizationId={props.organizationId} site={props.site} />
    {props.site.permissions.admin
      ? <Danger organizationId={props.organizationId} site={props.site} />
      : <p className="muted">Only the site's admins and the organization's admins delete a site.</p>}
  </div>
)
