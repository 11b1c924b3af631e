/**
 * What blocks a change request's merge, in plain words: its status, its conflicts, and the merge
 * rules that apply to its space (GitBook's MergeRules: the space's own, or its organization's when
 * it inherits them) checked against its current reviews. The server decides (reviews'
 * MergeRules.ts); this says why beforehand, so the Merge button can be disabled with the reason.
 * A custom rule's expression is evaluated only by the server, when merging: it is listed among
 * the checks to come, not as a blocker.
 */
export interface RuleInput {
  readonly status: string
  readonly subject: string
  readonly outdated: boolean
  readonly conflicts: number
  readonly reviews: ReadonlyArray<{ readonly status: string; readonly outdated: boolean; readonly reviewer: { readonly id: string; readonly displayName: string } }>
  readonly requested: number
  /** The rules that apply (`inherit` already replaced by the organization's); `inherit` itself asks for nothing. */
  readonly rules: { readonly type: string; readonly rules?: ReadonlyArray<RuleLike> } | undefined
  /** Who would merge, and who wrote the change request: for `allow_bypass` and `require_author_to_merge`. */
  readonly actorId?: string | undefined
  readonly authorId?: string | undefined
}

/** A merge rule as the API answers it. */
export interface RuleLike {
  readonly rule: string
  readonly users?: ReadonlyArray<string>
  readonly expression?: string
  readonly message?: string
}

/** A rule in words, as a settings screen or the merge box lists it; `name` gives a user id's name. */
export const describeRule = (rule: RuleLike, name: (userId: string) => string = (id) => id): string => {
  const people = (rule.users ?? []).map(name).join(", ")
  switch (rule.rule) {
    case "require_at_least_one_review":
      return "At least one review of the latest version"
    case "require_at_least_one_approved_review":
      return "At least one approval of the latest version"
    case "require_all_reviews_approved":
      return "Every reviewer approves the latest version"
    case "require_up_to_date_change_request":
      return "Up to date with main"
    case "require_change_request_subject":
      return "A subject"
    case "require_author_to_merge":
      return "Only its author merges it"
    case "require_specific_reviewers":
      return `An approval from each of: ${people}`
    case "require_one_of_specific_reviewers":
      return `An approval from one of: ${people}`
    case "allow_bypass":
      return `May merge without the rules: ${people === "" ? "nobody" : people}`
    case "allow_author_approval":
      return "Authors may approve their own change requests"
    case "custom":
      return rule.message !== undefined && rule.message.trim() !== "" ? `Custom rule: ${rule.message}` : `Custom rule: ${rule.expression ?? ""}`
    default:
      return rule.rule
  }
}

/** Whether `actorId` is named by the rules' `allow_bypass`: they merge whatever the other rules say. */
export const bypasses = (input: Pick<RuleInput, "rules" | "actorId">): boolean =>
  input.rules?.type === "rules" && input.actorId !== undefined &&
  (input.rules.rules ?? []).some((rule) => rule.rule === "allow_bypass" && (rule.users ?? []).includes(input.actorId!))

/** The custom rules the server will evaluate when merging, in words (none when the actor bypasses the rules). */
export const customChecks = (input: Pick<RuleInput, "rules" | "actorId">): Array<string> =>
  input.rules?.type !== "rules" || bypasses(input) ? [] : (input.rules.rules ?? []).filter((rule) => rule.rule === "custom").map((rule) => describeRule(rule))

export const mergeBlockers = (input: RuleInput): Array<string> => {
  const out: Array<string> = []
  if (input.status === "merged") out.push("It is already merged.")
  if (input.status === "archived") out.push("It is archived.")
  if (input.conflicts > 0) out.push(`It has ${input.conflicts} conflict${input.conflicts === 1 ? "" : "s"} with main: resolve them below.`)
  if (input.rules?.type !== "rules" || bypasses(input)) return out
  const current = input.reviews.filter((r) => !r.outdated)
  // A reviewer's latest current review is what counts.
  const latest = new Map(current.map((r) => [r.reviewer.id, r]))
  const approvals = [...latest.values()].filter((r) => r.status === "approved")
  for (const rule of input.rules.rules ?? []) {
    switch (rule.rule) {
      case "require_at_least_one_review":
        if (latest.size === 0) out.push("The merge rules ask for at least one review of the latest version.")
        break
      case "require_at_least_one_approved_review":
        if (approvals.length === 0) out.push("The merge rules ask for at least one approval of the latest version.")
        break
      case "require_all_reviews_approved":
        if ([...latest.values()].some((r) => r.status !== "approved") || input.requested > 0) out.push("The merge rules ask that every reviewer approve the latest version.")
        break
      case "require_up_to_date_change_request":
        if (input.outdated) out.push("The merge rules ask that it be up to date with main: update from main.")
        break
      case "require_change_request_subject":
        if (input.subject.trim() === "") out.push("The merge rules ask for a subject.")
        break
      case "require_author_to_merge":
        if (input.actorId !== undefined && input.authorId !== undefined && input.actorId !== input.authorId) out.push("The merge rules let only its author merge it.")
        break
      case "require_specific_reviewers":
        if ((rule.users ?? []).some((u) => latest.get(u)?.status !== "approved")) out.push("The merge rules ask for approvals from specific reviewers who have not approved yet.")
        break
      case "require_one_of_specific_reviewers":
        if (!(rule.users ?? []).some((u) => latest.get(u)?.status === "approved")) out.push("The merge rules ask for an approval from one of specific reviewers.")
        break
      default:
        break
    }
  }
  return out
}
