/**
 * What the sites handlers share to present their records: the share secret a caller proved, the
 * counters of the spaces shown, and the sections of a site for site spaces listed on their own.
 */
import { Effect } from "effect"
import type { SpaceAccess } from "@quire/content"
import type { Actor, Errors } from "@quire/kernel"
import { SpaceActivity } from "@quire/reviews"
import { ShareLinks, SiteStructure, type SiteStructureView } from "@quire/sites"
import { PublicUrl } from "../PublicUrl.ts"
import * as SitePresenters from "../SitePresenters.ts"

export interface ContextOptions {
  readonly siteId: string
  /** `shareKey` of the request: kept only when it is an active link of the site. */
  readonly shareKey?: string | undefined
  readonly spaces?: ReadonlyArray<SpaceAccess> | undefined
  /** Reads the site's structure for the sections of its site spaces. */
  readonly sectionsOf?: { readonly organizationId: string } | undefined
}

export const make = Effect.gen(function*() {
  const activity = yield* SpaceActivity
  const shareLinks = yield* ShareLinks
  const structure = yield* SiteStructure
  const urls = yield* PublicUrl

  const context = (
    options: ContextOptions
  ): Effect.Effect<SitePresenters.Context, Errors.NotFound, Actor.Actor> =>
    Effect.gen(function*() {
      const shareSecret = options.shareKey === undefined || options.shareKey === ""
        ? undefined
        : (yield* shareLinks.check(options.siteId, options.shareKey))
        ? options.shareKey
        : undefined
      const counters = yield* activity.counters((options.spaces ?? []).map((access) => access.space.id))
      const sections = options.sectionsOf === undefined
        ? undefined
        : SitePresenters.sectionsOf(yield* structure.structure(options.sectionsOf.organizationId, options.siteId))
      return { urls, shareSecret, counters, sections }
    })

  /** The context of a structure: its spaces' counters. */
  const ofStructure = (siteId: string, view: SiteStructureView, shareKey?: string) =>
    context({ siteId, shareKey, spaces: SitePresenters.spacesOf(view) })

  return { urls, context, ofStructure } as const
})
