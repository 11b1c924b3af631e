/**
 * The merge box of a change request's review: whether merging is allowed, or each thing that
 * blocks it in words: its state (merged, archived, conflicts) and the merge rules that block the
 * person's merge, as the server checks them (`getMergeRulesForChangeRequest`: the space's own
 * rules or its organization's, custom rules evaluated, `allow_bypass` applied); whose rules they
 * are, with a link to their settings; and the Merge button with the server's refusal beside it.
 */
import type { ChangeRequestMergeRules, Space } from "@quire/api"
import { MergeBlockers } from "@quire/api"
import { Link } from "../../ui/Link.tsx"
import { useAction } from "../review/action.ts"
import "./merge-rules.css"

export interface MergeBoxProps {
  readonly space: Space | undefined
  readonly status: string
  readonly conflicts: number
  readonly check: ChangeRequestMergeRules
  readonly onMerge: () => Promise<unknown>
  readonly onUpdate: () => Promise<unknown>
}

export const MergeBox = (props: MergeBoxProps) => {
  const { check, space } = props
  const merge = useAction()
  const update = useAction()
  const blockers = [...MergeBlockers.stateBlockers({ status: props.status, conflicts: props.conflicts }), ...check.blockers.map((b) => (b.message.endsWith(".") ? b.message : `${b.message}.`))]
  const ruleCount = check.rules.type === "rules" ? check.rules.rules.length : 0
  const mayMerge = space?.permissions.merge === true
  const allowed = check.bypass
    ? "You may merge without the merge rules (they let you bypass them)."
    : ruleCount === 0 ? "No merge rules apply." : "Every merge rule is met."
  return (
    <section aria-labelledby="merge-h" className="merge-box">
      <h2 id="merge-h">Merge</h2>
      <div className="merge-verdict" data-verdict={blockers.length > 0 ? "blocked" : "allowed"} role="status" data-testid="merge-verdict">
        {blockers.length > 0
          ? (
            <>
              <p><strong>Merging is blocked:</strong></p>
              <ul id="merge-blockers">{blockers.map((b) => <li key={b}>{b}</li>)}</ul>
            </>
          )
          : <p><strong>Merging is allowed.</strong> {allowed}</p>}
      </div>
      {space === undefined ? null : (
        <p className="muted">
          {check.source === "organization" ? "This space follows its organization's merge rules. " : ruleCount > 0 ? "This space has its own merge rules. " : "This space has no merge rules. "}
          <Link href={`/s/${space.id}/~/merge-rules`}>{space.permissions.admin ? "Change the merge rules" : "See the merge rules"}</Link>
        </p>
      )}
      {space !== undefined && !mayMerge ? <p className="muted">Your role in this space does not let you merge: someone with the review role merges it.</p> : null}
      <div className="review-toolbar">
        {!mayMerge ? null : (
          <button type="button" className="primary" disabled={merge.busy || blockers.length > 0}
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
