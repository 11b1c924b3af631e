import { Node } from "@tiptap/core"
import { attr, is, sourceAttr } from "../shared/attrs.ts"

/** A heading; `anchor` is GitBook's explicit `<a href="#x" id="x"></a>`, `setext` the underline when written that way. */
export const Heading = Node.create({
  name: "heading",
  group: "block",
  content: "inline*",
  defining: true,
  addAttributes: () => ({
    ...sourceAttr,
    level: { default: 1, rendered: false, validate: is.int(1, 6) },
    anchor: attr<string | null>(null, is.nullable(is.string())),
    setext: attr<string | null>(null, is.nullable(is.string())),
    closing: attr("", is.string())
  }),
  parseHTML: () => [1, 2, 3, 4, 5, 6].map((level) => ({ tag: `h${level}`, attrs: { level } })),
  renderHTML: ({ node }) => [`h${node.attrs.level as number}`, node.attrs.anchor ? { id: node.attrs.anchor as string } : {}, 0]
})
