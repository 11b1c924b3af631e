/**
 * Site redirects (GitBook's `SiteRedirect`): a source path of the site that answers with a redirect
 * to a section, a site space, a page or an outside URL, live or draft, and the wildcard match a
 * published site applies to them.
 */
import { Schema } from "effect"

/**
 * GitBook's `SiteRedirectSourcePath`: `/` then unreserved or percent-encoded characters, at most
 * 512; a `*` only at the end (`/docs/*` or `/docs*`), where it matches any rest of the path.
 * The `u` flag lets the OpenAPI document carry the pattern.
 */
export const sourcePattern =
  /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/u

export const sourceMaxLength = 512

export const SiteRedirectSourcePath = Schema.String.check(
  Schema.isMaxLength(sourceMaxLength),
  Schema.isPattern(sourcePattern, { message: "must be a path starting with / (letters, digits, - . _ ~ + and %XX; a * only at its end)" })
)

/** GitBook's `URL`: an absolute http(s) URL of at most 2048 characters. */
export const RedirectUrl = Schema.String.check(
  Schema.isMaxLength(2048),
  Schema.makeFilter((url: string) => /^https?:\/\/[^\s/?#]+[^\s]*$/i.test(url) || "must be an absolute http or https URL")
)

export const DestinationSiteSection = Schema.Struct({ kind: Schema.Literal("site-section"), siteSectionId: Schema.String })
export const DestinationSiteSpace = Schema.Struct({ kind: Schema.Literal("site-space"), siteSpaceId: Schema.String })
export const DestinationPage = Schema.Struct({ kind: Schema.Literal("site-page"), siteSpaceId: Schema.String, pageId: Schema.String })
export const DestinationExternal = Schema.Struct({ kind: Schema.Literal("external"), url: RedirectUrl })

/** GitBook's `SiteRedirectDestination`: where a redirect leads, as stored. */
export const RedirectDestination = Schema.Union([DestinationSiteSection, DestinationSiteSpace, DestinationPage, DestinationExternal])
export type RedirectDestination = typeof RedirectDestination.Type

/** GitBook's `SiteRedirectInputDestinationPath`: a page named by its path in a space, stored as the `site-page` it resolves to. */
export const DestinationPath = Schema.Struct({ kind: Schema.Literal("path"), spaceId: Schema.String, path: Schema.String.check(Schema.isMaxLength(2048)) })

/** GitBook's `SiteRedirectInputDestination`. */
export const RedirectInputDestination = Schema.Union([RedirectDestination, DestinationPath])
export type RedirectInputDestination = typeof RedirectInputDestination.Type

export const SiteRedirect = Schema.Struct({
  id: Schema.String,
  siteId: Schema.String,
  source: Schema.String,
  /** A draft is not live: published sites do not answer it. One live and one draft per source. */
  draft: Schema.Boolean,
  captureWildcard: Schema.Boolean,
  permanent: Schema.Boolean,
  destination: RedirectDestination,
  createdAt: Schema.Date,
  /** Absent until the first update. */
  updatedAt: Schema.NullOr(Schema.Date)
})
export interface SiteRedirect extends Schema.Schema.Type<typeof SiteRedirect> {}

/** GitBook's `SiteRedirectOrderBy`: newest created, newest updated (else created) first, or by source. */
export const RedirectOrder = Schema.Literals(["createdAt", "updatedAt", "source"])
export type RedirectOrder = typeof RedirectOrder.Type

/** The part of a source before its trailing `*` (undefined for an exact source). */
export const wildcardPrefix = (source: string): string | undefined => source.endsWith("*") ? source.slice(0, -1) : undefined

/**
 * The redirect a request path answers to among `redirects`: the one whose source is the path
 * itself (a trailing `/` aside), else the wildcard with the longest prefix of it; with the rest of
 * the path the wildcard matched (`""` for an exact match).
 */
export const matchRedirect = (
  redirects: ReadonlyArray<SiteRedirect>,
  path: string
): { readonly redirect: SiteRedirect; readonly rest: string } | undefined => {
  const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path
  const exact = redirects.find((r) => r.source === path || r.source === trimmed)
  if (exact !== undefined) return { redirect: exact, rest: "" }
  let best: { readonly redirect: SiteRedirect; readonly rest: string } | undefined
  let bestLength = -1
  for (const redirect of redirects) {
    const prefix = wildcardPrefix(redirect.source)
    if (prefix === undefined || !path.startsWith(prefix) || prefix.length <= bestLength) continue
    best = { redirect, rest: path.slice(prefix.length) }
    bestLength = prefix.length
  }
  return best
}

/** The URL a matched redirect leads to: its destination's, with the wildcard's rest when it captures it. */
export const withCapture = (destination: string, redirect: SiteRedirect, rest: string): string => {
  if (!redirect.captureWildcard || rest === "") return destination
  const hashAt = destination.indexOf("#")
  const queryAt = destination.indexOf("?")
  const end = Math.min(...[hashAt, queryAt, destination.length].filter((i) => i !== -1))
  const base = destination.slice(0, end)
  const joined = base.endsWith("/") && rest.startsWith("/") ? base + rest.slice(1) : !base.endsWith("/") && !rest.startsWith("/") ? `${base}/${rest}` : base + rest
  return joined + destination.slice(end)
}

/** GitBook's statuses: a permanent redirect is 308 to public live traffic, 307 elsewhere; a temporary one 307. */
export const redirectStatus = (redirect: SiteRedirect, publicTraffic: boolean): 307 | 308 =>
  redirect.permanent && publicTraffic ? 308 : 307

/** Another redirect of the site already has this source, live or draft as asked. */
export class RedirectTaken extends Schema.TaggedError<RedirectTaken>()("RedirectTaken", {
  source: Schema.String,
  draft: Schema.Boolean
}) {}
