/**
 * What a published site answers at a path below its base, for one audience: an HTML page, a
 * page's markdown, the machine files, search results, a file of a revision, a redirect or a 404.
 * Knows nothing of HTTP: the serving routes decide who reads and turn answers into responses.
 */
import { Context, Effect, Layer, Option } from "effect"
import { createHash } from "node:crypto"
import { flattenPages, type FileNode, type PageNode, type Revision, RevisionsRepo, SearchIndex, SpaceContent } from "@quire/content"
import { linkResolver } from "@quire/content/markdown/Links"
import * as Audience from "./Audience.ts"
import type { PublishedSection, PublishedSite, PublishedSiteSpace } from "./PublishedSites.ts"
import * as Layout from "./render/Layout.ts"
import * as Machines from "./render/Machines.ts"
import * as Markdown from "./render/Markdown.ts"
import { operationOf } from "./render/OpenApiOperation.ts"
import type * as View from "./render/View.ts"
import { SpecOperations } from "./SpecOperations.ts"

/** Who reads and how the site is reached. */
export interface RenderRequest {
  readonly site: PublishedSite
  /** The absolute URL of the site's root as the reader reaches it, ending with `/`. */
  readonly root: string
  /** Below the root, without a leading `/`, as it came (percent-encoded). */
  readonly path: string
  readonly query: URLSearchParams
  readonly claims: Readonly<Record<string, unknown>>
  readonly noindex: boolean
  /** The search URL answers JSON. */
  readonly json?: boolean | undefined
}

/**
 * What the site answers. An HTML page is the same bytes for every response (its inline script and
 * style are allowed by hash in `policy`, its CSP), encoded once, with its ETag.
 */
export type RenderAnswer =
  | {
    readonly kind: "Html"
    readonly status: 200 | 404
    readonly html: string
    readonly bytes: Uint8Array
    readonly policy: string
    readonly etag: string
  }
  | { readonly kind: "Text"; readonly contentType: string; readonly body: string; readonly etag: string }
  | { readonly kind: "Json"; readonly body: View.SearchResults }
  | { readonly kind: "File"; readonly bytes: Uint8Array; readonly contentType: string; readonly name: string; readonly etag: string }
  | { readonly kind: "Redirect"; readonly location: string }


export interface SiteRendererShape {
  readonly render: (request: RenderRequest) => Effect.Effect<RenderAnswer>
}

const etagOf = (text: string | Uint8Array): string => `"${createHash("sha256").update(text).digest("base64url").slice(0, 27)}"`

const encoder = new TextEncoder()

/** An HTML answer: encoded once; its ETag a hash of the bytes (MD5: a fingerprint, not a secret). */
const htmlAnswer = (status: 200 | 404, html: string, styling: View.Styling): RenderAnswer => {
  const bytes = encoder.encode(html)
  return { kind: "Html", status, html, bytes, policy: Layout.policyOf(styling), etag: `"${createHash("md5").update(bytes).digest("base64url")}"` }
}

const text = (contentType: string, body: string): RenderAnswer => ({ kind: "Text", contentType, body, etag: etagOf(body) })

/** A map bounded in entries and in characters that forgets the least recently used entries. */
class Lru<V> {
  private readonly map = new Map<string, { readonly value: V; readonly size: number }>()
  private total = 0
  constructor(
    private readonly maxEntries: number,
    private readonly maxSize: number,
    private readonly sizeOf: (value: V) => number
  ) {}
  get(key: string): V | undefined {
    const entry = this.map.get(key)
    if (entry === undefined) return undefined
    this.map.delete(key)
    this.map.set(key, entry)
    return entry.value
  }
  set(key: string, value: V): void {
    const size = this.sizeOf(value) + key.length
    if (size > this.maxSize) return
    this.drop(key)
    this.map.set(key, { value, size })
    this.total += size
    while (this.map.size > this.maxEntries || this.total > this.maxSize) this.drop(this.map.keys().next().value!)
  }
  private drop(key: string): void {
    const entry = this.map.get(key)
    if (entry === undefined) return
    this.map.delete(key)
    this.total -= entry.size
  }
}

const spaces = (list: ReadonlyArray<PublishedSiteSpace>) =>
  list.map((s) => [s.siteSpace.id, s.siteSpace.path, s.siteSpace.condition, s.default, s.space.id, s.space.title, s.space.revisionId])

