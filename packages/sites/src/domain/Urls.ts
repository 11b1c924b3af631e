/**
 * Published URLs (docs/sites.md, "URLs"): `${publicUrl}/~sites/<siteId>/`, or `https://<hostname>/`
 * for a site with a hostname; then the section's path unless it is the default section, then the
 * site space's path unless it is its section's default.
 */
import type { Site } from "./Site.ts"

export interface UrlOptions {
  /** QUIRE_PUBLIC_URL, without a trailing slash needed. */
  readonly publicUrl: string
  /** A valid share secret, added as `?share=` for share-link sites. */
  readonly shareSecret?: string | undefined
}

/** The published site's root URL (ends with `/`). */
export const siteRoot = (site: Pick<Site, "id" | "hostname">, publicUrl: string): string =>
  site.hostname === null ? `${publicUrl.replace(/\/+$/, "")}/~sites/${site.id}/` : `https://${site.hostname}/`

const withShare = (url: string, site: Pick<Site, "visibility">, options: UrlOptions): string =>
  site.visibility === "share-link" && options.shareSecret !== undefined
    ? `${url}?share=${encodeURIComponent(options.shareSecret)}`
    : url

/**
 * The published URL of a site (no segments), a section (`section` given) or a site space (both, or
 * `section` null at the root). A segment that is its parent's default is left out.
 */
export const publishedUrl = (
  site: Pick<Site, "id" | "hostname" | "visibility">,
  options: UrlOptions,
  section?: { readonly path: string; readonly default: boolean } | null,
  siteSpace?: { readonly path: string; readonly default: boolean }
): string => {
  const segments: Array<string> = []
  if (section != null && !section.default) segments.push(encodeURIComponent(section.path))
  if (siteSpace !== undefined && !siteSpace.default) segments.push(encodeURIComponent(siteSpace.path))
  const path = segments.length === 0 ? "" : `${segments.join("/")}/`
  return withShare(`${siteRoot(site, options.publicUrl)}${path}`, site, options)
}
