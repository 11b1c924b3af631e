/**
 * What the administration screens share: a form's busy state and its problems placed on fields,
 * a labelled `<select>` and text area, a confirmation dialog, a copy button, and the organization's
 * tabs (members, teams, settings, single sign-on).
 */
import { type ReactNode, useEffect, useId, useRef, useState } from "react"
import { Link } from "../../ui/Link.tsx"
import { Tabs } from "../../ui/Tabs.tsx"
import { type FormErrors, noErrors, problemOf, type Role, roleHint, roleName, roles } from "./problems.ts"
import "./admin.css"

/** A form's submission: busy while the server answers, its refusal placed on the field it names. */
export const useForm = (fields: ReadonlyArray<string>, placeUnnamed?: (message: string) => string | undefined) => {
  const [busy, setBusy] = useState(false)
  const [errors, setErrors] = useState<FormErrors>(noErrors)
  const submit = async (run: () => Promise<void>): Promise<boolean> => {
    setBusy(true)
    setErrors(noErrors)
    try {
      await run()
      return true
    } catch (error) {
      setErrors(problemOf(error, fields, placeUnnamed))
      return false
    } finally {
      setBusy(false)
    }
  }
  /** Problems found before asking the server; true when there are none. */
  const check = (found: Readonly<Record<string, string>>) => {
    setErrors({ fields: found, form: undefined })
    return Object.keys(found).length === 0
  }
  return { busy, errors, submit, check, setErrors }
}

export const FormError = (props: { readonly errors: FormErrors }) =>
  props.errors.form === undefined ? null : <p className="form-error" role="alert">{props.errors.form}</p>

/** A labelled select with its hint and error below, as ui/Field.tsx is for inputs. */
export const SelectField = (props: {
  readonly label: string
  readonly name: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly options: ReadonlyArray<{ readonly value: string; readonly label: string }>
  readonly error?: string | undefined
  readonly hint?: string | undefined
  readonly disabled?: boolean
}) => {
  const id = useId()
  const described = [props.hint === undefined ? undefined : `${id}-hint`, props.error === undefined ? undefined : `${id}-error`].filter(Boolean).join(" ")
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} name={props.name} value={props.value} disabled={props.disabled} onChange={(event) => props.onChange(event.target.value)}
        aria-invalid={props.error === undefined ? undefined : true} aria-describedby={described === "" ? undefined : described}>
        {props.options.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
      </select>
      {props.hint === undefined ? null : <span id={`${id}-hint`} className="hint">{props.hint}</span>}
      {props.error === undefined ? null : <p id={`${id}-error`} className="field-error" role="alert">{props.error}</p>}
    </div>
  )
}

/** A labelled text area with its hint and error below, as ui/Field.tsx is for inputs. */
export const TextAreaField = (props: {
  readonly label: string
  readonly name: string
  readonly value: string
  readonly onChange?: (value: string) => void
  readonly error?: string | undefined
  readonly hint?: string | undefined
  readonly rows?: number
  readonly readOnly?: boolean
  readonly id?: string
}) => {
  const generated = useId()
  const id = props.id ?? generated
  const described = [props.hint === undefined ? undefined : `${id}-hint`, props.error === undefined ? undefined : `${id}-error`].filter(Boolean).join(" ")
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <textarea id={id} name={props.name} className="code-input" rows={props.rows ?? 6} value={props.value} spellCheck={false} readOnly={props.readOnly}
        onChange={(event) => props.onChange?.(event.target.value)}
        aria-invalid={props.error === undefined ? undefined : true} aria-describedby={described === "" ? undefined : described} />
      {props.hint === undefined ? null : <span id={`${id}-hint`} className="hint">{props.hint}</span>}
      {props.error === undefined ? null : <p id={`${id}-error`} className="field-error" role="alert">{props.error}</p>}
    </div>
  )
}

