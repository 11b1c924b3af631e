/**
 * Leaving a code block by keyboard, as ProseMirror's `exitCode` does: Enter stays a new line inside the code,
 * but the arrows at its very start or end move out of it, and Enter on a second empty line at its end (the third
 * Enter) leaves the empty lines behind and goes on in a new paragraph below. Commands over the state only (no
 * DOM), so the tests run in Node.
 */
import { Extension } from "@tiptap/core"
import type { Node as PMNode, ResolvedPos } from "@tiptap/pm/model"
import { type Command, type EditorState, Selection, TextSelection, type Transaction } from "@tiptap/pm/state"

/** The code block the cursor is in, when the selection is a cursor in one. */
const cursorInCode = (state: EditorState): ResolvedPos | undefined => {
  const { selection } = state
  if (!selection.empty || !(selection instanceof TextSelection)) return undefined
  const $pos = selection.$from
  return $pos.parent.type.spec.code === true ? $pos : undefined
}

/** A new empty paragraph at `pos` (inside the code block's parent) with the cursor in it. */
const intoNewParagraph = (tr: Transaction, pos: number): Transaction => {
  const paragraph = tr.doc.type.schema.nodes.paragraph!
  return tr.insert(pos, paragraph.create()).setSelection(TextSelection.create(tr.doc, pos + 1)).scrollIntoView()
}

/**
 * Out of the code block by the cursor, forward (`1`) or back (`-1`): onto the block beside it in its parent, or,
 * when there is none (the last block of the page, of a tab, of a hint), onto a new empty paragraph there, so the
 * cursor never falls into another tab or out of its container. Only from the block's very end (forward) or very
 * start (back), or where `atEdge` says (ArrowDown on the last line the browser draws).
 */
export const leaveCode = (dir: 1 | -1, atEdge?: () => boolean): Command => (state, dispatch) => {
  const $pos = cursorInCode(state)
  if ($pos === undefined) return false
  const edgeReached = atEdge === undefined ? $pos.parentOffset === (dir === 1 ? $pos.parent.content.size : 0) : atEdge()
  if (!edgeReached) return false
  const index = $pos.index($pos.depth - 1)
  const container: PMNode = $pos.node($pos.depth - 1)
  const edge = dir === 1 ? $pos.after() : $pos.before()
  const neighbour = dir === 1 ? index < container.childCount - 1 : index > 0
  if (!neighbour) {
    if (!container.type.contentMatch.matchType(state.schema.nodes.paragraph!)) return false
    if (dispatch) dispatch(intoNewParagraph(state.tr, edge))
    return true
  }
  const target = Selection.findFrom(state.doc.resolve(edge), dir)
  if (target === null) return false
  if (dispatch) dispatch(state.tr.setSelection(target).scrollIntoView())
  return true
}

/** Enter at the end of a code block ending in two empty lines: the empty lines go, a paragraph below takes the cursor. */
export const exitOnThirdEnter: Command = (state, dispatch) => {
  const $pos = cursorInCode(state)
  if ($pos === undefined) return false
  const text = $pos.parent.textContent
  if ($pos.parentOffset !== text.length || !text.endsWith("\n\n")) return false
  const container = $pos.node($pos.depth - 1)
  if (!container.type.contentMatch.matchType(state.schema.nodes.paragraph!)) return false
  if (dispatch) {
    const tr = state.tr.delete($pos.pos - 2, $pos.pos)
    dispatch(intoNewParagraph(tr, tr.mapping.map($pos.after())))
  }
  return true
}

/** The keys above; Mod-Enter (TipTap's `exitCode`) comes with TipTap's own keymap. */
export const CodeBlockKeys = Extension.create({
  name: "quireCodeBlockKeys",
  // Before TipTap's own Enter (a new line in code).
  priority: 200,
  addKeyboardShortcuts: () => ({
    Enter: ({ editor }) => exitOnThirdEnter(editor.state, editor.view.dispatch),
    ArrowDown: ({ editor }) => leaveCode(1, () => editor.view.endOfTextblock("down"))(editor.state, editor.view.dispatch),
    ArrowRight: ({ editor }) => leaveCode(1)(editor.state, editor.view.dispatch),
    ArrowUp: ({ editor }) => leaveCode(-1, () => editor.view.endOfTextblock("up"))(editor.state, editor.view.dispatch),
    ArrowLeft: ({ editor }) => leaveCode(-1)(editor.state, editor.view.dispatch)
  })
})
