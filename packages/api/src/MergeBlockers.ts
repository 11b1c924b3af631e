/**
 * What blocks a change request's merge, in plain words: its status, its conflicts, and the space's
 * merge rules (GitBook's MergeRules) checked against its current reviews. The server decides; this
 * says why beforehand, so the Merge button can be disabled with the reason.
 */
export interface RuleInput {
  readonly status: string
  readonly subject: string
  readonly outdated: boolean
  readonly conflicts: number
  readonly reviews: ReadonlyArray<{ readonly status: string; readonly outdated: boolean; readonly reviewer: { readonly id: string; readonly displayName: string } }>
  readonly requested: number
  readonly rules: { readonly type: string; readonly rules?: ReadonlyArray<{ readonly rule: string; readonly users?: ReadonlyArray<string> }> } | undefined
}

export const mergeBlockers = (input: RuleInput): Array<string> => {
  const out: Array<string> = []
  if (input.status === "merged") out.push("It is already merged.")
  if (input.status === "archived") out.push("It is archived.")
  if (input.conflicts > 0) out.push(`It has ${input.conflicts} conflict${input.conflicts === 1 ? "" : "s"} with main: resolve them below.`)
  if (input.rules?.type !== "rules") return out
  const current = input.reviews.filter((r) => !r.outdated)
  // A reviewer's latest current review is what counts.
  const latest = new Map(current.map((r) => [r.reviewer.id, r]))
  const approvals = [...latest.values()].filter((r) => r.status === "approved")
  for (const rule of input.rules.rules ?? []) {
    switch (rule.rule) {
      case "require_at_least_one_review":
        if (latest.size === 0) out.push("The space asks for at least one review of the latest version.")
        break
      case "require_at_least_one_approved_review":
        if (approvals.length === 0) out.push("The space asks for at least one approval of the latest version.")
        break
      case "require_all_reviews_approved":
        if ([...latest.values()].some((r) => r.status !== "approved") || input.requested > 0) out.push("The space asks that every reviewer approve the latest version.")
        break
      case "require_up_to_date_change_request":
        if (input.outdated) out.push("The space asks that it be up to date with main: update from main.")
        break
      case "require_change_request_subject":
        if (input.subject.trim() === "") out.push("The space asks for a subject.")
        break
      case "require_specific_reviewers":
        if ((rule.users ?? []).some((u) => latest.get(u)?.status !== "approved")) out.push("The space asks for approvals from specific reviewers who have not approved yet.")
        break
      case "require_one_of_specific_reviewers":
        if (!(rule.users ?? []).some((u) => latest.get(u)?.status === "approved")) out.push("The space asks for an approval from one of specific reviewers.")
        break
      default:
        break
    }
  }
  return out
}
