/**
 * The view model of a published site: what the server resolves (URLs, current states, the
 * customization's content references) before `Layout` turns it into HTML. Plain data, no I/O;
 * field names follow GitBook's `SiteCustomizationSettings` where one exists.
 */
import type { TocHeading } from "./Markdown.ts"

/** A value per theme mode (GitBook's `CustomizationThemedColor` / `CustomizationThemedURL`). */
export interface Themed {
  readonly light: string
  readonly dark: string
}

/** GitBook's `CustomizationDefaultThemeMode`. */
export type ThemeMode = "light" | "dark" | "system"

/** The subset of `customization.styling` the layout honours. */
/** A font definition as a site draws it: its family and, for `@font-face`, its files by weight. */
export interface FontDefinitionView {
  readonly fontFamily: string
  readonly fontFaces?: ReadonlyArray<{
    readonly weight: number
    readonly sources: ReadonlyArray<{ readonly url: string; readonly format?: string | undefined }>
  }> | undefined
}

export interface Styling {
  readonly theme?: "clean" | "muted" | "bold" | "gradient" | undefined
  readonly primaryColor?: Themed | undefined
  readonly tint?: { readonly color: Themed } | undefined
  readonly infoColor?: Themed | undefined
  readonly successColor?: Themed | undefined
  readonly warningColor?: Themed | undefined
  readonly dangerColor?: Themed | undefined
  readonly corners?: "straight" | "rounded" | "circular" | undefined
  readonly depth?: "subtle" | "flat" | undefined
  readonly links?: "default" | "accent" | undefined
  /** A GitBook default font name (`Inter`, `Roboto`...) or a font definition's family and its files. */
  readonly font?: string | FontDefinitionView | undefined
  readonly headingFont?: string | FontDefinitionView | null | undefined
  readonly monospaceFont?: string | FontDefinitionView | undefined
  readonly sidebar?:
    | { readonly background: "default" | "filled"; readonly list: "default" | "pill" | "line" }
    | undefined
}

/** A link whose `ContentRef` the server already resolved to a URL. */
export interface LinkView {
  readonly title: string
  readonly url: string
}

/** GitBook's `CustomizationHeaderItem`, resolved: a link, a button, or a menu of links. */
export interface HeaderLinkView {
  readonly title: string
  readonly url?: string | undefined
  readonly style?: "link" | "button-primary" | "button-secondary" | undefined
  readonly links: ReadonlyArray<LinkView>
}

/** GitBook's `customization.footer`, resolved. */
export interface FooterView {
  readonly logo?: Themed | undefined
  readonly groups: ReadonlyArray<{ readonly title: string; readonly links: ReadonlyArray<LinkView> }>
  readonly copyright?: string | undefined
}

/** GitBook's `CustomizationAnnouncement`, resolved; shown only when `enabled`. */
export interface AnnouncementView {
  readonly enabled: boolean
  readonly message: string
  readonly url?: string | undefined
  readonly style: "info" | "warning" | "danger" | "success"
}

/** The site as every page shows it. */
export interface SiteInfo {
  readonly title: string
  /** The site's home (its default section and site space). */
  readonly url: string
  readonly logo?: Themed | undefined
  /** GitBook's `CustomizationFavicon`: an icon per theme or an emoji. */
  readonly favicon?: { readonly icon?: Themed | undefined; readonly emoji?: string | undefined } | undefined
}

/** A section as a tab. */
export interface SectionTab {
  readonly type: "section"
  readonly title: string
  readonly url: string
  readonly icon?: string | undefined
  readonly current: boolean
}

/** A section group: a menu of its sections in the tabs bar; current when one of them is. */
export interface SectionGroupTab {
  readonly type: "group"
  readonly title: string
  readonly icon?: string | undefined
  readonly sections: ReadonlyArray<SectionTab | LinkTab>
}

/** An external link of the structure: a tab that opens its URL. */
export interface LinkTab {
  readonly type: "link"
  readonly title: string
  readonly url: string
  readonly icon?: string | undefined
}

export type Tab = SectionTab | SectionGroupTab | LinkTab

/** A site space of the current section, shown in the variant switcher. */
export interface Variant {
  readonly title: string
  readonly url: string
  readonly current: boolean
}

/** A page of the sidebar: a document (possibly with children), a group heading, or a link. */
export type TreeItem = TreeDocument | TreeGroup | TreeLink

/**
 * A document of the tree, by its page's id: the tree holds no page's current state, so that every
 * page of a revision shares one (`SiteChrome.currentPage` names the page read).
 */
export interface TreeDocument {
  readonly type: "document"
  readonly id: string
  readonly title: string
  readonly url: string
  readonly emoji?: string | undefined
  readonly icon?: string | undefined
  readonly children: ReadonlyArray<TreeItem>
}