/** What a published site's structure, spaces' revisions and customization are: part of every cache key. */
const fingerprints = new WeakMap<PublishedSite, string>()
const fingerprint = (site: PublishedSite): string => {
  let found = fingerprints.get(site)
  if (found === undefined) {
    found = createHash("sha256")
      .update(
        JSON.stringify([
          site.site,
          site.sections.map((s) => [s.section, s.default, spaces(s.siteSpaces)]),
          site.groups,
          spaces(site.rootSiteSpaces),
          site.customization
        ])
      )
      .digest("base64url")
    fingerprints.set(site, found)
  }
  return found
}

/** What the conditions of a published site (sections, site spaces, header links) can read of a visitor's claims. */
const claimsReads = new WeakMap<PublishedSite, Audience.ClaimsRead>()
const claimsReadOf = (site: PublishedSite): Audience.ClaimsRead => {
  let found = claimsReads.get(site)
  if (found === undefined) {
    found = Audience.claimsReadBy([
      ...site.sections.flatMap((s) => [s.section.condition, ...s.siteSpaces.map((x) => x.siteSpace.condition)]),
      ...site.rootSiteSpaces.map((x) => x.siteSpace.condition),
      ...(site.customization.header?.links ?? []).map((item) => item.condition)
    ])
    claimsReads.set(site, found)
  }
  return found
}

const encodePath = (path: string): string => path.split("/").map(encodeURIComponent).join("/")

const safeDecode = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

/** A site space as the reader sees it: where it sits and its URL below the root. */
interface Place {
  readonly section: PublishedSection | undefined
  readonly siteSpace: PublishedSiteSpace
  /** Below the root, `""` or ending with `/`. */
  readonly prefix: string
}

/** The sections and site spaces an audience sees. */
interface Visible {
  readonly sections: ReadonlyArray<PublishedSection & { readonly prefix: string }>
  readonly places: ReadonlyArray<Place>
  readonly home: Place | undefined
}

const visibleOf = (site: PublishedSite, claims: Readonly<Record<string, unknown>>): Visible => {
  const placesOf = (section: PublishedSection | undefined, list: ReadonlyArray<PublishedSiteSpace>, sectionPrefix: string): Array<Place> =>
    Audience.filterVisible(list, (s) => s.siteSpace.condition, claims).map((siteSpace) => ({
      section,
      siteSpace,
      prefix: siteSpace.default ? sectionPrefix : `${sectionPrefix}${encodeURIComponent(siteSpace.siteSpace.path)}/`
    }))
  if (site.sections.length === 0) {
    const places = placesOf(undefined, site.rootSiteSpaces, "")
    return { sections: [], places, home: places.find((p) => p.siteSpace.default) }
  }
  const sections = Audience.filterVisible(site.sections, (s) => s.section.condition, claims).map((s) => ({
    ...s,
    prefix: s.default ? "" : `${encodeURIComponent(s.section.path)}/`
  }))
  const places = sections.flatMap((s) => placesOf(s, s.siteSpaces, s.prefix))
  const homeSection = sections.find((s) => s.default)
  return { sections, places, home: places.find((p) => p.section === homeSection && p.siteSpace.default) }
}

/** The place a path names, left to right (docs/sites.md, "URLs"), and the rest of the path. */
const locate = (
  site: PublishedSite,
  visible: Visible,
  segments: ReadonlyArray<string>
): { readonly place: Place; readonly rest: ReadonlyArray<string> } | undefined => {
  let rest = segments
  let section: PublishedSection | undefined
  if (site.sections.length > 0) {
    const named = visible.sections.find((s) => !s.default && s.section.path === rest[0])
    section = named ?? visible.sections.find((s) => s.default)
    if (section === undefined) return undefined
    if (named !== undefined) rest = rest.slice(1)
  }
  const places = visible.places.filter((p) => p.section === section)
  const named = places.find((p) => !p.siteSpace.default && p.siteSpace.siteSpace.path === rest[0])
  const place = named ?? places.find((p) => p.siteSpace.default)
  if (place === undefined) return undefined
  return { place, rest: named === undefined ? rest : rest.slice(1) }
}

interface Entry {
  readonly page: PageNode
  readonly path: string
}

