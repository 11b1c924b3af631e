/**
 * Use cases of GitBook's issue-61 structure operations: external links, sorting any item of the
 * structure, a variant's own look, duplicating a variant, the site template, search warm-up and
 * the site's channels. A service of its own beside `SiteStructure`, over the same ports.
 */
import { Context, Effect, Layer } from "effect"
import { Spaces } from "@quire/content"
import { PublishedSites } from "./PublishedSites.ts"
import * as SiteChannels from "./SiteChannels.ts"
import { externalLinks } from "./structure/ExternalLinks.ts"
import { siteSpaceLooks } from "./structure/SiteSpaceLooks.ts"
import * as StructureEdit from "./structure/StructureEdit.ts"

export type { AddExternalLinkInput, ExternalLinkUpdate, SortedItem, StructurePointer } from "./structure/ExternalLinks.ts"
export type { SiteChannelInput } from "./SiteChannels.ts"

const build = Effect.gen(function*() {
  const edit = yield* StructureEdit.make
  const spaces = yield* Spaces
  const published = yield* PublishedSites
  const links = externalLinks(edit)
  const looks = siteSpaceLooks(edit)
  const provide = <A, E, R>(self: Effect.Effect<A, E, R>) =>
    self.pipe(Effect.provideService(Spaces, spaces), Effect.provideService(PublishedSites, published))
  return {
    addExternalLink: links.addExternalLink,
    updateExternalLink: links.updateExternalLink,
    removeExternalLink: links.removeExternalLink,
    sortSiteStructure: links.sortSiteStructure,
    getSiteSpaceCustomization: looks.getSiteSpaceCustomization,
    overrideSiteSpaceCustomization: looks.overrideSiteSpaceCustomization,
    deleteSiteSpaceCustomization: looks.deleteSiteSpaceCustomization,
    duplicateSiteSpace: (organizationId: string, siteId: string, siteSpaceId: string) => provide(looks.duplicateSiteSpace(organizationId, siteId, siteSpaceId)),
    applyTemplate: looks.applyTemplate,
    prewarmSearch: (organizationId: string, siteId: string) => provide(looks.prewarmSearch(organizationId, siteId)),
    ...(yield* SiteChannels.make)
  }
})

export type SiteStructureOpsShape = Effect.Success<typeof build>

export class SiteStructureOps extends Context.Service<SiteStructureOps, SiteStructureOpsShape>()("@quire/sites/SiteStructureOps") {
  static readonly layer = Layer.effect(SiteStructureOps, build)
}
