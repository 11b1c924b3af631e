/**
 * Table editing from the keyboard and the table's tool buttons: rows and columns added and removed. A column's
 * alignment (its delimiter cell) moves with it. GFM tables always have a header row (the first), so there is no
 * header switch: the first row is the header.
 */
import { Extension } from "@tiptap/core"
import type { EditorState, Transaction } from "@tiptap/pm/state"
import { addColumnAfter, addColumnBefore, addRowAfter, addRowBefore, deleteColumn, deleteRow, isInTable, selectedRect } from "@tiptap/pm/tables"

export type TableEdit = "rowAbove" | "rowBelow" | "columnLeft" | "columnRight" | "deleteRow" | "deleteColumn"

const base: Record<TableEdit, (state: EditorState, dispatch?: (tr: Transaction) => void) => boolean> = {
  rowAbove: addRowBefore,
  rowBelow: addRowAfter,
  columnLeft: addColumnBefore,
  columnRight: addColumnAfter,
  deleteRow,
  deleteColumn
}

/** The table's delimiter cells after the edit: one "---" for a new column, the removed ones gone. */
const delimitersAfter = (edit: TableEdit, given: ReadonlyArray<string>, width: number, left: number, right: number): Array<string> | undefined => {
  const cells = Array.from({ length: width }, (_, k) => given[k] ?? "---")
  if (edit === "columnLeft") return [...cells.slice(0, left), "---", ...cells.slice(left)]
  if (edit === "columnRight") return [...cells.slice(0, right), "---", ...cells.slice(right)]
  if (edit === "deleteColumn") return [...cells.slice(0, left), ...cells.slice(right)]
  return undefined
}

/** Runs `edit` at the selection (in a table); false when it does not apply there. */
export const editTable = (edit: TableEdit, state: EditorState, dispatch?: (tr: Transaction) => void): boolean => {
  if (!isInTable(state)) return false
  const rect = selectedRect(state)
  let tr: Transaction | undefined
  if (!base[edit](state, (t) => void (tr = t)) || !tr) return false
  if (!dispatch) return true
  const tablePos = rect.tableStart - 1
  const table = tr.doc.nodeAt(tablePos)
  const delimiters = delimitersAfter(edit, table?.attrs.delimiters ?? [], rect.map.width, rect.left, rect.right)
  if (table && delimiters) tr.setNodeMarkup(tablePos, undefined, { ...table.attrs, delimiters, delimiterRow: null })
  dispatch(tr.scrollIntoView())
  return true
}

export const TABLE_KEYS: Readonly<Record<string, TableEdit>> = {
  "Mod-Alt-ArrowUp": "rowAbove",
  "Mod-Alt-ArrowDown": "rowBelow",
  "Mod-Alt-ArrowLeft": "columnLeft",
  "Mod-Alt-ArrowRight": "columnRight",
  "Mod-Alt-Backspace": "deleteRow",
  "Mod-Alt-Shift-Backspace": "deleteColumn"
}

export const TableEditing = Extension.create({
  name: "quireTableEditing",
  addKeyboardShortcuts() {
    return Object.fromEntries(Object.entries(TABLE_KEYS).map(([key, edit]) => [key, () => editTable(edit, this.editor.state, this.editor.view.dispatch)]))
  }
})
