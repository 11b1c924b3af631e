/**
 * A change request's links (GitBook's `links`: an issue, a ticket, a design), under its
 * description: each opens in a new tab; those who may edit it add, edit and remove them, each
 * change sent as the whole list through the PATCH (an existing link by its `id`). The URL is
 * checked before sending (http or https), its message under the field; "Saved" only once the
 * server has answered.
 */
import type { ChangeRequest } from "@quire/api"
import { type FormEvent, useState } from "react"
import { callApi } from "../../api/call.ts"
import { useRegistry } from "../../api/react.ts"
import { Field } from "../../ui/Field.tsx"
import { DeleteIcon, EditIcon, LinkIcon, PlusIcon } from "../../ui/icons.tsx"
import { refusalOf } from "../../ui/refusal.ts"
import { messageOf } from "../../ui/States.tsx"
import { type ChangeRequestChanges, updateChangeRequest } from "../editing/content.ts"

type Link = NonNullable<ChangeRequest["links"]>[number]
type LinkInput = NonNullable<ChangeRequestChanges["links"]>[number]
/** A refused save: the field it names (`links[0].ref.url`), and its words. */
interface Refused {
  readonly field: string | undefined
  readonly message: string
}

/** GitBook's bounds (reviews' `maxLinks`, `maxLinkTitleLength`, `maxLinkUrlLength`), said before sending. */
const maxLinks = 10
const maxTitle = 128
const maxUrl = 2048

/** Why `url` is not a link the server keeps, or undefined when it is. */
export const urlProblem = (url: string): string | undefined => {
  if (url === "") return "Give the link's address."
  if (url.length > maxUrl) return `An address has at most ${maxUrl.toLocaleString("en")} characters.`
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return "Give a whole address, starting with https://."
  }
  return parsed.protocol === "http:" || parsed.protocol === "https:" ? undefined : "Only http and https addresses can be linked."
}

const inputOf = (link: Link): LinkInput => ({ id: link.id, ref: { kind: "url", url: link.ref.url }, ...(link.title === undefined ? {} : { title: link.title }) })

/** What a link is called: its title, else its address without the scheme. */
const nameOf = (link: Link) => link.title !== undefined && link.title !== "" ? link.title : link.ref.url.replace(/^https?:\/\//, "")

/** Adding a link (`link` undefined) or editing one. */
const LinkForm = (props: {
  readonly link: Link | undefined
  readonly onSave: (url: string, title: string) => Promise<Refused | undefined>
  readonly onCancel: () => void
}) => {
  const [url, setUrl] = useState(props.link?.ref.url ?? "")
  const [title, setTitle] = useState(props.link?.title ?? "")
  const [urlError, setUrlError] = useState<string | undefined>(undefined)
  const [titleError, setTitleError] = useState<string | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const address = url.trim()
    const words = title.trim()
    const problem = urlProblem(address)
    setUrlError(problem)
    setTitleError(words.length > maxTitle ? `A title has at most ${maxTitle} characters; this one has ${words.length}.` : undefined)
    setError(undefined)
    if (problem !== undefined || words.length > maxTitle) return
    setBusy(true)
    const refused = await props.onSave(address, words)
    setBusy(false)
    if (refused === undefined) return
    // The server's words, under the field they name.
    if (refused.field?.endsWith("url") === true) setUrlError(refused.message)
    else if (refused.field?.endsWith("title") === true) setTitleError(refused.message)
    else setError(refused.message)
  }
  return (
    <form className="cr-link-form" aria-label={props.link === undefined ? "New link" : `Edit the link ${nameOf(props.link)}`} noValidate
      onSubmit={(event) => void submit(event)}
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.preventDefault()
          props.onCancel()
        }
      }}>
      <Field label="Address" name="url" type="url" value={url} onChange={(value) => { setUrl(value); setUrlError(undefined) }} error={urlError}
        autoFocus placeholder="https://" />
      <Field label="Title (optional)" name="title" value={title} onChange={setTitle} error={titleError} />
      {error === undefined ? null : <p className="form-error" role="alert">{error}</p>}
      <div className="cr-link-form-actions">
        <button type="submit" className="primary" disabled={busy} aria-busy={busy}>{busy ? "Saving…" : props.link === undefined ? "Add link" : "Save link"}</button>
        <button type="button" onClick={props.onCancel} disabled={busy}>Cancel</button>
      </div>
    </form>
  )
}

