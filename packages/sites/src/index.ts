/**
 * @quire/sites: docs sites (records, structure, share links, the published profile) and the
 * reader's side the serving routes use. Knows nothing of HTTP.
 */
export * from "./domain/Customization.ts"
export * from "./domain/ShareLink.ts"
export * from "./domain/Site.ts"
export * from "./domain/Structure.ts"
export * from "./domain/Urls.ts"
export { migrations } from "./migrations/index.ts"
export * from "./PublishedSites.ts"
export * from "./ShareLinks.ts"
export { ShareLinksRepo } from "./ShareLinksRepo.ts"
export * from "./SiteAccess.ts"
export * from "./SiteRenderer.ts"
export * as Audience from "./Audience.ts"
export * from "./Sites.ts"
export * as SitesLayers from "./SitesLayers.ts"
export { SitesRepo } from "./SitesRepo.ts"
export * from "./SiteStructure.ts"
export { SiteStructureRepo } from "./SiteStructureRepo.ts"
export * as SqlShareLinksRepo from "./SqlShareLinksRepo.ts"
export * as SqlSitesRepo from "./SqlSitesRepo.ts"
export * as SqlSiteStructureRepo from "./SqlSiteStructureRepo.ts"
