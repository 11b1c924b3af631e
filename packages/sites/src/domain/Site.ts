/**
 * Docs sites as the domain sees them: the site record, its literal sets and the field rules every
 * writer of a site checks (the API's schemas reuse them).
 */
import { Schema } from "effect"

/** GitBook's `SiteType`. */
export const SiteType = Schema.Literals(["basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"])
export type SiteType = typeof SiteType.Type

/** Who may read a published site (GitBook's `SiteVisibility`). */
export const SiteVisibility = Schema.Literals(["public", "unlisted", "share-link", "visitor-auth"])
export type SiteVisibility = typeof SiteVisibility.Type

/** Whether agents (AI assistants, MCP) may read the site. */
export const AgentsContext = Schema.Literals(["excluded", "included"])
export type AgentsContext = typeof AgentsContext.Type

/** GitBook's `SiteHostname`: at least three dot-separated lowercase labels. */
export const hostnamePattern = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/
/** GitBook's `SiteProxyOrigin`: a host followed by one or more path segments (`company.com/docs`). */
export const proxyPattern = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/

export const SiteTitle = Schema.String.check(Schema.isMinLength(2), Schema.isMaxLength(128))
export const SiteHostname = Schema.String.check(Schema.isMaxLength(512), Schema.isPattern(hostnamePattern))
export const SiteBasename = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100))
export const SiteProxyOrigin = Schema.String.check(Schema.isMaxLength(512), Schema.isPattern(proxyPattern))

export const Site = Schema.Struct({
  id: Schema.String,
  organizationId: Schema.String,
  type: SiteType,
  title: Schema.String,
  /** Custom hostname serving the published site (unique across sites). */
  hostname: Schema.NullOr(Schema.String),
  basename: Schema.NullOr(Schema.String),
  /** The proxy origin (`host/path`); the API presents `{origin, target}`. */
  proxy: Schema.NullOr(Schema.String),
  visibility: SiteVisibility,
  published: Schema.Boolean,
  adaptiveContent: Schema.Boolean,
  agentsContext: AgentsContext,
  /** The default section; null when the site has no sections. */
  defaultSectionId: Schema.NullOr(Schema.String),
  /** The default site space at the root (sites without sections). */
  defaultSiteSpaceId: Schema.NullOr(Schema.String),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
})
export interface Site extends Schema.Schema.Type<typeof Site> {}

/** One JSON Schema draft-07 document per site describing the visitor's claims. */
export const SiteAdaptiveSchema = Schema.Struct({
  siteId: Schema.String,
  jsonSchema: Schema.Unknown,
  updatedAt: Schema.Date
})
export interface SiteAdaptiveSchema extends Schema.Schema.Type<typeof SiteAdaptiveSchema> {}

/** GitBook's `SiteAdaptiveTemplateCondition`. */
export interface TemplateCondition {
  readonly description: string
  readonly condition: string
}
