/**
 * Where a site redirect may lead: a section or a site space of the site, a page of the space a
 * site space shows, or an outside URL; a page named by its path in a space becomes that page.
 */
import { Effect, Option } from "effect"
import { Errors } from "@quire/kernel"
import { flattenPages, PublishedContent, SpacesRepo } from "@quire/content"
import type { RedirectDestination, RedirectInputDestination } from "./domain/Redirect.ts"
import { SiteStructureRepo } from "./SiteStructureRepo.ts"

const invalid = (field: string, reason: string) => new Errors.InvalidInput({ field, reason })

/** The check of a site's destinations, over the structure and the spaces' current revisions. */
export const checker = Effect.gen(function*() {
  const structure = yield* SiteStructureRepo
  const spaces = yield* SpacesRepo
  const content = yield* PublishedContent

  /** The pages of the space a site space shows, flattened with their paths. */
  const pagesOf = Effect.fnUntraced(function*(spaceId: string) {
    const space = yield* spaces.find(spaceId)
    if (Option.isNone(space)) return []
    const revision = yield* Effect.option(content.revision(space.value.revisionId))
    return Option.isNone(revision) ? [] : flattenPages(revision.value.pages)
  })

  /** The destination as stored, once its section, site space and page are found in the site. */
  const checked = Effect.fnUntraced(function*(siteId: string, destination: RedirectInputDestination) {
    switch (destination.kind) {
      case "external":
        return destination as RedirectDestination
      case "site-section": {
        const sections = yield* structure.sections(siteId)
        if (!sections.some((s) => s.id === destination.siteSectionId)) {
          return yield* invalid("destination.siteSectionId", "is not a section of this site")
        }
        return destination as RedirectDestination
      }
      case "site-space":
      case "site-page": {
        const siteSpace = (yield* structure.siteSpaces(siteId)).find((s) => s.id === destination.siteSpaceId)
        if (siteSpace === undefined) return yield* invalid("destination.siteSpaceId", "is not a site space of this site")
        if (destination.kind === "site-page" && !(yield* pagesOf(siteSpace.spaceId)).some((e) => e.page.id === destination.pageId)) {
          return yield* invalid("destination.pageId", "is not a page of the site space's space")
        }
        return destination as RedirectDestination
      }
      case "path": {
        const siteSpace = (yield* structure.siteSpaces(siteId)).find((s) => s.spaceId === destination.spaceId)
        if (siteSpace === undefined) return yield* invalid("destination.spaceId", "is not a space this site shows")
        const path = destination.path.replace(/^\/+|\/+$/g, "")
        const entry = (yield* pagesOf(siteSpace.spaceId)).find((e) => e.path === path)
        if (entry === undefined) return yield* invalid("destination.path", "is not the path of a page of the space")
        return { kind: "site-page", siteSpaceId: siteSpace.id, pageId: entry.page.id } satisfies RedirectDestination
      }
    }
  })

  return checked
})
