/**
 * The outgoing links of documents as written (`{ url, kind }`, HTML blocks' links included),
 * parsed by the parse workers (a large page) or a piece at a time on this thread, giving the event
 * loop back. What RevisionsRepo records when a document is first stored and the link graph reads.
 */
import { Effect } from "effect"
import { linkCollector } from "@quire/markdown"
import type { DocumentLinks } from "../RevisionsRepo.ts"
import { breather } from "./Breather.ts"
import { type DigestOptions, ParsePool } from "./ParsePool.ts"

/** The links of each document of `documents` (hash to markdown); `options` says what the caller knows of them all. */
export const documentLinksOf = (
  documents: ReadonlyMap<string, string>,
  options: DigestOptions = {}
): Effect.Effect<ReadonlyMap<string, DocumentLinks>, never, ParsePool> =>
  Effect.gen(function*() {
    const pool = yield* ParsePool
    const breathe = breather()
    const found = new Map<string, DocumentLinks>()
    for (const [hash, markdown] of documents) {
      const collector = linkCollector()
      for (const links of yield* pool.digestPieces(markdown, "links", breathe, options)) collector.addLinks(links)
      found.set(hash, collector.done().map(({ url, kind }) => ({ url, kind })))
    }
    return found
  })
