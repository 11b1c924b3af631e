/**
 * Who reads a published site: its visibility (`updateSiteById`), the share links of a share-link
 * site (create, copy, deactivate, delete) and the visitor-auth key of a visitor-auth site (shown,
 * rotated with `regenerateSitePublishingAuthById`, and the sign-in fallback URL).
 */
import type { Site } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useEffect, useId, useState } from "react"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { Field, FormActions } from "../../ui/Field.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { formatTime } from "../../ui/time.ts"
import { messageElse, messageFor } from "./errors.ts"
import {
  createShareLink,
  deleteShareLink,
  publishingAuthAtom,
  regeneratePublishingAuth,
  shareLinksAtom,
  siteAuthKey,
  siteKey,
  siteRef,
  updatePublishingAuth,
  updateShareLink,
  updateSite,
  useAction
} from "./queries.ts"
import { type Visibility, visibilities, visibilityLabel } from "./wording.ts"

/** Copies `text`, saying so; where the clipboard is refused, selects the field so Ctrl+C copies it. */
const useCopy = () => {
  const [copied, setCopied] = useState<string | undefined>(undefined)
  const copy = async (text: string, what: string, field?: HTMLInputElement | null) => {
    try {
      await navigator.clipboard.writeText(text)
      setCopied(`Copied ${what}`)
    } catch {
      field?.select()
      setCopied(`Selected ${what}: press Ctrl+C to copy it`)
    }
  }
  return { copied, copy }
}

const CopyField = (props: { readonly label: string; readonly value: string; readonly onCopy: (field: HTMLInputElement | null) => void }) => {
  const id = useId()
  let field: HTMLInputElement | null = null
  return (
    <div className="copy-field">
      <label htmlFor={id} className="visually-hidden">{props.label}</label>
      <input id={id} readOnly value={props.value} ref={(element) => {
        field = element
      }} onFocus={(event) => event.target.select()} />
      <button type="button" onClick={() => props.onCopy(field)} aria-label={`Copy ${props.label}`}>Copy</button>
    </div>
  )
}

const ShareLinks = (props: { readonly organizationId: string; readonly siteId: string }) => {
  const links = useAtomValue(shareLinksAtom(siteRef(props.organizationId, props.siteId)))
  const [name, setName] = useState("")
  const create = useMutation(createShareLink)
  const update = useMutation(updateShareLink)
  const remove = useMutation(deleteShareLink)
  const createAction = useAction()
  const rowAction = useAction()
  const { copied, copy } = useCopy()
  const params = { organizationId: props.organizationId, siteId: props.siteId }
  const reactivityKeys = [siteKey(props.siteId)]
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (await createAction.run(() => create({ params, payload: { name: name.trim() }, reactivityKeys }))) setName("")
  }
  const other = messageElse(createAction.problem, "name")
  return (
    <section aria-labelledby="share-links-heading" className="panel">
      <h3 id="share-links-heading">Share links</h3>
      <form className="inline-form" onSubmit={(event) => void submit(event)} aria-label="New share link">
        <Field label="Name of the new link" name="name" value={name} onChange={setName} error={messageFor(createAction.problem, "name")} hint="Who it is for, such as “Beta customers”." />
        <FormActions error={other} busy={createAction.busy} label="Create link" busyLabel="Creating…" />
      </form>
      <p className="status" role="status">{copied ?? ""}</p>
      {rowAction.problem === undefined ? null : <p className="form-error" role="alert">{rowAction.problem.message}</p>}
      {AsyncResult.isFailure(links) ? <Failure result={links} /> : !AsyncResult.isSuccess(links) ? <Loading what="share links" /> : links.value.items.length === 0
        ? <p className="muted">No share links yet.</p>
        : (
          <ul className="site-list" aria-label="Share links">
            {links.value.items.map((link) => {
              const label = link.name === undefined || link.name === "" ? "Unnamed link" : link.name
              return (
                <li key={link.id} className="share-link">
                  <div className="share-link-head">
                    <strong>{label}</strong>
                    <span className={link.active ? "badge" : "badge off"}>{link.active ? "Active" : "Inactive"}</span>
                    <span className="meta">created {formatTime(link.createdAt)}</span>
                  </div>
                  {link.urls.published === undefined
                    ? <p className="meta">Its address appears once the site is published.</p>
                    : <CopyField label={`the address of ${label}`} value={link.urls.published} onCopy={(field) => void copy(link.urls.published!, `the address of ${label}`, field)} />}
                  <div className="toolbar">
                    <button type="button" disabled={rowAction.busy} onClick={() => void rowAction.run(() => update({ params: { ...params, shareLinkId: link.id }, payload: { active: !link.active }, reactivityKeys }))}
                      aria-label={`${link.active ? "Deactivate" : "Activate"} ${label}`}>{link.active ? "Deactivate" : "Activate"}</button>
                    <button type="button" className="danger" disabled={rowAction.busy} onClick={() => void rowAction.run(() => remove({ params: { ...params, shareLinkId: link.id }, reactivityKeys }))}
                      aria-label={`Delete ${label}`}>Delete</button>
                  </div>
                </li>
              )
            })}
          </ul>
        )}
    </section>
  )
}

