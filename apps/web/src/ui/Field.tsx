import { useId } from "react"

/** A labelled input with its hint and, when the server named it, its error right below. */
export const Field = (props: {
  readonly label: string
  readonly name: string
  readonly type?: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly error?: string | undefined
  readonly hint?: string
  readonly autoComplete?: string
  readonly autoFocus?: boolean
  readonly required?: boolean
  readonly placeholder?: string
}) => {
  const id = useId()
  const described = [props.hint === undefined ? undefined : `${id}-hint`, props.error === undefined ? undefined : `${id}-error`].filter(Boolean).join(" ")
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        aria-invalid={props.error === undefined ? undefined : true}
        aria-describedby={described === "" ? undefined : described}
        autoComplete={props.autoComplete}
        autoFocus={props.autoFocus}
        required={props.required}
        placeholder={props.placeholder}
      />
      {props.hint === undefined ? null : <span id={`${id}-hint`} className="hint">{props.hint}</span>}
      {props.error === undefined ? null : <p id={`${id}-error`} className="field-error" role="alert">{props.error}</p>}
    </div>
  )
}

/**
 * A form's foot: the words of a refusal that names none of its fields, then its submit button
 * (`busyLabel` while the call runs) and, when the form can be left, Cancel.
 */
export const FormActions = (props: {
  readonly error: string | undefined
  readonly busy: boolean
  readonly label: string
  readonly busyLabel: string
  readonly onCancel?: () => void
}) => (
  <>
    {props.error === undefined ? null : <p className="form-error" role="alert">{props.error}</p>}
    <div className="toolbar">
      <button type="submit" className="primary" disabled={props.busy} aria-busy={props.busy}>{props.busy ? props.busyLabel : props.label}</button>
      {props.onCancel === undefined ? null : <button type="button" onClick={props.onCancel}>Cancel</button>}
    </div>
  </>
)
