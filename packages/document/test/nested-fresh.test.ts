/** A block added inside a container right after a paragraph stays its own block (not read back as more of the paragraph). */
import { Fragment, Slice } from "@tiptap/pm/model"
import { describe, expect, it } from "vitest"
import { codec } from "./support.ts"

const paragraphsIn = (markdown: string): Array<string> => {
  const found: Array<string> = []
  codec.parse(markdown).descendants((node) => {
    if (node.type.name === "paragraph") found.push(node.textContent)
    return true
  })
  return found
}

/** `markdown` with a paragraph "Second." inserted after its first nested paragraph. */
const withSecond = (markdown: string): string => {
  const doc = codec.parse(markdown)
  let at = -1
  doc.descendants((node, pos, parent) => {
    if (at < 0 && node.type.name === "paragraph" && parent !== null && parent !== doc) at = pos + node.nodeSize
    return at < 0
  })
  const schema = doc.type.schema
  const added = doc.replace(at, at, new Slice(Fragment.from(schema.nodes.paragraph!.create(null, schema.text("Second."))), 0, 0))
  return codec.serialize(added)
}

describe("a new paragraph after a nested paragraph", () => {
  it("is separated by a blank line inside a hint whose text had none around it", () => {
    const out = withSecond('{% hint style="info" %}\nFirst.\n{% endhint %}\n')
    expect(out).toBe('{% hint style="info" %}\nFirst.\n\nSecond.\n{% endhint %}\n')
    expect(paragraphsIn(out)).toEqual(["First.", "Second."])
  })

  it("keeps an expandable's and a list item's paragraphs apart", () => {
    expect(paragraphsIn(withSecond("<details>\n\n<summary>S</summary>\n\nFirst.\n\n</details>\n"))).toEqual(["First.", "Second."])
    expect(paragraphsIn(withSecond("- item one\n\n  para\n"))).toEqual(["item one", "Second.", "para"])
  })
})
