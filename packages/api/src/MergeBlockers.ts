/**
 * A change request's merge in plain words, for the app and the CLI: what its state blocks (merged,
 * archived, conflicts), and a merge rule as a settings screen lists it. Which merge rules block
 * a merge is the server's to say (`getMergeRulesForChangeRequest`, reviews' MergeRules.ts, the
 * same check a merge makes), so that custom rules and `allow_bypass` read the same everywhere.
 */
export interface StateInput {
  readonly status: string
  readonly conflicts: number
}

/** A merge rule as the API answers it. */
export interface RuleLike {
  readonly rule: string
  readonly users?: ReadonlyArray<string>
  readonly expression?: string
  readonly message?: string
}

/** A rule in words, as a settings screen lists it; `name` gives a user id's name. */
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

/** What the change request's state blocks: already merged, archived, conflicts with main. */
export const stateBlockers = (input: StateInput): Array<string> => {
  const out: Array<string> = []
  if (input.status === "merged") out.push("It is already merged.")
  if (input.status === "archived") out.push("It is archived.")
  if (input.conflicts > 0) out.push(`It has ${input.conflicts} conflict${input.conflicts === 1 ? "" : "s"} with main: resolve them below.`)
  return out
}
