/**
 * What the link picker offers: the change request's pages and their headings, each with the link GitBook's
 * markdown writes for it: the relative path from this page's file to the target page's file in the Git layout
 * (`other.md`, `../guides/README.md`), `#anchor` for a heading. The layout is the one links are resolved in
 * (`@quire/markdown`'s Links.ts, `@quire/content`'s MovedLinks.ts): a page imported from Git is its own file;
 * otherwise the first page is `README.md`, a page with subpages `<path>/README.md`, any other `<path>.md`.
 */

/** A page of `listPages` as the picker needs it. */
export interface PageEntry {
  readonly id: string
  readonly title: string
  readonly path: string
  readonly type: string
  readonly git?: { readonly path: string } | undefined
  readonly pages?: ReadonlyArray<PageEntry> | undefined
}

export interface Heading {
  readonly title: string
  readonly id: string
}

export interface LinkTarget {
  /** What the picker lists and a link with no selected text says. */
  readonly title: string
  /** The page a heading is on (its own title for a page). */
  readonly pageTitle: string
  readonly href: string
  readonly kind: "page" | "heading"
}

interface Placed {
  readonly page: PageEntry
  readonly hasChildren: boolean
}

const flatten = (pages: ReadonlyArray<PageEntry>): Array<Placed> =>
  pages.flatMap((page) => [{ page, hasChildren: (page.pages?.length ?? 0) > 0 }, ...flatten(page.pages ?? [])])

const segmentsOf = (path: string): Array<string> => path.split("/").filter((s) => s !== "")

/** `target` (a path from the repository's root) as written from `folder`. */
export const relativeTo = (folder: ReadonlyArray<string>, target: string): string => {
  const to = segmentsOf(target)
  let common = 0
  while (common < folder.length && common < to.length - 1 && folder[common] === to[common]) common++
  return [...folder.slice(common).map(() => ".."), ...to.slice(common)].join("/")
}

/** What a destination may not hold unescaped. */
const encodePath = (path: string): string => path.split("/").map((s) => s.replace(/[()<>#?% ]/g, encodeURIComponent)).join("/")

/**
 * Every page the picker can link to from `currentId`, with its headings (`headings` by page id) after it.
 * Groups and link pages have no document and are left out; headings of the current page link as `#anchor`.
 */
export const linkTargets = (
  pages: ReadonlyArray<PageEntry>,
  currentId: string,
  headings: ReadonlyMap<string, ReadonlyArray<Heading>> = new Map()
): Array<LinkTarget> => {
  const all = flatten(pages)
  const root = all[0]?.page.path ?? ""
  const fileOf = ({ page, hasChildren }: Placed): string =>
    page.git?.path ?? (page.path === root ? "README.md" : hasChildren ? `${page.path}/README.md` : `${page.path}.md`)
  const current = all.find((p) => p.page.id === currentId)
  const folder = current === undefined ? [] : segmentsOf(fileOf(current)).slice(0, -1)
  return all
    .filter(({ page }) => page.type === "document")
    .flatMap((placed) => {
      const { page } = placed
      const self = page.id === currentId
      const href = encodePath(relativeTo(folder, fileOf(placed)))
      return [
        { title: page.title, pageTitle: page.title, href, kind: "page" as const },
        ...(headings.get(page.id) ?? []).map((h) => ({ title: h.title, pageTitle: page.title, href: `${self ? "" : href}#${h.id}`, kind: "heading" as const }))
      ]
    })
}

/** The targets whose title (or page's title) has every word of `query`; a page's own entry before its headings. */
export const searchTargets = (targets: ReadonlyArray<LinkTarget>, query: string): Array<LinkTarget> => {
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== "")
  return targets.filter((t) => words.every((w) => `${t.title} ${t.pageTitle}`.toLowerCase().includes(w)))
}

/** Whether what was typed is a link to write as is (a URL, mail, an anchor or a path), not a search. */
export const isTypedLink = (text: string): boolean => /^(https?:\/\/|mailto:|#|\/|\.\.?\/)\S*$/i.test(text.trim()) || /^[\w-]+\.[a-z]{2,}(\/\S*)?$/i.test(text.trim())

/** A typed link as written: `example.com` becomes `https://example.com`. */
export const typedHref = (text: string): string => {
  const t = text.trim()
  return /^[\w-]+\.[a-z]{2,}(\/\S*)?$/i.test(t) && !/\.md$/i.test(t) ? `https://${t}` : t
}

/** The `##`-style headings of a page's rendered HTML (`format=html`), with the ids the published page gives them. */
export const headingsOfHtml = (html: string): Array<Heading> => {
  const doc = new DOMParser().parseFromString(html, "text/html")
  return Array.from(doc.querySelectorAll<HTMLElement>("h1[id], h2[id], h3[id]")).map((h) => ({
    id: h.id,
    title: (Array.from(h.childNodes).filter((n) => !(n instanceof HTMLElement && n.classList.contains("heading-anchor"))).map((n) => n.textContent).join("")).trim()
  }))
}
