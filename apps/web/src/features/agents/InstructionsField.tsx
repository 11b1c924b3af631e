/**
 * A markdown text area for an agent's instructions: filled from the stored document once content's
 * codec has loaded, with its hint and the server's words about it below.
 */
import { useId } from "react"

export const InstructionsField = (props: {
  readonly label: string
  readonly value: string | undefined
  readonly onChange: (value: string) => void
  readonly hint: string
  readonly error: string | undefined
  readonly readOnly: boolean
  readonly onSubmitShortcut?: (() => void) | undefined
}) => {
  const id = useId()
  const described = [`${id}-hint`, props.error === undefined ? undefined : `${id}-error`].filter(Boolean).join(" ")
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <textarea id={id} className="instructions-input" rows={7} value={props.value ?? ""} disabled={props.value === undefined} readOnly={props.readOnly}
        placeholder={props.readOnly ? "None" : "Write in markdown: a few short lines."}
        onChange={(event) => props.onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && (event.metaKey || event.ctrlKey) && props.onSubmitShortcut !== undefined) {
            event.preventDefault()
            props.onSubmitShortcut()
          }
        }}
        aria-invalid={props.error === undefined ? undefined : true} aria-describedby={described} />
      <span id={`${id}-hint`} className="hint">{props.hint}</span>
      {props.error === undefined ? null : <p id={`${id}-error`} className="field-error" role="alert">{props.error}</p>}
    </div>
  )
}
