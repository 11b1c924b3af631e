import { describe, expect, it } from "vitest"
import { customChecks, mergeBlockers, type RuleInput } from "../src/MergeBlockers.ts"

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
    expect(mergeBlockers({ ...base, rules, reviews: [review("u1", "approved", true)] })).toEqual(["The merge rules ask for at least one approval of the latest version."])
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
      "The merge rules ask that it be up to date with main: update from main.",
      "The merge rules ask for approvals from specific reviewers who have not approved yet."
    ])
  })
  it("lets a user named by allow_bypass merge, only its author where the rules say so, and leaves custom rules to the server", () => {
    const rules = {
      type: "rules",
      rules: [
        { rule: "require_at_least_one_approved_review" },
        { rule: "require_author_to_merge" },
        { rule: "allow_bypass", users: ["lead"] },
        { rule: "custom", expression: "reviews.length > 1", message: "Two reviews" }
      ]
    }
    expect(mergeBlockers({ ...base, rules, actorId: "lead", authorId: "ann" })).toEqual([])
    expect(mergeBlockers({ ...base, rules, actorId: "bob", authorId: "ann" })).toEqual([
      "The merge rules ask for at least one approval of the latest version.",
      "The merge rules let only its author merge it."
    ])
    expect(customChecks({ rules, actorId: "bob" })).toEqual(["Custom rule: Two reviews"])
    expect(customChecks({ rules, actorId: "lead" })).toEqual([])
  })
})