/** The space's first document: the home of a site space. */
const firstDocument = (pages: ReadonlyArray<PageNode>): Entry | undefined => {
  const visit = (nodes: ReadonlyArray<PageNode>, base: string): Entry | undefined => {
    for (const page of nodes) {
      if (page.hidden === true) continue
      const path = base === "" ? page.slug : `${base}/${page.slug}`
      if (page.type === "document") return { page, path }
      if (page.type === "group") {
        const found = visit(page.pages, path)
        if (found !== undefined) return found
      }
    }
    return undefined
  }
  return visit(pages, "")
}

/** What the renderer reads of a revision's pages, computed once per revision (a revision never changes). */
interface RevisionInfo {
  readonly pages: ReadonlyArray<Entry>
  readonly home: Entry | undefined
  readonly byId: ReadonlyMap<string, Entry>
  readonly byPath: ReadonlyMap<string, Entry>
  readonly idsByPath: ReadonlyMap<string, string>
  readonly fileIds: ReadonlySet<string>
}

const infos = new Map<string, RevisionInfo>()
const infoOf = (rev: Revision): RevisionInfo => {
  let found = infos.get(rev.id)
  if (found === undefined) {
    const pages = flattenPages(rev.pages)
    found = {
      pages,
      home: firstDocument(rev.pages),
      byId: new Map(pages.map((e) => [e.page.id, e] as const)),
      byPath: new Map(pages.map((e) => [e.path, e] as const)),
      idsByPath: new Map(pages.map((e) => [e.path, e.page.id] as const)),
      fileIds: new Set(rev.files.map((f) => f.id))
    }
    if (infos.size >= 200) infos.delete(infos.keys().next().value!)
    infos.set(rev.id, found)
  }
  return found
}

/** Rendered answers kept: at most this many, of at most this many characters in all. */
const cacheEntries = 2000
const cacheCharacters = 64 * 1024 * 1024

