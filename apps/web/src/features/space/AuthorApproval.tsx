/**
 * Whether a change request's author may approve it: the space's merge rule `allow_author_approval`
 * (Quire's extension of GitBook's merge rules). A space admin turns it on or off, keeping the
 * space's other rules; everyone else reads what it is.
 */
import type { Space } from "@quire/api"
import { useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { useMutation } from "../../api/react.ts"
import { errorText } from "../review/action.ts"

const updateSpace = QuireApi.mutation("spaces", "updateSpaceById")

type Rules = Space["mergeRules"]

/** The rules with `allow_author_approval` added or taken out; `inherit` and `none` hold no rule, so they become a list of it alone. */
export const withAuthorApproval = (rules: Rules, allowed: boolean): Rules => {
  const others = rules.type === "rules" ? rules.rules.filter((rule) => rule.rule !== "allow_author_approval") : []
  if (allowed) return { type: "rules", rules: [...others, { rule: "allow_author_approval" }] }
  return rules.type === "rules" ? { type: "rules", rules: others } : rules
}

export const authorMayApprove = (rules: Rules) => rules.type === "rules" && rules.rules.some((rule) => rule.rule === "allow_author_approval")

export const AuthorApproval = (props: { readonly space: Space }) => {
  const update = useMutation(updateSpace)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>()
  const allowed = authorMayApprove(props.space.mergeRules)
  if (!props.space.permissions.admin) {
    return (
      <p className="muted">
        {allowed ? "In this space, the author of a change request may approve it." : "In this space, someone other than its author approves a change request."}
      </p>
    )
  }
  const onChange = (next: boolean) => {
    setBusy(true)
    setError(undefined)
    update({ params: { spaceId: props.space.id }, payload: { mergeRules: withAuthorApproval(props.space.mergeRules, next) }, reactivityKeys: [`space:${props.space.id}`] })
      .catch((failure: unknown) => setError(`Could not change the merge rules: ${errorText(failure)}`))
      .finally(() => setBusy(false))
  }
  return (
    <div className="author-approval">
      <label>
        <input type="checkbox" checked={allowed} disabled={busy} aria-describedby="author-approval-hint" onChange={(event) => onChange(event.target.checked)} />
        Authors may approve their own change requests
      </label>
      <span id="author-approval-hint" className="muted">A merge rule of this space; only its admins change it. Off, someone else must approve.</span>
      {error === undefined ? null : <p className="form-error" role="alert">{error}</p>}
    </div>
  )
}
