/** What makes a value sent as GitBook's JSON document no document, and where: what a 400 names. */
import { assert, describe, it } from "@effect/vitest"
import { documentBreach, maxDocumentDepth } from "../../src/markdown/DocumentCheck.ts"
import { markdownDocument } from "../../src/markdown/DocumentCodec.ts"

const text = (value: string) => ({ object: "text", leaves: [{ object: "leaf", text: value, marks: [{ object: "mark", type: "bold" }] }] })
const paragraph = (...nodes: ReadonlyArray<unknown>) => ({ object: "block", type: "paragraph", data: {}, nodes })

describe("documentBreach", () => {
  it("passes GitBook's documents, those the codec makes included", () => {
    assert.isUndefined(documentBreach({ object: "document", data: {}, nodes: [] }, "d"))
    assert.isUndefined(documentBreach({ object: "document", data: { schemaVersion: 1 }, nodes: [paragraph(text("Hi"), { object: "inline", type: "link", data: { ref: { kind: "url", url: "https://x" } }, nodes: [text("x")] })] }, "d"))
    assert.isUndefined(documentBreach(markdownDocument("# Title\n\n- a\n- **b**\n\n{% tabs %}\n{% tab title=\"One\" %}\nx\n{% endtab %}\n{% endtabs %}\n\n```js\ncode\n```\n"), "d"))
  })

  it("names the field of the first breach", () => {
    let deep: unknown = paragraph(text("x"))
    for (let i = 0; i < maxDocumentDepth; i++) deep = { object: "block", type: "blockquote", nodes: [deep] }
    const cases: ReadonlyArray<readonly [unknown, string]> = [
      [null, "d"],
      [[], "d"],
      [{ object: "page", data: {}, nodes: [] }, "d.object"],
      [{ object: "document", nodes: [] }, "d.data"],
      [{ object: "document", data: { schemaVersion: 1.5 }, nodes: [] }, "d.data.schemaVersion"],
      [{ object: "document", data: {}, nodes: {} }, "d.nodes"],
      [{ object: "document", data: {}, nodes: [text("top")] }, "d.nodes[0].object"],
      [{ object: "document", data: {}, nodes: [{ object: "block", type: 3 }] }, "d.nodes[0].type"],
      [{ object: "document", data: {}, nodes: [{ object: "block", type: "p", data: [] }] }, "d.nodes[0].data"],
      [{ object: "document", data: {}, nodes: [{ object: "block", type: "p", isVoid: "yes" }] }, "d.nodes[0].isVoid"],
      [{ object: "document", data: {}, nodes: [paragraph("text")] }, "d.nodes[0].nodes[0]"],
      [{ object: "document", data: {}, nodes: [paragraph({ object: "text", leaves: {} })] }, "d.nodes[0].nodes[0].leaves"],
      [{ object: "document", data: {}, nodes: [paragraph({ object: "text", leaves: [{ text: null }] })] }, "d.nodes[0].nodes[0].leaves[0].text"],
      [{ object: "document", data: {}, nodes: [paragraph({ object: "text", leaves: [{ text: "", marks: [{}] }] })] }, "d.nodes[0].nodes[0].leaves[0].marks[0].type"],
      [{ object: "document", data: {}, nodes: [{ object: "block", type: "code", fragments: [{ object: "fragment", type: "x", nodes: [7] }] }] }, "d.nodes[0].fragments[0].nodes[0]"],
      [{ object: "document", data: {}, nodes: [deep] }, `d.nodes[0]${".nodes[0]".repeat(maxDocumentDepth)}`]
    ]
    for (const [value, field] of cases) assert.strictEqual(documentBreach(value, "d")?.field, field, JSON.stringify(value).slice(0, 80))
  })
})
