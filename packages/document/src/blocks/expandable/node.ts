import { Node } from "@tiptap/core"
import { attr, sourceAttr } from "../shared/attrs.ts"

/** `<details>` with its `<summary>` (kept as written) and blocks; `openTag` keeps `<details open>`. */
export const Expandable = Node.create({
  name: "expandable",
  group: "block",
  content: "block+",
  defining: true,
  addAttributes: () => ({ ...sourceAttr, openTag: attr("<details>"), lead: attr(1), summary: attr(""), endTag: attr("</details>") }),
  parseHTML: () => [{ tag: "details" }],
  renderHTML: ({ node }) => ["details", /\sopen\b/.test(node.attrs.openTag as string) ? { open: "" } : {}, 0]
})
