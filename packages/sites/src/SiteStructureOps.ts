/**
 * Use cases of GitBook's issue-61 structure operations: external links, sorting any item of the
 * structure, a variant's own look, duplicating a variant, the site template, search warm-up and
 * the site's channels. A service of its own beside `SiteStructure`, over the same ports.
 */
import { Context, Effect, Layer } from "effect"
import { Spaces } from "@quire/content"
import type { Actor, Errors, Pagination } from "@quire/kernel"
import type { SiteCustomization } from "./domain/Customization.ts"
import type { CustomizationPatch, SiteChannel, SiteExternalLink } from "./domain/StructureExtras.ts"
import type { SiteChannelInput } from "./SiteChannels.ts"
import type { AddExternalLinkInput, ExternalLinkUpdate, SortedItem, StructurePointer } from "./structure/ExternalLinks.ts"
import type { SiteSpaceView } from "./structure/StructureTypes.ts"
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

type Denied = Errors.NotFound | Errors.Forbidden

/** A variant's look: the site's customization with its override over it, the override alone, and when either last changed. */
export interface SiteSpaceLook {
  readonly settings: SiteCustomization
  readonly override: SiteCustomization
  readonly updatedAt: Date | null
}

export interface SiteStructureOpsShape {
  /** `addExternalLinkToSite`: at the end of the top level or of a group; the site must have sections. */
  readonly addExternalLink: (organizationId: string, siteId: string, input: AddExternalLinkInput) => Effect.Effect<SiteExternalLink, Denied | Errors.InvalidInput, Actor.Actor>
  readonly updateExternalLink: (organizationId: string, siteId: string, linkId: string, update: ExternalLinkUpdate) => Effect.Effect<SiteExternalLink, Denied | Errors.InvalidInput, Actor.Actor>
  /** Whether the link was there. */
  readonly removeExternalLink: (organizationId: string, siteId: string, linkId: string) => Effect.Effect<boolean, Errors.Forbidden, Actor.Actor>
  /** `sortSiteStructure`: the item beside a sibling, joining the sibling's level. */
  readonly sortSiteStructure: (
    organizationId: string,
    siteId: string,
    item: StructurePointer,
    position: { readonly before?: StructurePointer | undefined; readonly after?: StructurePointer | undefined }
  ) => Effect.Effect<SortedItem, Denied | Errors.InvalidInput, Actor.Actor>
  readonly getSiteSpaceCustomization: (organizationId: string, siteId: string, siteSpaceId: string) => Effect.Effect<SiteSpaceLook, Errors.NotFound, Actor.Actor>
  /** Merges `patch` into the variant's override (`null` removes a field). */
  readonly overrideSiteSpaceCustomization: (organizationId: string, siteId: string, siteSpaceId: string, patch: CustomizationPatch) => Effect.Effect<SiteSpaceLook, Denied | Errors.InvalidInput, Actor.Actor>
  /** Whether the variant had an override. */
  readonly deleteSiteSpaceCustomization: (organizationId: string, siteId: string, siteSpaceId: string) => Effect.Effect<boolean, Denied, Actor.Actor>
  /** A copy of the variant's space as a new variant of the same section, with the same look. */
  readonly duplicateSiteSpace: (organizationId: string, siteId: string, siteSpaceId: string) => Effect.Effect<SiteSpaceView, Denied | Errors.InvalidInput, Actor.Actor>
  /** Fills every customization setting the site leaves unset with a new site's value. */
  readonly applyTemplate: (organizationId: string, siteId: string) => Effect.Effect<void, Denied, Actor.Actor>
  /** Reads the published site once, so the first search finds it ready. */
  readonly prewarmSearch: (organizationId: string, siteId: string) => Effect.Effect<void, Errors.NotFound, Actor.Actor>
  readonly listChannels: (organizationId: string, siteId: string, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<SiteChannel>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  readonly getChannel: (organizationId: string, siteId: string, channelId: string) => Effect.Effect<SiteChannel, Errors.NotFound, Actor.Actor>
  readonly createChannel: (organizationId: string, siteId: string, input: SiteChannelInput) => Effect.Effect<SiteChannel, Denied | Errors.InvalidInput, Actor.Actor>
  readonly updateChannel: (organizationId: string, siteId: string, channelId: string, input: SiteChannelInput) => Effect.Effect<SiteChannel, Denied | Errors.InvalidInput, Actor.Actor>
  /** Whether the channel was there. */
  readonly deleteChannel: (organizationId: string, siteId: string, channelId: string) => Effect.Effect<boolean, Denied, Actor.Actor>
}

export class SiteStructureOps extends Context.Service<SiteStructureOps, SiteStructureOpsShape>()("@quire/sites/SiteStructureOps") {
  static readonly layer = Layer.effect(SiteStructureOps, Effect.map(build, (ops) => SiteStructureOps.of(ops)))
}
