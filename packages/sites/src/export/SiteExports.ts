/**
 * A published site as static files (docs/sites.md, "Exporting a site"): every page as the site's
 * renderer draws it for a reader without claims, its markdown, the machine files, the assets and
 * files its pages load, and a search index with the script that answers the site's search box
 * offline. Files come one at a time as the site is crawled from its root and its llms.txt, so a
 * large site streams; the serving app zips them.
 */
import { Clock, Context, Effect, Layer, Option, Stream } from "effect"
import { Errors, type Actor } from "@quire/kernel"
import { indexedPage, ParsePool } from "@quire/content"
import type { SiteVisibility } from "../domain/Site.ts"
import { PublishedSites, type PublishedSite } from "../PublishedSites.ts"
import { siteStatic } from "../render/SiteStatic.ts"
import * as SiteGuard from "../SiteGuard.ts"
import { SiteRenderer } from "../SiteRenderer.ts"
import {
  cssLinks,
  exportFolder,
  fileOf,
  type IndexedExportPage,
  pageFileOfMarkdown,
  redirectHtml,
  relativeUrl,
  searchIndexScript,
  siteBase,
  staticHtml
} from "./StaticFiles.ts"

/** One file of an export: its path below the export's root and its bytes, or a stream of them (a space's file). */
export type ExportFile =
  | { readonly path: string; readonly bytes: Uint8Array }
  | { readonly path: string; readonly stream: Stream.Stream<Uint8Array>; readonly size: number }

/** Bounds of one export: past either, the crawl stops and the export says so in `EXPORT-INCOMPLETE.txt`. */
export interface ExportLimits {
  readonly maxFiles: number
  readonly maxMillis: number
}

export const defaultLimits: ExportLimits = { maxFiles: 20_000, maxMillis: 10 * 60_000 }

/** What an export holds, said to whoever asks for one. */
export interface ExportPlan {
  readonly site: PublishedSite
  readonly visibility: SiteVisibility
  /** Undefined for a public site; else what part of it the export holds. */
  readonly notice: string | undefined
}

/** What the export holds of a site with the visibility, when not the whole public site. */
export const noticeOf = (visibility: SiteVisibility): string | undefined => {
  switch (visibility) {
    case "public":
      return undefined
    case "unlisted":
      return "This site is unlisted: the export holds what anyone with its address sees, and its sitemap is empty and robots.txt asks not to index it."
    case "share-link":
    case "visitor-auth":
      return `This site is read ${visibility === "share-link" ? "with a share link" : "through visitor authentication"}: the export holds only what its public audience sees, a reader without claims, so content adapted to visitors' claims is left out; the files themselves ask for no link or sign-in.`
  }
}

const encoder = new TextEncoder()

