/**
 * A change request's description under its title (GitBook's `description`, a JSON document): drawn
 * as the review draws a page's blocks, and, for those who may edit a draft or open one, "Add a
 * description" / "Edit description" opening a markdown text area saved through the PATCH (the
 * markdown made GitBook's document with content's one codec, loaded with `import()`). "Saved" only
 * once the server has answered; a refusal is said under the field.
 */
import type { ChangeRequest } from "@quire/api"
import { useEffect, useId, useState } from "react"
import { callApi } from "../../api/call.ts"
import { useRegistry } from "../../api/react.ts"
import { messageOf } from "../../ui/States.tsx"
import { type ChangeRequestChanges, updateChangeRequest } from "../editing/content.ts"

type Codec = typeof import("./description-view.ts")

/** Content's codec and the review's drawing, loaded once when a description is shown or edited. */
let loading: Promise<Codec> | undefined
const loadCodec = () => (loading ??= import("./description-view.ts"))

/** The most markdown the server keeps (reviews' `maxDescriptionLength`), said before sending. */
const maxLength = 20_000

interface Shown {
  readonly markdown: string
  readonly html: string
}

/** The description as markdown and drawn: undefined while the codec loads, empty when there is none. */
const useDescription = (description: ChangeRequest["description"]): Shown | undefined => {
  const [shown, setShown] = useState<Shown | undefined>(description === undefined ? { markdown: "", html: "" } : undefined)
  useEffect(() => {
    if (description === undefined) {
      setShown({ markdown: "", html: "" })
      return
    }
    let live = true
    void loadCodec().then((codec) => {
      if (!live) return
      const markdown = codec.documentText(description as Parameters<Codec["documentText"]>[0]).trimEnd()
      setShown({ markdown, html: codec.descriptionHtml(markdown) })
    })
    return () => { live = false }
  }, [description])
  return shown
}

export const Description = (props: {
  readonly spaceId: string
  readonly cr: ChangeRequest
  /** Whether the person may change it (edit permission, a draft or open change request). */
  readonly canEdit: boolean
  readonly onSaved: () => void
}) => {
  const registry = useRegistry()
  const shown = useDescription(props.cr.description)
  const markdown = shown?.markdown
  const [editing, setEditing] = useState(false)
  const [text, setText] = useState("")
  const [saving, setSaving] = useState(false)
  const [saved, setSaved] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const id = useId()
  const errorId = `${id}-error`

  const start = () => {
    setText(markdown ?? "")
    setError(undefined)
    setSaved(false)
    setEditing(true)
  }
  const save = async () => {
    if (text.length > maxLength) {
      setError(`The description is too long: at most ${maxLength.toLocaleString("en")} characters, and it has ${text.length.toLocaleString("en")}. Shorten it, then save.`)
      return
    }
    setSaving(true)
    setError(undefined)
    try {
      const codec = await loadCodec()
      const description = codec.markdownDocument(text) as unknown as NonNullable<ChangeRequestChanges["description"]>
      await callApi(registry, updateChangeRequest(props.spaceId, props.cr.number, { description }))
      setEditing(false)
      setSaved(true)
      props.onSaved()
    } catch (failure) {
      setError(`The description was not saved: ${messageOf(failure)}`)
    } finally {
      setSaving(false)
    }
  }

  const hasText = markdown !== undefined && markdown.trim() !== ""
  if (!props.canEdit && props.cr.description === undefined) return null
  return (
    <section className="cr-description" aria-label="Description">
      {editing
        ? (
          <form className="cr-description-form" onSubmit={(e) => { e.preventDefault(); void save() }}>
            <label htmlFor={id}>Description <span className="muted">(markdown: what this changes and why)</span></label>
            <textarea id={id} rows={6} value={text} onChange={(e) => { setText(e.target.value); setSaved(false) }} autoFocus
              aria-invalid={error === undefined ? undefined : true} aria-describedby={error === undefined ? undefined : errorId}
              onKeyDown={(e) => {
                if (e.key === "Escape") setEditing(false)
                if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) { e.preventDefault(); void save() }
              }} />
            {error === undefined ? null : <p id={errorId} className="form-error" role="alert">{error}</p>}
            <div className="cr-description-actions">
              <button type="submit" className="primary" disabled={saving}>{saving ? "Saving…" : "Save description"}</button>
              <button type="button" onClick={() => setEditing(false)} disabled={saving}>Cancel</button>
            </div>
          </form>
        )
        : (
          <>
            {hasText ? <div className="cr-description-text markdown" data-testid="cr-description" dangerouslySetInnerHTML={{ __html: shown?.html ?? "" }} /> : null}
            {props.canEdit
              ? (
                <p className="cr-description-actions">
                  <button type="button" className="link" onClick={start} disabled={markdown === undefined}>{hasText ? "Edit description" : "Add a description"}</button>
                  <span role="status" className="muted">{saved ? "Saved" : ""}</span>
                </p>
              )
              : null}
          </>
        )}
    </section>
  )
}
