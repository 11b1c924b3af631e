/**
 * A page's options in a change request, behind a "Page options" disclosure above the editor: its
 * icon, its cover (a URL, or an image uploaded with `insert_files`; height and vertical position)
 * and its layout (width; title, description, table of contents, outline and pagination shown or
 * hidden). Saved with one `updateChangeRequestContent` batch (options-model.ts says how); each
 * problem is said in words beside its control. After a save the screen reads the page again.
 */
import type { ChangeRequestContentChange, RevisionPage } from "@quire/api"
import { type ChangeEvent, type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react"
import { callApi } from "../../api/call.ts"
import { useRegistry } from "../../api/react.ts"
import { base64Of, getChangeRequest, getPage, updateContent } from "../editing/content.ts"
import { type Field, optionsChange, optionsOf, type Options, type Problems, problemsOf, visibilityKeys, visibilityLabels } from "./options-model.ts"
import "./page-options.css"

/** The largest cover upload: the API's `insert_files` takes at most 1 MB of bytes. */
const maxUpload = 1 << 20

/** The field an API refusal is about, from the words of its message. */
const fieldOf = (message: string): Field =>
  /coverHeight/.test(message) ? "coverHeight" : /coverY/.test(message) ? "coverY" : /cover/i.test(message) ? "cover"
    : /icon|emoji/i.test(message) ? "icon" : /insert_files|file/i.test(message) ? "upload" : "form"

/** A control with its label, its hint and its problem (tied by aria-describedby). */
const Control = (props: {
  readonly label: string
  readonly hint?: string | undefined
  readonly problem?: string | undefined
  readonly children: (describedBy: string | undefined, invalid: boolean) => ReactNode
}) => {
  const id = useId()
  const described = [props.hint === undefined ? undefined : `${id}-hint`, props.problem === undefined ? undefined : `${id}-problem`].filter(Boolean).join(" ")
  return (
    <div className="page-options-control">
      <label>
        <span>{props.label}</span>
        {props.children(described === "" ? undefined : described, props.problem !== undefined)}
      </label>
      {props.hint === undefined ? null : <p id={`${id}-hint`} className="page-options-hint">{props.hint}</p>}
      {props.problem === undefined ? null : <p id={`${id}-problem`} className="form-error" role="alert">{props.problem}</p>}
    </div>
  )
}

export const PageOptions = (props: {
  readonly spaceId: string
  readonly number: number
  readonly page: RevisionPage
  /** After a save: the screen reads the tree and the page again. */
  readonly onSaved: () => void
}) => {
  const registry = useRegistry()
  const [options, setOptions] = useState<Options>(() => optionsOf(props.page))
  const [upload, setUpload] = useState<File | undefined>(undefined)
  const [problems, setProblems] = useState<Problems>({})
  const [state, setState] = useState<"idle" | "saving" | "saved">("idle")
  // Once saved, the form shows what the server made of it (an upload becomes the page's cover file) when the page is read again.
  const resync = useRef(false)
  useEffect(() => {
    if (!resync.current) return
    resync.current = false
    setOptions(optionsOf(props.page))
  }, [props.page])
  const set = (patch: Partial<Options>) => {
    setOptions((was) => ({ ...was, ...patch }))
    setState("idle")
  }
  const text = (key: "icon" | "cover" | "coverHeight" | "coverY") => (event: ChangeEvent<HTMLInputElement>) => set({ [key]: event.target.value })
  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    setProblems((was) => Object.fromEntries(Object.entries(was).filter(([field]) => field !== "upload")))
    if (file === undefined) return setUpload(undefined)
    if (!file.type.startsWith("image/")) return setProblems((was) => ({ ...was, upload: `“${file.name}” is not an image.` }))
    if (file.size > maxUpload) return setProblems((was) => ({ ...was, upload: `“${file.name}” is ${(file.size / 1048576).toFixed(1)} MB; a cover is at most 1 MB.` }))
    setUpload(file)
    setState("idle")
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const found = problemsOf(options)
    setProblems(found)
    if (Object.keys(found).length > 0) return
    setState("saving")
    try {
      const cr = await callApi(registry, getChangeRequest(props.spaceId, props.number))
      const page = await callApi(registry, getPage(props.spaceId, props.number, props.page.id, "markdown"))
      const changes: Array<ChangeRequestContentChange> = []
      let uploaded: string | undefined
      if (upload !== undefined) {
        const name = `cover-${Date.now().toString(36)}-${upload.name.replace(/[^\w.-]+/g, "-")}`
        changes.push({ operation: "insert_files", files: [{ name, contentType: upload.type, base64: await base64Of(upload) }] })
        uploaded = `.gitbook/assets/${name}`
      }
      const change = optionsChange(props.page, page.markdown ?? "", options, uploaded)
      if (change !== null) changes.push(change)
      if (changes.length > 0) await callApi(registry, updateContent(props.spaceId, props.number, changes, cr.revision))
      setUpload(undefined)
      setState("saved")
      resync.current = true
      props.onSaved()
    } catch (failure) {
      setState("idle")
      const message = failure instanceof Error ? failure.message : String(failure)
      setProblems({ [fieldOf(message)]: `Not saved: ${message}` })
    }
  }

  const hasCover = options.cover.trim() !== "" || (options.coverFile !== undefined && !options.coverRemoved) || upload !== undefined
  return (
    <details className="page-options">
      <summary>Page options</summary>
      <form onSubmit={(e) => void onSubmit(e)} noValidate>
        <fieldset>
          <legend>Icon</legend>
          <Control label="Emoji or icon name" hint="One emoji, or an icon name such as book-open. Empty: no icon." problem={problems.icon}>
            {(describedBy, invalid) => <input value={options.icon} onChange={text("icon")} aria-describedby={describedBy} aria-invalid={invalid} maxLength={60} />}
          </Control>
        </fieldset>
        <fieldset>
          <legend>Cover</legend>
          {options.coverFile !== undefined && !options.coverRemoved && upload === undefined
            ? <p className="page-options-hint">The cover is an uploaded image.</p>
            : null}
          <Control label="Cover image URL" hint="https://… — or upload an image below." problem={problems.cover}>
            {(describedBy, invalid) => <input type="url" value={options.cover} onChange={text("cover")} aria-describedby={describedBy} aria-invalid={invalid} placeholder="https://" />}
          </Control>
          <Control label="Upload a cover image" hint="PNG, JPEG, GIF, WebP or SVG, at most 1 MB." problem={problems.upload}>
            {(describedBy, invalid) => <input type="file" accept="image/*" onChange={onFile} aria-describedby={describedBy} aria-invalid={invalid} />}
          </Control>
          <div className="page-options-row">
            <Control label="Height (px)" problem={problems.coverHeight}>
              {(describedBy, invalid) => <input inputMode="numeric" value={options.coverHeight} onChange={text("coverHeight")} aria-describedby={describedBy} aria-invalid={invalid} placeholder="240" />}
            </Control>
            <Control label="Vertical position (px)" problem={problems.coverY}>
              {(describedBy, invalid) => <input inputMode="numeric" value={options.coverY} onChange={text("coverY")} aria-describedby={describedBy} aria-invalid={invalid} placeholder="0" />}
            </Control>
          </div>
          {hasCover
            ? <button type="button" onClick={() => { setUpload(undefined); set({ cover: "", coverRemoved: true }) }}>Remove the cover</button>
            : null}
        </fieldset>
        <fieldset>
          <legend>Layout</legend>
          <div className="page-options-row" role="radiogroup" aria-label="Width">
            {(["default", "wide"] as const).map((width) => (
              <label key={width} className="page-options-check">
                <input type="radio" name="page-width" checked={options.width === width} onChange={() => set({ width })} />
                {width === "default" ? "Default width" : "Wide"}
              </label>
            ))}
          </div>
          <p className="page-options-hint">Shown on the published page:</p>
          <div className="page-options-grid">
            {visibilityKeys.map((key) => (
              <label key={key} className="page-options-check">
                <input type="checkbox" checked={options.visible[key]} onChange={(e) => set({ visible: { ...options.visible, [key]: e.target.checked } })} />
                {visibilityLabels[key]}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="page-options-actions">
          <button type="submit" disabled={state === "saving"}>{state === "saving" ? "Saving…" : "Save options"}</button>
          <span role="status" aria-live="polite">{state === "saved" ? "Options saved" : ""}</span>
        </div>
        {problems.form === undefined ? null : <p className="form-error" role="alert">{problems.form}</p>}
      </form>
    </details>
  )
}
