/**
 * A published site's HTML: a `SiteView` (or the search and 404 views) to a whole HTML5 document,
 * readable without JavaScript. Every text is escaped; the page's HTML comes sanitized from
 * `Markdown.ts` and goes in as is. Its inline scripts and style are allowed by their hashes (`policyOf`).
 */
import { createHash } from "node:crypto"
import { Effect } from "effect"
import { BoundedCache, escapeHtml, safeHref } from "@quire/kernel"
import type { AssetSources } from "./Assets.ts"
import { playerOrigins } from "./Embeds.ts"
import { iconName, iconSvg } from "./Icons.ts"
import { siteStatic } from "./SiteStatic.ts"
import { themeCss } from "./Theme.ts"
import {
  type CoverView,
  defaultPageLayout,
  type HeaderLinkView,
  type LaidOutTree,
  type LayoutMemo,
  type Offset,
  type NotFoundView,
  type PageView,
  type RefusalView,
  type SearchView,
  type SiteChrome,
  type SiteInfo,
  type SiteView,
  type Tab,
  type Theme,
  type Themed,
  type TocHeading,
  type TreeItem,
  type TreeMark
} from "./View.ts"

const e = escapeHtml

const href = (url: string): string => `href="${e(safeHref(url))}"`

const isExternal = (url: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(url)

const dateFormat = new Intl.DateTimeFormat("en", { dateStyle: "long", timeZone: "UTC" })

const icon = {
  search: `<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><circle cx="11" cy="11" r="7"/><path d="m20 20-3.5-3.5"/></svg>`,
  chevron: `<svg class="icon chevron" viewBox="0 0 24 24" aria-hidden="true"><path d="m9 6 6 6-6 6"/></svg>`,
  down: `<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="m6 9 6 6 6-6"/></svg>`,
  left: `<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="m15 18-6-6 6-6"/></svg>`,
  right: `<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="m9 18 6-6-6-6"/></svg>`,
  external: `<svg class="icon external" viewBox="0 0 24 24" aria-hidden="true"><path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5"/></svg>`,
  sun: `<svg class="icon sun" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="4"/><path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4"/></svg>`,
  moon: `<svg class="icon moon" viewBox="0 0 24 24" aria-hidden="true"><path d="M20 14.5A8 8 0 0 1 9.5 4 8 8 0 1 0 20 14.5Z"/></svg>`,
  edit: `<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M4 20h4L19 9l-4-4L4 16v4ZM14 6l4 4"/></svg>`,
  menu: `<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M4 6h16M4 12h16M4 18h16"/></svg>`
}

const themedImg = (urls: Themed, alt: string, cls: string): string =>
  urls.light === urls.dark
    ? `<img class="${cls}" src="${e(urls.light)}" alt="${e(alt)}">`
    : `<img class="${cls} only-light" src="${e(urls.light)}" alt="${e(alt)}">` +
      `<img class="${cls} only-dark" src="${e(urls.dark)}" alt="${e(alt)}">`

/**
 * A page's or favicon's emoji as characters: content stores GitBook's form, hex code points joined
 * by dashes (`1f44b`, `1f1eb-1f1f7`); anything else is shown as given.
 */
export const emojiText = (emoji: string): string =>
  /^[0-9a-f]{4,6}(?:-[0-9a-f]{4,6})*$/i.test(emoji)
    ? emoji.split("-").map((hex) => {
      const point = Number.parseInt(hex, 16)
      return point <= 0x10ffff ? String.fromCodePoint(point) : ""
    }).join("")
    : emoji

const favicon = (site: SiteInfo): string => {
  const fav = site.favicon
  if (fav?.icon) {
    return fav.icon.light === fav.icon.dark
      ? `<link rel="icon" href="${e(fav.icon.light)}">`
      : `<link rel="icon" href="${e(fav.icon.light)}" media="(prefers-color-scheme: light)">` +
          `<link rel="icon" href="${e(fav.icon.dark)}" media="(prefers-color-scheme: dark)">`
  }
  if (fav?.emoji) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${e(emojiText(fav.emoji))}</text></svg>`
    return `<link rel="icon" href="data:image/svg+xml,${e(encodeURIComponent(svg.toWellFormed()))}">`
  }
  // Without one, the site's initial: browsers would otherwise ask the host for /favicon.ico.
  const initial = Array.from(site.title.trim())[0]?.toUpperCase() ?? "Q"
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" rx="22" fill="#3b5bdb"/>` +
    `<text x="50" y="70" font-size="62" font-family="sans-serif" font-weight="600" fill="#fff" text-anchor="middle">${e(initial)}</text></svg>`
  // A lone surrogate (text may hold one) would make encodeURIComponent throw: U+FFFD instead.
  return `<link rel="icon" href="data:image/svg+xml,${e(encodeURIComponent(svg.toWellFormed()))}">`
}

const external = (view: SiteChrome, url: string): string =>
  isExternal(url)
    ? view.externalLinks === "blank"
      ? ` target="_blank" rel="noopener noreferrer"`
      : ` rel="noopener"`
    : ""

// --- Header -------------------------------------------------------------------------------

const headerLink = (view: SiteChrome, link: HeaderLinkView): string => {
  const style = link.style ?? "link"
  if (link.links.length > 0) {
    return (
      `<details class="menu header-menu"><summary class="header-link">${e(link.title)}${icon.down}</summary>` +
      `<ul class="menu-list">${link.links.map((l) => `<li><a ${href(l.url)}${external(view, l.url)}>${e(l.title)}</a></li>`).join("")}</ul></details>`
    )
  }
  if (link.url === undefined) return `<span class="header-link">${e(link.title)}</span>`
  return `<a class="header-link ${style}" ${href(link.url)}${external(view, link.url)}>${e(link.title)}</a>`
}

const searchForm = (view: SiteChrome, query = ""): string =>
  `<form class="search" role="search" action="${e(view.searchUrl)}" method="get" data-search${view.askUrl === undefined ? "" : ` data-ask="${e(view.askUrl)}"`}>` +
  `<label class="search-box">${icon.search}<span class="visually-hidden">Search</span>` +
  `<input type="search" name="q" value="${e(query)}" placeholder="Search…" autocomplete="off" spellcheck="false" aria-controls="search-results">` +
  `<kbd class="search-key" aria-hidden="true" hidden>/</kbd></label>` +
  `<div class="search-results" id="search-results" role="listbox" hidden></div></form>`

const themeToggle = (view: SiteChrome): string =>
  view.themes.toggeable
    ? `<button class="theme-toggle" type="button" data-theme-toggle hidden aria-label="Switch between light and dark theme" title="Switch theme">${icon.sun}${icon.moon}</button>`
    : ""

/** A section's icon: GitBook names a Font Awesome icon (drawn inline), else nothing. */
const tabIcon = (name: string | undefined): string => {
  const svg = name ? iconSvg(name) : undefined
  return svg === undefined ? "" : `<span class="tab-icon" aria-hidden="true">${svg}</span>`
}

const linkTab = (tab: { readonly url: string; readonly icon?: string | undefined; readonly title: string }, cls: string): string =>
  `<li><a${cls} ${href(tab.url)} target="_blank" rel="noopener noreferrer" data-external-link>${tabIcon(tab.icon)}${e(tab.title)}</a></li>`

const tabItem = (tab: Tab): string => {
  if (tab.type === "link") return linkTab(tab, ` class="tab"`)
  if (tab.type === "section") {
    return `<li><a class="tab" ${href(tab.url)}${tab.current ? ` aria-current="page"` : ""}>${tabIcon(tab.icon)}${e(tab.title)}</a></li>`
  }
  const current = tab.sections.some((s) => s.type === "section" && s.current)
  return (
    `<li><details class="menu tab-group"><summary class="tab${current ? " current" : ""}">${tabIcon(tab.icon)}${e(tab.title)}${icon.down}</summary>` +
    `<ul class="menu-list">${tab.sections
      .map(
        (s) =>
          s.type === "link"
            ? linkTab(s, "")
            : `<li><a ${href(s.url)}${s.current ? ` aria-current="page"` : ""}>${tabIcon(s.icon)}${e(s.title)}</a></li>`
      )
      .join("")}</ul></details></li>`
  )
}

const tabs = (items: ReadonlyArray<Tab>): string =>
  items.length === 0 ? "" : `<nav class="site-tabs" aria-label="Sections"><ul>${items.map(tabItem).join("")}</ul></nav>`

const header = (view: SiteChrome, query?: string, withSidebar = true): string => {
  const logo = view.site.logo
  const brand = logo
    ? `<a class="brand" ${href(view.site.url)}>${themedImg(logo, view.site.title, "logo")}<span class="visually-hidden">${e(view.site.title)}</span></a>`
    : `<a class="brand" ${href(view.site.url)}><span class="brand-title">${e(view.site.title)}</span></a>`
  const links = view.header.links.map((l) => headerLink(view, l)).join("")
  return (
    `<header class="site-header"><div class="header-bar">` +
    (withSidebar ? `<label class="nav-button" for="nav-toggle" title="Menu">${icon.menu}<span class="visually-hidden">Menu</span></label>` : "") +
    brand +
    searchForm(view, query) +
    (links ? `<nav class="header-links" aria-label="Links">${links}</nav>` : "") +
    themeToggle(view) +
    `</div>${tabs(view.tabs)}</header>`
  )
}

const announcement = (view: SiteChrome): string => {
  const a = view.announcement
  if (!a?.enabled) return ""
  const text = e(a.message)
  return `<div class="announcement ${e(a.style)}" role="note">${a.url ? `<a ${href(a.url)}>${text}</a>` : text}</div>`
}

// --- Sidebar ------------------------------------------------------------------------------

/**
 * A page's emoji, else its icon: a Font Awesome name drawn as SVG, anything else (GitBook also
 * stores emoji there) shown as text; nothing for a name no free icon matches.
 */
export const pageIcon = (item: { readonly emoji?: string | undefined; readonly icon?: string | undefined }): string => {
  if (item.emoji) return `<span class="emoji" aria-hidden="true">${e(emojiText(item.emoji))}</span>`
  const given = item.icon?.trim()
  if (!given) return ""
  if (iconName.test(given.toLowerCase())) {
    const svg = iconSvg(given)
    return svg === undefined ? "" : `<span class="page-icon" aria-hidden="true">${svg}</span>`
  }
  return `<span class="emoji" aria-hidden="true">${e(emojiText(given))}</span>`
}

const layOutTree = (view: SiteChrome, tree: ReadonlyArray<TreeItem>): LaidOutTree => {
  const marks = new Map<string, TreeMark>()
  let html = ""
  let byte = 0
  const add = (text: string): void => {
    html += text
    byte += Buffer.byteLength(text, "utf8")
  }
  const here = (): Offset => ({ char: html.length, byte })
  const list = (items: ReadonlyArray<TreeItem>, parent: TreeMark | undefined): void => {
    add("<ul>")
    for (const item of items) entry(item, parent)
    add("</ul>")
  }
  const entry = (item: TreeItem, parent: TreeMark | undefined): void => {
    switch (item.type) {
      case "group":
        add(`<li class="tree-group"><h3 class="tree-heading">${e(item.title)}</h3>`)
        list(item.children, parent)
        add("</li>")
        return
      case "link":
        add(`<li><a class="tree-link" ${href(item.url)}${external(view, item.url)}>${pageIcon(item)}<span>${e(item.title)}</span>${item.external ? icon.external : ""}</a></li>`)
        return
      case "document": {
        const leaf = item.children.length === 0
        add(leaf ? `<li>` : `<li><details class="tree-branch"`)
        const branch = leaf ? undefined : here()
        add(`${leaf ? "" : "><summary>"}<a class="tree-link" ${href(item.url)}`)
        const mark: TreeMark = { link: here(), branch, parent }
        marks.set(item.id, mark)
        add(`>${pageIcon(item)}<span>${e(item.title)}</span></a>`)
        if (leaf) {
          add("</li>")
          return
        }
        add(`${icon.chevron}</summary>`)
        list(item.children, mark)
        add("</details></li>")
      }
    }
  }
  list(tree, undefined)
  const bytes = encoder.encode(html)
  return { html, bytes, digest: createHash("md5").update(bytes).digest("base64url"), marks }
}

/**
 * The tree of `view` laid out: by the view's memo, which keeps one per tree and way of opening
 * external links (the answer layer keeps one tree per place and revision, answer/Navigation.ts,
 * so every page of a revision lays its tree out and encodes it once), else laid out now.
 */
const laidOutTreeOf = (view: SiteChrome): LaidOutTree =>
  (view.memo ?? unkept).tree(view.tree, view.externalLinks ?? "", () => layOutTree(view, view.tree))

/** The tree with the current page marked and the branches down to it (its own included) open. */
const treeParts = (view: SiteChrome): HtmlDocument => {
  const laid = laidOutTreeOf(view)
  const current = view.currentPage === undefined ? undefined : laid.marks.get(view.currentPage)
  const slice = (from: Offset, to: Offset | undefined): Encoded => ({
    html: laid.html.slice(from.char, to?.char),
    bytes: laid.bytes.subarray(from.byte, to?.byte),
    digest: `${laid.digest}:${from.byte}-${to?.byte ?? laid.bytes.length}`
  })
  if (current === undefined) return [slice({ char: 0, byte: 0 }, undefined)]
  const inserts: Array<readonly [Offset, string]> = [[current.link, ` aria-current="page"`]]
  for (let mark: TreeMark | undefined = current; mark !== undefined; mark = mark.parent) {
    if (mark.branch !== undefined) inserts.push([mark.branch, " open"])
  }
  inserts.sort((a, b) => a[0].char - b[0].char)
  const parts: Array<string | Encoded> = []
  let from: Offset = { char: 0, byte: 0 }
  for (const [at, text] of inserts) {
    parts.push(slice(from, at), text)
    from = at
  }
  parts.push(slice(from, undefined))
  return parts
}

const variants = (view: SiteChrome): string => {
  if (view.variants.length < 2) return ""
  const current = view.variants.find((v) => v.current) ?? view.variants[0]
  return (
    `<details class="menu variants"><summary><span>${e(current?.title ?? "")}</span>${icon.down}</summary>` +
    `<ul class="menu-list" aria-label="Variants">${view.variants
      .map((v) => `<li><a ${href(v.url)}${v.current ? ` aria-current="page"` : ""}>${e(v.title)}</a></li>`)
      .join("")}</ul></details>`
  )
}

const sidebar = (view: SiteChrome): HtmlDocument => [
  `<aside class="sidebar" id="sidebar">${variants(view)}<nav class="tree" aria-label="Pages">`,
  ...treeParts(view),
  `</nav></aside>`
]

// --- Page ---------------------------------------------------------------------------------

const toc = (headings: ReadonlyArray<TocHeading>): string => {
  const shown = headings.filter((h) => h.depth >= 2 && h.depth <= 3)
  if (shown.length === 0) return `<aside class="toc"></aside>`
  return (
    `<aside class="toc"><nav aria-labelledby="toc-title"><h2 id="toc-title">On this page</h2><ul>` +
    shown
      .map((h) => `<li class="depth-${h.depth}"><a href="#${e(encodeURIComponent(h.id.toWellFormed()))}">${e(h.text)}</a></li>`)
      .join("") +
    `</ul></nav></aside>`
  )
}

const editLabel = (url: string): string => {
  const host = /^https?:\/\/([^/]+)/i.exec(url)?.[1]?.toLowerCase() ?? ""
  if (host === "github.com" || host.endsWith(".github.com")) return "Edit on GitHub"
  if (host === "gitlab.com" || host.startsWith("gitlab.")) return "Edit on GitLab"
  return "Edit on Git"
}

const pageMeta = (page: PageView): string => {
  const parts: Array<string> = []
  if (page.lastModified && !Number.isNaN(page.lastModified.getTime())) {
    parts.push(
      `<p class="last-modified">Last modified <time datetime="${e(page.lastModified.toISOString())}">${e(dateFormat.format(page.lastModified))}</time></p>`
    )
  }
  if (page.editUrl) {
    parts.push(`<a class="edit-link" ${href(page.editUrl)} rel="noopener">${icon.edit}${e(editLabel(page.editUrl))}</a>`)
  }
  return parts.length > 0 ? `<footer class="page-meta">${parts.join("")}</footer>` : ""
}

const pagination = (view: SiteView, shown: boolean): string => {
  if (!shown || !view.pagination || (!view.previous && !view.next)) return ""
  const prev = view.previous
    ? `<a class="pager prev" rel="prev" ${href(view.previous.url)}>${icon.left}<span><small>Previous</small><span class="pager-title">${e(view.previous.title)}</span></span></a>`
    : `<span></span>`
  const next = view.next
    ? `<a class="pager next" rel="next" ${href(view.next.url)}><span><small>Next</small><span class="pager-title">${e(view.next.title)}</span></span>${icon.right}</a>`
    : `<span></span>`
  return `<nav class="pagination" aria-label="Previous and next pages">${prev}${next}</nav>`
}

const footer = (view: SiteChrome): string => {
  const f = view.footer
  if (!f.logo && f.groups.length === 0 && !f.copyright) return ""
  const groups = f.groups
    .map(
      (g) =>
        `<div class="footer-group"><h2>${e(g.title)}</h2><ul>${g.links
          .map((l) => `<li><a ${href(l.url)}${external(view, l.url)}>${e(l.title)}</a></li>`)
          .join("")}</ul></div>`
    )
    .join("")
  return (
    `<footer class="site-footer"><div class="footer-inner">` +
    `<div class="footer-logo">${f.logo ? themedImg(f.logo, view.site.title, "logo") : `<a class="footer-brand" ${href(view.site.url)}>${e(view.site.title)}</a>`}</div>` +
    (groups ? `<div class="footer-groups">${groups}</div>` : "") +
    (f.copyright ? `<p class="copyright">${e(f.copyright)}</p>` : "") +
    `</div></footer>`
  )
}

// --- Document -----------------------------------------------------------------------------

/** The early script (applies the reader's stored theme before the first paint) and the late one (site.js). */
const earlyScript = siteStatic("theme.js")
const lateScript = siteStatic("site.js")
/** The insights script (page views, searches, link clicks, the feedback box), on sites that ask for it. */
const insightsScript = siteStatic("insights.js")

/** Text whose UTF-8 bytes are at hand: a part of a laid-out page tree, encoded once with the tree. */
interface Encoded {
  readonly html: string
  readonly bytes: Uint8Array
  /** Names these bytes (the tree's digest and the range): hashed in their stead. */
  readonly digest: string
}

/**
 * A whole HTML document as its parts, in order: text, and parts of the page tree already encoded
 * (the tree is most of a large site's page: a page encodes only what is its own).
 */
export type HtmlDocument = ReadonlyArray<string | Encoded>

const encoder = new TextEncoder()

/** A document's HTML (concatenated, not copied: `encodeDocument` gives what is sent). */
export const htmlText = (document: HtmlDocument): string => {
  let text = ""
  for (const part of document) text += typeof part === "string" ? part : part.html
  return text
}

/**
 * A document's UTF-8 bytes, its own text encoded and the tree's copied, and a fingerprint of them
 * (MD5, not a secret) that hashes its text's bytes and the tree's parts by their digests, each
 * after its kind and length: two documents share one only when their bytes are the same.
 */
export const encodeDocument = (document: HtmlDocument): { readonly bytes: Uint8Array; readonly fingerprint: string } => {
  const hash = createHash("md5")
  const encoded = document.map((part) => {
    const bytes = typeof part === "string" ? encoder.encode(part) : part.bytes
    const hashed = typeof part === "string" ? bytes : encoder.encode(part.digest)
    hash.update(`${typeof part === "string" ? "t" : "d"}${hashed.length}:`).update(hashed)
    return bytes
  })
  const fingerprint = hash.digest("base64url")
  if (encoded.length === 1 && typeof document[0] === "string") return { bytes: encoded[0]!, fingerprint }
  const bytes = new Uint8Array(encoded.reduce((size, part) => size + part.length, 0))
  let at = 0
  for (const part of encoded) {
    bytes.set(part, at)
    at += part.length
  }
  return { bytes, fingerprint }
}

interface DocumentParts {
  /** Classes of the layout beside its sidebar ones (`page-wide`, `no-sidebar`, `no-outline`). */
  readonly layoutClasses?: ReadonlyArray<string> | undefined
  /** The page tree beside the page (GitBook's `tableOfContents`); shown unless false. */
  readonly sidebar?: boolean | undefined
  readonly title: string
  readonly description?: string | undefined
  readonly canonicalUrl?: string | undefined
  readonly markdownUrl?: string | undefined
  readonly noindex: boolean
  readonly query?: string | undefined
  readonly main: string
  readonly toc: string
}

const sha256 = (text: string): string => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`

/** The theme of `styling`, made now (a renderer keeps one per styling: `layoutMemo`). */
export const themeOf = (styling: SiteChrome["styling"]): Theme => {
  const css = themeCss(styling)
  return { css, hash: sha256(css) }
}

/** Lays everything out from scratch: a view without a renderer's memo (tests, refusal pages). */
export const unkept: LayoutMemo = { theme: themeOf, tree: (_tree, _externalLinks, layOut) => layOut() }

/** How many sites' themes a renderer keeps (by styling). */
const keptThemes = 1000

/**
 * A renderer's memo of layouts, made with its layer: themes in a bounded cache (`site_themes`),
 * trees laid out held weakly by the trees the renderer's `site_place_trees` cache holds, so that
 * they go with them.
 */
export const layoutMemo: Effect.Effect<LayoutMemo> = Effect.gen(function*() {
  const themes = yield* BoundedCache.make<string, Theme>({ name: "site_themes", capacity: keptThemes })
  const trees = new WeakMap<ReadonlyArray<TreeItem>, Map<string, LaidOutTree>>()
  return {
    theme: (styling) => {
      const key = JSON.stringify(styling)
      let found = themes.get(key)
      if (found === undefined) {
        found = themeOf(styling)
        themes.set(key, found)
      }
      return found
    },
    tree: (tree, externalLinks, layOut) => {
      let byTarget = trees.get(tree)
      if (byTarget === undefined) {
        byTarget = new Map()
        trees.set(tree, byTarget)
      }
      let found = byTarget.get(externalLinks)
      if (found === undefined) {
        found = layOut()
        byTarget.set(externalLinks, found)
      }
      return found
    }
  }
})

const scriptHashes = `${sha256(earlyScript)} ${sha256(lateScript)} ${sha256(insightsScript)}`

/**
 * The CSP of a page laid out here: its inline scripts (the early and late ones, and the insights
 * script a site recording insights adds) and its inline style by their hashes
 * (fixed per site: the page is the same bytes for every response), Shiki's style attributes, the
 * site assets its blocks load (`assets`, see Assets.ts), frames of the embed players only.
 */
export const policyOf = (
  styling: SiteChrome["styling"],
  assets: AssetSources = { scripts: [], styles: [], inlineStyles: false },
  memo: LayoutMemo = unkept
): string =>
  [
    "default-src 'none'",
    `script-src ${[scriptHashes, ...assets.scripts].join(" ")}`,
    `style-src ${[assets.inlineStyles ? "'unsafe-inline'" : memo.theme(styling).hash, ...assets.styles].join(" ")}`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' https: data:",
    "media-src 'self' https:",
    "font-src 'self' https: data:",
    `frame-src ${playerOrigins.join(" ")}`,
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'"
  ].join("; ")

/** Where the insights script sends events and what it records, as attributes of `<body>`. */
const attr = (name: string, value: string | undefined) => (value === undefined ? "" : ` ${name}="${e(value)}"`)

const insightsAttributes = (view: SiteChrome): string => {
  const i = view.insights
  if (i === undefined) return ""
  return (
    attr("data-insights", i.url) +
    (i.views ? " data-insights-views" : "") +
    attr("data-page", view.currentPage) +
    attr("data-space", i.space) +
    attr("data-site-space", i.siteSpace) +
    attr("data-site-section", i.siteSection)
  )
}

/**
 * GitBook's page rating at the bottom of a page: three answers, then an optional comment. Hidden
 * until the insights script runs (it sends them), so a reader without scripts sees no dead form.
 */
const feedbackBox = (view: SiteChrome): string =>
  view.insights?.feedback !== true || view.currentPage === undefined
    ? ""
    : `<section class="page-feedback" data-feedback hidden aria-labelledby="page-feedback-title">` +
      `<h2 id="page-feedback-title" class="page-feedback-title">Was this page helpful?</h2>` +
      `<div class="page-feedback-ratings" role="group" aria-labelledby="page-feedback-title">` +
      `<button type="button" data-rating="good" aria-pressed="false">Yes</button>` +
      `<button type="button" data-rating="ok" aria-pressed="false">Somewhat</button>` +
      `<button type="button" data-rating="bad" aria-pressed="false">No</button></div>` +
      `<form class="page-feedback-comment" hidden><label for="page-feedback-text">What could be better? (optional)</label>` +
      `<textarea id="page-feedback-text" name="comment" rows="3" maxlength="512"></textarea>` +
      `<button type="submit">Send</button></form>` +
      `<p class="page-feedback-status" role="status"></p></section>`

const documentOf = (view: SiteChrome, parts: DocumentParts): HtmlDocument => {
  const mode = view.themes.default
  const htmlAttrs =
    ` lang="${e(view.lang ?? "en")}"` +
    (mode === "system" ? "" : ` data-theme="${mode}"`) +
    (view.themes.toggeable ? ` data-toggeable` : "")
  const withSidebar = parts.sidebar !== false
  const sidebarClass = [
    "layout",
    `sidebar-${view.styling.sidebar?.list ?? "default"}`,
    view.styling.sidebar?.background === "filled" ? "sidebar-filled" : "",
    withSidebar ? "" : "no-sidebar",
    ...(parts.layoutClasses ?? [])
  ]
    .filter(Boolean)
    .join(" ")
  const head =
    `<!DOCTYPE html>\n<html${htmlAttrs}><head>` +
    `<meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${e(parts.title)}</title>` +
    (parts.description ? `<meta name="description" content="${e(parts.description)}">` : "") +
    (parts.noindex ? `<meta name="robots" content="noindex">` : "") +
    `<meta name="color-scheme" content="${mode === "system" ? "light dark" : mode}">` +
    `<meta property="og:title" content="${e(parts.title)}">` +
    (parts.description ? `<meta property="og:description" content="${e(parts.description)}">` : "") +
    (parts.canonicalUrl ? `<link rel="canonical" href="${e(parts.canonicalUrl)}">` : "") +
    (parts.markdownUrl ? `<link rel="alternate" type="text/markdown" href="${e(parts.markdownUrl)}">` : "") +
    favicon(view.site) +
    `<style>${(view.memo ?? unkept).theme(view.styling).css}</style>` +
    `<script>${earlyScript}</script>` +
    `</head><body${insightsAttributes(view)}>` +
    `<a class="skip-link" href="#content">Skip to content</a>` +
    announcement(view) +
    header(view, parts.query, withSidebar) +
    (withSidebar
      ? `<input type="checkbox" id="nav-toggle" class="nav-toggle" aria-label="Show the pages" aria-controls="sidebar">`
      : "") +
    `<div class="${sidebarClass}">` +
    (withSidebar ? `<label class="nav-backdrop" for="nav-toggle"><span class="visually-hidden">Close the pages</span></label>` : "")
  const rest =
    `<main id="content" class="main">${parts.main}</main>` +
    parts.toc +
    `</div>` +
    footer(view) +
    `<script>${lateScript}</script>` +
    (view.insights === undefined ? "" : `<script>${insightsScript}</script>`) +
    `</body></html>`
  return withSidebar ? [head, ...sidebar(view), rest] : [head + rest]
}

/** A number within bounds, or `fallback` when it is not a finite number. */
const bounded = (value: number | undefined, min: number, max: number, fallback: number): number =>
  value === undefined || !Number.isFinite(value) ? fallback : Math.min(max, Math.max(min, value))

/**
 * GitBook's page cover: a frame `height` pixels high (240 unless given, 10 to 700), the image
 * filling it from its top, moved up `-yPos` pixels (GitBook's offsets are zero or negative): the
 * image is made that much taller than the frame, so that no offset ever leaves a gap below it.
 * A dark-mode image when it differs.
 */
const coverFigure = (cover: CoverView): string => {
  const size = cover.size ?? "hero"
  const height = Math.round(bounded(cover.height, 10, 700, 240))
  const shift = Math.round(-bounded(cover.yPos, -10000, 0, 0) * 100) / 100
  const position = shift === 0 ? "" : ` style="height:calc(100% + ${shift}px);margin-top:-${shift}px"`
  const img = (url: string, cls: string) => `<img${cls ? ` class="${cls}"` : ""} src="${e(url)}" alt="${e(cover.alt ?? "")}"${position}>`
  const images = cover.darkUrl === undefined || cover.darkUrl === cover.url
    ? img(cover.url, "")
    : img(cover.url, "only-light") + img(cover.darkUrl, "only-dark")
  return `<figure class="page-cover cover-${size}" style="--cover-height:${height}px">${images}</figure>`
}

/** A published page as a whole HTML document, laid out as its frontmatter's `layout` says. */
export const renderPage = (view: SiteView): string => htmlText(pageDocument(view))

/** `renderPage`'s document in parts (what the renderer answers with). */
export const pageDocument = (view: SiteView): HtmlDocument => {
  const page = view.page
  const layout = page.layout ?? defaultPageLayout
  const cover = page.cover && layout.cover ? coverFigure(page.cover) : ""
  const glyph = pageIcon(page)
  const title = `<h1${layout.title ? "" : ` class="visually-hidden"`}>${glyph ? `${glyph} ` : ""}${e(page.title)}</h1>`
  const main =
    cover +
    `<article class="page">` +
    `<header class="page-header">${title}` +
    (page.description && layout.description ? `<p class="page-description">${e(page.description)}</p>` : "") +
    `</header>` +
    `<div class="markdown">${page.html}</div>` +
    (layout.metadata ? pageMeta(page) : "") +
    feedbackBox(view) +
    `</article>` +
    pagination(view, layout.pagination)
  return documentOf(view, {
    title: page.title === view.site.title ? page.title : `${page.title} | ${view.site.title}`,
    description: page.description,
    canonicalUrl: page.canonicalUrl,
    markdownUrl: page.markdownUrl,
    noindex: view.noindex,
    sidebar: layout.tableOfContents,
    layoutClasses: [
      layout.width === "wide" ? "page-wide" : "",
      layout.outline ? "" : "no-outline",
      page.cover && layout.cover ? `with-cover-${page.cover.size ?? "hero"}` : ""
    ],
    main,
    toc: layout.outline ? toc(page.headings) : ""
  })
}

/** The search results page (the form's answer without JavaScript). */
export const renderSearch = (view: SearchView): string => htmlText(searchDocument(view))

/** `renderSearch`'s document in parts. */
export const searchDocument = (view: SearchView): HtmlDocument => {
  const q = view.query.trim()
  const results =
    q === ""
      ? `<p class="search-hint">Type a word or two in the search box.</p>`
      : view.results.length === 0
        ? `<p class="search-hint">No results for “${e(q)}”.</p>`
        : `<ol class="search-page-results">${view.results
            .map(
              (r) =>
                `<li><a ${href(r.url)}><span class="search-result-title">${e(r.title)}</span>` +
                (r.section ? `<span class="search-result-section">${e(r.section)}</span>` : "") +
                `</a>${r.snippet ? `<p class="search-result-snippet">${e(r.snippet)}</p>` : ""}</li>`
            )
            .join("")}</ol>`
  const count = q === "" ? "" : `<p class="page-description">${view.results.length} result${view.results.length === 1 ? "" : "s"} for “${e(q)}”</p>`
  return documentOf(view, {
    title: `${q === "" ? "Search" : `Search: ${q}`} | ${view.site.title}`,
    noindex: true,
    query: view.query,
    main: `<article class="page search-page"${q === "" ? "" : ` data-search-query="${e(q)}" data-search-count="${view.results.length}"`}><header class="page-header"><h1>Search</h1>${count}</header>${results}</article>`,
    toc: `<aside class="toc"></aside>`
  })
}

/** The site's 404 page, with the site's navigation so the reader can go on. */
export const renderNotFound = (view: NotFoundView): string => htmlText(notFoundDocument(view))

/** `renderNotFound`'s document in parts. */
export const notFoundDocument = (view: NotFoundView): HtmlDocument =>
  documentOf(view, {
    title: `Page not found | ${view.site.title}`,
    noindex: true,
    main:
      `<article class="page not-found"><header class="page-header"><p class="eyebrow">404</p><h1>Page not found</h1>` +
      `<p class="page-description">${view.path ? `There is no page at <code>${e(view.path)}</code>.` : "This page does not exist."} It may have been moved or deleted.</p></header>` +
      `<p><a class="button" ${href(view.site.url)}>Go to the home page</a></p></article>`,
    toc: `<aside class="toc"></aside>`
  })

/**
 * A page a reader is refused with (a share link or a sign-in needed, a token not valid): the site's
 * title, logo, favicon, colors and fonts around the reason, and a way on when there is one. It
 * shows nothing of the site's content, not even its page tree.
 */
export const renderRefusal = (view: RefusalView): string => {
  const mode = view.themes.default
  const htmlAttrs =
    ` lang="${e(view.lang ?? "en")}"` +
    (mode === "system" ? "" : ` data-theme="${mode}"`) +
    (view.themes.toggeable ? ` data-toggeable` : "")
  const logo = view.site.logo
  const brand = logo
    ? `<span class="brand">${themedImg(logo, view.site.title, "logo")}<span class="visually-hidden">${e(view.site.title)}</span></span>`
    : view.site.title === ""
    ? ""
    : `<span class="brand"><span class="brand-title">${e(view.site.title)}</span></span>`
  const action = view.action === undefined ? "" : `<p><a class="button" ${href(view.action.url)}>${e(view.action.label)}</a></p>`
  return (
    `<!DOCTYPE html>\n<html${htmlAttrs}><head>` +
    `<meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex">` +
    `<title>${e(view.title)}${view.site.title === "" ? "" : ` | ${e(view.site.title)}`}</title>` +
    `<meta name="color-scheme" content="${mode === "system" ? "light dark" : mode}">` +
    favicon(view.site) +
    `<style>${(view.memo ?? unkept).theme(view.styling).css}</style>` +
    `<script>${earlyScript}</script>` +
    `</head><body class="refusal-body">` +
    (brand === "" ? "" : `<header class="site-header"><div class="header-bar">${brand}</div></header>`) +
    `<main id="content" class="refusal"><article class="page refusal-card">` +
    `<header class="page-header">${view.code ? `<p class="eyebrow">${e(view.code)}</p>` : ""}<h1>${e(view.title)}</h1>` +
    `<p class="page-description">${e(view.message)}</p></header>${action}</article></main>` +
    `</body></html>`
  )
}
