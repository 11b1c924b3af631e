/**
 * Reviews' StoredLiveMarkdown port on the collaboration server's codec: the markdown of a stored
 * shared document, for a merge to write the edits live editing acknowledged but did not write yet
 * (LiveDocuments' `writeUnwritten`). It needs no collaboration server running (CollabLazy may not
 * have loaded it): the codec and Yjs are imported on the first stored document read.
 */
import { Effect, Layer, Option } from "effect"
import { StoredLiveMarkdown } from "@quire/reviews"
import type { CollabCodecShape } from "./CollabCodec.ts"
import type * as CollabDocuments from "./CollabDocuments.ts"

/** The port over the codec `codec` gives (imported when first needed). */
export const layerOf = (codec: () => Promise<CollabCodecShape>) =>
  Layer.sync(StoredLiveMarkdown, () => {
    let loaded: Promise<readonly [CollabCodecShape, typeof CollabDocuments]> | undefined
    const load = () => (loaded ??= Promise.all([codec(), import("./CollabDocuments.ts")]))
    return StoredLiveMarkdown.of({
      of: (updates) =>
        Effect.map(Effect.promise(load), ([codec, documents]) => {
          const doc = documents.docOf(updates)
          try {
            return Option.some(codec.toMarkdown(doc))
          } finally {
            doc.destroy()
          }
        })
    })
  })

/** The port over the editor's codec (`CollabCodec.editor`), as the server runs it. */
export const layer = layerOf(async () => (await import("./CollabCodec.ts")).CollabCodec.editor())