const sectionsOf = (md: string, title: string, pageId: string) =>
  Effect.map(indexedPage({ id: pageId, title } as Parameters<typeof indexedPage>[0], "", md.replace(/^# [^\n]*\n+/, "")), (page) =>
    page.sections.map((s) => [s.id, s.title, s.body] as const))

export class SiteExports extends Context.Service<SiteExports, {
  /** The site and what its export holds, for its editors and admins (Forbidden to other members, NotFound to outsiders; Conflict while unpublished). */
  readonly plan: (organizationId: string, siteId: string) => Effect.Effect<ExportPlan, Errors.NotFound | Errors.Forbidden | Errors.Conflict, Actor.Actor>
  /** The published site reached at `root` as static files, one at a time. */
  readonly files: (site: PublishedSite, root: string, limits?: ExportLimits) => Stream.Stream<ExportFile>
}>()("@quire/sites/SiteExports") {
  static readonly layer = Layer.effect(
    SiteExports,
    Effect.gen(function*() {
      const guard = yield* SiteGuard.make
      const published = yield* PublishedSites
      const renderer = yield* SiteRenderer
      const pool = yield* ParsePool

      const plan = Effect.fn("SiteExports.plan")(function*(organizationId: string, siteId: string) {
        const { site } = yield* guard.editor(organizationId, siteId, "export this site")
        const found = yield* published.byId(site.id)
        if (!site.published || Option.isNone(found)) return yield* new Errors.Conflict({ reason: "The site is not published: publish it before exporting it" })
        return { site: found.value, visibility: site.visibility, notice: noticeOf(site.visibility) } satisfies ExportPlan
      })

      const files = (site: PublishedSite, root: string, limits: ExportLimits = defaultLimits): Stream.Stream<ExportFile> =>
        Stream.suspend(() => {
          const base = siteBase(root)
          const noindex = site.site.visibility !== "public"
          const queue: Array<string> = ["llms.txt", "", "sitemap.xml", "robots.txt", "llms-full.txt"]
          const seen = new Set<string>(queue)
          const written = new Set<string>()
          // The pages search finds (llms.txt lists them: hidden pages are not), by their markdown's path below the root.
          const searchable = new Map<string, string | undefined>()
          const index: Array<IndexedExportPage> = []
          let started: number | undefined
          let stopped: string | undefined
          const enqueue = (path: string) => {
            const clean = path.split(/[?#]/)[0] ?? ""
            if (seen.has(clean) || fileOf(clean) === undefined) return
            seen.add(clean)
            queue.push(clean)
          }
          const render = (path: string) =>
            renderer.render({ site, root, path, query: new URLSearchParams(), claims: {}, noindex, json: false })

          const step = Effect.fnUntraced(function*(path: string) {
            const file = fileOf(path)
            if (file === undefined || written.has(file)) return []
            const answer = yield* render(path)
            const url = new URL(path, root).toString()
            switch (answer.kind) {
              case "Html": {
                if (answer.status !== 200) return []
                const made = staticHtml(answer.html, url, file, base)
                made.links.forEach(enqueue)
                written.add(file)
                return [{ path: file, bytes: encoder.encode(made.html) }]
              }
              case "Text": {
                if (path === "llms.txt") {
                  // Its `## ` headings are the sections search results name (Navigation's sectionTitle).
                  let section: string | undefined
                  for (const match of answer.body.matchAll(/^## (.*)$|\]\((https?:\/\/[^)\s]+)\)/gm)) {
                    if (match[1] !== undefined) {
                      section = match[1].trim()
                      continue
                    }
                    const linked = base.pathOf(new URL(match[2]!))
                    if (linked === undefined) continue
                    if (linked.endsWith(".md")) searchable.set(linked, section)
                    enqueue(linked)
                    const pageFile = fileOf(linked)
                    if (pageFile !== undefined && linked.endsWith(".md")) enqueue(linked.endsWith("index.md") ? linked.slice(0, -"index.md".length) : linked.slice(0, -3))
                  }
                }
                if (file.endsWith(".css")) cssLinks(answer.body, url, base).forEach(enqueue)
                if (searchable.has(path)) {
                  const title = /^# ([^\n]*)/.exec(answer.body)?.[1]?.trim() ?? file
                  const sections = yield* sectionsOf(answer.body, title, path).pipe(Effect.provideService(ParsePool, pool))
                  const section = searchable.get(path)
                  index.push({ title, url: pageFileOfMarkdown(file), ...(section === undefined ? {} : { section }), sections })
                }
                written.add(file)
                return [{ path: file, bytes: encoder.encode(answer.body) }]
              }
              case "File":
                written.add(file)
                return [{ path: file, bytes: answer.bytes }]
              case "Download":
                written.add(file)
                return [{ path: file, stream: answer.file.bytes, size: answer.file.size }]
              case "Redirect": {
                const target = new URL(answer.location, url)
                const to = base.pathOf(target)
                const toFile = to === undefined ? undefined : fileOf(to)
                if (to !== undefined) enqueue(to)
                written.add(file)
                return [{ path: file, bytes: encoder.encode(redirectHtml(toFile === undefined ? target.toString() : relativeUrl(file, toFile) + target.hash)) }]
              }
              case "Json":
                return []
            }
          })

          const closing = (): ReadonlyArray<ExportFile> => [
            { path: `${exportFolder}/search-index.js`, bytes: encoder.encode(searchIndexScript(index)) },
            { path: `${exportFolder}/search.js`, bytes: encoder.encode(siteStatic("export-search.js")) },
            ...(stopped === undefined ? [] : [{ path: "EXPORT-INCOMPLETE.txt", bytes: encoder.encode(`${stopped}\n`) }])
          ]

          return Stream.paginate(0, (n: number) =>
            Effect.gen(function*() {
              const next = queue.shift()
              if (next === undefined) return [closing(), Option.none<number>()] as const
              const now = yield* Clock.currentTimeMillis
              started ??= now
              if (written.size >= limits.maxFiles || now - started > limits.maxMillis) {
                stopped = `The export stopped after ${written.size} files (at most ${limits.maxFiles} files, ${Math.round(limits.maxMillis / 60_000)} minutes): pages were left out.`
                queue.length = 0
                return [closing(), Option.none<number>()] as const
              }
              return [yield* step(next), Option.some(n + 1)] as const
            }))
        })

      return SiteExports.of({ plan, files })
    })
  )
}
