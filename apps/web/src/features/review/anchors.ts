/**
 * Comments anchored on a block of a page, pure: the anchor (the top-level block's index and a
 * fingerprint of its text, the quoted text and its offset in the block) stored through the API's
 * comment `node` (GitBook's `PostCommentSchema.node`, an opaque string; Quire keeps up to 200
 * characters and answers it as `target.node.id`, beside `target.revision`, the revision the comment
 * was written on). Never a mark in the document. After the page changed, the anchor is found
 * again by looking for the quote nearest its old place; a comment whose quote is gone is reported
 * orphaned, and stays listed.
 */
import type { Node as PMNode } from "@tiptap/pm/model"

export interface Anchor {
  /** Index of the top-level block when the comment was written. */
  readonly block: number
  /** Fingerprint of that block's text then (tells a moved block from the one now at the index). */
  readonly fingerprint: string
  /** Offset of the quote in the block's text. */
  readonly offset: number
  /** Length of the selection (the stored quote may be a prefix of it, to fit the API's 200 characters). */
  readonly length: number
  readonly quote: string
}

/** The most the API stores in a comment's `node`. */
export const maxNodeLength = 200
const PREFIX = "qa1:"

/** A short, stable fingerprint of a text (FNV-1a, base 36). */
export const fingerprint = (text: string): string => {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h.toString(36)
}

/** The text of a block as anchors count it: its text nodes in order (an atom's `text` attribute, such as frontmatter or raw source). */
export const blockText = (block: PMNode): string => {
  if (block.isAtom) return typeof block.attrs.text === "string" ? block.attrs.text : ""
  let text = ""
  block.descendants((n) => {
    if (n.isText) text += n.text
  })
  return text
}

/** The anchor of a selection of `length` characters at `offset` in top-level block `block` of `doc`. */
export const anchorAt = (doc: PMNode, block: number, offset: number, length: number): Anchor => {
  const text = blockText(doc.child(block))
  const from = Math.max(0, Math.min(offset, text.length))
  const to = Math.max(from, Math.min(from + length, text.length))
  return { block, fingerprint: fingerprint(text), offset: from, length: to - from, quote: text.slice(from, to) }
}

/** The anchor as the comment's `node` (at most 200 characters: the quote is cut, never the numbers). */
export const encodeAnchor = (anchor: Anchor): string => {
  const head = `${PREFIX}${anchor.block}:${anchor.fingerprint}:${anchor.offset}:${anchor.length}:`
  let quote = ""
  for (const ch of anchor.quote) {
    const piece = encodeURIComponent(ch)
    if (head.length + quote.length + piece.length > maxNodeLength) break
    quote += piece
  }
  return head + quote
}

/** The anchor a comment's `node` holds, or undefined for a node that is not one (GitBook's own node ids, or none). */
export const decodeAnchor = (node: string | undefined): Anchor | undefined => {
  if (node === undefined || !node.startsWith(PREFIX)) return undefined
  const m = /^(\d+):([0-9a-z]+):(\d+):(\d+):(.*)$/s.exec(node.slice(PREFIX.length))
  if (!m) return undefined
  let quote: string
  try {
    quote = decodeURIComponent(m[5]!)
  } catch {
    return undefined
  }
  return { block: Number(m[1]), fingerprint: m[2]!, offset: Number(m[3]), length: Number(m[4]), quote }
}

/** The payload of `postCommentInChangeRequest` (or `postComment`) for a comment on a selection. */
export const commentPayload = (page: string, anchor: Anchor, markdown: string) => ({
  body: { markdown },
  page,
  node: encodeAnchor(anchor)
})

export type Placement =
  | { readonly status: "anchored"; readonly block: number; readonly from: number; readonly to: number; readonly moved: boolean }
  | { readonly status: "orphaned"; readonly anchor: Anchor }

/**
 * Where the anchor is in `doc` now: where it was when the block there still has the quote at the
 * old offset; else in the block with the same text (it moved), nearest the old index; else the
 * occurrence of the quote nearest the old place (by block, then by offset); orphaned when the
 * quote is nowhere (an empty quote keeps the block at its index). A comment on a whole block quotes the whole block (`anchorAt(doc, i, 0, Infinity)`).
 */
