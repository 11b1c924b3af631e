/** A URL the identity provider needs, read-only with Copy. */
import { useId } from "react"
import { CopyButton } from "../ui.tsx"

export interface CopyFieldProps {
  readonly label: string
  readonly value: string
  readonly copy: string
}

export const CopyField = (props: CopyFieldProps) => {
  const id = useId()
  return (
    <div className="field copy-field">
      <label htmlFor={id}>{props.label}</label>
      <div className="copy-row">
        <input id={id} className="link-field" readOnly value={props.value} onFocus={(event) => event.target.select()} />
        <CopyButton text={props.value} label={props.copy} selectId={id} />
      </div>
    </div>
  )
}
