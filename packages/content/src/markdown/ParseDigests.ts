/**
 * What each reader of a large page needs of one parsed piece (a digest): small, plain data that a
 * parse worker can send back, so that the mdast itself never crosses threads.
 */
import { type JsonBlock, pieceBlocks } from "./JsonDocument.ts"
import { parsePiece, type PieceLinks, pieceLinks, type SectionItem, sectionItems } from "./Markdown.ts"

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
  const piece = parsePiece(task.chunks[index]!, task.appendix, task.kind === "sections")
  const digest: Digests[DigestKind] = task.kind === "sections"
    ? sectionItems(piece.children)
    : task.kind === "links"
    ? pieceLinks(piece, task.lineOffsets[index]!)
    : pieceBlocks(piece.children)
  return digest as Digests[K]
}
