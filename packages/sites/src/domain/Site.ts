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
/**
 * Whether a host is an IP address in a form a URL parser or resolver reads as one: IPv6 (bare or
 * bracketed), or a last label that is a number (dotted IPv4, and its decimal, hex, octal and
 * shortened forms: `2130706433`, `0x7f000001`, `0x7f.0.0.1`, `0177.0.0.1`). No top-level domain is one.
 */
export const ipShaped = (host: string): boolean => {
  const name = host.trim().toLowerCase().replace(/\.$/, "")
  if (name.includes(":") || name.startsWith("[")) return true
  const last = name.slice(name.lastIndexOf(".") + 1)
  return /^(?:0x[0-9a-f]*|\d+)$/.test(last)
}

/** Names a machine gives itself: `localhost`, any name below it (RFC 6761) and the usual loopback aliases. */
export const loopbackName = (host: string): boolean => {
  const name = host.trim().toLowerCase().replace(/\.$/, "")
  return name === "localhost" || name.endsWith(".localhost") || ["localhost.localdomain", "ip6-localhost", "ip6-loopback"].includes(name)
}

/**
 * What is wrong with a site's hostname, if anything: not a name of three labels, an IP address,
 * or one of the names the server itself answers to (`serverNames`, and loopback names).
 */
export const hostnameProblem = (hostname: string, serverNames: ReadonlyArray<string>): string | undefined => {
  if (hostname.length > 512 || !hostnamePattern.test(hostname)) return "must be a hostname of at least three lowercase labels (docs.example.com)"
  if (ipShaped(hostname)) return "must be a name, not an IP address"
  const name = hostname.toLowerCase()
  if (loopbackName(name) || serverNames.some((server) => server.toLowerCase() === name)) {
    return "is a name of this Quire server itself (its public URL's host, localhost or the address it listens on)"
  }
  return undefined
}

export const SiteHostname = Schema.String.check(
  Schema.isMaxLength(512),
  Schema.isPattern(hostnamePattern),
  Schema.makeFilter((hostname: string) => !ipShaped(hostname) || "must be a name, not an IP address")
)
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
