/**
 * The outgoing links of documents as written (`{ url, kind }`, HTML blocks' links included),
 * parsed by the parse workers (a large page) or a piece at a time on this thread, giving the event
 * loop back. What RevisionsRepo records when a document is first stored and the link graph reads.
 */
import { Effect } from "effect"
import { linkCollector } from "@quire/markdown"
import type { DocumentLinks } from "../RevisionsRepo.ts"
import { breather } from "./Breather.ts"
import { ParsePool } from "./ParsePool.ts"

/** The links of each document of `documents` (hash to markdown). */
export const documentLinksOf = (documents: ReadonlyMap<string, string>): Effect.Effect<ReadonlyMap<string, DocumentLinks>, never, ParsePool> =>
  Effect.gen(function*() {
    const pool = yield* ParsePool
    const breathe = breather()
    const found = new Map<string, DocumentLinks>()
    for (const [hash, markdown] of documents) {
      const collector = linkCollector()
      for (const links of yield* pool.digestPieces(markdown, "links", breathe)) collector.addLinks(links)
      found.set(hash, collector.done().map(({ url, kind }) => ({ url, kind })))
    }
    return found
  })
