import { Node } from "@tiptap/core"
import { attr, is, sourceAttr } from "../shared/attrs.ts"

export const HorizontalRule = Node.create({
  name: "horizontalRule",
  group: "block",
  atom: true,
  addAttributes: () => ({ ...sourceAttr, marker: attr("---", is.string()) }),
  parseHTML: () => [{ tag: "hr" }],
  renderHTML: () => ["hr"]
})
