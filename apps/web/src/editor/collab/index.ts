/**
 * Live editing in the editor: TipTap's Collaboration extension binding the page to the shared
 * document's `default` fragment (the one the server reads and writes, docs/web.md), with its own
 * undo (only one's own changes are undone), and the carets and selections of the others in their
 * colour with their name, drawn by `@tiptap/y-tiptap`'s cursor plugin from the provider's awareness.
 * The colours are classes (`collab-colour-<n>`, ui/collab-colours.css): the app's CSP allows no inline style.
 */
import { Extension, type AnyExtension } from "@tiptap/core"
import Collaboration from "@tiptap/extension-collaboration"
import { yCursorPlugin } from "@tiptap/y-tiptap"
import type * as Y from "yjs"
import type { HocuspocusProvider } from "@hocuspocus/provider"

type Awareness = NonNullable<HocuspocusProvider["awareness"]>

/** The fragment of the shared document that holds the page (TipTap's default, and the server's). */
export const collabField = "default"

/** Who a person is to the others: their id, their name and the index of their caret colour. */
export interface CollabUser {
  readonly id: string
  readonly name: string
  readonly colour: number
}

export interface CollabBinding {
  readonly document: Y.Doc
  /** The provider's awareness: carets and names travel in it. */
  readonly awareness: Awareness
  readonly user: CollabUser
}

/** Hex colours of the caret palette, for other clients of the document that read `user.color`. */
const hexColours = ["#d1495b", "#2a7ab0", "#2e8b57", "#a05fc7", "#c9731e", "#0f8b8d", "#b8487d", "#6b7a1f"]

const colourOf = (user: { readonly colour?: unknown; readonly name?: unknown }): number =>
  typeof user.colour === "number" && Number.isInteger(user.colour) ? Math.abs(user.colour) % hexColours.length
    : [...String(user.name ?? "")].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 0) % hexColours.length

const caret = (user: { readonly name?: unknown; readonly colour?: unknown }): HTMLElement => {
  const el = document.createElement("span")
  el.className = `collab-caret collab-colour-${colourOf(user)}`
  // Not read out as part of the text being edited.
  el.setAttribute("aria-hidden", "true")
  const label = document.createElement("span")
  label.className = "collab-caret-label"
  label.textContent = typeof user.name === "string" && user.name !== "" ? user.name : "Someone"
  // Word joiners keep the caret from breaking the line around it.
  el.append("\u2060", label, "\u2060")
  return el
}

/** The others' carets and selections, and this person's name and colour in the awareness. */
const CollaborationCarets = Extension.create<{ awareness: Awareness | null; user: CollabUser | null }>({
  name: "quireCollaborationCarets",
  addOptions: () => ({ awareness: null, user: null }),
  addProseMirrorPlugins() {
    const { awareness, user } = this.options
    if (awareness === null || user === null) return []
    awareness.setLocalStateField("user", { name: user.name, colour: user.colour, color: hexColours[user.colour % hexColours.length] })
    return [yCursorPlugin(awareness, {
      cursorBuilder: caret,
      selectionBuilder: (u: { readonly name?: unknown; readonly colour?: unknown }) => ({ class: `collab-selection collab-colour-${colourOf(u)}` })
    })]
  }
})

/** The extensions that bind an editor to a shared document. */
export const collaborationExtensions = (binding: CollabBinding): Array<AnyExtension> => [
  Collaboration.configure({ document: binding.document, field: collabField }),
  CollaborationCarets.configure({ awareness: binding.awareness, user: binding.user })
]