/** The roles as `<select>` options, with what each may do; `guest` (no organization role) when asked. */
export const roleOptions = (withGuest: boolean) => [
  ...roles.map((role: Role) => ({ value: role, label: `${roleName(role)} (${roleHint(role)})` })),
  ...(withGuest ? [{ value: "guest", label: `${roleName(null)} (${roleHint("guest")})` }] : [])
]

/** The roles' short names, for a select in a table row. */
export const shortRoleOptions = (withGuest: boolean) => [
  ...roles.map((role: Role) => ({ value: role, label: roleName(role) })),
  ...(withGuest ? [{ value: "guest", label: roleName(null) }] : [])
]

/** A modal dialog asking to confirm an action that cannot be undone; Escape or Cancel closes it. */
export const Confirm = (props: {
  readonly title: string
  readonly children: ReactNode
  readonly action: string
  readonly busyAction: string
  readonly onConfirm: () => Promise<void>
  readonly onClose: () => void
  readonly problem?: string | undefined
}) => {
  const dialog = useRef<HTMLDialogElement>(null)
  const [busy, setBusy] = useState(false)
  const titleId = useId()
  useEffect(() => {
    dialog.current?.showModal()
  }, [])
  const confirm = async () => {
    setBusy(true)
    try {
      await props.onConfirm()
    } finally {
      setBusy(false)
    }
  }
  return (
    <dialog ref={dialog} aria-labelledby={titleId} onClose={props.onClose} className="confirm-dialog">
      <div className="dialog-body">
        <h2 id={titleId}>{props.title}</h2>
        {props.children}
        {props.problem === undefined ? null : <p className="form-error" role="alert">{props.problem}</p>}
        <div className="toolbar">
          <button type="button" className="danger" disabled={busy} onClick={() => void confirm()}>{busy ? props.busyAction : props.action}</button>
          <button type="button" autoFocus onClick={() => dialog.current?.close()}>Cancel</button>
        </div>
      </div>
    </dialog>
  )
}

/**
 * Copies `text` to the clipboard; where the browser refuses, selects the field `selectId` so the
 * person can copy it. `label` names the button; when it starts with `short`, only `short` shows and
 * the rest is for screen readers, so a long name never widens a narrow screen.
 */
export const CopyButton = (props: { readonly text: string; readonly label: string; readonly short?: string; readonly selectId?: string }) => {
  const [done, setDone] = useState<string>("")
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text)
      setDone("Copied")
    } catch {
      const field = props.selectId === undefined ? null : document.getElementById(props.selectId)
      if (field instanceof HTMLInputElement) {
        field.focus()
        field.select()
      }
      setDone("Press Ctrl+C to copy")
    }
  }
  return (
    <>
      <button type="button" onClick={() => void copy()} >
        {props.short !== undefined && props.label.startsWith(props.short)
          ? <>{props.short}<span className="visually-hidden">{props.label.slice(props.short.length)}</span></>
          : props.label}
      </button>
      <span className="status" role="status">{done}</span>
    </>
  )
}

/** The organization's administration tabs; settings only for its admins (or when opened by its address). */
export const OrgTabs = (props: { readonly organizationId: string; readonly current: "settings" | "members" | "teams" | "settings/sso" | "audit-log" | "ai-log"; readonly title: string; readonly admin: boolean }) => {
  const tabs = [
    { key: "members", label: "Members" },
    { key: "teams", label: "Teams" },
    { key: "settings", label: "Settings" },
    { key: "settings/sso", label: "Single sign-on" },
    { key: "audit-log", label: "Audit log" },
    { key: "ai-log", label: "AI log" }
  ] as const
  return (
    <>
      <p className="admin-back"><Link href={`/o/${props.organizationId}`}>{props.title}</Link></p>
      <Tabs
        label="Organization administration"
        current={props.current}
        tabs={tabs.filter((tab) => props.admin || !(tab.key.startsWith("settings") || tab.key === "audit-log" || tab.key === "ai-log") || props.current === tab.key)
          .map((tab) => ({ ...tab, href: `/o/${props.organizationId}/${tab.key}` }))}
      />
    </>
  )
}