export const reanchor = (doc: PMNode, anchor: Anchor): Placement => {
  const texts: Array<string> = []
  doc.forEach((block) => void texts.push(blockText(block)))
  const span = (from: number, text: string) => ({ from, to: Math.min(text.length, from + Math.max(anchor.length, anchor.quote.length)) })
  const has = (text: string, at: number) => text.startsWith(anchor.quote, at) && at <= text.length
  const same = texts[anchor.block]
  if (same !== undefined && has(same, anchor.offset) && (anchor.quote !== "" || fingerprint(same) === anchor.fingerprint)) {
    return { status: "anchored", block: anchor.block, ...span(anchor.offset, same), moved: false }
  }
  let best: { block: number; from: number; score: [number, number, number] } | undefined
  const consider = (block: number, from: number, score: [number, number, number]) => {
    if (!best || score[0] < best.score[0] || (score[0] === best.score[0] && (score[1] < best.score[1] || (score[1] === best.score[1] && score[2] < best.score[2])))) {
      best = { block, from, score }
    }
  }
  texts.forEach((text, block) => {
    const distance = Math.abs(block - anchor.block)
    if (fingerprint(text) === anchor.fingerprint && has(text, anchor.offset)) consider(block, anchor.offset, [0, distance, 0])
    if (anchor.quote === "") return
    for (let at = text.indexOf(anchor.quote); at >= 0; at = text.indexOf(anchor.quote, at + 1)) consider(block, at, [1, distance, Math.abs(at - anchor.offset)])
  })
  const found = best as { block: number; from: number } | undefined
  if (!found && anchor.quote === "" && texts.length > 0) {
    // Nothing quoted: the block now at its index (or the last one), at the old offset.
    const block = Math.min(anchor.block, texts.length - 1)
    const from = Math.min(anchor.offset, texts[block]!.length)
    return { status: "anchored", block, from, to: from, moved: true }
  }
  return found ? { status: "anchored", block: found.block, ...span(found.from, texts[found.block]!), moved: true } : { status: "orphaned", anchor }
}

/** ProseMirror positions of characters [from, to) of top-level block `block`'s text (an atom: the whole block). */
export const positionsOf = (doc: PMNode, block: number, from: number, to: number): { from: number; to: number } => {
  let start = 0
  for (let i = 0; i < block; i++) start += doc.child(i).nodeSize
  const node = doc.child(block)
  if (node.isAtom) return { from: start, to: start + node.nodeSize }
  let seen = 0
  let a = -1
  let b = -1
  node.descendants((n, pos) => {
    if (!n.isText) return true
    const len = n.text!.length
    if (a < 0 && from <= seen + len) a = start + 1 + pos + (from - seen)
    if (b < 0 && to <= seen + len) b = start + 1 + pos + (to - seen)
    seen += len
    return false
  })
  const end = start + node.nodeSize - 1
  return { from: a < 0 ? end : a, to: b < 0 ? end : b }
}

/** A comment as the listing needs it: its id and its `target.node.id`. */
export interface CommentTarget {
  readonly id: string
  readonly target: { readonly node?: { readonly id: string } | undefined }
}

export type AnchoredComment<C> =
  | { readonly comment: C; readonly status: "anchored"; readonly block: number; readonly from: number; readonly to: number; readonly moved: boolean }
  | { readonly comment: C; readonly status: "orphaned"; readonly quote: string }
  | { readonly comment: C; readonly status: "page" }

/** Every comment of a page placed in `doc`: on its block, orphaned (its quote is gone) or on the page (no anchor). None is dropped. */
export const placeComments = <C extends CommentTarget>(doc: PMNode, comments: ReadonlyArray<C>): Array<AnchoredComment<C>> =>
  comments.map((comment): AnchoredComment<C> => {
    const anchor = decodeAnchor(comment.target.node?.id)
    if (!anchor) return { comment, status: "page" }
    const placed = reanchor(doc, anchor)
    return placed.status === "orphaned" ? { comment, status: "orphaned", quote: anchor.quote } : { comment, ...placed }
  })
