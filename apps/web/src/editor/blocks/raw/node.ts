import { Node } from "@tiptap/core"
import { attr, sourceAttr } from "../shared/attrs.ts"

/** Markdown the editor does not model: shown as its source and written back verbatim. */
export const Raw = Node.create({
  name: "raw",
  group: "block",
  atom: true,
  addAttributes: () => ({ ...sourceAttr, text: attr("") }),
  parseHTML: () => [{ tag: "pre[data-type=raw]" }],
  renderHTML: ({ node }) => ["pre", { "data-type": "raw" }, node.attrs.text as string]
})
