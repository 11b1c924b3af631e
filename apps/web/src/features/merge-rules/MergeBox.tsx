/**
 * The merge box of a change request's review: whether merging is allowed, or each thing that
 * blocks it in words (its status, conflicts, and the merge rules that apply: the space's own, or
 * its organization's when it follows them), the custom rules the server checks when merging, a
 * link to the merge rules' settings, and the Merge button with the server's refusal beside it.
 */
import type { Space } from "@quire/api"
import { MergeBlockers } from "@quire/api"
import { Link } from "../../ui/Link.tsx"
import { useAction } from "../review/action.ts"
import { useEffectiveRules } from "./effective.ts"
import "./merge-rules.css"

export interface MergeBoxProps {
  readonly space: Space | undefined
  readonly changeRequest: { readonly status: string; readonly subject: string; readonly outdated: boolean; readonly createdBy: { readonly id: string } }
  readonly conflicts: number
  readonly reviews: MergeBlockers.RuleInput["reviews"]
  readonly requested: number
  readonly me: string | undefined
  readonly onMerge: () => Promise<unknown>
  readonly onUpdate: () => Promise<unknown>
}

export const MergeBox = (props: MergeBoxProps) => {
  const { space } = props
  const inherits = space?.mergeRules.type === "inherit"
  const merge = useAction()
  const update = useAction()
  // The rules that apply: unknown until the space (and, when it follows them, the organization) is read.
  const effective = useEffectiveRules(space)
  const rules = effective.rules
  const known = rules !== undefined || effective.failed
  const input: MergeBlockers.RuleInput = {
    status: props.changeRequest.status,
    subject: props.changeRequest.subject,
    outdated: props.changeRequest.outdated,
    conflicts: props.conflicts,
    reviews: props.reviews,
    requested: props.requested,
    rules,
    actorId: props.me,
    authorId: props.changeRequest.createdBy.id
  }
  const blockers = MergeBlockers.mergeBlockers(input)
  const checks = MergeBlockers.customChecks(input)
  const bypass = MergeBlockers.bypasses(input)
  const ruleCount = rules?.type === "rules" ? rules.rules.length : 0
  const mayMerge = space?.permissions.merge === true
  const settings = space === undefined ? undefined : `/s/${space.id}/~/merge-rules`
  return (
    <section aria-labelledby="merge-h" className="merge-box">
      <h2 id="merge-h">Merge</h2>
      <div className="merge-verdict" data-verdict={!known ? "checking" : blockers.length > 0 ? "blocked" : "allowed"} role="status" data-testid="merge-verdict">
        {!known
          ? <p>Checking the merge rules…</p>
          : blockers.length > 0
          ? (
            <>
              <p><strong>Merging is blocked</strong> until:</p>
              <ul id="merge-blockers">{blockers.map((b) => <li key={b}>{b}</li>)}</ul>
            </>
          )
          : <p><strong>Merging is allowed.</strong> {bypass ? "You may merge without the merge rules (they let you bypass them)." : ruleCount === 0 ? "No merge rules apply." : "Every merge rule is met."}</p>}
      </div>
      {checks.length > 0 ? (
        <div className="merge-checks">
          <p id="merge-checks-h">Checked by the server when you merge:</p>
          <ul aria-labelledby="merge-checks-h">{checks.map((c, i) => <li key={i}>{c}</li>)}</ul>
        </div>
      ) : null}
      {settings === undefined ? null : (
        <p className="muted">
          {inherits ? "This space follows its organization's merge rules. " : rules?.type === "rules" ? "This space has its own merge rules. " : "This space has no merge rules. "}
          <Link href={settings}>{space?.permissions.admin === true ? "Change the merge rules" : "See the merge rules"}</Link>
        </p>
      )}
      {space !== undefined && !mayMerge ? <p className="muted">Your role in this space does not let you merge: someone with the review role merges it.</p> : null}
      <div className="review-toolbar">
        {!mayMerge ? null : (
          <button type="button" className="primary" disabled={merge.busy || !known || blockers.length > 0}
            aria-describedby={blockers.length > 0 ? "merge-blockers" : merge.error === undefined ? undefined : "merge-error"}
            onClick={() => void merge.run(props.onMerge)}>
            {merge.busy ? "Merging…" : "Merge"}
          </button>
        )}
        <button type="button" disabled={update.busy} aria-describedby={update.error === undefined ? undefined : "update-error"} onClick={() => void update.run(props.onUpdate)}>
          {update.busy ? "Updating…" : "Update from main"}
        </button>
      </div>
      {merge.error === undefined ? null : <p id="merge-error" className="review-error" role="alert">The merge was refused: {merge.error}</p>}
      {update.error === undefined ? null : <p id="update-error" className="review-error" role="alert">{update.error}</p>}
    </section>
  )
}
