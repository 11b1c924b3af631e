/**
 * Where an OpenAPI spec is used: the pages of the organization's sites whose markdown holds a
 * block naming it (`{% openapi-operation spec="slug" … %}`, `openapi`, `swagger`, `openapi-schemas`,
 * `openapi-webhook`), read from each site space's current revision. Only the sites and spaces the
 * caller can see are searched.
 */
import * as Syntax from "@quire/document/syntax"
import { Context, Effect, Layer } from "effect"
import { flattenPages, PublishedContent } from "@quire/content"
import { type Actor, BoundedCache, type Errors } from "@quire/kernel"
import type { Site } from "./domain/Site.ts"
import { Sites } from "./Sites.ts"
import type { SiteSpaceView, SiteStructureView } from "./SiteStructure.ts"

export interface SpecUsage {
  readonly site: Site
  readonly spaceId: string
  readonly spaceTitle: string
  readonly pageId: string
  readonly pageTitle: string
  /** The page's path in its space (slugs joined by `/`). */
  readonly pagePath: string
}

export interface SpecUsagesShape {
  /** The pages of the organization's sites that show the spec, site by site (members). */
  readonly list: (organizationId: string, slug: string) => Effect.Effect<ReadonlyArray<SpecUsage>, Errors.NotFound, Actor.Actor>
  /** Whether a page of these revisions shows the spec (what a published site's reader may read of it). */
  readonly shownIn: (revisionIds: ReadonlyArray<string>, slug: string) => Effect.Effect<boolean>
}

const apiBlockNames: ReadonlySet<string> = new Set(["openapi-operation", "openapi-schemas", "openapi-webhook", "openapi", "swagger"])

/** The specs (slugs) that a page's markdown shows in API blocks. */
export const specsOf = (markdown: string): ReadonlySet<string> => {
  const specs = new Set<string>()
  for (const tag of Syntax.scanTags(markdown)) {
    const spec = apiBlockNames.has(tag.name) ? Syntax.tagAttributes(tag)["spec"] : undefined
    if (spec !== undefined) specs.add(spec)
  }
  return specs
}

const siteSpacesOf = (structure: SiteStructureView): ReadonlyArray<SiteSpaceView> =>
  structure.type === "siteSpaces"
    ? structure.structure
    : structure.structure.flatMap((item) => (item.type === "section" ? [item.section] : item.type === "group" ? item.group.sections : []).flatMap((section) => section.siteSpaces))

export class SpecUsages extends Context.Service<SpecUsages, SpecUsagesShape>()("@quire/sites/SpecUsages") {
  static readonly layer = Layer.effect(
    SpecUsages,
    Effect.gen(function*() {
      const sites = yield* Sites
      const published = yield* PublishedContent
      /** The specs each revision's pages show; a revision never changes, so its answer is kept. */
      const shownByRevision = yield* BoundedCache.make<string, ReadonlySet<string>>({ name: "revision_specs", capacity: 512 })

      /** The pages of a space's current revision that show the spec. */
      const pagesShowing = Effect.fnUntraced(function*(revisionId: string, slug: string) {
        const revision = yield* published.revision(revisionId).pipe(Effect.orElseSucceed(() => undefined))
        if (revision === undefined) return []
        const pages = flattenPages(revision.pages).filter(({ page }) => page.document !== undefined)
        const documents = yield* published.documents(pages.map(({ page }) => page.document!))
        return pages.filter(({ page }) => specsOf(documents.get(page.document!) ?? "").has(slug))
      })

      const list = Effect.fn("SpecUsages.list")(function*(organizationId: string, slug: string) {
        const found: Array<SpecUsage> = []
        const bySpace = new Map<string, ReadonlyArray<{ readonly page: { readonly id: string; readonly title: string }; readonly path: string }>>()
        let page: string | undefined
        do {
          const listed = yield* sites.list(organizationId, {}, { limit: 100, ...(page === undefined ? {} : { page }) }).pipe(
            Effect.catchTag("InvalidInput", () => Effect.succeed({ items: [], next: undefined }))
          )
          for (const { site } of listed.items) {
            const structure = yield* sites.structure(organizationId, site.id).pipe(Effect.catchTag("NotFound", () => Effect.succeed(undefined)))
            if (structure === undefined) continue
            for (const { space } of siteSpacesOf(structure)) {
              const spaceId = space.space.id
              let pages = bySpace.get(spaceId)
              if (pages === undefined) {
                pages = yield* pagesShowing(space.space.revisionId, slug)
                bySpace.set(spaceId, pages)
              }
              for (const shown of pages) {
                found.push({ site, spaceId, spaceTitle: space.space.title, pageId: shown.page.id, pageTitle: shown.page.title, pagePath: shown.path })
              }
            }
          }
          page = listed.next
        } while (page !== undefined)
        return found
      })

      /** Every spec a revision's pages show, read once per revision. */
      const specsShownIn = Effect.fnUntraced(function*(revisionId: string) {
        const kept = shownByRevision.get(revisionId)
        if (kept !== undefined) return kept
        const revision = yield* published.revision(revisionId).pipe(Effect.orElseSucceed(() => undefined))
        if (revision === undefined) return new Set<string>()
        const ids = flattenPages(revision.pages).flatMap(({ page }) => (page.document === undefined ? [] : [page.document]))
        const documents = yield* published.documents(ids)
        const shown = new Set<string>()
        for (const markdown of documents.values()) for (const spec of specsOf(markdown)) shown.add(spec)
        shownByRevision.set(revisionId, shown)
        return shown
      })

      const shownIn = Effect.fn("SpecUsages.shownIn")(function*(revisionIds: ReadonlyArray<string>, slug: string) {
        for (const revisionId of revisionIds) if ((yield* specsShownIn(revisionId)).has(slug)) return true
        return false
      })

      return SpecUsages.of({ list, shownIn })
    })
  )
}
