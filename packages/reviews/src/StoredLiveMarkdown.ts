/**
 * Port: the markdown of a stored shared document, made from its Yjs state and updates with the
 * editor's codec. Reviews holds the bytes but not the codec (it is the editor's, in the server);
 * a merge asks this port for the markdown of edits acknowledged but not yet written to the page.
 * By default nothing is known: no markdown, nothing written (reviews' own tests, the worker).
 */
import { Context, Effect, Option } from "effect"
import type { UnreadableLiveDocument } from "./domain/LiveDocumentErrors.ts"

export interface StoredLiveMarkdownShape {
  /**
   * The markdown of the document `updates` (its state, then the updates since) make; none when not
   * known; UnreadableLiveDocument when the codec cannot read it.
   */
  readonly of: (updates: ReadonlyArray<Uint8Array>) => Effect.Effect<Option.Option<string>, UnreadableLiveDocument>
}

export const StoredLiveMarkdown = Context.Reference<StoredLiveMarkdownShape>("@quire/reviews/StoredLiveMarkdown", {
  defaultValue: () => ({ of: () => Effect.succeed(Option.none()) })
})
