/**
 * The merge rules of a space or of an organization (its spaces' defaults), as GitBook sets them:
 * a space inherits its organization's, has none, or has its own; an organization has none or its
 * own. Rules: reviews and approvals asked for, specific reviewers, who may merge without the
 * rules, whether authors may approve their own, and custom expressions. Admins change them; a
 * refusal is shown on the control whose rule it names.
 */
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useId, useState } from "react"
import { useAtomValue } from "../../api/react.ts"
import { refusalOf } from "../../ui/refusal.ts"
import { Link } from "../../ui/Link.tsx"
import { membersAtom } from "../review/queries.ts"
import { MemberChecklist } from "./MemberChecklist.tsx"
import { type Control, checkForm, controlOf, formOf, type OrganizationRules, plainRules, type RulesForm, rulesOf, type SpaceRules } from "./model.ts"
import { RulesSummary } from "./RulesSummary.tsx"
import "./merge-rules.css"

export interface MergeRulesFormProps {
  readonly scope: "space" | "organization"
  readonly organizationId: string
  readonly rules: SpaceRules
  /** For a space: its organization's rules, what `inherit` gives. */
  readonly inherited?: OrganizationRules | undefined
  readonly canEdit: boolean
  readonly onSave: (rules: SpaceRules) => Promise<void>
}

type Problems = Partial<Record<Control | "form", string>>

