/**
 * What each reader of a large page needs of one parsed piece (a digest): small, plain data that a
 * parse worker can send back, so that the mdast itself never crosses threads.
 */
import { parsePiece, type PieceLinks, pieceLinks, pieceSectionItems, type SectionItem } from "@quire/markdown"
import { htmlLinks } from "./Dom.ts"
import { type JsonBlock, pieceBlocks } from "./JsonDocument.ts"

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
  /** Lines of the document before each chunk. */
  readonly lineOffsets: ReadonlyArray<number>
}

/** The digest of the `index`th chunk of `task`. */
export const digestChunk = <K extends DigestKind>(task: DigestTask & { readonly kind: K }, index: number): Digests[K] => {
  const text = task.chunks[index]!
  const digest: Digests[DigestKind] = task.kind === "sections"
    ? pieceSectionItems(text, task.appendix)
    : task.kind === "links"
    ? pieceLinks(parsePiece(text, task.appendix), task.lineOffsets[index]!, htmlLinks)
    : pieceBlocks(parsePiece(text, task.appendix).children)
  return digest as Digests[K]
}
