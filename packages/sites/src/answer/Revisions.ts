/**
 * The revisions a site shows and what is read of their pages (home, by id, by path), kept per layer:
 * a revision never changes, so an uncached page reads none it read before.
 */
import { Effect } from "effect"
import { BoundedCache } from "@quire/kernel"
import { flattenPages, type PageNode, type PublishedContent, type Revision, revisionLinkIndex, type RevisionLinkIndex } from "@quire/content"
import type { Place } from "./Places.ts"

export interface Entry {
  readonly page: PageNode
  readonly path: string
}

/** The space's first document: the home of a site space. */
export const firstDocument = (pages: ReadonlyArray<PageNode>): Entry | undefined => {
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

/** What the renderer reads of a revision's pages, computed once per revision. */
export interface RevisionInfo {
  readonly pages: ReadonlyArray<Entry>
  readonly home: Entry | undefined
  readonly byId: ReadonlyMap<string, Entry>
  readonly byPath: ReadonlyMap<string, Entry>
  readonly idsByPath: ReadonlyMap<string, string>
  readonly fileIds: ReadonlySet<string>
  /** What the pages' links resolve against (content's link rules, the pages' files in Git included). */
  readonly links: RevisionLinkIndex
}

const infoFor = (rev: Revision): RevisionInfo => {
  const pages = flattenPages(rev.pages)
  return {
    pages,
    home: firstDocument(rev.pages),
    byId: new Map(pages.map((e) => [e.page.id, e] as const)),
    byPath: new Map(pages.map((e) => [e.path, e] as const)),
    idsByPath: new Map(pages.map((e) => [e.path, e.page.id] as const)),
    fileIds: new Set(rev.files.map((f) => f.id)),
    links: revisionLinkIndex(rev)
  }
}

/** Reads the revision a place shows, and what its pages are, keeping the last ones. */
export interface RevisionReader {
  readonly read: (place: Place) => Effect.Effect<Revision>
  readonly infoOf: (rev: Revision) => RevisionInfo
}

/** How many revisions, and what is read of how many, one server keeps. */
const keptRevisions = 50
const keptInfos = 200

/** The reader of a site renderer (its layer makes it), its caches reported as `site_revisions` and `site_revision_infos`. */
export const revisionReader = (published: PublishedContent["Service"]): Effect.Effect<RevisionReader> =>
  Effect.gen(function*() {
    const kept = yield* BoundedCache.make<string, Revision>({ name: "site_revisions", capacity: keptRevisions })
    const infos = yield* BoundedCache.make<string, RevisionInfo>({ name: "site_revision_infos", capacity: keptInfos })
    return {
      read: (place) =>
        Effect.suspend(() => {
          const id = place.siteSpace.space.revisionId
          const hit = kept.get(id)
          if (hit !== undefined) return Effect.succeed(hit)
          return Effect.tap(Effect.orDie(published.revision(id)), (rev) => Effect.sync(() => kept.set(id, rev)))
        }),
      infoOf: (rev) => {
        let found = infos.get(rev.id)
        if (found === undefined) {
          found = infoFor(rev)
          infos.set(rev.id, found)
        }
        return found
      }
    }
  })

/** The revisions of what one request's audience sees, read once per request. */
export const perRequest = (reader: RevisionReader) => {
  const read = new Map<string, Revision>()
  return (place: Place): Effect.Effect<Revision> =>
    Effect.suspend(() => {
      const id = place.siteSpace.space.revisionId
      const hit = read.get(id)
      return hit !== undefined ? Effect.succeed(hit) : Effect.tap(reader.read(place), (r) => Effect.sync(() => read.set(id, r)))
    })
}
