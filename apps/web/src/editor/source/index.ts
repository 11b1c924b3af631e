/**
 * Any block shown and edited as its markdown source: the editor never drops what it cannot draw.
 * Mod-Alt-U (or a block's "Edit as markdown" button) shows the block at the cursor as its source; Escape,
 * Mod-Alt-U again, the "Done" button or leaving the text reads it back into blocks. Also: the editor carries
 * the published site's page classes, so /app/render.css styles its blocks as the site does.
 */
import { Extension, type AnyExtension } from "@tiptap/core"
import { Plugin, PluginKey, TextSelection } from "@tiptap/pm/state"
import type { EditorView } from "@tiptap/pm/view"
import { createMarkdownCodec, type MarkdownCodec } from "@quire/document"
import { blockAtSelection, closeSource, openSource, type Originals } from "./blocks.ts"
import { linkRenderStylesheet } from "../../ui/render-stylesheet.ts"
import "./source.css"

declare module "@tiptap/core" {
  interface Commands<ReturnType> {
    quireSource: {
      /** Shows the top-level block at `pos` (default: at the cursor) as its markdown source, and focuses it. */
      showSource: (pos?: number) => ReturnType
      /** Reads the source at `pos` (a raw block) back into blocks; `focus` puts the cursor in them. */
      closeSource: (pos: number, text: string, focus?: boolean) => ReturnType
    }
  }
}

interface SourceStorage {
  originals: Originals
  codec: MarkdownCodec | null
}

/** Focuses the source's text area of the block at `pos` once drawn (TipTap dispatches a command's transaction after it returns). */
const focusSource = (view: EditorView, pos: number): void =>
  void requestAnimationFrame(() => {
    const dom = view.nodeDOM(pos)
    const area = dom instanceof HTMLElement ? dom.querySelector("textarea") : null
    area?.focus()
  })

const SourceView = Extension.create<unknown, SourceStorage>({
  name: "quireSource",
  addStorage: () => ({ originals: new Map(), codec: null }),
  addCommands() {
    const codec = (): MarkdownCodec => (this.storage.codec ??= createMarkdownCodec(this.editor.schema))
    return {
      showSource:
        (pos) =>
        ({ state, dispatch, view }) => {
          const at = pos ?? blockAtSelection(state)?.pos
          if (at === undefined || !this.editor.isEditable) return false
          const node = state.doc.nodeAt(at)
          const $at = state.doc.resolve(at)
          // Only where a raw block may stand (not as a list item's first paragraph, not as a tab of tabs).
          if (!node || !$at.parent.canReplaceWith($at.index(), $at.index() + 1, state.schema.nodes.raw!)) return false
          if (node.type.name === "raw") {
            if (dispatch) focusSource(view, at)
            return true
          }
          // `state.tr` is the command's own transaction, which TipTap dispatches when the command returns.
          if (!openSource(state, codec(), this.storage.originals, at)) return false
          if (dispatch) focusSource(view, at)
          return true
        },
      closeSource:
        (pos, text, focus = false) =>
        ({ state, dispatch, view }) => {
          const tr = closeSource(state, codec(), this.storage.originals, pos, text)
          if (!tr) return false
          if (dispatch && focus) {
            tr.setSelection(TextSelection.near(tr.doc.resolve(Math.min(pos + 1, tr.doc.content.size))))
            requestAnimationFrame(() => view.focus())
          }
          return true
        }
    }
  },
  addKeyboardShortcuts() {
    return { "Mod-Alt-u": () => this.editor.commands.showSource() }
  }
})

/** The editor's root carries the site's page class; the site's stylesheet is linked once (as the space screen does). */
const SiteLook = Extension.create({
  name: "quireSiteLook",
  onCreate: linkRenderStylesheet,
  addProseMirrorPlugins: () => [new Plugin({ key: new PluginKey("quireSiteLook"), props: { attributes: { class: "markdown" } } })]
})

export const sourceExtensions = (): Array<AnyExtension> => [SourceView, SiteLook]
