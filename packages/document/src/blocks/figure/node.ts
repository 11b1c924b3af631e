import { Node } from "@tiptap/core"
import type { HtmlAttr } from "../shared/html.ts"
import { attr, is, isHtmlAttr, sourceAttr } from "../shared/attrs.ts"

/** GitBook's block image: `<figure><img src alt width><figcaption>…</figcaption></figure>`; the caption's inner HTML is kept as written. */
export const Figure = Node.create({
  name: "figure",
  group: "block",
  atom: true,
  addAttributes: () => ({ ...sourceAttr, img: attr<ReadonlyArray<HtmlAttr>>([], is.list(isHtmlAttr)), imgEnd: attr(">", is.string()), caption: attr("", is.string()) }),
  renderHTML: () => ["figure", { "data-type": "figure" }]
})
