/**
 * One grant of a role, to a person or a team, in a list of who has access (a space's or collection's
 * share dialog, a site's permissions): the role to change with Save, and Revoke or Remove, for those who
 * may change it; the role alone for others. A failure is said next to the role it is about.
 */
import { useId, useState } from "react"
import { useForm } from "./ui.tsx"

export interface GrantRowProps<R extends string> {
  readonly name: string
  /** Shown after the name, smaller (a person's email, a team's size). */
  readonly detail?: string | undefined
  readonly role: string
  /** The roles offered; a role held but not offered is added, so the list shows what is. */
  readonly roles: ReadonlyArray<{ readonly value: R; readonly label: string }>
  readonly roleName: (role: string) => string
  /** Whether the caller may change it: otherwise only the role is shown. */
  readonly canChange: boolean
  /** The accessible name of the role's list ("Role of Ada"). */
  readonly roleLabel: string
  /** The remove button's text and its accessible name. */
  readonly remove: { readonly text: string; readonly label: string }
  readonly onChange: (role: R) => Promise<unknown>
  readonly onRemove: () => Promise<unknown>
}

export const GrantRow = <R extends string>(props: GrantRowProps<R>) => {
  const [role, setRole] = useState(props.role)
  const { busy, errors, submit } = useForm(["role"], () => "role")
  const errorId = useId()
  const problem = errors.fields["role"] ?? errors.form
  const options = props.roles.some((option) => option.value === props.role) ? props.roles : [...props.roles, { value: props.role, label: props.roleName(props.role) }]
  return (
    <li>
      <span className="grow">{props.name}{props.detail === undefined ? null : <span className="muted small"> {props.detail}</span>}</span>
      {props.canChange ? (
        <span className="role-cell">
          <select aria-label={props.roleLabel} value={role} onChange={(event) => setRole(event.target.value)} disabled={busy}
            aria-invalid={problem === undefined ? undefined : true} aria-describedby={problem === undefined ? undefined : errorId}>
            {options.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
          </select>
          {role === props.role ? null : (
            <button type="button" className="primary" disabled={busy} onClick={() => void submit(async () => { await props.onChange(role as R) })}>
              {busy ? "Saving…" : "Save"}
            </button>
          )}
          <button type="button" disabled={busy} onClick={() => void submit(async () => { await props.onRemove() })} aria-label={props.remove.label}>{props.remove.text}</button>
          {problem === undefined ? null : <span id={errorId} className="field-error" role="alert">{problem}</span>}
        </span>
      ) : <span>{props.roleName(props.role)}</span>}
    </li>
  )
}
