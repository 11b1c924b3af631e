/**
 * "Write with AI" and "Improve": the agent of the change request writes text for the page (the
 * server's `composeInChangeRequest`, with the person's rights), which the person sees and then
 * inserts, accepts or discards. Where the text goes is kept as a Yjs relative position in live
 * editing, so that what others type meanwhile does not move it (a ProseMirror position otherwise).
 * No DOM here.
 */
import type { Editor } from "@tiptap/core"
import type { Node as PMNode, Schema } from "@tiptap/pm/model"
import { TextSelection } from "@tiptap/pm/state"
import { absolutePositionToRelativePosition, relativePositionToAbsolutePosition, ySyncPluginKey } from "@tiptap/y-tiptap"
import type * as Y from "yjs"

/** What the screen gives the editor to ask the agent: the text it writes, or a rejection whose message says why (no model: what to set). */
export interface AgentWriter {
  readonly compose: (input: { readonly prompt: string; readonly selection?: string | undefined; readonly page: string }) => Promise<string>
}

/** A place in the page that follows what others type: a range by Yjs relative positions, or by positions. */
export interface Place {
  readonly resolve: () => { readonly from: number; readonly to: number } | undefined
}

interface YSync {
  readonly doc: Y.Doc
  readonly type: Y.XmlFragment
  readonly binding: { readonly mapping: Map<unknown, unknown> }
}

/** Keeps the range `from`-`to` of `editor`'s document. */
export const placeOf = (editor: Editor, from: number, to: number): Place => {
  const sync = ySyncPluginKey.getState(editor.state) as YSync | undefined
  if (sync === undefined || sync.binding === undefined) return { resolve: () => ({ from, to }) }
  // y-tiptap's types name its mapping's own types; these are the binding's.
  const mapping = sync.binding.mapping as never
  const start = absolutePositionToRelativePosition(from, sync.type, mapping)
  const end = absolutePositionToRelativePosition(to, sync.type, mapping)
  return {
    resolve: () => {
      const now = ySyncPluginKey.getState(editor.state) as YSync | undefined
      if (now === undefined) return undefined
      const a = relativePositionToAbsolutePosition(now.doc, now.type, start, now.binding.mapping as never)
      const b = relativePositionToAbsolutePosition(now.doc, now.type, end, now.binding.mapping as never)
      return a === null || b === null ? undefined : { from: a, to: Math.max(a, b) }
    }
  }
}

/** The blocks of `markdown` as the editor reads them: one paragraph's inline content goes inline. */
export const contentOf = (schema: Schema, parsed: PMNode) =>
  parsed.childCount === 1 && parsed.firstChild!.type === schema.nodes.paragraph ? parsed.firstChild!.content : parsed.content

/** Puts `parsed` (the agent's markdown read by the editor) in place of `place`; false when the place is gone. */
export const putAt = (editor: Editor, place: Place, parsed: PMNode): boolean => {
  const range = place.resolve()
  if (range === undefined) return false
  const { state } = editor
  const tr = state.tr.replaceWith(range.from, range.to, contentOf(state.schema, parsed))
  const end = Math.min(tr.mapping.map(range.to, 1), tr.doc.content.size)
  tr.setSelection(TextSelection.near(tr.doc.resolve(end), -1))
  editor.view.dispatch(tr.scrollIntoView())
  editor.view.focus()
  return true
}
