/**
 * The editor's TipTap extensions: the page schema of @quire/document with the editor's node views and editing
 * keys attached by block (`blocks/views.ts`), and undo, redo and the cursors between blocks.
 */
import { documentExtensions } from "@quire/document"
import { Extension, type AnyExtension, type Node, type NodeViewRenderer } from "@tiptap/core"
import { dropCursor } from "@tiptap/pm/dropcursor"
import { gapCursor } from "@tiptap/pm/gapcursor"
import { history, redo, undo } from "@tiptap/pm/history"
import { blockViews } from "./blocks/views.ts"

/**
 * Every node and mark, each block's nodes with their node views attached (used only when an editor mounts them);
 * `views` replaces the registry's view of a node (the editor's figure view, which knows the files' URLs).
 */
export const editorExtensions = (views: Readonly<Record<string, NodeViewRenderer>> = {}): Array<AnyExtension> =>
  documentExtensions((name, extensions) => {
    const entry = blockViews[name]
    return [
      ...extensions.map((ext) => {
        const view = views[ext.name] ?? (entry.view === "toDOM" ? undefined : entry.view[ext.name])
        return view && ext.type === "node" ? (ext as Node).extend({ addNodeView: () => view }) : ext
      }),
      ...(entry.editing ?? [])
    ]
  })

/** The cursors for places between blocks (live editing brings its own undo: editor/collab). */
export const EditingCursors = Extension.create({
  name: "quireEditingCursors",
  addProseMirrorPlugins: () => [dropCursor(), gapCursor()]
})

/** Undo and redo of the editor's own history, and the cursors for places between blocks. */
export const EditingBasics = Extension.create({
  name: "quireEditingBasics",
  addProseMirrorPlugins: () => [history(), dropCursor(), gapCursor()],
  addKeyboardShortcuts: () => ({
    "Mod-z": ({ editor }) => undo(editor.state, editor.view.dispatch),
    "Mod-Shift-z": ({ editor }) => redo(editor.state, editor.view.dispatch),
    "Mod-y": ({ editor }) => redo(editor.state, editor.view.dispatch)
  })
})
