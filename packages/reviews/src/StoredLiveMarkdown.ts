/**
 * Port: the markdown of a stored shared document, made from its Yjs state and updates with the
 * editor's codec. Reviews holds the bytes but not the codec (it is the editor's, in the server);
 * a merge asks this port for the markdown of edits acknowledged but not yet written to the page.
 * Required, so that no composition merges without the edits live editing holds: the server and
 * the worker provide `@quire/live`'s CollabStoredMarkdown (the editor's codec).
 */
import { Context, Effect, Layer, Option } from "effect"
import type { UnreadableLiveDocument } from "./domain/LiveDocumentErrors.ts"

export interface StoredLiveMarkdownShape {
  /**
   * The markdown of the document `updates` (its state, then the updates since) make; none when not
   * known; UnreadableLiveDocument when the codec cannot read it.
   */
  readonly of: (updates: ReadonlyArray<Uint8Array>) => Effect.Effect<Option.Option<string>, UnreadableLiveDocument>
}

export class StoredLiveMarkdown extends Context.Service<StoredLiveMarkdown, StoredLiveMarkdownShape>()("@quire/reviews/StoredLiveMarkdown") {
  /** Knows no stored document: reviews' own tests, which store none through a codec. */
  static readonly layerNone = Layer.succeed(StoredLiveMarkdown, StoredLiveMarkdown.of({ of: () => Effect.succeed(Option.none()) }))
}
