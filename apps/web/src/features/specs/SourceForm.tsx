/**
 * Where a spec's document comes from, chosen in a form: a URL (fetched and polled again by the
 * server) or a file from this computer (read here, sent as its text). Shared by adding a spec and
 * by giving one a new source.
 */
import { type ChangeEvent, useId, useState } from "react"
import { Field } from "../../ui/Field.tsx"

export type Source = { readonly url: string } | { readonly text: string }

export interface SourceDraft {
  readonly kind: "url" | "file"
  readonly url: string
  readonly file: { readonly name: string; readonly text: string } | undefined
}

export const emptySource: SourceDraft = { kind: "url", url: "", file: undefined }

/** The source to send, or the words that say what is missing (under the field at fault). */
export const sourceOf = (draft: SourceDraft): Source | { readonly problem: string; readonly field: "source.url" | "source.text" } => {
  if (draft.kind === "url") return draft.url.trim() === "" ? { problem: "Give the URL of the document.", field: "source.url" } : { url: draft.url.trim() }
  if (draft.file === undefined) return { problem: "Choose a JSON or YAML file.", field: "source.text" }
  if (draft.file.text.trim() === "") return { problem: `${draft.file.name} is empty.`, field: "source.text" }
  return { text: draft.file.text }
}

/** The URL or file fields, with the errors placed under them. */
export const SourceFields = (props: {
  readonly draft: SourceDraft
  readonly onChange: (draft: SourceDraft) => void
  readonly urlError: string | undefined
  readonly fileError: string | undefined
  /** The file's name, once chosen (to suggest a slug). */
  readonly onFile?: (name: string) => void
}) => {
  const id = useId()
  const [reading, setReading] = useState(false)
  const { draft } = props
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    if (file === undefined) return props.onChange({ ...draft, file: undefined })
    setReading(true)
    try {
      props.onChange({ ...draft, file: { name: file.name, text: await file.text() } })
      props.onFile?.(file.name)
    } finally {
      setReading(false)
    }
  }
  const fileDescribed = [`${id}-file-hint`, props.fileError === undefined ? undefined : `${id}-file-error`].filter(Boolean).join(" ")
  return (
    <>
      <fieldset className="spec-source">
        <legend>Source</legend>
        <label className="check"><input type="radio" name={`${id}-kind`} checked={draft.kind === "url"} onChange={() => props.onChange({ ...draft, kind: "url" })} /> From a URL</label>
        <label className="check"><input type="radio" name={`${id}-kind`} checked={draft.kind === "file"} onChange={() => props.onChange({ ...draft, kind: "file" })} /> Upload a file</label>
      </fieldset>
      {draft.kind === "url"
        ? <Field label="URL of the document" name="url" type="url" value={draft.url} onChange={(url) => props.onChange({ ...draft, url })} error={props.urlError}
          hint="JSON or YAML, OpenAPI 3 or Swagger 2. Quire fetches it again every hour." />
        : (
          <div className="field">
            <label htmlFor={`${id}-file`}>File</label>
            <input id={`${id}-file`} name="file" type="file" accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml" onChange={(event) => void choose(event)}
              aria-invalid={props.fileError === undefined ? undefined : true} aria-describedby={fileDescribed} />
            <span id={`${id}-file-hint`} className="hint">{reading ? "Reading the file…" : draft.file === undefined ? "JSON or YAML, at most 10 MB." : `${draft.file.name}, ${draft.file.text.length.toLocaleString()} characters`}</span>
            {props.fileError === undefined ? null : <p id={`${id}-file-error`} className="field-error" role="alert">{props.fileError}</p>}
          </div>
        )}
    </>
  )
}

/** A refusal's words under the URL or the file field: the server names `source.url` or `source.text`, a union refusal `source`. */
export const sourceErrors = (kind: SourceDraft["kind"], problem: { readonly field: string | undefined; readonly message: string } | undefined) => {
  const at = problem?.field
  const mine = (field: string) => at !== undefined && (at === field || at.startsWith(`${field}.`) || (at === "source" && field === (kind === "url" ? "source.url" : "source.text")))
  return { url: mine("source.url") ? problem?.message : undefined, file: mine("source.text") ? problem?.message : undefined, placed: mine("source.url") || mine("source.text") }
}
