/** The merge rules a space may set, applied to a change request about to merge. */
import { assert, describe, it } from "@effect/vitest"
import type { MergeRule } from "@quire/content"
import { at } from "@quire/testkit"
import { MergeRules } from "@quire/kernel"
import type { ChangeRequest } from "../src/domain/ChangeRequest.ts"
import type { Review, ReviewStatus } from "../src/domain/Review.ts"
import { authorMayApprove, evaluate, latestReviews, rulesOf } from "../src/MergeRules.ts"

const changeRequest: ChangeRequest = {
  id: "cr",
  spaceId: "space",
  number: 1,
  status: "open",
  subject: "Quickstart",
  description: null,
  links: [],
  createdBy: "ann",
  createdAt: at(0),
  updatedAt: at(0),
  revision: "head",
  revisionInitial: "base",
  revisionMergedAncestor: "base",
  revisionMerged: null,
  mergedBy: null,
  mergedAt: null,
  agentTaskId: null,
  contributors: ["ann"],
  comments: 0,
  conflicts: null,
  conflictsFound: null
}

let sequence = 0
const review = (reviewerId: string, status: ReviewStatus, revision = "head"): Review => ({
  id: `r${++sequence}`,
  spaceId: "space",
  changeRequestId: "cr",
  reviewerId,
  status,
  revision,
  requestedBy: null,
  commentId: null,
  createdAt: at(sequence)
})

const refusal = (rules: ReadonlyArray<MergeRule>, reviews: ReadonlyArray<Review>, overrides: { actorId?: string; mainRevision?: string; changeRequest?: Partial<ChangeRequest> } = {}) =>
  evaluate(rules, {
    changeRequest: { ...changeRequest, ...overrides.changeRequest },
    reviews,
    mainRevision: overrides.mainRevision ?? "base",
    actorId: overrides.actorId ?? "ann"
  })?.rule

