/** GFM tables: the delimiter row's cells and the outer pipes are kept as written. */
import { Table as BaseTable, TableCell as BaseCell, TableHeader as BaseHeader, TableRow as BaseRow } from "@tiptap/extension-table"
import { attr, sourceAttr } from "../shared/attrs.ts"

export const Table = BaseTable.extend({
  addAttributes() {
    return { ...this.parent?.(), ...sourceAttr, delimiters: attr<ReadonlyArray<string>>([]), delimiterRow: attr<string | null>(null), pipes: attr(true) }
  }
})
/** `line`: the row as written, kept while its cells are unchanged so padded tables stay aligned. */
export const TableRow = BaseRow.extend({
  addAttributes() {
    return { ...this.parent?.(), line: attr<string | null>(null) }
  }
})
export const TableHeader = BaseHeader.extend({ content: "paragraph" })
export const TableCell = BaseCell.extend({ content: "paragraph" })
