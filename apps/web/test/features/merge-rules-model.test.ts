/** The merge rules' settings form: read from GitBook's configuration, written back, and a refusal placed on its control. */
import { describe, expect, it } from "vitest"
import { checkForm, controlOf, formOf, rulesOf } from "../../src/features/merge-rules/model.ts"

describe("merge rules form", () => {
  it("reads a configuration into its controls and writes the same rules back", () => {
    const rules = {
      type: "rules" as const,
      rules: [
        { rule: "require_at_least_one_approved_review" as const },
        { rule: "require_up_to_date_change_request" as const },
        { rule: "require_one_of_specific_reviewers" as const, users: ["rena"] },
        { rule: "allow_bypass" as const, users: ["lead"] },
        { rule: "allow_author_approval" as const },
        { rule: "custom" as const, expression: "reviews.length >= 2", message: "Two reviews" }
      ]
    }
    const form = formOf(rules)
    expect(form.mode).toBe("rules")
    expect(form.reviewers).toBe("one")
    expect(form.reviewerIds).toEqual(["rena"])
    expect(form.bypass).toEqual(["lead"])
    expect(rulesOf(form).rules).toEqual(rules)
    expect(rulesOf(formOf({ type: "inherit" })).rules).toEqual({ type: "inherit" })
    expect(rulesOf({ ...form, mode: "none" }).rules).toEqual({ type: "none" })
  })

  it("places a refusal on the control whose rule it names, and finds what it can before asking", () => {
    const { controls } = rulesOf({ ...formOf({ type: "none" }), mode: "rules", plain: ["require_change_request_subject"], bypass: ["lead"], custom: [{ expression: "x", message: "" }] })
    expect(controlOf("mergeRules.rules[1].users", controls)).toBe("bypass")
    expect(controlOf("mergeRules.rules[2].expression", controls)).toBe("custom-0-expression")
    expect(controlOf("mergeRules.rules[2]", controls)).toBe("custom-0")
    expect(controlOf("mergeRules", controls)).toBeUndefined()
    expect(controlOf("title", controls)).toBeUndefined()
    const checked = checkForm({ ...formOf({ type: "none" }), mode: "rules", reviewers: "each", custom: [{ expression: "x".repeat(1025), message: "" }] })
    expect(checked.reviewers).toContain("Pick at least one reviewer")
    expect(checked["custom-0-expression"]).toContain("1,024")
  })
})
