/**
 * The hint on an empty line: an empty page says how to start ("Write, or type / for blocks") whether or not it
 * has the focus; the empty line that holds the caret says "Type / for blocks". One decoration at most, found
 * from the selection alone, so a keystroke on a long page costs nothing more. Not shown where nothing can be typed.
 */
import { Extension } from "@tiptap/core"
import { Plugin, PluginKey, type EditorState } from "@tiptap/pm/state"
import { Decoration, DecorationSet } from "@tiptap/pm/view"

const placeholderKey = new PluginKey("quirePlaceholder")

export const emptyPageHint = "Write, or type / for blocks"
export const emptyLineHint = "Type / for blocks"

/** The empty paragraph to hint at, and what it says; undefined when there is none. */
export const placeholderAt = (state: EditorState): { readonly pos: number; readonly text: string } | undefined => {
  const { doc, selection } = state
  const first = doc.firstChild
  if (doc.childCount === 1 && first !== null && first.type.name === "paragraph" && first.content.size === 0) return { pos: 0, text: emptyPageHint }
  if (!selection.empty) return undefined
  const { $from } = selection
  if ($from.parent.type.name !== "paragraph" || $from.parent.content.size > 0 || $from.depth === 0) return undefined
  // Not in a table's cell, where a block cannot go.
  for (let d = $from.depth - 1; d > 0; d--) if (["tableCell", "tableHeader"].includes($from.node(d).type.name)) return undefined
  return { pos: $from.before(), text: emptyLineHint }
}

export const Placeholder = Extension.create({
  name: "quirePlaceholder",
  addProseMirrorPlugins() {
    const editor = this.editor
    return [
      new Plugin({
        key: placeholderKey,
        props: {
          decorations: (state) => {
            if (!editor.isEditable) return null
            const at = placeholderAt(state)
            if (at === undefined) return null
            const node = state.doc.nodeAt(at.pos)!
            return DecorationSet.create(state.doc, [Decoration.node(at.pos, at.pos + node.nodeSize, { class: "is-empty-line", "data-placeholder": at.text })])
          }
        }
      })
    ]
  }
})
