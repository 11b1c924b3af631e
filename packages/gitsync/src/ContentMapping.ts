/**
 * Between the layout's neutral page tree and content's revisions: an import turns a repository's
 * pages and assets into pages, documents and files (keeping the ids of pages and files that were
 * already there, and marking each with its blob), an export turns a revision back into the tree.
 */
import { Effect } from "effect"
import type { Ids } from "@quire/kernel"
import { type ContentRef, documentHash, type FileNode, flattenPages, type PageNode, type Revision } from "@quire/content"
import { type AssetToWrite, type ContentToWrite, type RepoAsset, type RepoPage, type RepositoryConfig, type RepositoryContent } from "./layout/Layout.ts"
import { pageFileLink } from "./layout/PageLinks.ts"
import { assetRefPrefix } from "./layout/Paths.ts"

/** What an import writes: the pages and files of the new revision, the documents it introduces, the assets to store. */
export interface ImportedTree {
  readonly pages: ReadonlyArray<PageNode>
  readonly documents: ReadonlyMap<string, string>
}

/** A file of the parent revision that holds the same blob at the same path is kept as it is (same id, no new bytes). */
export const reusableFile = (parent: Revision, asset: RepoAsset): FileNode | undefined =>
  parent.files.find((f) => f.git?.path === asset.path && f.git.oid === asset.oid)

/** Where a page sits: its ancestors' slugs and its own, with its kind. */
const placeOf = (parentPlace: string, kind: string, slug: string) => `${parentPlace}/${kind}:${slug}`

/**
 * The parent revision's pages by markdown file (pages imported before) and by place (pages
 * written in Quire, exported since: same place, same page).
 */
const existingPages = (pages: ReadonlyArray<PageNode>) => {
  const byFile = new Map<string, PageNode>()
  const byPlace = new Map<string, PageNode>()
  const walk = (nodes: ReadonlyArray<PageNode>, parentPlace: string) => {
    for (const node of nodes) {
      const place = placeOf(parentPlace, node.type, node.slug)
      if (node.git !== undefined) byFile.set(node.git.path, node)
      byPlace.set(place, node)
      walk(node.pages, place)
    }
  }
  walk(pages, "")
  return { byFile, byPlace }
}