export const Links = (props: {
  readonly spaceId: string
  readonly cr: ChangeRequest
  /** Whether the person may change them (edit permission, a draft or open change request). */
  readonly canEdit: boolean
  readonly onSaved: () => void
}) => {
  const registry = useRegistry()
  const links = props.cr.links ?? []
  // The form open: "new", a link's id, or none.
  const [editing, setEditing] = useState<string | undefined>(undefined)
  const [said, setSaid] = useState("")
  const [error, setError] = useState<string | undefined>(undefined)

  /** Sends the whole list; undefined once saved, else the refusal. */
  const send = async (next: ReadonlyArray<LinkInput>, done: string): Promise<Refused | undefined> => {
    setSaid("")
    setError(undefined)
    try {
      await callApi(registry, updateChangeRequest(props.spaceId, props.cr.number, { links: next }))
      setEditing(undefined)
      setSaid(done)
      props.onSaved()
      return undefined
    } catch (failure) {
      const refusal = refusalOf(failure)
      return { field: refusal?.field, message: refusal?.message ?? messageOf(failure) }
    }
  }
  const save = (link: Link | undefined) => (url: string, title: string) => {
    const edited: LinkInput = { ...(link === undefined ? {} : { id: link.id }), ref: { kind: "url", url }, ...(title === "" ? {} : { title }) }
    const next = link === undefined ? [...links.map(inputOf), edited] : links.map((each) => each.id === link.id ? edited : inputOf(each))
    return send(next, link === undefined ? "Link added. Saved" : "Saved")
  }
  const remove = async (link: Link) => {
    const refused = await send(links.filter((each) => each.id !== link.id).map(inputOf), `Removed ${nameOf(link)}. Saved`)
    if (refused !== undefined) setError(`The link was not removed: ${refused.message}`)
  }

  if (!props.canEdit && links.length === 0) return null
  return (
    <section className="cr-links" aria-label="Links">
      {links.length === 0 ? null : <h2 className="cr-links-heading" aria-hidden="true">Links</h2>}
      {links.length === 0 ? null : (
        <ul className="cr-links-list">
          {links.map((link) => editing === link.id
            ? <li key={link.id}><LinkForm link={link} onSave={save(link)} onCancel={() => setEditing(undefined)} /></li>
            : (
              <li key={link.id} className="cr-link">
                <a href={link.ref.url} target="_blank" rel="noreferrer" className="cr-link-anchor" title={link.ref.url}>
                  <LinkIcon /><span className="cr-link-name">{nameOf(link)}</span>
                </a>
                {props.canEdit
                  ? (
                    <span className="cr-link-actions">
                      <button type="button" className="link" aria-label={`Edit the link ${nameOf(link)}`} title="Edit" onClick={() => setEditing(link.id)}><EditIcon /></button>
                      <button type="button" className="link danger" aria-label={`Remove the link ${nameOf(link)}`} title="Remove" onClick={() => void remove(link)}><DeleteIcon /></button>
                    </span>
                  )
                  : null}
              </li>
            ))}
        </ul>
      )}
      {editing === "new" ? <LinkForm link={undefined} onSave={save(undefined)} onCancel={() => setEditing(undefined)} /> : null}
      {error === undefined ? null : <p className="form-error" role="alert">{error}</p>}
      {props.canEdit
        ? (
          <p className="cr-description-actions">
            {editing === "new" ? null : links.length >= maxLinks
              ? <span className="muted">At most {maxLinks} links: remove one to add another.</span>
              : <button type="button" className="link" onClick={() => setEditing("new")}><PlusIcon />Add a link</button>}
            <span role="status" className="muted">{said}</span>
          </p>
        )
        : null}
    </section>
  )
}