/** The specs a page's `{% openapi-operation spec="…" %}` blocks name (outside code or not: a spare look-up is harmless). */
const operationSpecs = (markdown: string): ReadonlyArray<string> => {
  if (!markdown.includes("openapi-operation")) return []
  const found = new Set<string>()
  for (const match of markdown.matchAll(/\{%-?\s*openapi-operation\b[^%]*?\bspec\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'%]+))/g)) {
    const slug = match[1] ?? match[2] ?? match[3] ?? ""
    if (slug !== "" && found.size < 20) found.add(slug)
  }
  return [...found]
}

const sizeOf = (answer: RenderAnswer): number =>
  answer.kind === "Html" ? answer.html.length + answer.bytes.length : answer.kind === "Text" ? answer.body.length : answer.kind === "File" ? answer.bytes.length : 100

export class SiteRenderer extends Context.Service<SiteRenderer, SiteRendererShape>()("@quire/sites/SiteRenderer") {
  static readonly layer = Layer.effect(
    SiteRenderer,
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const revisions = yield* RevisionsRepo
      const index = yield* SearchIndex
      const cache = new Lru<RenderAnswer>(cacheEntries, cacheCharacters, sizeOf)
      const specs = yield* SpecOperations
      // The specs' versions a cached page showed, by its key: a new version renders it again.
      const pageSpecs = new Map<string, ReadonlyArray<readonly [string, string | undefined]>>()
      const specsCurrent = (organizationId: string, used: ReadonlyArray<readonly [string, string | undefined]>) =>
        Effect.map(
          Effect.forEach(used, ([slug]) => specs.latestVersionId(organizationId, slug)),
          (ids) => ids.every((id, i) => Option.getOrUndefined(id) === used[i]![1])
        )

      // Revisions never change: the last ones read are kept, so that an uncached page reads none.
      const kept = new Map<string, Revision>()
      const revisionOf = (place: Place) =>
        Effect.suspend(() => {
          const id = place.siteSpace.space.revisionId
          const hit = kept.get(id)
          if (hit !== undefined) return Effect.succeed(hit)
          return Effect.tap(Effect.orDie(content.revisionById(id)), (rev) =>
            Effect.sync(() => {
              if (kept.size >= 50) kept.delete(kept.keys().next().value!)
              kept.set(id, rev)
            }))
        })

      const render = Effect.fn("SiteRenderer.render")(function*(request: RenderRequest): Effect.fn.Return<RenderAnswer> {
        const { site, claims } = request
        const visible = visibleOf(site, claims)
        const root = request.root
        const basePath = new URL(root).pathname
        const rawPath = request.path.replace(/^\/+/, "")
        const decoded = rawPath.split("/").filter((s) => s !== "").map(safeDecode)
        const segments = decoded.filter((s): s is string => s !== undefined)
        // Readers whose claims no condition of the site tells apart share answers; no others do.
        const audience = `${Audience.audienceKey(claims, claimsReadOf(site))}:${request.noindex ? 1 : 0}`
        const keyBase = `${site.site.id}|${fingerprint(site)}|${root}|${audience}`

        const cached = <E, R>(key: string, make: Effect.Effect<RenderAnswer, E, R>) =>
          Effect.suspend(() => {
            const hit = cache.get(`${keyBase}|${key}`)
            if (hit !== undefined) return Effect.succeed(hit)
            return Effect.tap(make, (answer) => Effect.sync(() => cache.set(`${keyBase}|${key}`, answer)))
          })

        // Everything below needs the revisions of what the audience sees, read once per request.
        const revisionCache = new Map<string, Revision>()
        const revision = (place: Place) =>
          Effect.suspend(() => {
            const id = place.siteSpace.space.revisionId
            const hit = revisionCache.get(id)
            return hit !== undefined
              ? Effect.succeed(hit)
              : Effect.tap(revisionOf(place), (r) => Effect.sync(() => revisionCache.set(id, r)))
          })

        const pageUrl = (place: Place, path: string, home: string | undefined): string =>
          `${basePath}${place.prefix}${path === home ? "" : encodePath(path)}`
        const absolute = (url: string): string => new URL(url, root).toString()
        /** A page's raw markdown: `<page url>.md`, `index.md` for a site space's first page. */
        const markdownUrlOf = (place: Place, path: string, home: string | undefined): string =>
          path === home ? `${basePath}${place.prefix}index.md` : `${pageUrl(place, path, home)}.md`

        const sectionTitle = (place: Place): string | undefined => {
          if (place.section === undefined) return undefined
          const variants = visible.places.filter((p) => p.section === place.section)
          const title = place.section.section.title
          return variants.length > 1 && place.siteSpace.space.title !== title ? `${title} · ${place.siteSpace.space.title}` : title
        }

        const tabsOf = (current: Place | undefined): ReadonlyArray<View.Tab> => {
          const tabs: Array<View.Tab> = []
          const groupTabs = new Map<string, Array<View.SectionTab>>()
          for (const s of visible.sections) {
            const tab: View.SectionTab = {
              type: "section",
              title: s.section.title,
              url: `${basePath}${s.prefix}`,
              icon: s.section.icon ?? undefined,
              current: current?.section === s
            }
            const groupId = s.section.groupId
            const group = groupId === null ? undefined : site.groups.find((g) => g.id === groupId)
            if (group === undefined) {
              tabs.push(tab)
              continue
            }
            let members = groupTabs.get(group.id)
            if (members === undefined) {
              members = []
              groupTabs.set(group.id, members)
              tabs.push({ type: "group", title: group.title, icon: group.icon ?? undefined, sections: members })
            }
            members.push(tab)
          }
          return tabs
        }

        const variantsOf = (current: Place | undefined): ReadonlyArray<View.Variant> => {
          if (current === undefined) return []
          const variants = visible.places.filter((p) => p.section === current.section)
          return variants.length < 2
            ? []
            : variants.map((p) => ({ title: p.siteSpace.space.title, url: `${basePath}${p.prefix}`, current: p === current }))
        }

        const pageIdUrl = (place: Place, rev: Revision) => {
          const info = infoOf(rev)
          const home = info.home?.path
          const byId = info.byId
          const firstIn = (page: PageNode, path: string): string | undefined => {
            if (page.type === "document") return path
            for (const child of page.pages) {
              const found = firstIn(child, `${path}/${child.slug}`)
              if (found !== undefined) return found
            }
            return undefined
          }
          return (pageId: string): string | undefined => {
            const entry = byId.get(pageId)
            if (entry === undefined) return undefined
            const path = entry.page.type === "document" ? entry.path : firstIn(entry.page, entry.path)
            return path === undefined ? undefined : pageUrl(place, path, home)
          }
        }

        const fileUrl = (place: Place, file: FileNode): string =>
          `${basePath}~files/${encodeURIComponent(place.siteSpace.space.id)}/${encodeURIComponent(file.id)}`

        const treeOf = (place: Place, rev: Revision, currentId: string | undefined): ReadonlyArray<View.TreeItem> => {
          const home = infoOf(rev).home?.path
          const urlOfPage = pageIdUrl(place, rev)
          const walk = (nodes: ReadonlyArray<PageNode>, base: string): Array<View.TreeItem> =>
            nodes.flatMap((page): Array<View.TreeItem> => {
              if (page.hidden === true) return []
              const path = base === "" ? page.slug : `${base}/${page.slug}`
              switch (page.type) {
                case "group":
                  return [{ type: "group", title: page.title, children: walk(page.pages, path) }]
                case "link": {
                  const target = page.target
                  let url: string | undefined
                  let external = false
                  if (target?.kind === "url") {
                    url = target.url
                    external = true
                  } else if (target?.kind === "page") url = urlOfPage(target.page)
                  else if (target?.kind === "file") {
                    const file = rev.files.find((f) => f.id === target.file)
                    url = file === undefined ? undefined : fileUrl(place, file)
                  }
                  return url === undefined ? [] : [{ type: "link", title: page.title, url, external, emoji: page.emoji, icon: page.icon }]
                }
                case "document":
                  return [{
                    type: "document",
                    title: page.title,
                    url: pageUrl(place, path, home),
                    emoji: page.emoji,
                    icon: page.icon,
                    current: page.id === currentId,
                    children: walk(page.pages, path)
                  }]
              }
            })
          return walk(rev.pages, "")
        }

        const customization = site.customization
        const chrome = (
          place: Place | undefined,
          rev: Revision | undefined,
          currentId: string | undefined,
          tree?: ReadonlyArray<View.TreeItem>
        ): View.SiteChrome => ({
          site: {
            title: customization.title ?? site.site.title,
            url: basePath,
            logo: customization.header?.logo,
            favicon: customization.favicon as View.SiteInfo["favicon"]
          },
          basePath,
          styling: (customization.styling ?? {}) as View.Styling,
          header: {
            links: (customization.header?.links ?? []).flatMap((item) =>
              item.condition !== undefined && !Audience.visible(item.condition, claims)
                ? []
                : [{
                  title: item.title,
                  url: item.to === null ? undefined : refUrl(item.to),
                  style: item.style,
                  links: item.links.flatMap((l) => linkOf(l))
                }]
            )
          },
          footer: {
            logo: customization.footer?.logo,
            groups: (customization.footer?.groups ?? []).map((g) => ({ title: g.title, links: g.links.flatMap((l) => linkOf(l)) })),
            copyright: customization.footer?.copyright
          },
          announcement: announcementOf(customization.announcement),
          themes: customization.themes ?? { default: "system", toggeable: true },
          tabs: tabsOf(place),
          variants: variantsOf(place),
          tree: tree ?? (place === undefined || rev === undefined ? [] : treeOf(place, rev, currentId)),
          searchUrl: `${basePath}~search`,
          noindex: request.noindex,
          externalLinks: customization.externalLinks?.target,
          lang: customization.internationalization?.locale
        })

        const notFound = (place: Place | undefined) =>
          Effect.gen(function*() {
            const rev = place === undefined ? undefined : yield* revision(place)
            const view = chrome(place, rev, undefined)
            return htmlAnswer(404, Layout.renderNotFound({ ...view, path: `/${decoded.join("/")}` }), view.styling)
          })

        /** The pages of every place the audience sees, in reading order, for machines. */
        const machineSections = (withMarkdown: boolean) =>
          Effect.gen(function*() {
            const out: Array<Machines.MachineSection & { readonly entries: ReadonlyArray<Entry> }> = []
            for (const place of visible.places) {
              const rev = yield* revision(place)
              const home = firstDocument(rev.pages)?.path
              const entries = flattenPages(rev.pages).filter((e) => e.page.type === "document" && !hiddenPath(rev.pages, e.path))
              const markdowns = withMarkdown
                ? yield* revisions.documents(entries.flatMap((e) => (e.page.document === undefined ? [] : [e.page.document])))
                : new Map<string, string>()
              out.push({
                title: sectionTitle(place),
                entries,
                pages: entries.map((e) => {
                  const url = absolute(pageUrl(place, e.path, home))
                  return {
                    title: e.page.title,
                    url,
                    markdownUrl: absolute(markdownUrlOf(place, e.path, home)),
                    description: e.page.description,
                    lastModified: new Date(e.page.updatedAt),
                    markdown: e.page.document === undefined ? undefined : markdowns.get(e.page.document)
                  }
                })
              })
            }
            return out
          })


        // Machine files and routes of their own, at the root of the site.
        const first = segments[0]
        if (segments.length === 1 && first === "sitemap.xml") {
          return yield* cached("sitemap", Effect.map(machineSections(false), (sections) =>
            text("application/xml; charset=utf-8", Machines.sitemap(request.noindex ? [] : sections.flatMap((s) => s.pages)))))
        }
        if (segments.length === 1 && first === "robots.txt") {
          return text("text/plain; charset=utf-8", Machines.robots({ indexable: !request.noindex, sitemapUrl: absolute(`${basePath}sitemap.xml`) }))
        }
        if (segments.length === 1 && first === "llms.txt") {
          return yield* cached("llms", Effect.map(machineSections(false), (sections) =>
            text("text/plain; charset=utf-8", Machines.llmsTxt({ title: customization.title ?? site.site.title, sections }))))
        }
        if (segments.length === 1 && first === "llms-full.txt") {
          return yield* cached("llms-full", Effect.map(machineSections(true), (sections) =>
            text("text/plain; charset=utf-8", Machines.llmsFullTxt({ title: customization.title ?? site.site.title, sections }))))
        }
        if (first === "~files" && segments.length === 3) {
          const place = visible.places.find((p) => p.siteSpace.space.id === segments[1])
          if (place === undefined) return yield* notFound(visible.home)
          const rev = yield* revision(place)
          const file = rev.files.find((f) => f.id === segments[2])
          if (file === undefined) return yield* notFound(visible.home)
          const bytes = yield* Effect.option(content.download(place.siteSpace.space.id, file.blob))
          if (Option.isNone(bytes)) return yield* notFound(visible.home)
          return { kind: "File", bytes: bytes.value, contentType: file.contentType, name: file.name, etag: `"${file.blob.slice(0, 40)}"` }
        }
        if (first === "~search" && segments.length === 1) {
          const q = (request.query.get("q") ?? "").slice(0, 200)
          const results = q.trim() === "" ? [] : yield* search(q)
          if (request.json === true) return { kind: "Json", body: { items: results } }
          const home = visible.home
          const rev = home === undefined ? undefined : yield* revision(home)
          const view = chrome(home, rev, undefined)
          return htmlAnswer(200, Layout.renderSearch({ ...view, query: q, results }), view.styling)
        }

        function search(q: string) {
          return Effect.gen(function*() {
            const spaceIds = [...new Set(visible.places.map((p) => p.siteSpace.space.id))]
            if (spaceIds.length === 0) return []
            // The JSON search answers as the reader types: its last word is the start of a word.
            const hits = yield* index.search({ spaceIds, query: q, offset: 0, limit: 20, sectionsPerPage: 1, prefix: request.json === true })
            const results: Array<View.SearchResult> = []
            for (const hit of hits.pages) {
              const place = visible.places.find((p) => p.siteSpace.space.id === hit.spaceId)
              if (place === undefined) continue
              const rev = yield* revision(place)
              if (hiddenPath(rev.pages, hit.path)) continue
              const home = firstDocument(rev.pages)?.path
              const best = hit.sections[0]
              const anchor = best !== undefined && best.id !== "" ? `#${encodeURIComponent(best.id)}` : ""
              const body = (best?.body ?? "").replace(/\s+/g, " ").trim()
              results.push({
                title: hit.title,
                url: `${pageUrl(place, hit.path, home)}${anchor}`,
                snippet: body.length > 200 ? `${body.slice(0, 197)}…` : body,
                section: sectionTitle(place)
              })
            }
            return results
          })
        }

        // A page: `[section]/[site-space]/<page path>[.md]`.
        if (decoded.some((s) => s === undefined || s.startsWith("~"))) return yield* notFound(visible.home)
        let pageSegments = segments
        let wantsMarkdown = false
        const last = pageSegments[pageSegments.length - 1]
        if (last !== undefined && last.endsWith(".md")) {
          wantsMarkdown = true
          pageSegments = [...pageSegments.slice(0, -1), ...(last === "index.md" ? [] : [last.slice(0, -3)])]
        }
        const located = locate(site, visible, pageSegments)
        if (located === undefined) return yield* notFound(visible.home)
        const { place, rest } = located
        const wanted = rest.join("/")
        // The fingerprint in the key names every space's revision: a cached page needs no read.
        const pageKey = `${keyBase}|page|${place.siteSpace.siteSpace.id}|${wantsMarkdown ? "md" : "html"}|${wanted}`
        const hit = cache.get(pageKey)
        // A page with OpenAPI operations is kept while its specs' latest versions are the ones it shows.
        const used = pageSpecs.get(pageKey)
        if (hit !== undefined && (used === undefined || (yield* specsCurrent(site.site.organizationId, used)))) return hit
        const shown: Array<readonly [string, string | undefined]> = []
        const answer = yield* pageAnswer(place, wanted, wantsMarkdown, shown)
        // Not found pages are not kept: random paths would push the site's pages out.
        if ((answer.kind === "Html" && answer.status === 200) || answer.kind === "Text") {
          cache.set(pageKey, answer)
          if (shown.length > 0) {
            if (pageSpecs.size >= cacheEntries) pageSpecs.delete(pageSpecs.keys().next().value!)
            pageSpecs.set(pageKey, shown)
          } else pageSpecs.delete(pageKey)
        }
        return answer

        function pageAnswer(place: Place, wanted: string, wantsMarkdown: boolean, shown: Array<readonly [string, string | undefined]>) {
          return Effect.gen(function*(): Effect.fn.Return<RenderAnswer> {
            const rev = yield* revision(place)
            const info = infoOf(rev)
            const home = info.home
            const entry = wanted === "" ? home : info.byPath.get(wanted)
            if (entry === undefined) return yield* notFound(place)
            if (entry.page.type !== "document") {
              const target = pageIdUrl(place, rev)(entry.page.id)
              if (entry.page.type === "link" && entry.page.target?.kind === "url") return { kind: "Redirect", location: entry.page.target.url }
              if (target === undefined) return yield* notFound(place)
              return { kind: "Redirect", location: target }
            }
            // The first page lives at its site space's root; its own path leads there.
            if (wanted !== "" && entry.path === home?.path && !wantsMarkdown) {
              return { kind: "Redirect", location: `${basePath}${place.prefix}${request.query.size > 0 ? `?${request.query}` : ""}` }
            }

            const hash = entry.page.document
            const markdown = hash === undefined ? "" : ((yield* revisions.documents([hash])).get(hash) ?? "")
            if (wantsMarkdown) return text("text/markdown; charset=utf-8", markdown)
            // The latest version of every spec the page's operations name, read before the (synchronous) render.
            const documents = new Map<string, Readonly<Record<string, unknown>>>()
            for (const slug of operationSpecs(markdown)) {
              const latest = yield* specs.latestDocument(site.site.organizationId, slug)
              shown.push([slug, Option.isSome(latest) ? latest.value.versionId : undefined])
              if (Option.isSome(latest)) documents.set(slug, latest.value.document)
            }
            const options: Markdown.RenderOptions = {
              ...renderOptions(place, rev, entry),
              resolveOperation: (spec, path, method) => {
                const document = documents.get(spec)
                return document === undefined ? undefined : operationOf(document, path, method)
              }
            }
            const rendered = yield* Effect.promise(() => Markdown.renderPage(markdown, options))
            const tree = treeOf(place, rev, entry.page.id)
            const url = pageUrl(place, entry.path, home?.path)
            const view: View.SiteView = {
              ...chrome(place, rev, entry.page.id, tree),
              page: {
                title: entry.page.title,
                description: entry.page.description,
                emoji: entry.page.emoji,
                html: rendered.html,
                headings: rendered.headings,
                lastModified: new Date(entry.page.updatedAt),
                editUrl: editUrl(rev, entry.page),
                canonicalUrl: absolute(url),
                markdownUrl: absolute(markdownUrlOf(place, entry.path, home?.path))
              },
              pagination: customization.pagination?.enabled ?? true,
              ...neighboursOf(tree)
            }
            return htmlAnswer(200, Layout.renderPage(view), view.styling)
          })
        }

        function renderOptions(place: Place, rev: Revision, entry: Entry): Markdown.RenderOptions {
          const info = infoOf(rev)
          const pages = info.pages
          const resolve = linkResolver({
            pagePath: entry.path,
            pagesByPath: info.idsByPath,
            fileIds: info.fileIds,
            appBaseUrl: "quire-app:",
            rootPagePath: pages[0]?.path ?? ""
          })
          const urlOfPage = pageIdUrl(place, rev)
          const byId = info.byId
          const fileOf = (ref: string): FileNode | undefined => {
            const match = /^\/?files\/([^/?#]+)/.exec(ref)
            if (match !== null) return rev.files.find((f) => f.id === safeDecode(match[1]!))
            const name = ref.split("/").pop()
            return rev.files.find((f) => f.id === ref || f.name === name || f.name === ref)
          }
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
              const file = fileOf(ref)
              return file === undefined ? undefined : { url: fileUrl(place, file), name: file.name, contentType: file.contentType }
            },
            resolveTitle: (url) => {
              const t = target(url)
              return t?.kind === "page" && "page" in t ? byId.get(t.page)?.page.title : undefined
            }
          }
        }
      })

      return SiteRenderer.of({ render })
    })
  )
}

