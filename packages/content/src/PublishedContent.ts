/**
 * The read-only port through which other packages read content's stored state: revisions by id,
 * the markdown of their pages and the search index of live spaces. They read it here rather than
 * through content's storage ports, which content alone writes.
 */
import { Context, Effect, Layer, Option } from "effect"
import { Errors } from "@quire/kernel"
import type { PageNode, Revision } from "./domain/Revision.ts"
import { RevisionsRepo } from "./RevisionsRepo.ts"
import { ParsePool } from "./markdown/ParsePool.ts"
import { indexedPage, indexUpdate } from "./Search.ts"
import { type IndexedPage, overlayHits, SearchIndex, type SearchHits, type SearchIndexShape, type SearchQuery } from "./SearchIndex.ts"
import { SpacesRepo } from "./SpacesRepo.ts"

export interface PublishedContentShape {
  /** A stored revision of any space (no access check: callers check the space). */
  readonly revision: (revisionId: string) => Effect.Effect<Revision, Errors.NotFound>
  /** The markdown of the given document hashes (unknown hashes are absent from the map). */
  readonly documents: (hashes: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, string>>
  /** The pages of the given spaces' current revisions that match a query, best first. */
  readonly search: SearchIndexShape["search"]
  /**
   * As `search`, with the spaces of `at` read at the revision it gives (a change request's preview):
   * the pages that revision changes from the space's current one are searched in it, the others in the index.
   */
  readonly searchAt: (query: SearchQuery, at: ReadonlyMap<string, string>) => Effect.Effect<SearchHits>
  /**
   * `query` over `pages` alone, each read from the markdown given rather than the index, ranked
   * as the index ranks: a published site searches a reader's own text of pages whose adaptive
   * content it shows them in part.
   */
  readonly searchPages: (
    query: SearchQuery,
    pages: ReadonlyArray<{ readonly spaceId: string; readonly page: PageNode; readonly path: string; readonly markdown: string }>
  ) => Effect.Effect<SearchHits>
}

export class PublishedContent extends Context.Service<PublishedContent, PublishedContentShape>()("@quire/content/PublishedContent") {
  /** Over content's RevisionsRepo, SpacesRepo and SearchIndex, whichever adapters are provided, and the ParsePool. */
  static readonly layer = Layer.effect(
    PublishedContent,
    Effect.gen(function*() {
      const revisions = yield* RevisionsRepo
      const index = yield* SearchIndex
      const spaces = yield* SpacesRepo
      const pool = yield* ParsePool

      const searchAt = Effect.fn("PublishedContent.searchAt")(function*(query: SearchQuery, at: ReadonlyMap<string, string>) {
        const overlay: Array<{ readonly spaceId: string; readonly page: IndexedPage }> = []
        const hidden = new Map<string, ReadonlySet<string>>()
        for (const [spaceId, revisionId] of at) {
          if (!query.spaceIds.includes(spaceId)) continue
          const space = yield* spaces.find(spaceId)
          if (Option.isNone(space) || space.value.revisionId === revisionId) continue
          const [main, shown] = [yield* revisions.find(space.value.revisionId), yield* revisions.find(revisionId)]
          if (Option.isNone(shown)) continue
          const update = yield* indexUpdate(revisions, Option.getOrUndefined(main), shown.value).pipe(Effect.provideService(ParsePool, pool))
          hidden.set(spaceId, new Set([...update.pages.map((page) => page.pageId), ...update.removed]))
          overlay.push(...update.pages.map((page) => ({ spaceId, page })))
        }
        if (hidden.size === 0) return yield* index.search(query)
        // Enough of the index's hits that those the overlay hides still leave a full page.
        const hiddenCount = [...hidden.values()].reduce((n, ids) => n + ids.size, 0)
        const indexed = yield* index.search({ ...query, offset: 0, limit: query.offset + query.limit + hiddenCount })
        return overlayHits(indexed, overlay, hidden, query)
      })

      const searchPages = Effect.fn("PublishedContent.searchPages")(function*(
        query: SearchQuery,
        pages: ReadonlyArray<{ readonly spaceId: string; readonly page: PageNode; readonly path: string; readonly markdown: string }>
      ) {
        const overlay = yield* Effect.forEach(pages, ({ spaceId, page, path, markdown }) =>
          Effect.map(indexedPage(page, path, markdown), (indexed) => ({ spaceId, page: indexed }))).pipe(Effect.provideService(ParsePool, pool))
        return overlayHits({ pages: [], more: false }, overlay, new Map(), query)
      })

      return PublishedContent.of({
        revision: (revisionId) =>
          Effect.flatMap(revisions.find(revisionId), Option.match({
            onNone: () => Effect.fail(new Errors.NotFound({ resource: "Revision", id: revisionId })),
            onSome: Effect.succeed
          })),
        documents: revisions.documents,
        search: index.search,
        searchAt,
        searchPages
      })
    })
  )
}
