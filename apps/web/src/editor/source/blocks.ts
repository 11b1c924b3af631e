/**
 * Showing a top-level block as its markdown source and reading that source back into blocks. The source stands
 * in the document as a `raw` node (its `sourceOf` names the block), so it is saved as written even while open.
 */
import type { Node as PMNode } from "@tiptap/pm/model"
import { NodeSelection, type EditorState, type Transaction } from "@tiptap/pm/state"
import { type MarkdownCodec, sameDocument, splitSlice } from "@quire/document"

/** The blocks shown as source, by id: the block as it was and the text it was shown as (closing unchanged puts it back). */
export type Originals = Map<string, { readonly node: PMNode; readonly text: string }>

/** The top-level block at the selection: its position and node. */
export const blockAtSelection = (state: EditorState): { pos: number; node: PMNode } | undefined => {
  const sel = state.selection
  if (sel instanceof NodeSelection && sel.$from.depth === 0) return { pos: sel.from, node: sel.node }
  if (sel.$from.depth < 1) return undefined
  return { pos: sel.$from.before(1), node: sel.$from.node(1) }
}

/** A block's markdown as the codec writes it (its kept slice when unchanged), without blank lines around it; lines end in "\n". */
export const blockText = (codec: MarkdownCodec, node: PMNode): string =>
  splitSlice(codec.serialize(codec.schema.nodes.doc!.create(null, [node]))).body.replace(/\r\n?/g, "\n")

let counter = 0

/** Replaces the block at `pos` by its source (outside the undo history: showing is not an edit). */
export const openSource = (state: EditorState, codec: MarkdownCodec, originals: Originals, pos: number): Transaction | undefined => {
  const node = state.doc.nodeAt(pos)
  if (!node || node.type.name === "raw") return undefined
  const text = blockText(codec, node)
  const id = `source-${++counter}`
  originals.set(id, { node, text })
  const raw = state.schema.nodes.raw!.create({ text, source: node.attrs.source ?? null, sourceOf: id })
  return state.tr.replaceWith(pos, pos + node.nodeSize, raw).setMeta("addToHistory", false)
}

const hasBlankEnd = (text: string): boolean => /\n[ \t]*\r?\n$/.test(text.replace(/\r(?!\n)/g, "\n"))

/**
 * Blocks read from `text` in place of the block whose kept slice was `source`: its blank lines before and after
 * are kept, so the lines around stay as they were. `notFirst` parses as a block after others (no frontmatter).
 * When the text would still run into the blocks after it (`following`; a list before indented lines), those are
 * read with it (`absorbed` of them), so the editor shows what the saved page will read as.
 */
export const reparse = (
  codec: MarkdownCodec,
  text: string,
  source: string | null,
  notFirst: boolean,
  following: ReadonlyArray<PMNode>
): { readonly nodes: Array<PMNode>; readonly absorbed: number } => {
  const next = following[0] ?? null
  const { lead, trail } = splitSlice(source ?? "")
  const eol = (source ?? "").includes("\r\n") ? "\r\n" : "\n"
  const body = text.replace(/\r\n?/g, "\n").replace(/\n+$/, "").replace(/\n/g, eol)
  let end = trail === "" && next !== null ? eol + eol : trail
  const parse = (markdown: string): Array<PMNode> => {
    const nodes: Array<PMNode> = []
    codec.parse(notFirst ? `${eol}${markdown}` : markdown).forEach((n) => void nodes.push(n))
    if (!notFirst) return nodes
    // The line break put before is no part of the first block.
    const first = nodes[0]!
    nodes[0] = first.type.create({ ...first.attrs, source: (first.attrs.source as string).slice(eol.length) }, first.content, first.marks)
    return nodes
  }
  const sources = following.map((n) => (typeof n.attrs.source === "string" ? n.attrs.source : null))
  const doc = (nodes: ReadonlyArray<PMNode>): PMNode => codec.schema.nodes.doc!.create(null, nodes)
  /** Whether the text and the first `k` blocks after it read otherwise together than apart (a list absorbing them, a setext underline). */
  const joins = (k: number): boolean => {
    const after = sources.slice(0, k)
    if (after.length !== k || after.some((x) => x === null)) return false
    return !sameDocument(doc(parse(lead + body + end + after.join(""))), doc([...parse(lead + body + end), ...following.slice(0, k)]))
  }
  // A block that would run into the next one (no blank line between) gets one.
  if (next !== null && !hasBlankEnd(end) && joins(1)) end += eol
  let absorbed = 0
  while (absorbed < following.length && joins(absorbed + 1)) absorbed++
  return { nodes: parse(lead + body + end + sources.slice(0, absorbed).join("")), absorbed }
}

/**
 * Reads the source at `pos` (a `raw` node) back into blocks. Unchanged, the block it stood for comes back as it
 * was; changed, the codec reads it (markdown it cannot model stays a `raw` block: nothing is dropped).
 */
export const closeSource = (state: EditorState, codec: MarkdownCodec, originals: Originals, pos: number, text: string): Transaction | undefined => {
  const node = state.doc.nodeAt(pos)
  if (!node || node.type.name !== "raw") return undefined
  const id = node.attrs.sourceOf as string | null
  const original = id === null ? undefined : originals.get(id)
  if (id !== null) originals.delete(id)
  if (original && text === original.text) return state.tr.replaceWith(pos, pos + node.nodeSize, original.node).setMeta("addToHistory", false)
  // A raw block left as it was stays; a source whose block is no longer kept (undone back to) is read again.
  if (id === null && text === node.attrs.text) return undefined
  const $pos = state.doc.resolve(pos)
  const following: Array<PMNode> = []
  for (let k = $pos.index() + 1; k < $pos.parent.childCount; k++) following.push($pos.parent.child(k))
  const { nodes, absorbed } = reparse(codec, text, node.attrs.source as string | null, !(pos === 0 && $pos.depth === 0), following)
  const end = following.slice(0, absorbed).reduce((to, n) => to + n.nodeSize, pos + node.nodeSize)
  return state.tr.replaceWith(pos, end, nodes)
}
