/** A select of the organization's spaces, those already in the container left out. */
import type { Space } from "@quire/api"
import { useId } from "react"
import { spaceTitle } from "./context.ts"

export interface SpacePickerProps {
  readonly label: string
  readonly spaces: ReadonlyArray<Space>
  readonly value: string
  readonly onChange: (id: string) => void
  readonly error?: string | undefined
}

export const SpacePicker = (props: SpacePickerProps) => {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} value={props.value} onChange={(event) => props.onChange(event.target.value)}
        aria-invalid={props.error === undefined ? undefined : true} aria-describedby={props.error === undefined ? undefined : `${id}-error`}>
        <option value="">Choose a space…</option>
        {props.spaces.map((space) => <option key={space.id} value={space.id}>{spaceTitle(space)}</option>)}
      </select>
      {props.error === undefined ? null : <p id={`${id}-error`} className="field-error" role="alert">{props.error}</p>}
    </div>
  )
}
