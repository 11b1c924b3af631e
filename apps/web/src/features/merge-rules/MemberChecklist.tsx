/** A group of checkboxes, one per member of the organization, for the merge rules that name people. */
import { useId } from "react"

export interface MemberChecklistProps {
  readonly legend: string
  readonly hint?: string | undefined
  readonly members: ReadonlyArray<{ readonly id: string; readonly displayName: string }>
  readonly chosen: ReadonlyArray<string>
  readonly onChange: (chosen: ReadonlyArray<string>) => void
  readonly error?: string | undefined
  readonly disabled?: boolean
}

export const MemberChecklist = (props: MemberChecklistProps) => {
  const id = useId()
  const described = [props.hint === undefined ? undefined : `${id}-hint`, props.error === undefined ? undefined : `${id}-error`].filter(Boolean).join(" ")
  // Someone chosen who is not among the members listed (past the first 100, or gone) stays chosen, by id.
  const listed = new Set(props.members.map((m) => m.id))
  const everyone = [...props.members, ...props.chosen.filter((c) => !listed.has(c)).map((c) => ({ id: c, displayName: `User ${c}` }))]
  return (
    <fieldset className="merge-people" aria-describedby={described === "" ? undefined : described} aria-invalid={props.error === undefined ? undefined : true} disabled={props.disabled}>
      <legend>{props.legend}</legend>
      {props.hint === undefined ? null : <span id={`${id}-hint`} className="hint">{props.hint}</span>}
      <div className="merge-people-list">
        {everyone.map((member) => (
          <label key={member.id}>
            <input type="checkbox" checked={props.chosen.includes(member.id)}
              onChange={(event) => props.onChange(event.target.checked ? [...props.chosen, member.id] : props.chosen.filter((c) => c !== member.id))} />
            {member.displayName}
          </label>
        ))}
      </div>
      {props.error === undefined ? null : <p id={`${id}-error`} className="field-error" role="alert">{props.error}</p>}
    </fieldset>
  )
}
