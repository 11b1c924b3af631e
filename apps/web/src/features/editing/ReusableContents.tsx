/**
 * A change request's reusable contents, in the sidebar under its pages (where GitBook lists a space's):
 * each by title, renamed in place, and deleted after a confirmation that names the pages that include
 * it. A failure is said next to the control it is about.
 */
import type { RevisionPage } from "@quire/api"
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from "react"
import { callApi } from "../../api/call.ts"
import { useRegistry } from "../../api/react.ts"
import { includesReusable } from "../../editor/blocks/include/reference.ts"
import { deleteReusableContent, getPage, listReusableContents, updateReusableContent } from "./content.ts"
import { announceReusableChanged } from "./reusable-events.ts"

interface Reusable { readonly id: string; readonly title: string }

interface ReusableContentsProps {
  readonly spaceId: string
  readonly number: number
  /** The change request's pages (documents only), to say which include a reusable content. */
  readonly pages: ReadonlyArray<RevisionPage>
  /** Whether it may be changed (not merged nor archived). */
  readonly editable: boolean
}

const messageOf = (failure: unknown) => failure instanceof Error ? failure.message : String(failure)

/** The titles of the pages whose markdown includes reusable content `id`. */
const pagesIncluding = async (read: (pageId: string) => Promise<string>, pages: ReadonlyArray<RevisionPage>, id: string) => {
  const bodies = await Promise.all(pages.map(async (page) => ({ page, markdown: await read(page.id) })))
  return bodies.filter((body) => includesReusable(body.markdown, id)).map((body) => body.page.title)
}

const RenameForm = (props: { readonly item: Reusable; readonly onSave: (title: string) => Promise<void>; readonly onCancel: () => void }) => {
  const [title, setTitle] = useState(props.item.title)
  const [error, setError] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const errorId = `${useId()}-error`
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => input.current?.select(), [])
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const value = title.trim()
    if (value === "") return setError("Give the reusable content a name.")
    if (value === props.item.title) return props.onCancel()
    setBusy(true)
    props.onSave(value).catch((failure: unknown) => {
      setBusy(false)
      setError(`Could not rename it: ${messageOf(failure)}`)
    })
  }
  return (
    <form className="reusable-rename" onSubmit={onSubmit} noValidate aria-label={`Rename ${props.item.title}`}
      onKeyDown={(event) => { if (event.key === "Escape") { event.preventDefault(); props.onCancel() } }}>
      <input ref={input} value={title} onChange={(event) => setTitle(event.target.value)} disabled={busy} aria-label={`New name of ${props.item.title}`}
        aria-invalid={error === undefined ? undefined : true} aria-describedby={error === undefined ? undefined : errorId} />
      <button type="submit" className="primary" disabled={busy}>{busy ? "Saving…" : "Save"}</button>
      <button type="button" onClick={props.onCancel} disabled={busy}>Cancel</button>
      {error === undefined ? null : <p id={errorId} className="field-error" role="alert">{error}</p>}
    </form>
  )
}

const DeleteConfirm = (props: { readonly item: Reusable; readonly includedIn: () => Promise<ReadonlyArray<string>>; readonly onDelete: () => Promise<void>; readonly onCancel: () => void }) => {
  const [pages, setPages] = useState<ReadonlyArray<string> | { readonly error: string } | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const cancel = useRef<HTMLButtonElement>(null)
  const { includedIn } = props
  useEffect(() => {
    cancel.current?.focus()
    includedIn().then(setPages, (failure: unknown) => setPages({ error: `Could not read which pages include it: ${messageOf(failure)}` }))
  }, [includedIn])
  const remove = () => {
    setBusy(true)
    props.onDelete().catch((failure: unknown) => {
      setBusy(false)
      setError(`Could not delete it: ${messageOf(failure)}`)
    })
  }
  const where = pages === undefined ? "Looking for the pages that include it…"
    : "error" in pages ? pages.error
    : pages.length === 0 ? "No page includes it."
    : `${pages.length === 1 ? "This page includes it" : `These ${pages.length} pages include it`} and will show nothing in its place: ${pages.join(", ")}.`
  return (
    <div className="reusable-confirm" role="group" aria-label={`Delete ${props.item.title}?`}
      onKeyDown={(event) => { if (event.key === "Escape") { event.preventDefault(); props.onCancel() } }}>
      <p><strong>Delete “{props.item.title}”?</strong> <span role="status">{where}</span></p>
      <button type="button" className="danger" onClick={remove} disabled={busy || pages === undefined}>{busy ? "Deleting…" : "Delete"}</button>
      <button type="button" ref={cancel} onClick={props.onCancel} disabled={busy}>Cancel</button>
      {error === undefined ? null : <p className="field-error" role="alert">{error}</p>}
    </div>
  )
}