const VisitorAuth = (props: { readonly organizationId: string; readonly siteId: string }) => {
  const auth = useAtomValue(publishingAuthAtom(siteRef(props.organizationId, props.siteId)))
  const regenerate = useMutation(regeneratePublishingAuth)
  const update = useMutation(updatePublishingAuth)
  const rotateAction = useAction()
  const fallbackAction = useAction()
  const [confirming, setConfirming] = useState(false)
  const [fallback, setFallback] = useState<string | undefined>(undefined)
  const [saved, setSaved] = useState("")
  const { copied, copy } = useCopy()
  const params = { organizationId: props.organizationId, siteId: props.siteId }
  const reactivityKeys = [siteAuthKey(props.siteId)]
  if (AsyncResult.isFailure(auth)) return <Failure result={auth} />
  if (!AsyncResult.isSuccess(auth)) return <Loading what="the visitor key" />
  const fallbackValue = fallback ?? auth.value.fallbackURL ?? ""
  const rotate = async () => {
    if (await rotateAction.run(() => regenerate({ params, reactivityKeys }))) {
      setConfirming(false)
      setSaved("A new key replaced the former one: tokens it signed no longer open the site.")
    }
  }
  const saveFallback = async (event: FormEvent) => {
    event.preventDefault()
    const value = fallbackValue.trim()
    if (await fallbackAction.run(() => update({ params, payload: { backend: "custom", fallbackURL: value === "" ? null : value }, reactivityKeys }))) {
      setFallback(undefined)
      setSaved(value === "" ? "Removed the sign-in address" : "Saved the sign-in address")
    }
  }
  const other = messageElse(fallbackAction.problem, "fallbackURL")
  return (
    <section aria-labelledby="visitor-auth-heading" className="panel">
      <h3 id="visitor-auth-heading">Visitor authentication</h3>
      <p className="muted">Your sign-in service signs a JWT with this key and sends the reader to the site with it (<code>?jwt_token=…</code>).</p>
      <CopyField label="the visitor key" value={auth.value.privateKey} onCopy={(field) => void copy(auth.value.privateKey, "the visitor key", field)} />
      <div className="toolbar">
        {confirming ? (
          <>
            <span>Tokens signed with the current key stop working at once.</span>
            <button type="button" className="danger" disabled={rotateAction.busy} aria-busy={rotateAction.busy} onClick={() => void rotate()}>{rotateAction.busy ? "Rotating…" : "Rotate now"}</button>
            <button type="button" onClick={() => setConfirming(false)}>Cancel</button>
          </>
        ) : <button type="button" onClick={() => setConfirming(true)}>Rotate key…</button>}
      </div>
      {rotateAction.problem === undefined ? null : <p className="form-error" role="alert">{rotateAction.problem.message}</p>}
      <form className="inline-form" onSubmit={(event) => void saveFallback(event)} aria-label="Sign-in address" noValidate>
        <Field label="Sign-in address (fallback URL)" name="fallbackURL" type="url" value={fallbackValue} onChange={setFallback}
          error={messageFor(fallbackAction.problem, "fallbackURL")} hint="Readers without a valid token are sent here, with the page they asked for. Empty: none." />
        <FormActions error={other} busy={fallbackAction.busy} label="Save address" busyLabel="Saving…" />
      </form>
      <p className="status" role="status">{copied ?? saved}</p>
    </section>
  )
}

export const Access = (props: { readonly organizationId: string; readonly site: Site }) => {
  const { site } = props
  const update = useMutation(updateSite)
  const action = useAction()
  const [said, setSaid] = useState("")
  // The choice shows at once, and until the site the API answers carries it (or the API refused it).
  const [chosen, setChosen] = useState<Visibility | undefined>(undefined)
  useEffect(() => setChosen(undefined), [site.visibility])
  const choose = async (visibility: Visibility) => {
    if (visibility === site.visibility) return
    setChosen(visibility)
    const label = visibilityLabel(visibility)
    if (await action.run(() => update({ params: { organizationId: props.organizationId, siteId: site.id }, payload: { visibility }, reactivityKeys: [siteKey(site.id)] }))) {
      setSaid(`Visibility: ${label}`)
    } else setChosen(undefined)
  }
  const current = chosen ?? site.visibility
  const editable = site.permissions.edit
  return (
    <>
      <fieldset className="visibility" disabled={!editable || action.busy} aria-busy={action.busy} aria-describedby={action.problem === undefined ? undefined : "visibility-error"}>
        <legend>Who can read it</legend>
        {visibilities.map((option) => (
          <label key={option.value} className="choice">
            <input type="radio" name="visibility" value={option.value} checked={current === option.value} onChange={() => void choose(option.value)} />
            <span><strong>{option.label}</strong><span className="meta">{option.description}</span></span>
          </label>
        ))}
      </fieldset>
      {action.problem === undefined ? null : <p id="visibility-error" className="form-error" role="alert">{action.problem.message}</p>}
      <p className="status" role="status">{action.busy ? "Saving…" : said}</p>
      {editable && site.visibility === "share-link" ? <ShareLinks organizationId={props.organizationId} siteId={site.id} /> : null}
      {editable && site.visibility === "visitor-auth" ? <VisitorAuth organizationId={props.organizationId} siteId={site.id} /> : null}
    </>
  )
}
