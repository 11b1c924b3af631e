/**
 * The read-only port through which other packages read content's stored state: revisions by id,
 * the markdown of their pages and the search index of live spaces. They read it here rather than
 * through content's storage ports, which content alone writes.
 */
import { Context, Effect, Layer, Option } from "effect"
import { Errors } from "@quire/kernel"
import type { Revision } from "./domain/Revision.ts"
import { RevisionsRepo } from "./RevisionsRepo.ts"
import { SearchIndex, type SearchIndexShape } from "./SearchIndex.ts"

export interface PublishedContentShape {
  /** A stored revision of any space (no access check: callers check the space). */
  readonly revision: (revisionId: string) => Effect.Effect<Revision, Errors.NotFound>
  /** The markdown of the given document hashes (unknown hashes are absent from the map). */
  readonly documents: (hashes: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, string>>
  /** The pages of the given spaces' current revisions that match a query, best first. */
  readonly search: SearchIndexShape["search"]
}

export class PublishedContent extends Context.Service<PublishedContent, PublishedContentShape>()("@quire/content/PublishedContent") {
  /** Over content's RevisionsRepo and SearchIndex, whichever adapters are provided. */
  static readonly layer = Layer.effect(
    PublishedContent,
    Effect.gen(function*() {
      const revisions = yield* RevisionsRepo
      const index = yield* SearchIndex
      return PublishedContent.of({
        revision: (revisionId) =>
          Effect.flatMap(revisions.find(revisionId), Option.match({
            onNone: () => Effect.fail(new Errors.NotFound({ resource: "Revision", id: revisionId })),
            onSome: Effect.succeed
          })),
        documents: revisions.documents,
        search: index.search
      })
    })
  )
}