export interface TreeGroup {
  readonly type: "group"
  readonly title: string
  readonly children: ReadonlyArray<TreeItem>
}

/** A link page: to another page of the site (`external: false`) or to a URL. */
export interface TreeLink {
  readonly type: "link"
  readonly title: string
  readonly url: string
  readonly external: boolean
  readonly emoji?: string | undefined
  readonly icon?: string | undefined
}

/** A heading of the page for the table of contents, as `Markdown.ts` gives them. */
export type { TocHeading } from "./Markdown.ts"

/** GitBook's page cover (`cover`, `coverY`, `coverHeight` in frontmatter), resolved to URLs. */
export interface CoverView {
  readonly url: string
  /** The image in dark mode, when it differs. */
  readonly darkUrl?: string | undefined
  readonly alt?: string | undefined
  /** Vertical offset of the image in the frame, in pixels (GitBook's `yPos`, frontmatter `coverY`). */
  readonly yPos?: number | undefined
  /** Height of the frame in pixels (GitBook's `height`, frontmatter `coverHeight`; 240 when absent). */
  readonly height?: number | undefined
  /** `hero`: above the title, as wide as the text; `full`: the whole width of the main column; `background`: behind the header. */
  readonly size?: "hero" | "full" | "background" | undefined
}

/**
 * GitBook's page `layout`: the page's width and which of its parts show (each `true` unless the
 * page's frontmatter hides it). `tableOfContents` is the site's page tree beside the page, `outline`
 * the "On this page" headings.
 */
export interface PageLayoutView {
  readonly width: "default" | "wide"
  readonly cover: boolean
  readonly title: boolean
  readonly description: boolean
  readonly tableOfContents: boolean
  readonly outline: boolean
  readonly pagination: boolean
  readonly metadata: boolean
}

/** Every part shown, at the default width. */
export const defaultPageLayout: PageLayoutView = {
  width: "default",
  cover: true,
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true
}

/** The page being read. */
export interface PageView {
  readonly title: string
  readonly description?: string | undefined
  readonly emoji?: string | undefined
  /** GitBook's page icon: a Font Awesome name (`rocket-launch`) or an emoji. */
  readonly icon?: string | undefined
  /** The page's layout; every part shown at the default width when absent. */
  readonly layout?: PageLayoutView | undefined
  /** Sanitized HTML from `Markdown.ts`, inserted as is. */
  readonly html: string
  readonly headings: ReadonlyArray<TocHeading>
  readonly lastModified?: Date | undefined
  /** The page's file on the Git host when the space is Git-synced. */
  readonly editUrl?: string | undefined
  readonly cover?: CoverView | undefined
  /** The absolute URL of this page (canonical link). */
  readonly canonicalUrl: string
  /** The page's raw markdown (`<page url>.md`). */
  readonly markdownUrl: string
}

/** Everything a site's pages share: header, tabs, sidebar, footer, theme. */
/** A site's theme: its CSS, inlined in each of its pages, and the hash the pages' CSP allows it by. */
export interface Theme {
  readonly css: string
  readonly hash: string
}

/** A place in a laid-out tree: in characters of its HTML and in bytes of its UTF-8. */
export interface Offset {
  readonly char: number
  readonly byte: number
}

/** Where a document's marks go in a laid-out tree. */
export interface TreeMark {
  /** Where the link's attributes end. */
  readonly link: Offset
  /** Where the `<details>` tag's attributes end; none for a document without children. */
  readonly branch: Offset | undefined
  readonly parent: TreeMark | undefined
}

/**
 * A page tree laid out once, with no page current: its HTML and UTF-8 bytes, and for each document
 * (by page id) where its `aria-current` and its branch's `open` go, and the document it sits under.
 */
export interface LaidOutTree {
  readonly html: string
  readonly bytes: Uint8Array
  /** A digest of the bytes: a page's fingerprint hashes it instead of them. */
  readonly digest: string
  readonly marks: ReadonlyMap<string, TreeMark>
}

/**
 * What a renderer keeps for the pages it lays out (render/Layout.ts `layoutMemo`, made with the
 * renderer's layer): a site's theme by styling, and a tree laid out by tree and way of opening
 * external links. A view without one is laid out from scratch (`Layout.unkept`).
 */
export interface LayoutMemo {
  readonly theme: (styling: Styling) => Theme
  readonly tree: (tree: ReadonlyArray<TreeItem>, externalLinks: string, layOut: () => LaidOutTree) => LaidOutTree
}

