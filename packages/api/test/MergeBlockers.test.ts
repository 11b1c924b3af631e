import { describe, expect, it } from "vitest"
import { mergeBlockers, type RuleInput } from "../src/MergeBlockers.ts"

const base: RuleInput = { status: "open", subject: "Fix", outdated: false, conflicts: 0, reviews: [], requested: 0, rules: { type: "none" } }
const review = (id: string, status: string, outdated = false) => ({ status, outdated, reviewer: { id, displayName: id } })

describe("mergeBlockers", () => {
  it("lets an open change request without rules or conflicts merge", () => {
    expect(mergeBlockers(base)).toEqual([])
  })
  it("names conflicts and a merged status", () => {
    expect(mergeBlockers({ ...base, status: "merged", conflicts: 2 })).toEqual(["It is already merged.", "It has 2 conflicts with main: resolve them below."])
  })
  it("asks for an approval of the latest version: an outdated approval does not count", () => {
    const rules = { type: "rules", rules: [{ rule: "require_at_least_one_approved_review" }] }
    expect(mergeBlockers({ ...base, rules, reviews: [review("u1", "approved", true)] })).toEqual(["The space asks for at least one approval of the latest version."])
    expect(mergeBlockers({ ...base, rules, reviews: [review("u1", "approved")] })).toEqual([])
  })
  it("counts each reviewer's latest review, and pending requests against all-approved", () => {
    const rules = { type: "rules", rules: [{ rule: "require_all_reviews_approved" }] }
    expect(mergeBlockers({ ...base, rules, reviews: [review("u1", "changes-requested"), review("u1", "approved")] })).toEqual([])
    expect(mergeBlockers({ ...base, rules, reviews: [review("u1", "approved")], requested: 1 })).toHaveLength(1)
  })
  it("asks an outdated change request to be updated, and specific reviewers to approve", () => {
    const rules = { type: "rules", rules: [{ rule: "require_up_to_date_change_request" }, { rule: "require_specific_reviewers", users: ["u2"] }] }
    expect(mergeBlockers({ ...base, rules, outdated: true, reviews: [review("u1", "approved")] })).toEqual([
      "The space asks that it be up to date with main: update from main.",
      "The space asks for approvals from specific reviewers who have not approved yet."
    ])
  })
})
