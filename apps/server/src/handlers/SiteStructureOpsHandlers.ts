/** Handlers of the site structure operations group: external links, sort, a variant's look, duplicate, template, search warm-up, channels. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, SiteStructureItem } from "@quire/api"
import type { Actor, Errors } from "@quire/kernel"
import { type SiteChannel, SiteStructureOps, type SortedItem } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import * as SitePresenters from "../SitePresenters.ts"
import * as SiteContexts from "./SiteContexts.ts"

const look = (found: { readonly settings: object; readonly updatedAt: Date | null }) =>
  SitePresenters.customization({ settings: found.settings, updatedAt: found.updatedAt })

const gone = (existed: boolean) => (existed ? "removed" as const : "absent" as const)

export const layer = HttpApiBuilder.group(Api, "siteStructureOps", Effect.fn(function*(handlers) {
  const ops = yield* SiteStructureOps
  const contexts = yield* SiteContexts.make

  const channel = (organizationId: string, c: SiteChannel) => ({
    object: "site-channel" as const,
    id: c.id,
    type: c.type,
    setupSettings: c.setupSettings,
    status: "pending" as const,
    role: c.role,
    answers: 0,
    createdAt: c.createdAt.toISOString(),
    urls: { location: contexts.urls.api(`/orgs/${organizationId}/sites/${c.siteId}/channels/${c.id}`) }
  })

  /** A sorted item as GitBook's `SiteStructureItem`, with the context of the spaces it shows. */
  const sorted = (organizationId: string, siteId: string) => (item: SortedItem): Effect.Effect<typeof SiteStructureItem.Type, Errors.NotFound, Actor.Actor> => {
    switch (item.type) {
      case "site-external-link":
        return Effect.succeed(SitePresenters.externalLink(item.view))
      case "site-space":
        return Effect.map(contexts.context({ siteId, spaces: [item.view.space], sectionsOf: { organizationId } }), (ctx) => SitePresenters.siteSpace(ctx, item.view))
      case "site-section":
        return Effect.map(contexts.context({ siteId, spaces: item.view.siteSpaces.map((s) => s.space) }), (ctx) => SitePresenters.section(ctx, item.view))
      case "site-section-group":
        return Effect.map(contexts.context({ siteId, spaces: item.view.sections.flatMap((s) => s.siteSpaces.map((v) => v.space)) }), (ctx) => SitePresenters.sectionGroup(ctx, item.view))
    }
  }

  return handlers
    .handle("addExternalLinkToSite", ({ params, payload }) =>
      ops.addExternalLink(params.organizationId, params.siteId, payload).pipe(Effect.map(SitePresenters.externalLink), DomainErrors.api))
    .handle("updateSiteExternalLinkById", ({ params, payload }) =>
      ops.updateExternalLink(params.organizationId, params.siteId, params.siteExternalLinkId, payload).pipe(Effect.map(SitePresenters.externalLink), DomainErrors.api))
    .handle("deleteSiteExternalLinkById", ({ params }) =>
      ops.removeExternalLink(params.organizationId, params.siteId, params.siteExternalLinkId).pipe(Effect.map(gone), DomainErrors.api))
    .handle("sortSiteStructure", ({ params, payload }) =>
      ops.sortSiteStructure(params.organizationId, params.siteId, payload.item, payload.position).pipe(
        Effect.flatMap(sorted(params.organizationId, params.siteId)),
        DomainErrors.api
      ))
    .handle("getSiteSpaceCustomizationById", ({ params }) =>
      ops.getSiteSpaceCustomization(params.organizationId, params.siteId, params.siteSpaceId).pipe(Effect.map(look), DomainErrors.api))
    .handle("overrideSiteSpaceCustomizationById", ({ params, payload }) =>
      ops.overrideSiteSpaceCustomization(params.organizationId, params.siteId, params.siteSpaceId, payload).pipe(Effect.map(look), DomainErrors.api))
    .handle("deleteSiteSpaceCustomizationById", ({ params }) =>
      ops.deleteSiteSpaceCustomization(params.organizationId, params.siteId, params.siteSpaceId).pipe(Effect.map(gone), DomainErrors.api))
    .handle("duplicateSiteSpace", ({ params }) =>
      ops.duplicateSiteSpace(params.organizationId, params.siteId, params.siteSpaceId).pipe(
        Effect.flatMap((view) =>
          Effect.map(contexts.context({ siteId: params.siteId, spaces: [view.space], sectionsOf: { organizationId: params.organizationId } }), (ctx) =>
            SitePresenters.siteSpace(ctx, view))),
        DomainErrors.api
      ))
    .handle("applyTemplateToSite", ({ params }) => ops.applyTemplate(params.organizationId, params.siteId).pipe(DomainErrors.api))
    .handle("prewarmSiteSearch", ({ params }) => ops.prewarmSearch(params.organizationId, params.siteId).pipe(DomainErrors.api))
    .handle("listSiteChannels", ({ params, query }) =>
      ops.listChannels(params.organizationId, params.siteId, query).pipe(
        Effect.map((page) => Presenters.list(page, (c) => channel(params.organizationId, c))),
        DomainErrors.api
      ))
    .handle("createSiteChannel", ({ params, payload }) =>
      ops.createChannel(params.organizationId, params.siteId, payload).pipe(Effect.map((c) => channel(params.organizationId, c)), DomainErrors.api))
    .handle("getSiteChannelById", ({ params }) =>
      ops.getChannel(params.organizationId, params.siteId, params.siteChannelId).pipe(Effect.map((c) => channel(params.organizationId, c)), DomainErrors.api))
    .handle("updateSiteChannelById", ({ params, payload }) =>
      ops.updateChannel(params.organizationId, params.siteId, params.siteChannelId, payload).pipe(Effect.map((c) => channel(params.organizationId, c)), DomainErrors.api))
    .handle("deleteSiteChannelById", ({ params }) =>
      ops.deleteChannel(params.organizationId, params.siteId, params.siteChannelId).pipe(Effect.map(gone), DomainErrors.api))
}))