const validSlug = (slug: string, taken: Set<string>): string => {
  const base = (slug.replace(/\//g, "-").slice(0, 90) || "page")
  let candidate = base
  for (let n = 2; taken.has(candidate); n++) candidate = `${base}-${n}`
  taken.add(candidate)
  return candidate
}

const coverOf = (page: RepoPage, fileIdsByRef: ReadonlyMap<string, string>): PageNode["cover"] => {
  if (page.cover === undefined) return undefined
  const file = fileIdsByRef.get(page.cover)
  const ref: ContentRef = file === undefined ? { kind: "url", url: page.cover } : { kind: "file", file }
  return { ref, ...(page.coverY === undefined ? {} : { yPos: page.coverY }), ...(page.coverHeight === undefined ? {} : { height: page.coverHeight }) }
}

/**
 * The frontmatter keys kept for a page: the ones no field models, and `coverY` or `coverHeight`
 * of a page without a `cover` (GitBook writes `coverY: 0` on such pages; the page model holds them
 * only on a cover), so that an export with no edits writes them back (see `orphanCoverOf`).
 */
const keptFrontmatter = (page: RepoPage): Readonly<Record<string, unknown>> | undefined => {
  const orphan = page.cover !== undefined ? {} : {
    ...(page.coverY === undefined ? {} : { coverY: page.coverY }),
    ...(page.coverHeight === undefined ? {} : { coverHeight: page.coverHeight })
  }
  return page.frontmatter === undefined && Object.keys(orphan).length === 0 ? undefined : { ...page.frontmatter, ...orphan }
}

/** A page's `coverY` and `coverHeight` kept without a cover (see `keptFrontmatter`), and its other frontmatter keys. */
const orphanCoverOf = (node: PageNode) => {
  const { coverY, coverHeight, ...rest } = node.frontmatter ?? {}
  const number = (value: unknown) => node.cover === undefined && typeof value === "number" ? value : undefined
  return {
    coverY: node.cover?.yPos ?? number(coverY),
    coverHeight: node.cover?.height ?? number(coverHeight),
    frontmatter: node.frontmatter === undefined ? undefined : rest
  }
}

/**
 * The pages of an import: a page keeps the id and `createdAt` of the parent's page at the same
 * markdown file (or the same place), `updatedAt` moves only when something of it changed.
 */
export const importPages = (
  parent: Revision,
  previousDocuments: ReadonlySet<string>,
  content: RepositoryContent,
  files: ReadonlyArray<{ readonly asset: RepoAsset; readonly file: FileNode }>,
  ids: Ids.Ids["Service"],
  at: string
): Effect.Effect<ImportedTree> =>
  Effect.gen(function*() {
    const existing = existingPages(parent.pages)
    const used = new Set<string>()
    const fileIdsByRef = new Map(files.map(({ asset, file }) => [asset.ref, file.id]))
    const documents = new Map<string, string>()
    // Link pages to a heading of a page file of the import (`docs/blocks/inline.md#icons`), resolved once every page has its id.
    const headingLinks = new Map<string, { readonly before: PageNode | undefined; readonly path: string; readonly anchor: string | undefined }>()
    const idsByPath = new Map<string, string>()
    const walk = (nodes: ReadonlyArray<RepoPage>, parentPlace: string): Effect.Effect<ReadonlyArray<PageNode>> =>
      Effect.gen(function*() {
        const taken = new Set<string>()
        const out: Array<PageNode> = []
        for (const page of nodes) {
          const slug = validSlug(page.slug, taken)
          const place = placeOf(parentPlace, page.kind, slug)
          const byFile = page.kind === "document" && page.path !== undefined ? existing.byFile.get(page.path) : undefined
          const candidate = byFile ?? existing.byPlace.get(place)
          const before = candidate !== undefined && !used.has(candidate.id) && candidate.type === page.kind ? candidate : undefined
          if (before !== undefined) used.add(before.id)
          const children = yield* walk(page.children, place)
          let document: string | undefined
          if (page.kind === "document") {
            document = documentHash(page.markdown)
            if (!previousDocuments.has(document)) documents.set(document, page.markdown)
          }
          const cover = coverOf(page, fileIdsByRef)
          const frontmatter = keptFrontmatter(page)
          const node: PageNode = {
            id: before?.id ?? (yield* ids.make),
            type: page.kind,
            title: page.title,
            ...(page.linkTitle === undefined ? {} : { linkTitle: page.linkTitle }),
            slug,
            ...(page.emoji === undefined ? {} : { emoji: page.emoji }),
            ...(page.icon === undefined ? {} : { icon: page.icon }),
            ...(page.description === undefined ? {} : { description: page.description }),
            ...(page.hidden === undefined ? {} : { hidden: page.hidden }),
            ...(page.layout === undefined ? {} : { layout: page.layout }),
            ...(frontmatter === undefined ? {} : { frontmatter }),
            ...(cover === undefined ? {} : { cover }),
            ...(document === undefined ? {} : { document }),
            ...(page.kind === "link" && page.href !== undefined ? { target: { kind: "url" as const, url: page.href } } : {}),
            ...(page.path === undefined || page.oid === undefined ? {} : { git: { oid: page.oid, path: page.path } }),
            createdAt: before?.createdAt ?? at,
            updatedAt: at,
            pages: children
          }
          if (page.kind === "document" && page.path !== undefined) idsByPath.set(page.path, node.id)
          const heading = page.kind === "link" && page.href !== undefined ? pageFileLink(page.href) : undefined
          if (heading !== undefined) headingLinks.set(node.id, { before, ...heading })
          out.push(before !== undefined && samePage(before, node) ? { ...node, updatedAt: before.updatedAt } : node)
        }
        return out
      })
    const linked = (nodes: ReadonlyArray<PageNode>): ReadonlyArray<PageNode> =>
      nodes.map((node) => {
        const link = headingLinks.get(node.id)
        const id = link === undefined ? undefined : idsByPath.get(link.path)
        if (link === undefined || id === undefined) return node.pages.length === 0 ? node : { ...node, pages: linked(node.pages) }
        const target: ContentRef = { kind: "page", page: id, ...(link.anchor === undefined ? {} : { anchor: link.anchor }) }
        const resolved: PageNode = { ...node, target, updatedAt: at, pages: linked(node.pages) }
        return link.before !== undefined && samePage(link.before, resolved) ? { ...resolved, updatedAt: link.before.updatedAt } : resolved
      })
    const walked = yield* walk(content.pages, "")
    const pages = headingLinks.size === 0 ? walked : linked(walked)
    return { pages, documents }
  })

const comparable = (p: PageNode) => JSON.stringify({ ...p, pages: p.pages.map((c) => c.id), updatedAt: "" })

const samePage = (a: PageNode, b: PageNode): boolean => comparable(a) === comparable(b)

/** How a page body or a cover refers to a file: `/.gitbook/assets/<name>`. */
export const assetRef = (file: FileNode): string => `${assetRefPrefix}${file.name}`

/** A link page to a page as the layout writes it: the page's file, and the heading's anchor. */
const pageHref = (path: string | undefined, anchor: string | undefined): string | undefined =>
  path === undefined || anchor === undefined ? path : `${path}#${anchor}`

/** A revision as the layout's neutral tree; `files` are the assets to write (bytes read by the caller where needed). */
export const exportContent = (
  revision: Revision,
  documents: ReadonlyMap<string, string>,
  files: ReadonlyArray<AssetToWrite>,
  config: RepositoryConfig
): ContentToWrite => {
  const fileRefs = new Map(revision.files.map((f) => [f.id, assetRef(f)]))
  const pagePaths = new Map(flattenPages(revision.pages).flatMap(({ page }) => page.git === undefined ? [] : [[page.id, page.git.path] as const]))
  const toRepo = (node: PageNode): RepoPage => {
    const kept = orphanCoverOf(node)
    const cover = node.cover?.ref
    const coverRef = cover === undefined ? undefined : cover.kind === "file" ? fileRefs.get(cover.file) : cover.kind === "url" ? cover.url : undefined
    const href = node.target === undefined
      ? undefined
      : node.target.kind === "url"
      ? node.target.url
      : node.target.kind === "page"
      ? pageHref(pagePaths.get(node.target.page), node.target.anchor)
      : fileRefs.get(node.target.file)
    return {
      kind: node.type,
      title: node.title,
      ...(node.linkTitle === undefined ? {} : { linkTitle: node.linkTitle }),
      slug: node.slug,
      ...(node.git === undefined ? {} : { path: node.git.path, oid: node.git.oid }),
      markdown: node.document === undefined ? "" : documents.get(node.document) ?? "",
      ...(node.description === undefined ? {} : { description: node.description }),
      ...(node.icon === undefined ? {} : { icon: node.icon }),
      ...(node.emoji === undefined ? {} : { emoji: node.emoji }),
      ...(coverRef === undefined ? {} : { cover: coverRef }),
      ...(kept.coverY === undefined ? {} : { coverY: kept.coverY }),
      ...(kept.coverHeight === undefined ? {} : { coverHeight: kept.coverHeight }),
      ...(node.hidden === undefined ? {} : { hidden: node.hidden }),
      ...(node.layout === undefined ? {} : { layout: node.layout }),
      ...(kept.frontmatter === undefined ? {} : { frontmatter: kept.frontmatter }),
      ...(href === undefined ? {} : { href }),
      children: node.pages.map(toRepo)
    }
  }
  return { config, pages: revision.pages.map(toRepo), files }
}
