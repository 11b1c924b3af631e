/**
 * Reusable content in the editor: the change request's reusable contents as slash-menu items (each
 * inserts an `{% include "/reusable-content/<id>" %}` block), and the selected blocks turned into a
 * new reusable content that an include of it replaces. No DOM here.
 */
import type { Editor } from "@tiptap/core"
import type { Node as PMNode } from "@tiptap/pm/model"
import { NodeSelection } from "@tiptap/pm/state"
import type { InsertItem, JsonNode } from "./items.ts"

export interface ReusableSummary {
  readonly id: string
  readonly title: string
}

/** The change request's reusable contents, and a way to create one; without it the editor offers neither. */
export interface ReusableCatalog {
  readonly list: () => Promise<ReadonlyArray<ReusableSummary>>
  readonly create: (title: string, markdown: string) => Promise<ReusableSummary>
  /** Calls `listener` when the list changed elsewhere (renamed or deleted); returns how to stop. */
  readonly onChange?: (listener: () => void) => () => void
}

/** The include block of a reusable content, by id (GitBook's own form of reference). */
export const includeOf = (id: string): JsonNode => ({ type: "include", attrs: { params: [{ key: null, value: `/reusable-content/${id}`, quote: "\"" }] } })

/** A slash-menu item for each reusable content. */
export const reusableItems = (contents: ReadonlyArray<ReusableSummary>): ReadonlyArray<InsertItem> =>
  contents.map((content) => ({
    id: `reusable-${content.id}`,
    title: `Reusable: ${content.title}`,
    description: "Reusable content, kept once and shown on every page that includes it",
    keywords: ["reusable", "include", "snippet", "shared"],
    template: includeOf(content.id)
  }))

/** The top-level blocks the selection touches: their range and a document of them alone (undefined: nothing selected). */
export const selectedBlocks = (editor: Editor): { readonly from: number; readonly to: number; readonly doc: PMNode } | undefined => {
  const { selection, doc } = editor.state
  if (selection.empty && !(selection instanceof NodeSelection)) return undefined
  const $from = doc.resolve(selection.from)
  const $to = doc.resolve(selection.to)
  const from = $from.depth === 0 ? selection.from : $from.before(1)
  const to = $to.depth === 0 ? selection.to : $to.after(1)
  if (to <= from) return undefined
  const blocks = doc.slice(from, to).content
  if (blocks.childCount === 0) return undefined
  return { from, to, doc: editor.schema.topNodeType.create(null, blocks) }
}

/** Replaces the blocks `from`–`to` with the include of reusable content `id` (one undoable step). */
export const replaceWithInclude = (editor: Editor, range: { readonly from: number; readonly to: number }, id: string): void => {
  const node = editor.schema.nodeFromJSON(includeOf(id))
  const tr = editor.state.tr.replaceWith(range.from, range.to, node)
  tr.setSelection(NodeSelection.create(tr.doc, range.from))
  editor.view.dispatch(tr)
  editor.view.focus()
}
