/** Merge rules in words: "No merge rules", or the list of what a change request must meet. */
import { MergeBlockers } from "@quire/api"
import type { OrganizationRules } from "./model.ts"

export interface RulesSummaryProps {
  readonly rules: OrganizationRules
  /** A user id's name (members of the organization). */
  readonly name: (userId: string) => string
  readonly id?: string
}

export const RulesSummary = (props: RulesSummaryProps) =>
  props.rules.type === "none" || props.rules.rules.length === 0
    ? <p id={props.id} className="muted">No merge rules: anyone who may merge does, without a review.</p>
    : (
      <ul id={props.id} className="merge-rule-summary">
        {props.rules.rules.map((rule, index) => <li key={index}>{MergeBlockers.describeRule(rule, props.name)}</li>)}
      </ul>
    )
