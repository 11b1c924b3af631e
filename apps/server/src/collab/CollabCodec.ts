/**
 * The conversion between a page's markdown and its shared Yjs document: the editor's codec, so
 * that what the server writes back is byte for byte what the editor would have saved.
 */
import { Context, Layer } from "effect"
import type * as Y from "yjs"

export interface CollabCodecShape {
  /** A Yjs update that, applied to an empty document, gives the shared document of `markdown`. */
  readonly fromMarkdown: (markdown: string) => Uint8Array
  /** The markdown of the shared document, as the editor would save it. */
  readonly toMarkdown: (document: Y.Doc) => string
}

export class CollabCodec extends Context.Service<CollabCodec, CollabCodecShape>()("@quire/server/CollabCodec") {
  /**
   * Until the editor's codec (`@quire/document`) is wired here, live editing refuses to open a
   * document rather than store one the editor cannot read: every conversion throws.
   */
  static readonly layerUnwired = Layer.succeed(
    CollabCodec,
    CollabCodec.of({
      fromMarkdown: () => {
        throw new Error("Live editing is not available yet: the editor's codec is not wired into the server")
      },
      toMarkdown: () => {
        throw new Error("Live editing is not available yet: the editor's codec is not wired into the server")
      }
    })
  )
}
