import { Node } from "@tiptap/core"
import { attr, is, sourceAttr } from "../shared/attrs.ts"

export const Blockquote = Node.create({
  name: "blockquote",
  group: "block",
  content: "block+",
  defining: true,
  addAttributes: () => ({ ...sourceAttr, prefix: attr("> ", is.string(64)) }),
  parseHTML: () => [{ tag: "blockquote" }],
  renderHTML: () => ["blockquote", 0]
})
