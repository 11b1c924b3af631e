/**
 * What the sites handlers share to present their records: the share secret a caller proved, the
 * counters of the spaces shown, and the sections of a site for site spaces listed on their own.
 */
import { Effect } from "effect"
import type { SpaceAccess } from "@quire/content"
import type { Actor, Errors } from "@quire/kernel"
import { SpaceActivity } from "@quire/reviews"
import { publishedUrl, ShareLinks, Sites, SiteStructure, type SiteStructureView } from "@quire/sites"
import * as Presenters from "../Presenters.ts"
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

  /** The share secret of a request: `shareKey` when it is an active link of the site. */
  const shareSecretOf = (siteId: string, shareKey: string | undefined) =>
    shareKey === undefined || shareKey === ""
      ? Effect.succeed(undefined)
      : Effect.map(shareLinks.check(siteId, shareKey), (active) => active ? shareKey : undefined)

  const context = (
    options: ContextOptions
  ): Effect.Effect<SitePresenters.Context, Errors.NotFound, Actor.Actor> =>
    Effect.gen(function*() {
      const shareSecret = yield* shareSecretOf(options.siteId, options.shareKey)
      const counters = yield* activity.counters((options.spaces ?? []).map((access) => access.space.id))
      const sections = options.sectionsOf === undefined
        ? undefined
        : SitePresenters.sectionsOf(yield* structure.structure(options.sectionsOf.organizationId, options.siteId))
      return { urls, shareSecret, counters, sections }
    })

  /** The context of a structure: its spaces' counters. */
  const ofStructure = (siteId: string, view: SiteStructureView, shareKey?: string) =>
    context({ siteId, shareKey, spaces: SitePresenters.spacesOf(view) })

  /**
   * Presents views of one site with the context of what they show (`optionsOf`): one view after a
   * write, or a page of a listing (which may carry the request's `shareKey`).
   */
  const presenter = <V, B>(
    optionsOf: (views: ReadonlyArray<V>) => Omit<ContextOptions, "siteId" | "shareKey">,
    present: (ctx: SitePresenters.Context, view: V) => B
  ) => ({
    one: (siteId: string) => (view: V) => Effect.map(context({ ...optionsOf([view]), siteId }), (ctx) => present(ctx, view)),
    page: (siteId: string, page: { readonly items: ReadonlyArray<V>; readonly next?: string | undefined }, shareKey?: string) =>
      Effect.map(context({ ...optionsOf(page.items), siteId, shareKey }), (ctx) => Presenters.list(page, (view) => present(ctx, view)))
  })

  return { urls, context, ofStructure, shareSecretOf, presenter } as const
})

/**
 * `urls.published` of a space: the URL of its first site space in the oldest published site of its
 * organization that holds it (undefined when none, or when the caller cannot read the organization's
 * sites). A share-link site's URL carries `?share=` only with a valid `shareKey`.
 */
export const spacePublishedUrl = Effect.gen(function*() {
  const sites = yield* Sites
  const structure = yield* SiteStructure
  const contexts = yield* make
  return (organizationId: string, spaceId: string, shareKey: string | undefined): Effect.Effect<string | undefined, never, Actor.Actor> =>
    Effect.gen(function*() {
      const found = yield* sites.list(organizationId, { spaceId, published: true }, { limit: 1 })
      const site = found.items[0]?.site
      if (site === undefined) return undefined
      const view = yield* structure.structure(organizationId, site.id)
      const options = { publicUrl: contexts.urls.base, shareSecret: yield* contexts.shareSecretOf(site.id, shareKey) }
      if (view.type === "siteSpaces") {
        const siteSpace = view.structure.find((s) => s.space.space.id === spaceId)
        return siteSpace === undefined ? undefined : publishedUrl(site, options, null, { path: siteSpace.siteSpace.path, default: siteSpace.default })
      }
      for (const item of view.structure) {
        for (const section of item.type === "section" ? [item.section] : item.type === "group" ? item.group.sections : []) {
          const siteSpace = section.siteSpaces.find((s) => s.space.space.id === spaceId)
          if (siteSpace !== undefined) {
            return publishedUrl(site, options, { path: section.section.path, default: section.default }, {
              path: siteSpace.siteSpace.path,
              default: siteSpace.default
            })
          }
        }
      }
      return undefined
    }).pipe(Effect.orElseSucceed(() => undefined))
})