export const MergeRulesForm = (props: MergeRulesFormProps) => {
  const id = useId()
  const [form, setForm] = useState<RulesForm>(() => formOf(props.rules))
  const [problems, setProblems] = useState<Problems>({})
  const [busy, setBusy] = useState(false)
  const [status, setStatus] = useState("")
  const members = useAtomValue(membersAtom(props.organizationId))
  const people = AsyncResult.isSuccess(members) ? members.value.items.map((m) => ({ id: m.user.id, displayName: m.user.displayName })) : []
  const name = (userId: string) => people.find((p) => p.id === userId)?.displayName ?? userId
  const set = (patch: Partial<RulesForm>) => {
    setStatus("")
    setForm((was) => ({ ...was, ...patch }))
  }

  if (!props.canEdit) {
    const shown: OrganizationRules = props.rules.type === "inherit" ? props.inherited ?? { type: "none" } : props.rules
    return (
      <div className="merge-rules">
        {props.rules.type === "inherit" ? <p>This space follows its <Link href={`/o/${props.organizationId}/settings`}>organization's merge rules</Link>:</p> : null}
        <RulesSummary rules={shown} name={name} />
        <p className="muted">Only administrators change them.</p>
      </div>
    )
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    setStatus("")
    const found = checkForm(form)
    setProblems(found)
    if (Object.keys(found).length > 0) return
    const { controls, rules } = rulesOf(form)
    setBusy(true)
    props.onSave(rules)
      .then(() => setStatus("Saved."))
      .catch((error: unknown) => {
        const refusal = refusalOf(error)
        if (refusal === undefined) return setProblems({ form: "The server could not be reached. Check your connection and try again." })
        const control = controlOf(refusal.field, controls)
        const words = refusal.message.charAt(0).toUpperCase() + refusal.message.slice(1)
        setProblems(control === undefined ? { form: words } : { [control]: words })
      })
      .finally(() => setBusy(false))
  }
  const modes = props.scope === "space"
    ? [
      { value: "inherit", label: "Follow the organization's merge rules" },
      { value: "none", label: "No merge rules: anyone who may merge does" },
      { value: "rules", label: "This space's own rules" }
    ] as const
    : [
      { value: "none", label: "No merge rules: anyone who may merge does" },
      { value: "rules", label: "These rules, for every space that follows the organization's" }
    ] as const
  const error = (control: Control) => problems[control] === undefined ? null : <p id={`${id}-${control}-error`} className="field-error" role="alert">{problems[control]}</p>
  const describedBy = (control: Control, hint?: string) => [hint, problems[control] === undefined ? undefined : `${id}-${control}-error`].filter(Boolean).join(" ") || undefined
  return (
    <form className="merge-rules admin-form" onSubmit={onSubmit} noValidate aria-label={props.scope === "space" ? "Merge rules of this space" : "Merge rules of the organization"}>
      <fieldset className="merge-mode">
        <legend>{props.scope === "space" ? "This space's merge rules" : "The organization's merge rules"}</legend>
        {modes.map((mode) => (
          <label key={mode.value}>
            <input type="radio" name={`${id}-mode`} value={mode.value} checked={form.mode === mode.value} onChange={() => set({ mode: mode.value })} />
            {mode.label}
          </label>
        ))}
        {error("mode")}
      </fieldset>
      {form.mode === "inherit" ? (
        <div className="merge-inherited">
          <p>The <Link href={`/o/${props.organizationId}/settings#merge-rules`}>organization's merge rules</Link> apply, and follow them when they change:</p>
          <RulesSummary rules={props.inherited ?? { type: "none" }} name={name} />
        </div>
      ) : null}
      {form.mode === "rules" ? (
        <>
          <fieldset className="merge-plain" aria-describedby={describedBy("plain")}>
            <legend>Before a change request merges, it needs</legend>
            {plainRules.map((p) => (
              <label key={p.rule}>
                <input type="checkbox" checked={form.plain.includes(p.rule)}
                  onChange={(event) => set({ plain: event.target.checked ? [...form.plain, p.rule] : form.plain.filter((r) => r !== p.rule) })} />
                {p.label}
              </label>
            ))}
            {error("plain")}
          </fieldset>
          <div className="field">
            <label htmlFor={`${id}-reviewers`}>Approvals from specific reviewers</label>
            <select id={`${id}-reviewers`} value={form.reviewers} aria-describedby={describedBy("reviewers")} aria-invalid={problems.reviewers === undefined ? undefined : true}
              onChange={(event) => set({ reviewers: event.target.value as RulesForm["reviewers"] })}>
              <option value="none">None asked for</option>
              <option value="each">From each of the people below</option>
              <option value="one">From one of the people below</option>
            </select>
          </div>
          {form.reviewers === "none" ? error("reviewers") : (
            <MemberChecklist legend="Specific reviewers" members={people} chosen={form.reviewerIds} onChange={(reviewerIds) => set({ reviewerIds })} error={problems.reviewers} />
          )}
          <MemberChecklist legend="May merge without the rules" hint="Who may bypass the rules: they merge whatever the other rules say (an emergency fix, a lead)."
            members={people} chosen={form.bypass} onChange={(bypass) => set({ bypass })} error={problems.bypass} />
          <div className="field checkbox">
            <label>
              <input type="checkbox" checked={form.authorApproves} aria-describedby={describedBy("authorApproves", `${id}-author-hint`)} onChange={(event) => set({ authorApproves: event.target.checked })} />
              Authors may approve their own change requests
            </label>
            <span id={`${id}-author-hint`} className="hint">Off, someone other than the author approves.</span>
            {error("authorApproves")}
          </div>
          <fieldset className="merge-custom">
            <legend>Custom rules</legend>
            <span className="hint">A JavaScript expression over <code>changeRequest</code>, <code>reviews</code>, <code>space</code> and <code>actor</code> that must be true, checked when merging. For example: <code>{"reviews.filter((r) => r.status === 'approved' && !r.outdated).length >= 2"}</code></span>
            {form.custom.map((custom, i) => (
              <div key={i} className="merge-custom-rule">
                <div className="field">
                  <label htmlFor={`${id}-custom-${i}`}>Expression {form.custom.length > 1 ? i + 1 : ""}</label>
                  <textarea id={`${id}-custom-${i}`} className="code-input" rows={3} spellCheck={false} value={custom.expression} maxLength={4096}
                    aria-invalid={problems[`custom-${i}-expression`] === undefined && problems[`custom-${i}`] === undefined ? undefined : true}
                    aria-describedby={[describedBy(`custom-${i}-expression`), describedBy(`custom-${i}`)].filter(Boolean).join(" ") || undefined}
                    onChange={(event) => set({ custom: form.custom.map((c, j) => (j === i ? { ...c, expression: event.target.value } : c)) })} />
                  {error(`custom-${i}-expression`)}
                  {error(`custom-${i}`)}
                </div>
                <div className="field">
                  <label htmlFor={`${id}-custom-${i}-message`}>Message when it is not met</label>
                  <input id={`${id}-custom-${i}-message`} value={custom.message} aria-describedby={describedBy(`custom-${i}-message`)}
                    onChange={(event) => set({ custom: form.custom.map((c, j) => (j === i ? { ...c, message: event.target.value } : c)) })} />
                  {error(`custom-${i}-message`)}
                </div>
                <button type="button" className="link" onClick={() => set({ custom: form.custom.filter((_, j) => j !== i) })}>Remove this custom rule</button>
              </div>
            ))}
            <div><button type="button" onClick={() => set({ custom: [...form.custom, { expression: "", message: "" }] })}>Add a custom rule</button></div>
          </fieldset>
        </>
      ) : null}
      {problems.form === undefined ? null : <p className="form-error" role="alert">{problems.form}</p>}
      <div className="toolbar">
        <button type="submit" className="primary" disabled={busy}>{busy ? "Saving…" : "Save merge rules"}</button>
        <span className="status" role="status">{status}</span>
      </div>
    </form>
  )
}
