import { describe, expect, it } from "vitest"
import { describeRule, stateBlockers } from "../src/MergeBlockers.ts"

describe("stateBlockers", () => {
  it("lets an open change request without conflicts merge", () => {
    expect(stateBlockers({ status: "open", conflicts: 0 })).toEqual([])
  })
  it("names conflicts and a merged or archived status", () => {
    expect(stateBlockers({ status: "merged", conflicts: 2 })).toEqual(["It is already merged.", "It has 2 conflicts with main: resolve them below."])
    expect(stateBlockers({ status: "archived", conflicts: 1 })).toEqual(["It is archived.", "It has 1 conflict with main: resolve them below."])
  })
})

describe("describeRule", () => {
  it("says each rule in words, people by name, a custom rule by its message or else its expression", () => {
    const names = (id: string) => ({ u1: "Rena" })[id] ?? id
    expect(describeRule({ rule: "require_at_least_one_approved_review" })).toBe("At least one approval of the latest version")
    expect(describeRule({ rule: "require_one_of_specific_reviewers", users: ["u1", "u2"] }, names)).toBe("An approval from one of: Rena, u2")
    expect(describeRule({ rule: "allow_bypass", users: [] })).toBe("May merge without the rules: nobody")
    expect(describeRule({ rule: "custom", expression: "reviews.length > 1", message: "Two reviews" })).toBe("Custom rule: Two reviews")
    expect(describeRule({ rule: "custom", expression: "reviews.length > 1" })).toBe("Custom rule: reviews.length > 1")
  })
})
