/** What the editor's plugins ask of the screen around them (the toolbar sets these once it is mounted). */
import type { Editor } from "@tiptap/core"
import { getMarkRange } from "@tiptap/core"
import { TextSelection } from "@tiptap/pm/state"
import { figureFor } from "./upload.ts"
import { insertNode } from "./insert.ts"
import type { Node as PMNode } from "@tiptap/pm/model"
import type { ReusableCatalog } from "./reusable.ts"
import type { AgentWriter } from "./writer.ts"

export interface CommandHooks {
  /** Opens the file chooser for an image (the menu's Image). */
  pickImage: () => void
  /** Opens the link picker (Mod-K). */
  openLinkPicker: () => void
  /** Uploads a pasted or dropped image; `pos` is where it was dropped. */
  upload: (file: File, pos: number | undefined) => void
  /** Copies images of other sites, just pasted, into the change request (their figures go in at the cursor). */
  importImages: (srcs: ReadonlyArray<string>) => void
  /** The change request's reusable contents (the editor sets it from its props); undefined: none offered. */
  reusable: ReusableCatalog | undefined
  /** The markdown of a document of blocks, as the page would hold them (the editor sets it once its codec is made). */
  markdownOf: (doc: PMNode) => string
  /** A document of blocks read from markdown, as the page's would be (the editor sets it). */
  parseMarkdown: (markdown: string) => PMNode | undefined
  /** The change request's agent, to write text (the editor sets it from its props); undefined: "Write with AI" is not offered. */
  writer: AgentWriter | undefined
  /** Opens "Write with AI" at the cursor (the slash menu's first item). */
  writeWithAI: () => void
}

export const createHooks = (): CommandHooks => ({
  pickImage: () => {},
  openLinkPicker: () => {},
  upload: () => {},
  importImages: () => {},
  reusable: undefined,
  markdownOf: () => "",
  parseMarkdown: () => undefined,
  writer: undefined,
  writeWithAI: () => {}
})

/** The range a link would cover: the selection, or the whole link the cursor is in; with that link's destination. */
export const linkRange = (editor: Editor): { from: number; to: number; href: string | undefined } => {
  const { selection, schema } = editor.state
  const type = schema.marks.link!
  const range = selection.empty ? getMarkRange(selection.$from, type) : undefined
  const from = range?.from ?? selection.from
  const to = range?.to ?? selection.to
  let href: string | undefined
  editor.state.doc.nodesBetween(from, Math.max(to, from + 1), (node) => {
    const mark = type.isInSet(node.marks)
    if (mark && href === undefined) href = mark.attrs.href as string
  })
  return { from, to, href: range || !selection.empty ? href : undefined }
}

/** Links `range` to `href`, or, when it is empty, inserts `text` linked there; the cursor goes after it. */
export const applyLink = (editor: Editor, range: { from: number; to: number }, href: string, text: string): void => {
  const type = editor.schema.marks.link!
  const mark = type.create({ href })
  const tr = editor.state.tr
  let end = range.to
  if (range.from === range.to) {
    tr.insert(range.from, editor.schema.text(text, [mark]))
    end = range.from + text.length
  } else tr.removeMark(range.from, range.to, type).addMark(range.from, range.to, mark)
  tr.setSelection(TextSelection.create(tr.doc, end)).removeStoredMark(type)
  editor.view.dispatch(tr)
  editor.view.focus()
}

export const removeLink = (editor: Editor, range: { from: number; to: number }): void => {
  editor.view.dispatch(editor.state.tr.removeMark(range.from, range.to, editor.schema.marks.link!))
  editor.view.focus()
}

/** Points every figure whose image is `from` at `to` instead (an image of another site, once copied), in one step. */
export const replaceFigureSrc = (editor: Editor, from: string, to: string): void => {
  if (editor.isDestroyed) return
  const tr = editor.state.tr
  editor.state.doc.descendants((node, pos) => {
    if (node.type.name !== "figure") return true
    const img = node.attrs.img as ReadonlyArray<{ readonly name: string; readonly value: string }>
    if (img.some((a) => a.name === "src" && a.value === from)) {
      tr.setNodeMarkup(pos, undefined, { ...node.attrs, img: img.map((a) => (a.name === "src" ? { ...a, value: to } : a)) })
    }
    return false
  })
  if (tr.docChanged) editor.view.dispatch(tr)
}

/** Inserts the figure of a stored image at `pos` (where it was dropped) or after the cursor's block. */
export const insertFigure = (editor: Editor, src: string, pos: number | undefined): boolean =>
  insertNode(editor, figureFor(editor.schema, src), pos)
