/** Where a page's links, files and link titles lead on the published site (content's link rules, the site's URLs). */
import { type FileNode, pageLinkContext, type Revision } from "@quire/content"
import { linkResolver } from "@quire/markdown"
import type * as Markdown from "../render/Markdown.ts"
import type { Place } from "./Places.ts"
import type { Reading } from "./Reading.ts"
import type { Entry } from "./Revisions.ts"
import { safeDecode } from "./UrlScheme.ts"

/** A file a page names: `files/<id>` (as the editor writes it), its id, or its name. */
const fileOf = (rev: Revision, ref: string): FileNode | undefined => {
  const match = /^\/?files\/([^/?#]+)/.exec(ref)
  if (match !== null) return rev.files.find((f) => f.id === safeDecode(match[1]!))
  const name = ref.split("/").pop()
  return rev.files.find((f) => f.id === ref || f.name === name || f.name === ref)
}

/** How the markdown of a page (`entry`) of a place resolves what it links to. */
export const linkOptions = (
  reading: Reading,
  place: Place,
  rev: Revision,
  entry: Entry
): Pick<Markdown.RenderOptions, "resolveLink" | "resolveFile" | "resolveTitle"> => {
  const info = reading.infoOf(rev)
  const { fileUrl } = reading.urls
  const resolve = linkResolver(pageLinkContext(info.links, entry.page, entry.path, "quire-app:"))
  const urlOfPage = reading.urls.pageIdUrl(place, info)
  const target = (url: string) => {
    const found = resolve({ url, kind: "link" })
    if (found === undefined || found.status === "broken") return undefined
    return found.target
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
          return file === undefined ? undefined : fileUrl(place, file)
        }
        case "page": {
          if (!("page" in t)) return undefined
          const at = urlOfPage(t.page)
          return at === undefined ? undefined : `${at}${t.anchor === undefined ? "" : `#${t.anchor}`}`
        }
      }
    },
    resolveFile: (ref) => {
      // A path from the page's file in the repository first (`img/x.png` beside it), then by id or name.
      const found = resolve({ url: ref, kind: "image" })
      const byPath = found?.status === "ok" && found.target.kind === "file" ? found.target.file : undefined
      const file = byPath === undefined ? fileOf(rev, ref) : rev.files.find((f) => f.id === byPath)
      return file === undefined ? undefined : { url: fileUrl(place, file), name: file.name, contentType: file.contentType }
    },
    resolveTitle: (url) => {
      const t = target(url)
      return t?.kind === "page" && "page" in t ? info.byId.get(t.page)?.page.title : undefined
    }
  }
}
