import { assert, describe, it } from "vitest"
import { anchorOf, checkMarkdown } from "../src/styleguides/StyleCheck.ts"
import { needsModel, parseRules } from "../src/styleguides/StyleRules.ts"
import { styleguideTemplates } from "../src/styleguides/StyleguideTemplates.ts"

describe("style guide rules", () => {
  it("reads each ## heading as a rule, with the checks its lines state", () => {
    const rules = parseRules([
      "# Our guide", "", "Intro text is no rule.", "",
      "## No filler", "Avoid: \"simply\", “just”.", "",
      "## Sign in", "- Use \"sign in\", not \"log in\", \"login\".", "",
      "## Short", "Sentences: at most 20 words.", "",
      "## Voice", "Avoid the passive voice.", "",
      "## Tone", "Be kind to the reader.",
      "```", "## not a rule", "```"
    ].join("\n"))
    assert.deepStrictEqual(rules.map((r) => [r.id, r.checks]), [
      ["no-filler", [{ kind: "avoid", phrases: ["simply", "just"] }]],
      ["sign-in", [{ kind: "prefer", use: "sign in", not: ["log in", "login"] }]],
      ["short", [{ kind: "sentence-length", max: 20 }]],
      ["voice", [{ kind: "passive-voice" }]],
      ["tone", []]
    ])
    assert.deepStrictEqual(rules.map(needsModel), [false, false, false, false, true])
  })

  it("every template has rules, and some of them are checked without a model", () => {
    assert.isAtLeast(styleguideTemplates.length, 3)
    for (const t of styleguideTemplates) {
      const rules = parseRules(t.markdown)
      assert.isAtLeast(rules.length, 4, t.id)
      assert.isTrue(rules.some((r) => r.checks.length > 0), t.id)
      assert.isTrue(rules.some((r) => r.checks.length === 0), t.id)
    }
  })
})

describe("checking a page", () => {
  const rules = parseRules([
    "## No filler", "Avoid: \"simply\", \"just\".",
    "## Sign in", "Use \"sign in\", not \"log in\", \"login\".",
    "## Voice", "Avoid the passive voice.",
    "## Short", "Sentences: at most 8 words."
  ].join("\n"))

  it("names the rule, quotes the words and proposes the fixed sentence", () => {
    const hits = checkMarkdown("# Start\n\nSimply open the page. Then login with your key.\n", rules)
    assert.deepStrictEqual(hits.map((h) => [h.ruleTitle, h.block, h.quote, h.fix]), [
      ["No filler", 1, "Simply", "Open the page."],
      ["Sign in", 1, "login", "Then sign in with your key."]
    ])
  })

  it("never checks code, and flags long sentences and passive voice without a fix", () => {
    const md = "```\nsimply login\n```\n\nRun `just` now.\n\nThe file is saved by the editor when you close the window at night.\n"
    const hits = checkMarkdown(md, rules)
    assert.deepStrictEqual(hits.map((h) => [h.ruleId, h.block, h.quote, h.fix]), [
      ["short", 2, "The file is saved by the editor when you close the window at night.", null],
      ["voice", 2, "is saved", null]
    ])
  })

  it("anchors a finding as the review screen does", () => {
    const [hit] = checkMarkdown("Please simply go.\n", rules)
    assert.strictEqual(anchorOf(hit!), `qa1:0:${hit!.fingerprint}:7:6:simply`)
  })
})
