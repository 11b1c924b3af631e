/**
 * What each reader of a large page needs of one parsed piece (a digest): small, plain data that a
 * parse worker can send back, so that the mdast itself never crosses threads.
 */
import { type LineMap, linesFrom, parsePiece, type PieceLinks, pieceLinks, pieceSectionItems, type SectionItem } from "@quire/markdown"
import { htmlLinks } from "./Dom.ts"
import { type JsonBlock, pieceBlocks, plainBlocks } from "./JsonDocument.ts"

/** The digests, by kind. */
export interface Digests {
  readonly sections: ReadonlyArray<SectionItem>
  readonly links: PieceLinks
  readonly blocks: ReadonlyArray<JsonBlock>
}

export type DigestKind = keyof Digests

/** Pieces of one document to digest: their text, the appendix they are parsed with, their first lines. */
export interface DigestTask {
  readonly kind: DigestKind
  readonly appendix: string
  readonly chunks: ReadonlyArray<string>
  /** Where each chunk's lines lie in the document (links' positions are the document's); the chunks are the document's text when absent. */
  readonly lines?: ReadonlyArray<LineMap>
  /** The pieces passed a parse worker's budget: their digests are those of their plain text, without a parse. */
  readonly plain?: boolean
}

/** What a page over a parse worker's budget is shown with (see `ParsePool.ts`). */
export const budgetNote = "the time or memory budget of a parse"

/** The digest of the `index`th chunk of `task`. */
export const digestChunk = <K extends DigestKind>(task: DigestTask & { readonly kind: K }, index: number): Digests[K] => {
  const text = task.chunks[index]!
  if (task.plain === true) return plainDigest(task.kind, text) as Digests[K]
  const digest: Digests[DigestKind] = task.kind === "sections"
    ? pieceSectionItems(text, task.appendix)
    : task.kind === "links"
    ? pieceLinks(parsePiece(text, task.appendix), task.lines?.[index] ?? linesFrom(0), htmlLinks)
    : pieceBlocks(text)
  return digest as Digests[K]
}

/** The digest of a piece read as plain text: its words, no links, a note and a code block. */
const plainDigest = (kind: DigestKind, text: string): Digests[DigestKind] =>
  kind === "sections"
    ? [{ text }]
    : kind === "links"
    ? { found: [], definitions: [], used: [] }
    : plainBlocks(budgetNote, text)
