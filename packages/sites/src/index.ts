/**
 * @quire/sites: docs sites (records, structure, share links, the published profile) and the
 * reader's side the serving routes use. Knows nothing of HTTP.
 */
export * from "./domain/Customization.ts"
export * from "./domain/ShareLink.ts"
export * from "./domain/Site.ts"
export * from "./domain/Structure.ts"
export * from "./domain/Urls.ts"
export * from "./PublishedSites.ts"
export * from "./ShareLinks.ts"
export * from "./SiteAccess.ts"
export * from "./Sites.ts"
export * from "./SiteStructure.ts"
