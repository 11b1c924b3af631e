/**
 * Reviews' StoredLiveMarkdown port on the collaboration server's codec: the markdown of a stored
 * shared document, for a merge to write the edits live editing acknowledged but did not write yet
 * (LiveDocuments' `writeUnwritten`). It needs no collaboration server running (CollabLazy may not
 * have loaded it): the codec and Yjs are imported on the first stored document read. A document
 * the codec cannot read (stored before live updates were checked) is UnreadableLiveDocument, which
 * a merge answers naming the page, never a defect.
 */
import { Effect, Layer, Option } from "effect"
import { StoredLiveMarkdown, UnreadableLiveDocument } from "@quire/reviews"
import type { CollabCodecShape } from "./CollabCodec.ts"
import type * as CollabDocuments from "./CollabDocuments.ts"

/** The port over the codec `codec` gives (imported when first needed). */
export const layerOf = (codec: () => Promise<CollabCodecShape>) =>
  Layer.sync(StoredLiveMarkdown, () => {
    let loaded: Promise<readonly [CollabCodecShape, typeof CollabDocuments]> | undefined
    const load = () => (loaded ??= Promise.all([codec(), import("./CollabDocuments.ts")]))
    return StoredLiveMarkdown.of({
      of: (updates) =>
        Effect.flatMap(Effect.promise(load), ([codec, documents]) =>
          Effect.try({
            try: () => {
              const doc = documents.docOf(updates)
              try {
                return Option.some(codec.toMarkdown(doc))
              } finally {
                doc.destroy()
              }
            },
            catch: (error) => new UnreadableLiveDocument({ reason: error instanceof Error ? error.message.slice(0, 200) : "the codec failed" })
          }))
    })
  })

/** The port over the editor's codec (`CollabCodec.editor`), as the server runs it. */
export const layer = layerOf(async () => (await import("./CollabCodec.ts")).CollabCodec.editor())
