/** `{% include %}` of reusable contents expanded in a page's markdown (before it is rendered, indexed or drawn in a PDF). */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { documentHash, type ReusableContentNode } from "../../src/domain/Revision.ts"
import { expandWith, findReusableContent } from "../../src/markdown/IncludeTags.ts"
import { withIncludes } from "../../src/markdown/Includes.ts"

const warning = "{% hint style=\"warning\" %}\nBack up your data first.\n{% endhint %}\n"
const footer = "Questions? See {% include \"./signature.md\" %}\n"
const signature = "*The docs team*\n"
const loop = "Again: {% include \"loop.md\" %}\n"

const nodes: ReadonlyArray<ReusableContentNode> = [
  { id: "rc-warning", title: "Upgrade warning", document: documentHash(warning), git: { oid: "1", path: "docs/.gitbook/includes/upgrade-warning.md" } },
  { id: "rc-footer", title: "Footer", document: documentHash(footer), git: { oid: "2", path: "docs/.gitbook/includes/footer.md" } },
  { id: "rc-signature", title: "Signature", document: documentHash(signature), git: { oid: "3", path: "docs/.gitbook/includes/signature.md" } },
  { id: "rc-loop", title: "Loop", document: documentHash(loop), git: { oid: "4", path: "docs/.gitbook/includes/loop.md" } },
  { id: "rc-empty", title: "Empty" }
]

const store = new Map([warning, footer, signature, loop].map((markdown) => [documentHash(markdown), markdown]))
const documents = (hashes: ReadonlyArray<string>) =>
  Effect.succeed(new Map(hashes.flatMap((hash) => (store.has(hash) ? [[hash, store.get(hash)!] as const] : []))))

describe("includes", () => {
  it("finds a reusable content by the file the page names, relative to the page, by id, or by file name", () => {
    const page = "docs/guides/upgrade.md"
    assert.strictEqual(findReusableContent("../.gitbook/includes/upgrade-warning.md", page, nodes)?.id, "rc-warning")
    assert.strictEqual(findReusableContent("/reusable-content/rc-footer", page, nodes)?.id, "rc-footer")
    // GitBook's own docs climb one folder too many; the file name still finds it.
    assert.strictEqual(findReusableContent("../../../.gitbook/includes/upgrade-warning.md", page, nodes)?.id, "rc-warning")
    assert.strictEqual(findReusableContent(".gitbook/includes/signature.md", undefined, nodes)?.id, "rc-signature")
    assert.isUndefined(findReusableContent("../.gitbook/includes/missing.md", page, nodes))
    assert.isUndefined(findReusableContent("/reusable-content/rc-unknown", page, nodes))
  })

  it.effect("puts the reusable content's markdown in place of the tag, nested ones too, keeping code as written", () =>
    Effect.gen(function*() {
      const page = [
        "# Upgrade",
        "",
        "Before you start:",
        "{% include \"../.gitbook/includes/upgrade-warning.md\" %}",
        "Then run the upgrade.",
        "",
        "* In a list:",
        "",
        "  {% include '../.gitbook/includes/upgrade-warning.md' %}",
        "",
        "```markdown",
        "{% include \"../.gitbook/includes/upgrade-warning.md\" %}",
        "```",
        "",
        "Inline `{% include \"x.md\" %}` stays code.",
        "",
        "{% include \"../.gitbook/includes/footer.md\" %}",
        ""
      ].join("\n")
      const expanded = yield* withIncludes(page, nodes, "docs/guides/upgrade.md", documents)
      assert.strictEqual(expanded, [
        "# Upgrade",
        "",
        "Before you start:",
        "",
        "{% hint style=\"warning\" %}",
        "Back up your data first.",
        "{% endhint %}",
        "",
        "Then run the upgrade.",
        "",
        "* In a list:",
        "",
        "",
        "  {% hint style=\"warning\" %}",
        "  Back up your data first.",
        "  {% endhint %}",
        "",
        "",
        "```markdown",
        "{% include \"../.gitbook/includes/upgrade-warning.md\" %}",
        "```",
        "",
        "Inline `{% include \"x.md\" %}` stays code.",
        "",
        "",
        "Questions? See *The docs team*",
        "",
        ""
      ].join("\n"))
    }))

  it.effect("leaves nothing of an include it cannot resolve, an empty one, or one that includes itself", () =>
    Effect.gen(function*() {
      const page = "A\n\n{% include \"../.gitbook/includes/missing.md\" %}\n\nB {% include \"/reusable-content/rc-empty\" %} C\n\n{% include \".gitbook/includes/loop.md\" %}\n"
      const expanded = yield* withIncludes(page, nodes, "docs/README.md", documents)
      assert.notInclude(expanded, "{%")
      assert.strictEqual(expanded, "A\n\n\nB  C\n\n\nAgain:\n\n")
    }))

  it("changes nothing in a page without includes", () => {
    const page = "# Title\n\nNothing to include here, not even the word in `code`.\n"
    assert.strictEqual(expandWith(page, () => "never"), page)
  })
})
