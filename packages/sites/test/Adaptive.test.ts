/** A page's adaptive content for one reader: the `{% if %}` branch that holds, without its tags; nothing of the others. */
import { assert, describe, it } from "@effect/vitest"
import { adaptMarkdown } from "../src/render/Adaptive.ts"

const page = [
  "# Plans",
  "",
  "Everyone reads this.",
  "",
  "{% if visitor.claims.plan == \"enterprise\" %}",
  "Enterprise gets SAML okapis.",
  "{% elseif visitor.claims.plan == \"pro\" %}",
  "Pro gets priority zebras.",
  "{% else %}",
  "Free gets community help.",
  "{% endif %}",
  "",
  "```md",
  "{% if visitor.claims.plan == \"enterprise\" %}quoted in code{% endif %}",
  "```",
  "",
  "Inline: {% if visitor.claims.beta %}beta words{% endif %} end."
].join("\n")

describe("adaptive content", () => {
  it("keeps the branch that holds for the reader and leaves the others out", () => {
    const free = adaptMarkdown(page, { plan: "free" })
    assert.include(free.markdown, "Free gets community help.")
    assert.notInclude(free.markdown, "okapis")
    assert.notInclude(free.markdown, "zebras")
    assert.notInclude(free.markdown, "beta words")
    assert.notInclude(free.markdown, "{% if visitor.claims.beta")
    assert.include(free.markdown, "Inline:  end.")
    assert.isTrue(free.hid)
    // Tags in code are text.
    assert.include(free.markdown, "{% if visitor.claims.plan == \"enterprise\" %}quoted in code{% endif %}")

    const enterprise = adaptMarkdown(page, { plan: "enterprise", beta: true })
    assert.include(enterprise.markdown, "Enterprise gets SAML okapis.")
    assert.notInclude(enterprise.markdown, "zebras")
    assert.notInclude(enterprise.markdown, "Free gets")
    assert.include(enterprise.markdown, "Inline: beta words end.")
    assert.include(adaptMarkdown(page, { plan: "pro" }).markdown, "Pro gets priority zebras.")
    assert.deepStrictEqual([...new Set(free.conditions)], ["visitor.claims.plan == \"enterprise\"", "visitor.claims.plan == \"pro\"", "visitor.claims.beta"])
  })

  it("nests, leaves a page without tags as it is, and a condition that does not parse holds for nobody", () => {
    const nested = "{% if visitor.claims.a %}\nA\n{% if visitor.claims.b %}\nB\n{% endif %}\n{% endif %}\nafter"
    assert.strictEqual(adaptMarkdown(nested, { a: true }).markdown, "A\nafter")
    assert.strictEqual(adaptMarkdown(nested, { a: true, b: true }).markdown, "A\nB\nafter")
    assert.strictEqual(adaptMarkdown(nested, { b: true }).markdown, "after")
    const plain = "No tags here.\n\n{% hint style=\"info\" %}\nKept.\n{% endhint %}"
    assert.deepStrictEqual(adaptMarkdown(plain, {}), { markdown: plain, conditions: [], hid: false })
    assert.strictEqual(adaptMarkdown("{% if ((( %}\nnever\n{% endif %}", { x: 1 }).markdown, "")
  })
})
