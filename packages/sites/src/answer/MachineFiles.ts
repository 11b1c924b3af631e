/** The files a site answers machines at its root: `sitemap.xml`, `robots.txt`, `llms.txt` and `llms-full.txt`. */
import { createHash } from "node:crypto"
import { Effect } from "effect"
import { flattenPages, hiddenPath, type PublishedContent } from "@quire/content"
import { adaptMarkdown } from "../render/Adaptive.ts"
import { withIncludes } from "../render/Includes.ts"
import * as Machines from "../render/Machines.ts"
import { text, type RenderAnswer } from "./Answer.ts"
import { siteTitle } from "./Chrome.ts"
import { sectionTitle } from "./Navigation.ts"
import type { Reading } from "./Reading.ts"
import { type Entry, firstDocument } from "./Revisions.ts"
import type { MachineFile } from "./Routing.ts"

/** The pages of every place the audience sees, in reading order, for machines. */
const machineSections = (reading: Reading, documents: PublishedContent["Service"], withMarkdown: boolean) =>
  Effect.gen(function*() {
    const { absolute, pageUrl, markdownUrlOf } = reading.urls
    const out: Array<Machines.MachineSection & { readonly entries: ReadonlyArray<Entry> }> = []
    for (const place of reading.visible.places) {
      const rev = yield* reading.revision(place)
      const home = firstDocument(rev.pages)?.path
      const entries = flattenPages(rev.pages).filter((e) => e.page.type === "document" && !hiddenPath(rev.pages, e.path))
      const stored = withMarkdown
        ? yield* documents.documents(entries.flatMap((e) => (e.page.document === undefined ? [] : [e.page.document])))
        : new Map<string, string>()
      // Each page's markdown by page id, the reusable contents it includes in place.
      const markdowns = new Map<string, string>()
      for (const e of entries) {
        const markdown = e.page.document === undefined ? undefined : stored.get(e.page.document)
        // Each page as this reader is shown it: `{% if %}` branches their claims do not open are left out.
        if (markdown !== undefined) {
          markdowns.set(e.page.id, adaptMarkdown(yield* withIncludes(markdown, rev, e.page.git?.path, documents.documents), reading.request.claims).markdown)
        }
      }
      out.push({
        title: sectionTitle(reading, place),
        entries,
        pages: entries.map((e) => {
          const url = absolute(pageUrl(place, e.path, home))
          return {
            title: e.page.title,
            url,
            markdownUrl: absolute(markdownUrlOf(place, e.path, home)),
            description: e.page.description,
            lastModified: new Date(e.page.updatedAt),
            markdown: markdowns.get(e.page.id)
          }
        })
      })
    }
    return out
  })

/**
 * The answer cache's key of a machine file; `robots.txt` is not kept (it reads nothing).
 * llms-full.txt holds every page's adaptive content as its reader is shown it: it is kept per
 * reader's claims (`claims`), which the pages' conditions may read any of.
 */
export const cacheKeyOf = (file: MachineFile, claims: Readonly<Record<string, unknown>> = {}): string | undefined =>
  file === "sitemap.xml"
    ? "sitemap"
    : file === "llms.txt"
    ? "llms"
    : file === "llms-full.txt"
    ? (Object.keys(claims).length === 0 ? "llms-full" : `llms-full|${createHash("sha256").update(JSON.stringify(claims)).digest("base64url")}`)
    : undefined

export const machineFile = (reading: Reading, documents: PublishedContent["Service"], file: MachineFile): Effect.Effect<RenderAnswer> => {
  const { request } = reading
  switch (file) {
    case "sitemap.xml":
      return Effect.map(machineSections(reading, documents, false), (sections) =>
        text("application/xml; charset=utf-8", Machines.sitemap(request.noindex ? [] : sections.flatMap((s) => s.pages))))
    case "robots.txt":
      return Effect.succeed(
        text("text/plain; charset=utf-8", Machines.robots({ indexable: !request.noindex, sitemapUrl: reading.urls.absolute(`${reading.urls.basePath}sitemap.xml`) }))
      )
    case "llms.txt":
      return Effect.map(machineSections(reading, documents, false), (sections) =>
        text("text/plain; charset=utf-8", Machines.llmsTxt({ title: siteTitle(reading.site), sections })))
    case "llms-full.txt":
      return Effect.map(machineSections(reading, documents, true), (sections) =>
        text("text/plain; charset=utf-8", Machines.llmsFullTxt({ title: siteTitle(reading.site), sections })))
  }
}