describe("MergeRules", () => {
  it("none asks for nothing; rules are taken as given; inherit takes the organization's", () => {
    assert.deepStrictEqual(MergeRules.effective({ type: "inherit" }, { type: "rules", rules: [{ rule: "require_at_least_one_review" }] }), {
      type: "rules",
      rules: [{ rule: "require_at_least_one_review" }]
    })
    assert.deepStrictEqual(MergeRules.effective({ type: "none" }, { type: "rules", rules: [{ rule: "require_at_least_one_review" }] }), { type: "none" })
    assert.deepStrictEqual(rulesOf({ type: "none" }), [])
    assert.deepStrictEqual(rulesOf({ type: "rules", rules: [{ rule: "require_author_to_merge" }] }), [{ rule: "require_author_to_merge" }])
  })

  it("an author may approve their own change request only where allow_author_approval is a rule, which refuses no merge", () => {
    assert.isFalse(authorMayApprove({ type: "none" }))
    assert.isFalse(authorMayApprove({ type: "rules", rules: [{ rule: "require_at_least_one_approved_review" }] }))
    assert.isTrue(authorMayApprove({ type: "rules", rules: [{ rule: "allow_author_approval" }] }))
    assert.isUndefined(refusal([{ rule: "allow_author_approval" }], []))
  })

  it("a reviewer's latest review supersedes their earlier ones", () => {
    const first = review("bob", "changes-requested")
    const second = review("carol", "approved")
    const third = review("bob", "approved")
    assert.deepStrictEqual(latestReviews([first, second, third]).map((r) => r.id), [second.id, third.id])
  })

  it("an approval counts only on the head; a later request for changes takes it back", () => {
    const rules: ReadonlyArray<MergeRule> = [{ rule: "require_at_least_one_approved_review" }]
    assert.strictEqual(refusal(rules, []), "require_at_least_one_approved_review")
    assert.strictEqual(refusal(rules, [review("bob", "approved", "older")]), "require_at_least_one_approved_review")
    assert.isUndefined(refusal(rules, [review("bob", "approved")]))
    assert.strictEqual(refusal(rules, [review("bob", "approved"), review("bob", "changes-requested")]), "require_at_least_one_approved_review")
    const any: ReadonlyArray<MergeRule> = [{ rule: "require_at_least_one_review" }]
    assert.isUndefined(refusal(any, [review("bob", "changes-requested")]))
    assert.strictEqual(refusal(any, [review("bob", "approved", "older")]), "require_at_least_one_review")
  })

  it("all reviews approved: any reviewer whose latest review asks for changes blocks", () => {
    const rules: ReadonlyArray<MergeRule> = [{ rule: "require_all_reviews_approved" }]
    assert.isUndefined(refusal(rules, []))
    assert.strictEqual(refusal(rules, [review("bob", "approved"), review("carol", "changes-requested", "older")]), "require_all_reviews_approved")
    assert.isUndefined(refusal(rules, [review("carol", "changes-requested"), review("carol", "approved")]))
  })

  it("specific reviewers: each of them, or one of them, approved the head", () => {
    const each: ReadonlyArray<MergeRule> = [{ rule: "require_specific_reviewers", users: ["bob", "carol"] }]
    assert.strictEqual(refusal(each, [review("bob", "approved")]), "require_specific_reviewers")
    assert.isUndefined(refusal(each, [review("bob", "approved"), review("carol", "approved")]))
    const one: ReadonlyArray<MergeRule> = [{ rule: "require_one_of_specific_reviewers", users: ["bob", "carol"] }]
    assert.strictEqual(refusal(one, [review("dan", "approved")]), "require_one_of_specific_reviewers")
    assert.isUndefined(refusal(one, [review("carol", "approved")]))
  })

  it("up to date, subject and author rules read the change request and who merges", () => {
    assert.strictEqual(refusal([{ rule: "require_up_to_date_change_request" }], [], { mainRevision: "moved" }), "require_up_to_date_change_request")
    assert.isUndefined(refusal([{ rule: "require_up_to_date_change_request" }], []))
    assert.strictEqual(refusal([{ rule: "require_change_request_subject" }], [], { changeRequest: { subject: "  " } }), "require_change_request_subject")
    assert.strictEqual(refusal([{ rule: "require_author_to_merge" }], [], { actorId: "bob" }), "require_author_to_merge")
    assert.isUndefined(refusal([{ rule: "require_author_to_merge" }], [], { actorId: "ann" }))
  })

  it("a description passes require_change_request_description only when its text has words", () => {
    const rules: ReadonlyArray<MergeRule> = [{ rule: "require_change_request_description" }]
    assert.strictEqual(refusal(rules, []), "require_change_request_description")
    for (const empty of ["", "   \n\n", "---\n", "![](https://example.com/a.png)\n", "- \n- \n", "**  **"]) {
      assert.strictEqual(refusal(rules, [], { changeRequest: { description: empty } }), "require_change_request_description", JSON.stringify(empty))
    }
    for (const said of ["Fixes the export page.", "# Why\n\n1", "- 修正\n", "> Überarbeitet"]) {
      assert.isUndefined(refusal(rules, [], { changeRequest: { description: said } }), JSON.stringify(said))
    }
    assert.isUndefined(MergeRules.refusal({ type: "rules", rules }))
    assert.strictEqual(MergeRules.refusal({ type: "rules", rules: [{ rule: "require_agent_review" }] })?.field, "mergeRules.rules[0]")
  })

  it("the first failing rule is named; allow_bypass lets its users merge regardless", () => {
    const rules: ReadonlyArray<MergeRule> = [
      { rule: "require_change_request_subject" },
      { rule: "require_at_least_one_approved_review" },
      { rule: "allow_bypass", users: ["boss"] }
    ]
    assert.strictEqual(refusal(rules, []), "require_at_least_one_approved_review")
    assert.strictEqual(refusal(rules, [], { changeRequest: { subject: "" } }), "require_change_request_subject")
    assert.isUndefined(refusal(rules, [], { actorId: "boss", changeRequest: { subject: "" } }))
    const message = evaluate(rules, { changeRequest, reviews: [], mainRevision: "base", actorId: "ann" })?.message
    assert.strictEqual(message, "This change request needs an approved review of its latest revision")
  })
})
