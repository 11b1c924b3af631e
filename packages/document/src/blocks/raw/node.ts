import { Node } from "@tiptap/core"
import { attr, is, sourceAttr } from "../shared/attrs.ts"

/**
 * Markdown the editor does not model: shown as its source and written back verbatim. Also any block shown as
 * its source (editor/source): `sourceOf` then names the block it stands for until the source view closes.
 */
export const Raw = Node.create({
  name: "raw",
  group: "block",
  atom: true,
  addAttributes: () => ({ ...sourceAttr, text: attr("", is.string()), sourceOf: attr<string | null>(null, is.nullable(is.string(64))) }),
  parseHTML: () => [{ tag: "pre[data-type=raw]" }],
  renderHTML: ({ node }) => ["pre", { "data-type": "raw" }, node.attrs.text as string]
})
