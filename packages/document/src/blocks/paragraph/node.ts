import { Node } from "@tiptap/core"
import { sourceAttr } from "../shared/attrs.ts"

export const Paragraph = Node.create({
  name: "paragraph",
  group: "block",
  content: "inline*",
  priority: 1000,
  addAttributes: () => ({ ...sourceAttr }),
  parseHTML: () => [{ tag: "p" }],
  renderHTML: () => ["p", 0]
})
