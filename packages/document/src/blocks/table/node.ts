/** GFM tables: the delimiter row's cells and the outer pipes are kept as written. */
import { Table as BaseTable, TableCell as BaseCell, TableHeader as BaseHeader, TableRow as BaseRow } from "@tiptap/extension-table"
import { attr, checked, is, maxEntries, sourceAttr } from "../shared/attrs.ts"

export const Table = BaseTable.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      ...sourceAttr,
      delimiters: attr<ReadonlyArray<string>>([], is.list(is.string())),
      delimiterRow: attr<string | null>(null, is.nullable(is.string())),
      pipes: attr(true, is.boolean)
    }
  }
})
/** `line`: the row as written, kept while its cells are unchanged so padded tables stay aligned. */
export const TableRow = BaseRow.extend({
  addAttributes() {
    return { ...this.parent?.(), line: attr<string | null>(null, is.nullable(is.string())) }
  }
})

/** The editor's cell attributes (GFM writes none of them), each in its range. */
const cellAttrs = (parent: object | undefined) => ({
  ...parent,
  colspan: checked(parent, "colspan", is.int(1, 1_000)),
  rowspan: checked(parent, "rowspan", is.int(1, maxEntries)),
  colwidth: checked(parent, "colwidth", is.nullable(is.list(is.number(0, 100_000), 1_000))),
  align: checked(parent, "align", is.nullable(is.oneOf("left", "center", "right")))
})

export const TableHeader = BaseHeader.extend({
  content: "paragraph",
  addAttributes() {
    return cellAttrs(this.parent?.())
  }
})
export const TableCell = BaseCell.extend({
  content: "paragraph",
  addAttributes() {
    return cellAttrs(this.parent?.())
  }
})