/** A customization's content reference as a URL: links to the web only (others name content of the organization). */
const refUrl = (ref: { readonly kind: string; readonly [key: string]: unknown }): string | undefined =>
  ref.kind === "url" && typeof ref["url"] === "string" && /^(https?:|mailto:|\/)/i.test(ref["url"]) ? ref["url"] : undefined

const linkOf = (link: { readonly title: string; readonly to: { readonly kind: string; readonly [key: string]: unknown } }): Array<View.LinkView> => {
  const url = refUrl(link.to)
  return url === undefined ? [] : [{ title: link.title, url }]
}

const announcementOf = (a: PublishedSite["customization"]["announcement"]): View.AnnouncementView | undefined => {
  if (a === undefined || !a.enabled || a.message === undefined) return undefined
  const style = a.style === "warning" || a.style === "danger" || a.style === "success" ? a.style : "info"
  const url = a.link === undefined ? undefined : refUrl(a.link.to)
  return { enabled: true, message: a.message, style, ...(url === undefined ? {} : { url }) }
}

/** Whether a page lies under a hidden page (or is one): left out of navigation and machine files. */
const hiddenPath = (pages: ReadonlyArray<PageNode>, path: string): boolean => {
  let nodes = pages
  for (const slug of path.split("/")) {
    const node = nodes.find((p) => p.slug === slug)
    if (node === undefined) return false
    if (node.hidden === true) return true
    nodes = node.pages
  }
  return false
}

/** The "edit on Git" link of a page of a Git-synced space: its file on the Git host. */
const editUrl = (rev: Revision, page: PageNode): string | undefined => {
  const url = rev.git?.url
  const path = page.git?.path
  if (url === undefined || path === undefined || !url.startsWith("https://")) return undefined
  const ref = (rev.git?.ref ?? "main").replace(/^refs\/heads\//, "")
  return `${url.replace(/\.git$/, "").replace(/\/+$/, "")}/blob/${encodePath(ref)}/${encodePath(path)}`
}

const neighboursOf = (tree: ReadonlyArray<View.TreeItem>) => {
  const order: Array<View.TreeDocument> = []
  const walk = (items: ReadonlyArray<View.TreeItem>): void => {
    for (const item of items) {
      if (item.type === "document") order.push(item)
      if (item.type !== "link") walk(item.children)
    }
  }
  walk(tree)
  const at = order.findIndex((d) => d.current)
  const previous = at > 0 ? order[at - 1] : undefined
  const next = at >= 0 ? order[at + 1] : undefined
  return {
    previous: previous === undefined ? undefined : { title: previous.title, url: previous.url },
    next: next === undefined ? undefined : { title: next.title, url: next.url }
  }
}
