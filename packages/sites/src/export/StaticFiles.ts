/**
 * How a published site's answers become static files (SiteExports.ts): the file each URL below the
 * site's root is written to, and a page's HTML with its links to the site made relative to its own
 * file, so that the files work from a file system, a subdirectory or any static host.
 */
import { safeDecode } from "../answer/UrlScheme.ts"

const machineFiles: ReadonlyArray<string> = ["sitemap.xml", "robots.txt", "llms.txt", "llms-full.txt"]

/** Where the export keeps its own files (the search index and script): a name no page can take. */
export const exportFolder = "~export"

/**
 * The file (below the export's root, `/`-separated, decoded) a path below the site's root (as in
 * a URL: percent-encoded, no query) is written to: a page's HTML at `<path>/index.html`, the
 * machine files, markdown, assets and files of spaces as they are named; undefined for paths that
 * name nothing a file can hold (`~search`, `~ask`, one that does not decode).
 */
export const fileOf = (path: string): string | undefined => {
  const segments: Array<string> = []
  for (const raw of path.split("/")) {
    if (raw === "") continue
    const segment = safeDecode(raw)
    if (segment === undefined || segment === "." || segment === ".." || segment.includes("\\")) return undefined
    segments.push(segment)
  }
  const [first] = segments
  const last = segments.at(-1)
  if (first === undefined) return "index.html"
  if (first === "~assets" || (first === "~files" && segments.length === 3)) return segments.join("/")
  if (first.startsWith("~")) return undefined
  if (segments.length === 1 && machineFiles.includes(first)) return first
  if (last !== undefined && last.endsWith(".md")) return segments.join("/")
  return [...segments, "index.html"].join("/")
}

/** The HTML file of a page whose markdown is at `mdFile` (`a/b.md`, `a/index.md`). */
export const pageFileOfMarkdown = (mdFile: string): string =>
  mdFile === "index.md" ? "index.html" : mdFile.endsWith("/index.md") ? `${mdFile.slice(0, -3)}.html` : `${mdFile.slice(0, -3)}/index.html`

/** `to`, a file below the export's root, as a URL relative to the file `from`. */
export const relativeUrl = (from: string, to: string): string => {
  const depth = from.split("/").length - 1
  return "../".repeat(depth) + to.split("/").map(encodeURIComponent).join("/")
}

/** `../` up to the export's root from the file `from` (`""` at the root). */
export const rootOf = (from: string): string => "../".repeat(from.split("/").length - 1)

