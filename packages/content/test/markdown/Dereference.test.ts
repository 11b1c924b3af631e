/** GitBook's `dereferenced=reusable-contents`: includes replaced by the reusable contents' blocks. */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { dereferenceReusableContents, type ReusableDocuments } from "../../src/markdown/Dereference.ts"
import type { JsonBlock, JsonDocument } from "../../src/markdown/GitbookModel.ts"

const text = (value: string) => ({ object: "text" as const, leaves: [{ object: "leaf" as const, text: value, marks: [] }] })
const paragraph = (value: string): JsonBlock => ({ object: "block", type: "paragraph", nodes: [text(value)] })
const include = (id: string, space?: string): JsonBlock => ({
  object: "block",
  type: "reusable-content",
  isVoid: true,
  data: { ref: { kind: "reusable-content", reusableContent: id, ...(space === undefined ? {} : { space }) } }
})
const doc = (...nodes: Array<JsonBlock>): JsonDocument => ({ object: "document", data: { schemaVersion: 1 }, nodes })

const contents: Record<string, JsonDocument> = {
  warning: doc({ object: "block", type: "hint", data: { style: "warning" }, nodes: [paragraph("Back up first.")] }),
  nested: doc(paragraph("Outer."), include("warning")),
  loop: doc(paragraph("Again."), include("loop"))
}
const read: ReusableDocuments = (id) => Effect.succeed(contents[id])

const texts = (document: JsonDocument): string => JSON.stringify(document.nodes)

describe("dereferenceReusableContents", () => {
  it.effect("replaces an include by its blocks, inside other blocks and through nested includes", () =>
    Effect.gen(function*() {
      const page = doc(
        paragraph("Before."),
        include("nested"),
        { object: "block", type: "tabs", nodes: [{ object: "block", type: "tabs-item", nodes: [include("warning")] }] }
      )
      const expanded = yield* dereferenceReusableContents(page, read)
      assert.deepStrictEqual(expanded.nodes.map((n) => n.type), ["paragraph", "paragraph", "hint", "tabs"])
      assert.notInclude(texts(expanded), "reusable-content")
      assert.include(JSON.stringify(expanded.nodes[3]), "Back up first.")
      assert.deepStrictEqual(expanded.data, page.data)
    }))

  it.effect("keeps an include of an unknown reusable content or of another space's, and cuts a cycle", () =>
    Effect.gen(function*() {
      const kept = yield* dereferenceReusableContents(doc(include("missing"), include("warning", "space_other")), read)
      assert.deepStrictEqual(kept.nodes, [include("missing"), include("warning", "space_other")])
      const looped = yield* dereferenceReusableContents(doc(include("loop")), read)
      // Eight levels expanded, the ninth include left as it is.
      assert.strictEqual(texts(looped).split("Again.").length - 1, 8)
      assert.include(texts(looped), "reusable-content")
    }))
})
