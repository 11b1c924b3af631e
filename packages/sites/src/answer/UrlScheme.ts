/** Where things of a published site live below its root: pages, their markdown, files, absolute URLs. */
import type { FileNode, PageNode } from "@quire/content"
import type { Place } from "./Places.ts"
import type { RevisionInfo } from "./Revisions.ts"

export const encodePath = (path: string): string => path.split("/").map(encodeURIComponent).join("/")

export const safeDecode = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

export interface UrlScheme {
  /** The absolute URL of the site's root, ending with `/`. */
  readonly root: string
  /** The root's path, ending with `/`. */
  readonly basePath: string
  /** A page at `path` in a place; the place's home page (`home`) at the place's own URL. */
  readonly pageUrl: (place: Place, path: string, home: string | undefined) => string
  readonly absolute: (url: string) => string
  /** A page's raw markdown: `<page url>.md`, `index.md` for a site space's first page. */
  readonly markdownUrlOf: (place: Place, path: string, home: string | undefined) => string
  readonly fileUrl: (place: Place, file: FileNode) => string
  /** The URL of a page by id: a document's own, or a group's or link page's first document below it. */
  readonly pageIdUrl: (place: Place, info: RevisionInfo) => (pageId: string) => string | undefined
}

/** The first document at or below a page, by path. */
const firstIn = (page: PageNode, path: string): string | undefined => {
  if (page.type === "document") return path
  for (const child of page.pages) {
    const found = firstIn(child, `${path}/${child.slug}`)
    if (found !== undefined) return found
  }
  return undefined
}

export const urlScheme = (root: string): UrlScheme => {
  const basePath = new URL(root).pathname
  const pageUrl = (place: Place, path: string, home: string | undefined): string =>
    `${basePath}${place.prefix}${path === home ? "" : encodePath(path)}`
  return {
    root,
    basePath,
    pageUrl,
    absolute: (url) => new URL(url, root).toString(),
    markdownUrlOf: (place, path, home) => path === home ? `${basePath}${place.prefix}index.md` : `${pageUrl(place, path, home)}.md`,
    fileUrl: (place, file) => `${basePath}~files/${encodeURIComponent(place.siteSpace.space.id)}/${encodeURIComponent(file.id)}`,
    pageIdUrl: (place, info) => {
      const home = info.home?.path
      return (pageId) => {
        const entry = info.byId.get(pageId)
        if (entry === undefined) return undefined
        const path = entry.page.type === "document" ? entry.path : firstIn(entry.page, entry.path)
        return path === undefined ? undefined : pageUrl(place, path, home)
      }
    }
  }
}
