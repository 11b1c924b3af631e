/** Putting a new block into the document: where it goes, and where the cursor lands in it. */
import type { Editor } from "@tiptap/core"
import type { Node as PMNode } from "@tiptap/pm/model"
import { NodeSelection, TextSelection, type Transaction } from "@tiptap/pm/state"
import { insertPoint } from "@tiptap/pm/transform"
import { buildBlock, type InsertItem } from "./items.ts"

/** Where `node` was put in `tr.doc` (nodes keep their identity through a transaction), or -1. */
const positionOf = (tr: Transaction, node: PMNode): number => {
  let found = -1
  tr.doc.descendants((child, pos) => {
    if (found >= 0) return false
    if (child === node) found = pos
    return found < 0
  })
  return found
}

/**
 * Selects inside the block at `pos`: its first textblock's starter text (typing replaces it; an empty one gets
 * the cursor), or the block itself when it has no text (an atom: its view's first field gets the focus).
 */
const selectInside = (tr: Transaction, pos: number): void => {
  const node = tr.doc.nodeAt(pos)
  if (!node) return
  if (node.isTextblock) return void tr.setSelection(TextSelection.create(tr.doc, pos + 1, pos + 1 + node.content.size))
  let inner = -1
  node.descendants((child, p) => {
    if (inner >= 0) return false
    if (child.isTextblock) inner = pos + 1 + p
    return inner < 0
  })
  if (inner < 0) return void tr.setSelection(NodeSelection.create(tr.doc, pos))
  const block = tr.doc.nodeAt(inner)!
  tr.setSelection(TextSelection.create(tr.doc, inner + 1, inner + 1 + block.content.size))
}

/**
 * Focuses the first field of an atom's view (an embed's URL, a figure's caption) after it is drawn, or the
 * field a view asks for (`data-focus-on-insert`: a code block's empty title).
 */
const focusField = (editor: Editor, pos: number): void => {
  const inserted = editor.view.nodeDOM(pos)
  const asked = inserted instanceof HTMLElement ? inserted.querySelector<HTMLElement>("[data-focus-on-insert]") : null
  if (asked) return void asked.focus()
  const { selection } = editor.state
  if (!(selection instanceof NodeSelection)) return
  const dom = editor.view.nodeDOM(selection.from)
  const field = dom instanceof HTMLElement ? dom.querySelector<HTMLElement>("input, textarea, select") : null
  field?.focus()
}

/**
 * Gives the block at `pos` an empty paragraph after it when it ends its parent, so there is a line to write on
 * after it; not after a heading or paragraph, which Enter leaves.
 */
export const lineAfter = (tr: Transaction, pos: number): void => {
  const node = tr.doc.nodeAt(pos)
  if (!node || (node.isTextblock && node.type.spec.code !== true)) return
  const $end = tr.doc.resolve(pos + node.nodeSize)
  const paragraph = node.type.schema.nodes.paragraph!
  if ($end.index() === $end.parent.childCount && $end.parent.type.contentMatch.defaultType === paragraph) tr.insert(pos + node.nodeSize, paragraph.create())
}

/**
 * Inserts `node` in place of the empty paragraph at `at` (or after the textblock there), else at the nearest
 * place the schema allows.
 */
export const insertNode = (editor: Editor, node: PMNode, at?: number, typed?: { from: number; to: number }): boolean => {
  const { state } = editor
  // The typed `/query` goes in the same step, so one undo takes the block and what was typed away.
  const tr = typed ? state.tr.delete(typed.from, typed.to) : state.tr
  const $at = tr.doc.resolve(at ?? tr.selection.from)
  const parent = $at.parent
  if ($at.depth > 0 && parent.type.name === "paragraph" && parent.content.size === 0 && $at.node(-1).canReplaceWith($at.index(-1), $at.index(-1) + 1, node.type)) {
    tr.replaceWith($at.before(), $at.after(), node)
  } else {
    const base = $at.depth > 0 && parent.isTextblock ? $at.after() : $at.pos
    const point = insertPoint(tr.doc, base, node.type) ?? insertPoint(tr.doc, tr.doc.content.size, node.type)
    if (point === null || point === undefined) return false
    tr.insert(point, node)
  }
  const pos = positionOf(tr, node)
  if (pos < 0) return false
  if (node.type.name === "horizontalRule") {
    tr.insert(pos + node.nodeSize, state.schema.nodes.paragraph!.create())
    tr.setSelection(TextSelection.create(tr.doc, pos + node.nodeSize + 1))
  } else {
    lineAfter(tr, pos)
    selectInside(tr, pos)
  }
  editor.view.dispatch(tr.scrollIntoView())
  editor.view.focus()
  requestAnimationFrame(() => focusField(editor, pos))
  return true
}

/** What choosing `item` in the menu does, once the typed `/query` (`range`) is removed. */
export const runItem = (editor: Editor, item: InsertItem, range: { from: number; to: number } | undefined, pickImage: () => void): void => {
  const node = buildBlock(editor.schema, item)
  if (node !== undefined) return void insertNode(editor, node, undefined, range)
  if (range) editor.view.dispatch(editor.state.tr.delete(range.from, range.to))
  pickImage()
}

/** The toolbar's Insert: a new empty paragraph after the current block (unless it is one) with `/` typed in it, which opens the menu. */
export const startInsert = (editor: Editor): void => {
  const { state } = editor
  // After the selection: the block the cursor is in, or a selected block (a figure).
  const $from = state.selection.$to
  const tr = state.tr
  if (!($from.parent.type.name === "paragraph" && $from.parent.content.size === 0)) {
    const point = $from.depth > 0 && $from.parent.isTextblock ? $from.after() : $from.pos
    const at = insertPoint(tr.doc, point, state.schema.nodes.paragraph!) ?? tr.doc.content.size
    tr.insert(at, state.schema.nodes.paragraph!.create())
    tr.setSelection(TextSelection.create(tr.doc, at + 1))
  }
  tr.insertText("/")
  editor.view.dispatch(tr.scrollIntoView())
  editor.view.focus()
}
