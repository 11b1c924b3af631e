import { Node } from "@tiptap/core"
import { attr, is, sourceAttr } from "../shared/attrs.ts"

/** The page's YAML frontmatter, kept verbatim (title, description and layout are edited through page options). */
export const Frontmatter = Node.create({
  name: "frontmatter",
  group: "block",
  atom: true,
  addAttributes: () => ({ ...sourceAttr, text: attr("", is.string()) }),
  renderHTML: () => ["div", { "data-type": "frontmatter", hidden: "" }]
})
