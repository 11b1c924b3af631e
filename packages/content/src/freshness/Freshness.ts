/**
 * The freshness of a space's pages, and of every space of an organization the caller may read:
 * each document page of the current content with its owners, its last verification and when it is
 * due (PageFreshness.ts), oldest edit first among equals, and how many internal links are broken.
 */
import { Context, Effect, Layer } from "effect"
import type { Actor, Errors, Pagination } from "@quire/kernel"
import { ContentLinks } from "../ContentLinks.ts"
import type { SpaceAccess } from "../ContentAccess.ts"
import { SpaceContent } from "../SpaceContent.ts"
import { Spaces } from "../Spaces.ts"
import { type PageFreshnessEntry, revisionFreshness } from "./PageFreshness.ts"

export interface SpaceFreshness {
  readonly access: SpaceAccess
  readonly revisionId: string
  readonly pages: ReadonlyArray<PageFreshnessEntry>
  /** Links of the current content whose page or file is missing. */
  readonly brokenLinks: number
}

/** How many spaces of an organization are read at most. */
export const organizationSpaceLimit = 200

export interface FreshnessShape {
  /** The space's pages on `today` (`YYYY-MM-DD`); NotFound when the caller may not read it. */
  readonly space: (spaceId: string, today: string, appBaseUrl: string) => Effect.Effect<SpaceFreshness, Errors.NotFound, Actor.Actor>
  /** Every space of the organization the caller may read (at most `organizationSpaceLimit`). */
  readonly organization: (
    organizationId: string,
    today: string,
    appBaseUrl: string
  ) => Effect.Effect<ReadonlyArray<SpaceFreshness>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
}

export class Freshness extends Context.Service<Freshness, FreshnessShape>()("@quire/content/Freshness") {
  static readonly layer = Layer.effect(
    Freshness,
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const spaces = yield* Spaces
      const links = yield* ContentLinks

      const ofContent = Effect.fnUntraced(function*(access: SpaceAccess, revision: Parameters<typeof revisionFreshness>[0], today: string, appBaseUrl: string) {
        const graph = yield* Effect.orElseSucceed(links.graph(revision.id, appBaseUrl), () => undefined)
        return { access, revisionId: revision.id, pages: revisionFreshness(revision, today), brokenLinks: graph?.broken ?? 0 } satisfies SpaceFreshness
      })

      const space: FreshnessShape["space"] = (spaceId, today, appBaseUrl) =>
        Effect.flatMap(content.revision(spaceId), ({ access, revision }) => ofContent(access, revision, today, appBaseUrl))

      const organization: FreshnessShape["organization"] = Effect.fnUntraced(function*(organizationId, today, appBaseUrl) {
        const out: Array<SpaceFreshness> = []
        let cursor: string | undefined
        do {
          const page: Pagination.Page<SpaceAccess> = yield* spaces.list(organizationId, { limit: 100, ...(cursor === undefined ? {} : { page: cursor }) })
          for (const access of page.items) {
            if (out.length >= organizationSpaceLimit) break
            // A space removed between the listing and its reading is left out.
            const found = yield* Effect.option(content.revision(access.space.id))
            if (found._tag === "Some") out.push(yield* ofContent(found.value.access, found.value.revision, today, appBaseUrl))
          }
          cursor = page.next
        } while (cursor !== undefined && out.length < organizationSpaceLimit)
        return out
      })

      return { space, organization }
    })
  )
}

/** Today in UTC, `YYYY-MM-DD`. */
export const todayOf = (now: Date): string => now.toISOString().slice(0, 10)
