import { Node } from "@tiptap/core"
import { attr, sourceAttr } from "../shared/attrs.ts"

/** A TeX block: `$$` lines around the formula, or `$$formula$$` alone on its line (`oneLine`). */
export const MathBlock = Node.create({
  name: "mathBlock",
  group: "block",
  content: "text*",
  marks: "",
  code: true,
  addAttributes: () => ({ ...sourceAttr, open: attr("$$"), close: attr("$$"), emptyLine: attr(false), oneLine: attr(false) }),
  renderHTML: () => ["div", { "data-type": "math" }, ["code", 0]]
})
