/**
 * Whether a change request's author may approve it: the merge rule `allow_author_approval` (Quire's
 * extension of GitBook's merge rules). A space admin turns it on or off, keeping the space's other
 * rules; everyone else reads what it is. In a space that follows its organization's rules, the
 * toggle gives the space its own: a copy of the organization's with the rule added or taken out,
 * so that none of them is dropped on the way.
 */
import type { Space } from "@quire/api"
import { useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { useMutation } from "../../api/react.ts"
import { Link } from "../../ui/Link.tsx"
import { useEffectiveRules } from "../merge-rules/effective.ts"
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
  const effective = useEffectiveRules(props.space).rules
  const allowed = effective !== undefined && authorMayApprove(effective)
  const inherits = props.space.mergeRules.type === "inherit"
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
    if (effective === undefined) return
    update({ params: { spaceId: props.space.id }, payload: { mergeRules: withAuthorApproval(effective, next) }, reactivityKeys: [`space:${props.space.id}`] })
      .catch((failure: unknown) => setError(`Could not change the merge rules: ${errorText(failure)}`))
      .finally(() => setBusy(false))
  }
  return (
    <div className="author-approval">
      <label>
        <input type="checkbox" checked={allowed} disabled={busy || effective === undefined} aria-describedby="author-approval-hint" onChange={(event) => onChange(event.target.checked)} />
        Authors may approve their own change requests
      </label>
      <span id="author-approval-hint" className="muted">
        {inherits
          ? "This space follows its organization's merge rules: changing this gives it its own, a copy of the organization's with this change. "
          : "A merge rule of this space; only its admins change it. Off, someone else must approve. "}
        <Link href={`/s/${props.space.id}/~/merge-rules`}>All merge rules</Link>
      </span>
      {error === undefined ? null : <p className="form-error" role="alert">{error}</p>}
    </div>
  )
}