export interface SiteChrome {
  /** What the renderer keeps for the layout; laid out from scratch when absent. */
  readonly memo?: LayoutMemo | undefined
  readonly site: SiteInfo
  /** The site's root path, ending in `/` (`/~sites/<id>/` or `/`). */
  readonly basePath: string
  readonly styling: Styling
  readonly header: { readonly links: ReadonlyArray<HeaderLinkView> }
  readonly footer: FooterView
  readonly announcement?: AnnouncementView | undefined
  /** GitBook's `customization.themes`. */
  readonly themes: { readonly default: ThemeMode; readonly toggeable: boolean }
  readonly tabs: ReadonlyArray<Tab>
  readonly variants: ReadonlyArray<Variant>
  readonly tree: ReadonlyArray<TreeItem>
  /** The id of the page read: marked in the tree, the branches down to it open. */
  readonly currentPage?: string | undefined
  /** The search results page; with `Accept: application/json` it answers `SearchResults`. */
  readonly searchUrl: string
  /** Ask (`~ask`, JSON), when the site offers it and the server has a model. */
  readonly askUrl?: string | undefined
  /** `<meta name="robots" content="noindex">` (unlisted, share-link and visitor-auth sites). */
  readonly noindex: boolean
  /** GitBook's `externalLinks.target`. */
  readonly externalLinks?: "self" | "blank" | undefined
  /** UI language of the document (`lang`). */
  readonly lang?: string | undefined
  /** What the page reports to the site's insights (`~insights`), when the site records them or asks for feedback. */
  readonly insights?: InsightsView | undefined
}

/** The page's insights: where events go, whether views, searches and clicks are recorded, whether the feedback box shows. */
export interface InsightsView {
  readonly url: string
  readonly views: boolean
  readonly feedback: boolean
  readonly siteSection?: string | undefined
  readonly siteSpace?: string | undefined
  readonly space?: string | undefined
}

/** A published page. */
export interface SiteView extends SiteChrome {
  readonly page: PageView
  /** GitBook's `pagination.enabled`: previous/next shown when true. */
  readonly pagination: boolean
  readonly previous?: LinkView | undefined
  readonly next?: LinkView | undefined
}

/** One search result; also the JSON item the as-you-type box reads. */
export interface SearchResult {
  readonly title: string
  readonly url: string
  readonly snippet: string
  readonly section?: string | undefined
}

/** The JSON answer of the search URL under `Accept: application/json`. */
export interface SearchResults {
  readonly items: ReadonlyArray<SearchResult>
}

/** The search results page. */
export interface SearchView extends SiteChrome {
  readonly query: string
  readonly results: ReadonlyArray<SearchResult>
}

/** The 404 page of a site. */
export interface NotFoundView extends SiteChrome {
  readonly path?: string | undefined
}

/** A page refusing the reader (share link or sign-in needed, token not valid), in the site's styling. */
export interface RefusalView {
  /** What the renderer keeps for the layout; laid out from scratch when absent. */
  readonly memo?: LayoutMemo | undefined
  readonly site: SiteInfo
  readonly styling: Styling
  readonly themes: SiteChrome["themes"]
  readonly lang?: string | undefined
  /** A short line above the title (the HTTP status, `401`). */
  readonly code?: string | undefined
  readonly title: string
  readonly message: string
  /** Where the reader may go on (the site's sign-in page). */
  readonly action?: { readonly label: string; readonly url: string } | undefined
}

/** The documents of a tree in reading order (depth first), as previous/next follows them. */
export const readingOrder = (tree: ReadonlyArray<TreeItem>): ReadonlyArray<TreeDocument> => {
  const out: Array<TreeDocument> = []
  const walk = (items: ReadonlyArray<TreeItem>): void => {
    for (const item of items) {
      if (item.type === "document") out.push(item)
      if (item.type !== "link") walk(item.children)
    }
  }
  walk(tree)
  return out
}

const linkTo = (d: TreeDocument | undefined): LinkView | undefined =>
  d === undefined ? undefined : { title: d.title, url: d.url }

/** The documents before and after the one at `at` of a reading order (none when `at` is negative). */
export const neighboursAt = (
  order: ReadonlyArray<TreeDocument>,
  at: number
): { readonly previous?: LinkView; readonly next?: LinkView } => {
  if (at < 0) return {}
  const previous = linkTo(order[at - 1])
  const next = linkTo(order[at + 1])
  return { ...(previous ? { previous } : {}), ...(next ? { next } : {}) }
}

/** The documents before and after the current one (`current`, a page id) in reading order. */
export const neighbours = (
  tree: ReadonlyArray<TreeItem>,
  current: string | undefined
): { readonly previous?: LinkView; readonly next?: LinkView } => {
  const order = readingOrder(tree)
  return neighboursAt(order, order.findIndex((d) => d.id === current))
}