const decodeEntities = (value: string): string =>
  value.replace(/&(amp|quot|lt|gt|#39);/g, (_, name: string) => ({ amp: "&", quot: "\"", lt: "<", gt: ">", "#39": "'" })[name] ?? "")

const encodeAttribute = (value: string): string => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;")

/** The site's root, parsed once: which URLs are the site's own, and their path below it. */
export interface SiteBase {
  readonly root: URL
  /** The path below the root (percent-encoded, no query or fragment) of a URL of the site; undefined for others. */
  readonly pathOf: (url: URL) => string | undefined
}

export const siteBase = (root: string): SiteBase => {
  const base = new URL(root)
  return {
    root: base,
    pathOf: (url) =>
      (url.protocol === "http:" || url.protocol === "https:") && url.origin === base.origin && url.pathname.startsWith(base.pathname)
        ? url.pathname.slice(base.pathname.length)
        : undefined
  }
}

/** A page's HTML made static (`staticHtml`), and the paths below the site's root it links to. */
export interface StaticHtml {
  readonly html: string
  readonly links: ReadonlyArray<string>
}

/**
 * A page (at `pageUrl`, written to `file`) with its links to the site relative to its file: `href`,
 * `src`, `srcset` and CSS `url()`, the canonical link left as the site's own. The search box is
 * handed to the export's script (`data-export-search`), Ask and the insights beacon (which need
 * the server) are left out, and the export's search index and script are loaded at the end.
 */
export const staticHtml = (html: string, pageUrl: string, file: string, base: SiteBase): StaticHtml => {
  const links = new Set<string>()
  const local = (value: string): string | undefined => {
    const raw = decodeEntities(value)
    if (raw === "" || raw.startsWith("#") || /^[a-z][a-z0-9+.-]*:/i.test(raw) && !/^https?:/i.test(raw)) return undefined
    let url: URL
    try {
      url = new URL(raw, pageUrl)
    } catch {
      return undefined
    }
    const path = base.pathOf(url)
    if (path === undefined) return undefined
    const target = fileOf(path)
    if (target === undefined) return undefined
    links.add(path)
    return relativeUrl(file, target) + url.hash
  }
  const rewriteUrl = (value: string): string => {
    const made = local(value)
    return made === undefined ? value : encodeAttribute(made)
  }
  const root = rootOf(file)
  const tags = html.replace(/<[a-zA-Z][^<>]*>/g, (tag) => {
    if (/^<link\b/i.test(tag) && /\brel="canonical"/i.test(tag)) return tag
    let out = tag
      .replace(/(\s(?:href|src))="([^"]*)"/gi, (_, name: string, value: string) => `${name}="${rewriteUrl(value)}"`)
      .replace(/(\ssrcset)="([^"]*)"/gi, (_, name: string, value: string) =>
        `${name}="${value.split(",").map((candidate) => candidate.trim().replace(/^\S+/, (url) => rewriteUrl(url))).join(", ")}"`)
      .replace(/(\sstyle)="([^"]*)"/gi, (_, name: string, value: string) => `${name}="${rewriteCss(value, rewriteUrl)}"`)
    if (/^<form\b/i.test(tag) && /\sdata-search\b/.test(tag)) {
      out = out
        .replace(/\saction="[^"]*"/, ` action="${encodeAttribute(relativeUrl(file, file))}"`)
        .replace(/\sdata-search\b/, " data-export-search")
        .replace(/\sdata-ask="[^"]*"/, "")
    }
    if (/^<body\b/i.test(tag)) out = out.replace(/\sdata-insights(?:-[a-z-]+)?(?:="[^"]*")?/g, "")
    return out
  })
  const styled = tags.replace(/(<style\b[^>]*>)([\s\S]*?)(<\/style>)/gi, (_, open: string, css: string, close: string) => `${open}${rewriteCss(css, rewriteUrl)}${close}`)
  const scripts = `<script src="${encodeAttribute(`${root}${exportFolder}/search-index.js`)}" defer></script>` +
    `<script src="${encodeAttribute(`${root}${exportFolder}/search.js`)}" data-root="${encodeAttribute(root)}" defer></script>`
  const end = styled.lastIndexOf("</body>")
  return { html: end === -1 ? styled + scripts : `${styled.slice(0, end)}${scripts}${styled.slice(end)}`, links: [...links] }
}

/** CSS with its `url()`s rewritten by `rewrite` (which answers the value as it was for others). */
export const rewriteCss = (css: string, rewrite: (url: string) => string): string =>
  css.replace(/url\(\s*(["']?)([^"')\s]+)\1\s*\)/g, (_, quote: string, url: string) => `url(${quote}${rewrite(url)}${quote})`)

/** The paths below the site's root that a stylesheet served at `cssUrl` loads (KaTeX's fonts). */
export const cssLinks = (css: string, cssUrl: string, base: SiteBase): ReadonlyArray<string> => {
  const found: Array<string> = []
  rewriteCss(css, (url) => {
    try {
      const path = base.pathOf(new URL(url, cssUrl))
      if (path !== undefined && fileOf(path) !== undefined) found.push(path)
    } catch {
      // Not a URL: nothing to fetch.
    }
    return url
  })
  return found
}

/** The page a redirect of the site leads to, as a file that sends the reader there. */
export const redirectHtml = (target: string): string => {
  const url = encodeAttribute(target)
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=${url}"><title>Redirect</title></head>` +
    `<body><a href="${url}">Continue</a></body></html>`
}

/** One page of the export's search index: its title, its HTML file below the root and its sections as `[anchor, heading, text]`. */
export interface IndexedExportPage {
  readonly title: string
  readonly url: string
  readonly section?: string | undefined
  readonly sections: ReadonlyArray<readonly [string, string, string]>
}

/** The search index as a script (a script loads from `file://`, where a fetch of JSON does not). */
export const searchIndexScript = (pages: ReadonlyArray<IndexedExportPage>): string =>
  `window.quireSearchIndex=${JSON.stringify({ pages }).replace(/</g, "\\u003c")};\n`
