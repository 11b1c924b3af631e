/**
 * What a member of a site's organization reads through the site when their session, not the
 * site's audience, admits them (docs/sites.md, "Members on a published site"): the spaces of the
 * site their own space permissions let them view, and nothing else of it.
 */
import { Effect } from "effect"
import type { ContentAccess } from "@quire/content"
import type { Actor } from "@quire/kernel"
import type { PublishedSite } from "./PublishedSites.ts"

/** Every space a published site shows, each once. */
export const siteSpaceIds = (site: PublishedSite): ReadonlyArray<string> => [
  ...new Set([...site.rootSiteSpaces, ...site.sections.flatMap((s) => s.siteSpaces)].map((s) => s.space.id))
]

/** The spaces of `site` the actor may view (their space permissions), in the site's order. */
export const readableSpaceIds = (access: ContentAccess["Service"], site: PublishedSite): Effect.Effect<ReadonlyArray<string>, never, Actor.Actor> =>
  Effect.map(
    Effect.forEach(siteSpaceIds(site), (id) =>
      access.space(id).pipe(
        Effect.map((found) => (found.permissions.view && found.space.organizationId === site.site.organizationId ? [id] : [])),
        Effect.catchTag("NotFound", () => Effect.succeed([]))
      )),
    (lists) => lists.flat()
  )
