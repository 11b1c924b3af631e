import { Node } from "@tiptap/core"
import { attr, is, sourceAttr } from "../shared/attrs.ts"

export interface CardColumn {
  /** The `<th>`'s attributes as written, e.g. ` data-hidden data-card-target data-type="content-ref"`. */
  readonly attrs: string
  readonly label: string
}

/** GitBook's cards: `<table data-view="cards">`; every column (unknown `data-*` ones too) and cell's inner HTML is kept. */
export const Cards = Node.create({
  name: "cards",
  group: "block",
  atom: true,
  addAttributes: () => ({
    ...sourceAttr,
    tableAttrs: attr(" data-view=\"cards\"", is.string()),
    columns: attr<ReadonlyArray<CardColumn>>([], is.list(is.record({ attrs: is.string(), label: is.string() }))),
    rows: attr<ReadonlyArray<ReadonlyArray<string>>>([], is.list(is.list(is.string())))
  }),
  renderHTML: () => ["div", { "data-type": "cards" }]
})
