/** How a reader moves through a site: section tabs, variants, the page tree, previous and next. */
import { Effect } from "effect"
import type { PageNode, Revision } from "@quire/content"
import { BoundedCache } from "@quire/kernel"
import * as Audience from "../Audience.ts"
import * as View from "../render/View.ts"
import type { Place } from "./Places.ts"
import type { PlaceTree, Reading } from "./ReadingTypes.ts"

/** A place's section title, with the site space's title where the section has several. */
export const sectionTitle = (reading: Reading, place: Place): string | undefined => {
  if (place.section === undefined) return undefined
  const variants = reading.visible.places.filter((p) => p.section === place.section)
  const title = place.section.section.title
  return variants.length > 1 && place.siteSpace.space.title !== title ? `${title} · ${place.siteSpace.space.title}` : title
}

const byPosition = (a: { readonly position: number }, b: { readonly position: number }) => a.position - b.position

/**
 * The visible sections as tabs, those of a group under the group's tab, with the site's external
 * links among them by position (those a condition hides from this reader left out).
 */
export const tabsOf = (reading: Reading, current: Place | undefined): ReadonlyArray<View.Tab> => {
  const { basePath } = reading.urls
  type Member = { readonly tab: View.SectionTab | View.LinkTab; readonly position: number }
  type Entry = { readonly tab: View.Tab; readonly position: number; readonly groupId?: string }
  const top: Array<Entry> = []
  const members = new Map<string, Array<Member>>()
  for (const s of reading.visible.sections) {
    const tab: View.SectionTab = {
      type: "section",
      title: s.section.title,
      url: `${basePath}${s.prefix}`,
      icon: s.section.icon ?? undefined,
      current: current?.section === s
    }
    const groupId = s.section.groupId
    const group = groupId === null ? undefined : reading.site.groups.find((g) => g.id === groupId)
    if (group === undefined) {
      top.push({ tab, position: s.section.position })
      continue
    }
    let list = members.get(group.id)
    if (list === undefined) {
      list = []
      members.set(group.id, list)
      top.push({ tab: { type: "group", title: group.title, icon: group.icon ?? undefined, sections: [] }, position: group.position, groupId: group.id })
    }
    list.push({ tab, position: s.section.position })
  }
  for (const link of reading.site.externalLinks ?? []) {
    if (link.condition !== null && !Audience.visible(link.condition, reading.request.claims, reading.parseCondition)) continue
    const tab: View.LinkTab = { type: "link", title: link.title, url: link.url, icon: link.icon ?? undefined }
    const list = link.groupId === null ? undefined : members.get(link.groupId)
    if (list === undefined) top.push({ tab, position: link.position })
    else list.push({ tab, position: link.position })
  }
  return top.toSorted(byPosition).map((entry) =>
    entry.tab.type === "group" && entry.groupId !== undefined
      ? { ...entry.tab, sections: (members.get(entry.groupId) ?? []).toSorted(byPosition).map((m) => m.tab) }
      : entry.tab
  )
}

/** The site spaces of the current place's section, where it has several. */
export const variantsOf = (reading: Reading, current: Place | undefined): ReadonlyArray<View.Variant> => {
  if (current === undefined) return []
  const variants = reading.visible.places.filter((p) => p.section === current.section)
  return variants.length < 2
    ? []
    : variants.map((p) => ({ title: p.siteSpace.space.title, url: `${reading.urls.basePath}${p.prefix}`, current: p === current }))
}

/** A link page's URL: the web address, the page or the file it points to. */
const linkPageUrl = (reading: Reading, place: Place, rev: Revision, page: PageNode): { url: string | undefined; external: boolean } => {
  const target = page.target
  if (target?.kind === "url") return { url: target.url, external: true }
  if (target?.kind === "page") {
    // A link to a heading of the page (a SUMMARY.md entry `[Icons](inline.md#icons)`) lands on it.
    const url = reading.urls.pageIdUrl(place, reading.infoOf(rev))(target.page)
    return { url: url === undefined || target.anchor === undefined ? url : `${url}#${encodeURIComponent(target.anchor)}`, external: false }
  }
  if (target?.kind === "file") {
    const file = rev.files.find((f) => f.id === target.file)
    return { url: file === undefined ? undefined : reading.urls.fileUrl(place, file), external: false }
  }
  return { url: undefined, external: false }
}

/** The page tree of a place's revision, hidden pages left out; no page current (`SiteChrome.currentPage` says which). */
export const treeOf = (reading: Reading, place: Place, rev: Revision): ReadonlyArray<View.TreeItem> => {
  const home = reading.infoOf(rev).home?.path
  const walk = (nodes: ReadonlyArray<PageNode>, base: string): Array<View.TreeItem> =>
    nodes.flatMap((page): Array<View.TreeItem> => {
      if (page.hidden === true) return []
      const path = base === "" ? page.slug : `${base}/${page.slug}`
      switch (page.type) {
        case "group":
          return [{ type: "group", title: page.title, children: walk(page.pages, path) }]
        case "link": {
          const { url, external } = linkPageUrl(reading, place, rev, page)
          return url === undefined ? [] : [{ type: "link", title: page.linkTitle ?? page.title, url, external, emoji: page.emoji, icon: page.icon }]
        }
        case "document":
          return [{
            type: "document",
            id: page.id,
            // The navigation shows a page's link title (GitBook's linkTitle, a SUMMARY.md link's own title) when it has one.
            title: page.linkTitle ?? page.title,
            url: reading.urls.pageUrl(place, path, home),
            emoji: page.emoji,
            icon: page.icon,
            children: walk(page.pages, path)
          }]
      }
    })
  return walk(rev.pages, "")
}

const placeTreeOf = (reading: Reading, place: Place, rev: Revision): PlaceTree => {
  const items = treeOf(reading, place, rev)
  const order = View.readingOrder(items)
  return { items, order, at: new Map(order.map((d, i) => [d.id, i] as const)) }
}

/** The documents before and after a page (by id) in its tree's reading order. */
export const neighboursOf = (tree: PlaceTree, currentId: string) => View.neighboursAt(tree.order, tree.at.get(currentId) ?? -1)

/**
 * Place trees kept: at most this many, of at most this many documents in all (a document costs about
 * 1 KB with its HTML): the tree of a revision of the most pages (100,000) and others.
 */
const keptTrees = 16
const keptDocuments = 110_000

/**
 * The trees of places, kept per layer: a tree is the same for every page of a revision, so an
 * uncached page of a large space walks none it walked before. Its key names all it is made of (the
 * site's base path, the place's prefix and space, the revision), so a new revision or URL makes another.
 */
export interface PlaceTrees {
  readonly of: (reading: Reading, place: Place, rev: Revision) => PlaceTree
}

export const placeTrees: Effect.Effect<PlaceTrees> = Effect.gen(function*() {
  const kept = yield* BoundedCache.make<string, PlaceTree>({
    name: "site_place_trees",
    capacity: keptTrees,
    maxWeight: keptDocuments,
    weigh: (tree) => tree.order.length + 1
  })
  return {
    of: (reading, place, rev) => {
      const key = `${reading.urls.basePath}|${place.prefix}|${place.siteSpace.space.id}|${rev.id}`
      let found = kept.get(key)
      if (found === undefined) {
        found = placeTreeOf(reading, place, rev)
        kept.set(key, found)
      }
      return found
    }
  }
})
