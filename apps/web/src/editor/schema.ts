/** The editor's ProseMirror schema and TipTap extensions, built from the block registry. No DOM needed to build the schema. */
import { Extension, getSchema, Node, type AnyExtension, type NodeViewRenderer } from "@tiptap/core"
import { dropCursor } from "@tiptap/pm/dropcursor"
import { gapCursor } from "@tiptap/pm/gapcursor"
import { history, redo, undo } from "@tiptap/pm/history"
import type { Schema } from "@tiptap/pm/model"
import { blocks } from "./blocks/index.ts"
import { inlineExtensions } from "./blocks/inline/node.ts"

export const Doc = Node.create({ name: "doc", topNode: true, content: "block+" })

/**
 * Every node and mark, each block's nodes with their node views attached (used only when an editor mounts them);
 * `views` replaces the registry's view of a node (the editor's figure view, which knows the files' URLs).
 */
export const editorExtensions = (views: Readonly<Record<string, NodeViewRenderer>> = {}): Array<AnyExtension> => [
  Doc,
  ...Object.values(blocks).flatMap((b) =>
    b.extensions.map((ext) => {
      const view = views[ext.name] ?? (b.view === "toDOM" ? undefined : b.view[ext.name])
      return view && ext.type === "node" ? (ext as Node).extend({ addNodeView: () => view }) : ext
    })
  ),
  ...inlineExtensions
]

/** Undo and redo, and the cursors for places between blocks. */
export const EditingBasics = Extension.create({
  name: "quireEditingBasics",
  addProseMirrorPlugins: () => [history(), dropCursor(), gapCursor()],
  addKeyboardShortcuts: () => ({
    "Mod-z": ({ editor }) => undo(editor.state, editor.view.dispatch),
    "Mod-Shift-z": ({ editor }) => redo(editor.state, editor.view.dispatch),
    "Mod-y": ({ editor }) => redo(editor.state, editor.view.dispatch)
  })
})

export const createSchema = (): Schema => getSchema(editorExtensions())
