/**
 * How a page's links, images and link titles resolve: content's link rules (`linkResolver` over the
 * page's link context) and URLs the caller builds, so a published site (answer/LinkResolution.ts)
 * and a body drawn for the app (PageBody.ts) follow one set of rules to different places.
 */
import type { FileNode, Revision } from "@quire/content"
import type { linkResolver } from "@quire/markdown"
import type * as Markdown from "./Markdown.ts"

/** Where resolved links lead, and the titles of pages. */
export interface LinkUrls {
  /** The URL of a page of the revision, by id (undefined: not shown there). */
  readonly page: (pageId: string) => string | undefined
  readonly file: (file: FileNode) => string
  readonly title: (pageId: string) => string | undefined
}

/** A file a page names: `files/<id>` (as the editor writes it), its id, or its name. */
const fileOf = (rev: Revision, ref: string): FileNode | undefined => {
  const match = /^\/?files\/([^/?#]+)/.exec(ref)
  if (match !== null) {
    let id = match[1]!
    try {
      id = decodeURIComponent(id)
    } catch {
      // kept as written
    }
    return rev.files.find((f) => f.id === id)
  }
  const name = ref.split("/").pop()
  return rev.files.find((f) => f.id === ref || f.name === name || f.name === ref)
}

/** The renderer's link options for a page of `rev` whose links `resolve` reads. */
export const linkOptions = (
  rev: Revision,
  resolve: ReturnType<typeof linkResolver>,
  urls: LinkUrls
): Pick<Markdown.RenderOptions, "resolveLink" | "resolveFile" | "resolveTitle"> => {
  const target = (url: string) => {
    const found = resolve({ url, kind: "link" })
    return found === undefined || found.status === "broken" ? undefined : found.target
  }
  return {
    resolveLink: (url) => {
      const t = target(url)
      if (t === undefined) return undefined
      switch (t.kind) {
        case "url":
          return t.url
        case "file": {
          const file = rev.files.find((f) => f.id === t.file)
          return file === undefined ? undefined : urls.file(file)
        }
        case "page": {
          if (!("page" in t)) return undefined
          const at = urls.page(t.page)
          return at === undefined ? undefined : `${at}${t.anchor === undefined ? "" : `#${t.anchor}`}`
        }
      }
    },
    resolveFile: (ref) => {
      // A path from the page's file in the repository first (`img/x.png` beside it), then by id or name.
      const found = resolve({ url: ref, kind: "image" })
      const byPath = found?.status === "ok" && found.target.kind === "file" ? found.target.file : undefined
      const file = byPath === undefined ? fileOf(rev, ref) : rev.files.find((f) => f.id === byPath)
      return file === undefined ? undefined : { url: urls.file(file), name: file.name, contentType: file.contentType }
    },
    resolveTitle: (url) => {
      const t = target(url)
      return t?.kind === "page" && "page" in t ? urls.title(t.page) : undefined
    }
  }
}
