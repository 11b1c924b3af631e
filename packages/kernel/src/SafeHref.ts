/**
 * The one filter of link targets a reader's browser may follow, shared by the published site
 * (packages/sites) and the browser app (apps/web): relative URLs, `http(s):`, `mailto:` and
 * `tel:`. Anything else (`javascript:`, `data:`, `vbscript:`, `file:`...) becomes `#`.
 */

/** The schemes a link may use. */
export const safeSchemes: ReadonlySet<string> = new Set(["http", "https", "mailto", "tel"])

/**
 * The scheme of `url` as a browser reads it (lowercase), or undefined for a relative URL. Browsers
 * drop control characters and spaces before and inside a scheme, so this does too; only what
 * precedes the first `:` can be a scheme.
 */
export const schemeOf = (url: string): string | undefined =>
  // oxlint-disable-next-line no-control-regex
  /^[\x00-\x20]*([a-z][a-z0-9+.\x00-\x20-]*):/i.exec(url)?.[1]?.replace(/[\x00-\x20]/g, "").toLowerCase()

/** Whether a browser following `url` stays on a harmless scheme (relative, http(s), mailto, tel). */
export const isSafeHref = (url: string): boolean => {
  const scheme = schemeOf(url)
  return scheme === undefined || safeSchemes.has(scheme)
}

/** `url` when a browser may follow it, else `#`. */
export const safeHref = (url: string): string => isSafeHref(url) ? url : "#"
