/**
 * The caret's blocks: each block view around the selection (a hint, a tab, a column, ...) gets `has-caret`,
 * so its option bar shows while one types in it (editor.css), as GitBook shows a block's toolbar on the
 * selected block. Set on the views' own elements when the selection moves, not as decorations: a decoration
 * that changes redraws a view (the tab bar lost its focus), and these views ignore their own attributes.
 */
import { Extension } from "@tiptap/core"
import { Plugin, PluginKey } from "@tiptap/pm/state"
import type { EditorView } from "@tiptap/pm/view"

const currentKey = new PluginKey("quireCurrentBlock")
const marked = "has-caret"

/** The block views (`.quire-block`) around the selection, outermost first. */
const caretBlocks = (view: EditorView): Array<HTMLElement> => {
  const { $from } = view.state.selection
  const found: Array<HTMLElement> = []
  for (let depth = 1; depth <= $from.depth; depth++) {
    if ($from.node(depth).isTextblock) break
    const dom = view.nodeDOM($from.before(depth))
    if (dom instanceof HTMLElement && dom.classList.contains("quire-block")) found.push(dom)
  }
  return found
}

export const CurrentBlock = Extension.create({
  name: "quireCurrentBlock",
  addProseMirrorPlugins: () => [
    new Plugin({
      key: currentKey,
      view: (view) => {
        let shown: Array<HTMLElement> = []
        const mark = () => {
          const next = caretBlocks(view)
          for (const el of shown) if (!next.includes(el)) el.classList.remove(marked)
          for (const el of next) el.classList.add(marked)
          shown = next
        }
        mark()
        return {
          update: (_view, previous) => {
            if (!previous.selection.eq(view.state.selection) || previous.doc !== view.state.doc) mark()
          },
          destroy: () => {
            for (const el of shown) el.classList.remove(marked)
          }
        }
      }
    })
  ]
})
