/**
 * Commands on a page's top-level blocks, by index: move one up or down, duplicate it, delete it, add an empty
 * line after it. The block handle (`handles.ts`) and its menu call them with the block under the pointer; the
 * keys (Mod-Shift-ArrowUp and Mod-Shift-ArrowDown, as Notion's) with the block that holds the caret. Each is
 * one transaction, so one undo takes it back, and live editing sends it as one update.
 */
import type { Node as PMNode } from "@tiptap/pm/model"
import { type EditorState, NodeSelection, type Selection, TextSelection, type Transaction } from "@tiptap/pm/state"

type Dispatch = ((tr: Transaction) => void) | undefined

/** Where the top-level block `index` starts. */
export const blockStart = (doc: PMNode, index: number): number => {
  let pos = 0
  for (let i = 0; i < index; i++) pos += doc.child(i).nodeSize
  return pos
}

/** The index of the top-level block that holds the selection (a selected block's own). */
export const currentBlock = (state: EditorState): number => state.selection.$from.index(0)

/** The frontmatter stays the page's first block: it neither moves nor has a block moved above it. */
const pinned = (doc: PMNode, index: number): boolean => doc.child(index).type.name === "frontmatter"

/** The selection moved by `delta` (the block it was in moved by that much). */
const shifted = (selection: Selection, tr: Transaction, delta: number): Selection =>
  selection instanceof NodeSelection
    ? NodeSelection.create(tr.doc, selection.from + delta)
    : TextSelection.create(tr.doc, selection.anchor + delta, selection.head + delta)

/** Swaps the block `index` with the one above (`-1`) or below (`1`); the caret moves with it. */
export const moveBlock = (index: number, direction: -1 | 1) => (state: EditorState, dispatch: Dispatch): boolean => {
  const { doc } = state
  const other = index + direction
  if (index < 0 || index >= doc.childCount || other < 0 || other >= doc.childCount) return false
  if (pinned(doc, index) || pinned(doc, other)) return false
  if (dispatch === undefined) return true
  const first = Math.min(index, other)
  const start = blockStart(doc, first)
  const upper = doc.child(first)
  const lower = doc.child(first + 1)
  const tr = state.tr.replaceWith(start, start + upper.nodeSize + lower.nodeSize, [lower, upper])
  const inMoved = currentBlock(state) === index
  if (inMoved) tr.setSelection(shifted(state.selection, tr, direction === -1 ? -doc.child(other).nodeSize : doc.child(other).nodeSize))
  dispatch(tr.scrollIntoView())
  return true
}

/** Puts a copy of the block `index` after it, and selects the copy. */
export const duplicateBlock = (index: number) => (state: EditorState, dispatch: Dispatch): boolean => {
  const { doc } = state
  if (index < 0 || index >= doc.childCount || pinned(doc, index)) return false
  if (dispatch === undefined) return true
  const node = doc.child(index)
  const after = blockStart(doc, index) + node.nodeSize
  const tr = state.tr.insert(after, node.copy(node.content))
  const copy = tr.doc.nodeAt(after)!
  tr.setSelection(copy.isTextblock ? TextSelection.create(tr.doc, after + 1 + copy.content.size) : NodeSelection.create(tr.doc, after))
  dispatch(tr.scrollIntoView())
  return true
}

/** Deletes the block `index`; a page's only block becomes an empty line. */
export const deleteBlock = (index: number) => (state: EditorState, dispatch: Dispatch): boolean => {
  const { doc, schema } = state
  if (index < 0 || index >= doc.childCount) return false
  if (dispatch === undefined) return true
  const start = blockStart(doc, index)
  const end = start + doc.child(index).nodeSize
  const tr = doc.childCount === 1 ? state.tr.replaceWith(start, end, schema.nodes.paragraph!.create()) : state.tr.delete(start, end)
  const near = Math.min(start, tr.doc.content.size)
  tr.setSelection(TextSelection.near(tr.doc.resolve(near), near === 0 ? 1 : -1))
  dispatch(tr.scrollIntoView())
  return true
}

/**
 * An empty line after the block `index` holding `text` (the handle's "+" gives "/", which opens the slash menu
 * there, as typing it would), with the caret at its end.
 */
export const lineBelow = (index: number, text = "") => (state: EditorState, dispatch: Dispatch): boolean => {
  const { doc, schema } = state
  if (index < 0 || index >= doc.childCount) return false
  if (dispatch === undefined) return true
  const at = blockStart(doc, index) + doc.child(index).nodeSize
  const line = schema.nodes.paragraph!.create(null, text === "" ? null : schema.text(text))
  const tr = state.tr.insert(at, line)
  tr.setSelection(TextSelection.create(tr.doc, at + 1 + text.length))
  dispatch(tr.scrollIntoView())
  return true
}