const ReusableRow = (props: { readonly item: Reusable; readonly editable: boolean; readonly spaceId: string; readonly number: number; readonly pages: ReadonlyArray<RevisionPage>; readonly onChanged: (message: string) => Promise<void>; readonly onDeleted: () => void }) => {
  const registry = useRegistry()
  const [mode, setMode] = useState<"show" | "rename" | "delete">("show")
  const back = useRef<"rename" | "delete" | undefined>(undefined)
  const renameButton = useRef<HTMLButtonElement>(null)
  const deleteButton = useRef<HTMLButtonElement>(null)
  const { item, spaceId, number, pages } = props
  useEffect(() => {
    // Back from a form, the focus goes to the button that opened it.
    if (mode !== "show" || back.current === undefined) return
    ;(back.current === "rename" ? renameButton : deleteButton).current?.focus()
    back.current = undefined
  }, [mode])
  const close = () => { back.current = mode === "show" ? undefined : mode; setMode("show") }
  const includedIn = useCallback(
    () => pagesIncluding((pageId) => callApi(registry, getPage(spaceId, number, pageId, "markdown")).then((page) => ("markdown" in page ? page.markdown ?? "" : "")), pages, item.id),
    [registry, spaceId, number, pages, item.id]
  )
  if (mode === "rename") {
    return <li><RenameForm item={item} onCancel={close} onSave={async (title) => {
      await callApi(registry, updateReusableContent(spaceId, number, item.id, { title }))
      announceReusableChanged({ spaceId, number })
      await props.onChanged(`Renamed “${item.title}” to “${title}”.`)
      close()
    }} /></li>
  }
  if (mode === "delete") {
    return <li><DeleteConfirm item={item} includedIn={includedIn} onCancel={close} onDelete={async () => {
      await callApi(registry, deleteReusableContent(spaceId, number, item.id))
      announceReusableChanged({ spaceId, number })
      props.onDeleted()
      await props.onChanged(`Deleted “${item.title}”.`)
    }} /></li>
  }
  return (
    <li className="reusable-row">
      <span className="grow">{item.title}</span>
      {props.editable ? (
        <>
          <button type="button" className="link" ref={renameButton} onClick={() => setMode("rename")} aria-label={`Rename ${item.title}`}>Rename</button>
          <button type="button" className="link danger" ref={deleteButton} onClick={() => setMode("delete")} aria-label={`Delete ${item.title}`}>Delete</button>
        </>
      ) : null}
    </li>
  )
}

export const ReusableContents = (props: ReusableContentsProps) => {
  const registry = useRegistry()
  const [items, setItems] = useState<ReadonlyArray<Reusable> | { readonly error: string } | undefined>(undefined)
  const [status, setStatus] = useState("")
  const { spaceId, number } = props
  const load = useCallback(
    () => callApi(registry, listReusableContents(spaceId, number)).then(setItems, (failure: unknown) => setItems({ error: `Could not read the reusable contents: ${messageOf(failure)}` })),
    [registry, spaceId, number]
  )
  useEffect(() => void load(), [load])
  const headingId = useId()
  // A row deleted takes its buttons with it: the focus goes to the heading, not to the page's start.
  const heading = useRef<HTMLHeadingElement>(null)
  return (
    <section aria-labelledby={headingId} className="sidebar-section reusable-contents">
      <h2 id={headingId} className="sidebar-heading" ref={heading} tabIndex={-1}>Reusable content</h2>
      {items === undefined ? <p className="muted small" role="status">Loading…</p>
        : "error" in items ? <p className="field-error" role="alert">{items.error}</p>
        : items.length === 0 ? <p className="muted small">None yet: select blocks in a page and choose “Make reusable”.</p>
        : (
          <ul className="reusable-list">
            {items.map((item) => (
              <ReusableRow key={item.id} item={item} editable={props.editable} spaceId={spaceId} number={number} pages={props.pages}
                onChanged={async (message) => { await load(); setStatus(message) }} onDeleted={() => heading.current?.focus()} />
            ))}
          </ul>
        )}
      <span className="status" role="status">{status}</span>
    </section>
  )
}
