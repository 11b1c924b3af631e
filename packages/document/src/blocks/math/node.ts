import { Node } from "@tiptap/core"
import { attr, is, sourceAttr } from "../shared/attrs.ts"

/** A TeX block: `$$` lines around the formula, or `$$formula$$` alone on its line (`oneLine`). */
export const MathBlock = Node.create({
  name: "mathBlock",
  group: "block",
  content: "text*",
  marks: "",
  code: true,
  addAttributes: () => ({ ...sourceAttr, open: attr<string | null>("$$", is.nullable(is.string())), close: attr<string | null>("$$", is.nullable(is.string())), emptyLine: attr(false, is.boolean), oneLine: attr(false, is.boolean) }),
  renderHTML: () => ["div", { "data-type": "math" }, ["code", 0]]
})
