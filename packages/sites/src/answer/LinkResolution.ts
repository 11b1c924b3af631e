/** Where a page's links, files and link titles lead on the published site (content's link rules, the site's URLs). */
import { pageLinkContext, type Revision } from "@quire/content"
import { linkResolver } from "@quire/markdown"
import { linkOptions as resolvedTo } from "../render/LinkOptions.ts"
import type * as Markdown from "../render/Markdown.ts"
import type { Place } from "./Places.ts"
import type { Reading } from "./Reading.ts"
import type { Entry } from "./Revisions.ts"

/** How the markdown of a page (`entry`) of a place resolves what it links to. */
export const linkOptions = (
  reading: Reading,
  place: Place,
  rev: Revision,
  entry: Entry
): Pick<Markdown.RenderOptions, "resolveLink" | "resolveFile" | "resolveTitle"> => {
  const info = reading.infoOf(rev)
  return resolvedTo(rev, linkResolver(pageLinkContext(info.links, entry.page, entry.path, "quire-app:")), {
    page: reading.urls.pageIdUrl(place, info),
    file: (file) => reading.urls.fileUrl(place, file),
    title: (pageId) => info.byId.get(pageId)?.page.title
  })
}
