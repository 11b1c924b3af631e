import { Node } from "@tiptap/core"
import type { HtmlAttr } from "../shared/html.ts"
import { attr, sourceAttr } from "../shared/attrs.ts"

/** GitBook's block image: `<figure><img src alt width><figcaption>…</figcaption></figure>`; the caption's inner HTML is kept as written. */
export const Figure = Node.create({
  name: "figure",
  group: "block",
  atom: true,
  addAttributes: () => ({ ...sourceAttr, img: attr<ReadonlyArray<HtmlAttr>>([]), imgEnd: attr(">"), caption: attr("") }),
  renderHTML: () => ["figure", { "data-type": "figure" }]
})
