import { Node } from "@tiptap/core"
import { attr, sourceAttr } from "../shared/attrs.ts"

export const Blockquote = Node.create({
  name: "blockquote",
  group: "block",
  content: "block+",
  defining: true,
  addAttributes: () => ({ ...sourceAttr, prefix: attr("> ") }),
  parseHTML: () => [{ tag: "blockquote" }],
  renderHTML: () => ["blockquote", 0]
})
