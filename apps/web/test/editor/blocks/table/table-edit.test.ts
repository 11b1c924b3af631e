import { EditorState, TextSelection } from "@tiptap/pm/state"
import { describe, expect, it } from "vitest"
import { editTable, type TableEdit } from "../../../../src/editor/blocks/table/commands.ts"
import { codec } from "../../../../../../packages/document/test/support.ts"

const PAGE = "Before\n\n| Name  | Size |\n|:------|-----:|\n| a     |    1 |\n| b     |    2 |\n\nAfter\n"

/** The page saved after `edit` with the cursor in the cell holding `text`. */
const run = (edit: TableEdit, text: string): string => {
  let state = EditorState.create({ schema: codec.schema, doc: codec.parse(PAGE) })
  let at = -1
  state.doc.descendants((n, pos) => {
    if (at < 0 && n.isText && n.text === text) at = pos
  })
  state = state.apply(state.tr.setSelection(TextSelection.create(state.doc, at)))
  expect(editTable(edit, state, (tr) => void (state = state.apply(tr)))).toBe(true)
  return codec.serialize(state.doc)
}

describe("table editing", () => {
  it("a row added or deleted changes only the table's lines, other rows as written", () => {
    expect(run("rowBelow", "a")).toBe(PAGE.replace("|    1 |\n", "|    1 |\n|  |  |\n"))
    expect(run("deleteRow", "a")).toBe(PAGE.replace("| a     |    1 |\n", ""))
    expect(run("rowAbove", "b")).toBe(PAGE.replace("| b ", "|  |  |\n| b "))
  })
  it("a column added or deleted keeps every other column's alignment", () => {
    const added = run("columnRight", "Name")
    expect(added).toBe("Before\n\n| Name |  | Size |\n| :------ | --- | -----: |\n| a |  | 1 |\n| b |  | 2 |\n\nAfter\n")
    const deleted = run("deleteColumn", "Name")
    expect(deleted).toBe("Before\n\n| Size |\n| -----: |\n| 1 |\n| 2 |\n\nAfter\n")
    expect(codec.serialize(codec.parse(deleted))).toBe(deleted)
  })
  it("outside a table, nothing happens", () => {
    const state = EditorState.create({ schema: codec.schema, doc: codec.parse(PAGE) })
    expect(editTable("rowBelow", state)).toBe(false)
  })
})
