import type { NodeViewRenderer } from "@tiptap/core"
import { TextSelection } from "@tiptap/pm/state"
import { h } from "../shared/view.ts"
import { editTable, type TableEdit } from "./commands.ts"

const TOOLS: ReadonlyArray<readonly [TableEdit, string, string]> = [
  ["rowBelow", "+ Row", "Add a row below (Mod-Alt-Down)"],
  ["columnRight", "+ Column", "Add a column to the right (Mod-Alt-Right)"],
  ["deleteRow", "− Row", "Delete this row (Mod-Alt-Backspace)"],
  ["deleteColumn", "− Column", "Delete this column (Mod-Alt-Shift-Backspace)"]
]

/** A GFM table with its row and column tools above it; the cells stay ProseMirror's. */
export const tableView: NodeViewRenderer = (props) => {
  let node = props.node
  const run = (edit: TableEdit) => {
    const pos = typeof props.getPos === "function" ? props.getPos() : undefined
    if (pos === undefined) return
    const { state } = props.editor
    const $from = state.selection.$from
    // Outside this table (a button reached from the keyboard), the edit applies at its last cell.
    let inside = false
    for (let d = $from.depth; d > 0; d--) if ($from.before(d) === pos) inside = true
    if (!inside) props.editor.view.dispatch(state.tr.setSelection(TextSelection.near(state.doc.resolve(pos + node.nodeSize - 2), -1)))
    editTable(edit, props.editor.state, props.editor.view.dispatch)
  }
  const buttons = TOOLS.map(([edit, text, label]) => {
    const button = h("button", { type: "button", "aria-label": label, title: label }, text)
    // The cell keeps the selection: a click acts where the cursor is.
    button.addEventListener("mousedown", (e) => e.preventDefault())
    button.addEventListener("click", () => run(edit))
    return button
  })
  const tools = h("div", { class: "quire-table-tools", contenteditable: "false", role: "toolbar", "aria-label": "Table" }, ...buttons)
  const contentDOM = h("tbody")
  const dom = h("div", { class: "quire-table" }, tools, h("table", {}, contentDOM))
  return {
    dom,
    contentDOM,
    stopEvent: (e) => tools.contains(e.target as Node),
    ignoreMutation: (m) => !contentDOM.contains(m.target),
    update: (next) => {
      if (next.type !== node.type) return false
      node = next
      return true
    }
  }
}
