/** What a revision changed of the reusable contents, in GitBook's semantic changes. */
import { assert, describe, it } from "@effect/vitest"
import { documentHash, type ReusableContentNode } from "../src/domain/Revision.ts"
import { compare } from "../src/RevisionChanges.ts"

const node = (id: string, title: string, markdown?: string): ReusableContentNode => ({
  id,
  title,
  ...(markdown === undefined ? {} : { document: documentHash(markdown) })
})

const contents = (reusableContents?: ReadonlyArray<ReusableContentNode>) => ({ pages: [], files: [], variables: {}, ...(reusableContents === undefined ? {} : { reusableContents }) })

describe("reusable content changes", () => {
  it("names the reusable contents created, edited (title, document) and deleted, and nothing for those unchanged", () => {
    const before = [node("a", "Warning", "Back up."), node("b", "Footer", "Bye."), node("c", "Gone", "Old.")]
    const after = [node("a", "Upgrade warning", "Back up."), node("b", "Footer", "See you."), node("d", "New", "Hi."), node("e", "Empty")]
    const changes = compare(contents(before), contents(after))
    assert.deepStrictEqual(changes, [
      { type: "reusable_content_edited", reusableContent: after[0]!, attributes: { title: { before: "Warning", after: "Upgrade warning" } } },
      {
        type: "reusable_content_edited",
        reusableContent: after[1]!,
        attributes: { document: { before: documentHash("Bye."), after: documentHash("See you.") } }
      },
      { type: "reusable_content_created", reusableContent: after[2]! },
      { type: "reusable_content_created", reusableContent: after[3]! },
      { type: "reusable_content_deleted", reusableContent: before[2]! }
    ])
    assert.deepStrictEqual(compare(contents(before), contents(before)), [])
  })

  it("treats a revision without reusable contents as having none", () => {
    assert.deepStrictEqual(compare(contents(), contents()), [])
    assert.deepStrictEqual(compare(contents(), contents([node("a", "A")])).map((c) => c.type), ["reusable_content_created"])
    assert.deepStrictEqual(compare(contents([node("a", "A")]), contents()).map((c) => c.type), ["reusable_content_deleted"])
  })
})
