/** Blocks the editor creates (no kept source) are written in GitBook's own form, and add no stray bytes. */
import type { Node as PMNode } from "@tiptap/pm/model"
import { expect, it } from "vitest"
import { withTitle } from "../../src/editor/blocks/code/view.ts"
import { buildBlock, insertItems } from "../../src/editor/commands/items.ts"
import type { LiquidParam } from "@quire/document"
import { codec } from "../../../../packages/document/test/support.ts"

const schema = codec.schema
const item = (id: string): PMNode => buildBlock(schema, insertItems.find((i) => i.id === id)!)!
const empty = () => schema.nodes.paragraph!.create()
const docOf = (...blocks: Array<PMNode>) => schema.nodes.doc!.create(null, blocks)
const code = (md: string) => codec.parse(md).firstChild!
const withAttrs = (node: PMNode, attrs: Record<string, unknown>) => docOf(node.type.create({ ...node.attrs, ...attrs }, node.content))

it("writes a new expandable with a blank line before </details>, as GitBook does", () => {
  const md = codec.serialize(docOf(item("expandable")))
  expect(md).toBe("<details>\n\n<summary>Summary</summary>\n\nHidden text\n\n</details>\n")
  expect(codec.serialize(codec.parse(md))).toBe(md)
})

it("keeps an existing expandable's bytes", () => {
  const tight = "<details>\n<summary>S</summary>\nText.\n</details>\n"
  const doc = codec.parse(tight)
  expect(codec.serialize(doc)).toBe(tight)
})

it("saves no bytes for the empty line left after a block inserted last", () => {
  const doc = codec.parse("Start.\n")
  const withCode = docOf(doc.firstChild!, item("code"), empty())
  expect(codec.serialize(withCode)).toBe("Start.\n\n```\n```\n")
  expect(codec.serialize(docOf(doc.firstChild!, item("divider"), empty(), empty()))).toBe("Start.\n\n---\n")
  // A page that is only an empty line is still one line.
  expect(codec.serialize(docOf(empty()))).toBe("\n")
  // Untouched bytes stay, trailing blank lines and all.
  expect(codec.serialize(codec.parse("Start.\n\n\n"))).toBe("Start.\n\n\n")
})

it("writes a code block's title as GitBook's {% code %} wrapper, and no title as a plain fence", () => {
  const plain = code("```js\nx()\n```\n")
  expect(codec.serialize(withAttrs(plain, { wrapper: withTitle(null, "app.js") }))).toBe("{% code title=\"app.js\" %}\n```js\nx()\n```\n{% endcode %}\n")
  expect(codec.serialize(withAttrs(plain, { language: "ts" }))).toBe("```ts\nx()\n```\n")
  const titled = code("{% code title=\"a.js\" lineNumbers=\"true\" %}\n```js\nx()\n```\n{% endcode %}\n")
  const wrapper = titled.attrs.wrapper as ReadonlyArray<LiquidParam>
  expect(codec.serialize(withAttrs(titled, { wrapper: withTitle(wrapper, "b.js") }))).toBe("{% code title=\"b.js\" lineNumbers=\"true\" %}\n```js\nx()\n```\n{% endcode %}\n")
  expect(codec.serialize(withAttrs(titled, { wrapper: withTitle(wrapper, "") }))).toBe("{% code lineNumbers=\"true\" %}\n```js\nx()\n```\n{% endcode %}\n")
  const only = code("{% code title=\"a.js\" %}\n```js\nx()\n```\n{% endcode %}\n")
  expect(withTitle(only.attrs.wrapper as ReadonlyArray<LiquidParam>, "")).toBeNull()
  expect(codec.serialize(withAttrs(only, { wrapper: null, wrapperTag: null, wrapperEnd: null }))).toBe("```js\nx()\n```\n")
  // Untouched, a titled block keeps its bytes.
  expect(codec.serialize(codec.parse("{% code title='a.js' %}\n```js\nx()\n```\n{% endcode %}\n"))).toBe("{% code title='a.js' %}\n```js\nx()\n```\n{% endcode %}\n")
})
