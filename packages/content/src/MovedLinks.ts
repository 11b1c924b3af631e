/**
 * Links kept working when pages move: the revision writer runs this on every write, so a page
 * moved or renamed by any writer (an API edit, a change request's edit, a merge, a Git import of a
 * moved file) gets the links to it (and its own relative links) rewritten in the same revision.
 */
import * as Syntax from "@quire/document/syntax"
import { Effect } from "effect"
import { type LinkContext, linkResolver, type LinkResolution } from "@quire/markdown"
import { pageLinkContext, type RevisionLinkIndex, revisionLinkIndex } from "./ContentLinks.ts"
import { documentHash, type FileNode, flattenPages, type PageNode, type Revision } from "./domain/Revision.ts"
import { type TreeChanges, treeChanges } from "./domain/TreeDiff.ts"

/** A tree's pages by id, with their paths, and what its links resolve against. */
interface TreeIndex {
  readonly index: RevisionLinkIndex
  readonly paths: ReadonlyMap<string, string>
  readonly nodes: ReadonlyMap<string, PageNode>
}

const indexOf = (pages: ReadonlyArray<PageNode>, files: ReadonlyArray<FileNode>): TreeIndex => {
  const index = revisionLinkIndex({ pages, files })
  return {
    index,
    paths: new Map(index.entries.map(({ page, path }) => [page.id, path])),
    nodes: new Map(index.entries.map(({ page }) => [page.id, page]))
  }
}

const contextOf = (tree: TreeIndex, id: string, path: string): LinkContext => pageLinkContext(tree.index, tree.nodes.get(id) ?? {}, path, "")

/** The folder of a page's place in the tree, in the Git layout: what relative links start from when it has no file. */
const folderOf = (tree: TreeIndex, pagePath: string): ReadonlyArray<string> => {
  if (pagePath === tree.index.rootPagePath) return []
  const segments = pagePath.split("/")
  return tree.index.parentPaths.has(pagePath) ? segments : segments.slice(0, -1)
}

/** The file a page is in the Git layout: the first page is `README.md`, a page with subpages `<path>/README.md`, others `<path>.md`. */
const gitPathOf = (tree: TreeIndex, pagePath: string): string =>
  pagePath === tree.index.rootPagePath ? "README.md" : tree.index.parentPaths.has(pagePath) ? `${pagePath}/README.md` : `${pagePath}.md`

/** The page's file in the repository: the one it came from (Git Sync), else where its place puts it. */
const fileOf = (tree: TreeIndex, id: string, path: string): string => tree.nodes.get(id)?.git?.path ?? gitPathOf(tree, path)

/** The folder a page's relative links start from, as `@quire/markdown`'s resolver reads them: its file's, else its place's. */
const linkFolder = (tree: TreeIndex, id: string, path: string): ReadonlyArray<string> => {
  const file = tree.nodes.get(id)?.git?.path
  return file === undefined ? folderOf(tree, path) : file.split("/").filter((segment) => segment !== "").slice(0, -1)
}

/** Where a page is, for links: its path, its file and the folder its relative links start from. */
const placeOf = (tree: TreeIndex, id: string, path: string) => `${path} ${fileOf(tree, id, path)} ${linkFolder(tree, id, path).join("/")}`

const normalize = (segments: ReadonlyArray<string>): Array<string> => {
  const out: Array<string> = []
  for (const segment of segments) {
    if (segment === "" || segment === ".") continue
    if (segment === "..") out.pop()
    else out.push(segment)
  }
  return out
}

/** `target` (a path from the repository's root) as written from `folder`. */
const relativeTo = (folder: ReadonlyArray<string>, target: string): string => {
  const to = target.split("/")
  let common = 0
  while (common < folder.length && common < to.length - 1 && folder[common] === to[common]) common++
  return [...folder.slice(common).map(() => ".."), ...to.slice(common)].join("/")
}

/** A URL split into the path, and what follows it (`?query#anchor`). */
const splitUrl = (url: string) => {
  const cut = url.search(/[?#]/)
  return cut === -1 ? { path: url, suffix: "" } : { path: url.slice(0, cut), suffix: url.slice(cut) }
}

const isRelative = (path: string) => path !== "" && !path.startsWith("/") && !/^[a-z][a-z0-9+.-]*:/i.test(path)

/** Encodes what would end a link destination (spaces are written inside `<...>` by the caller). */
const encodePath = (path: string) => path.split("/").map((segment) => segment.replace(/[()<>#?%]/g, encodeURIComponent)).join("/")

interface Rewriting {
  readonly before: TreeIndex
  readonly after: TreeIndex
  /** Ids of pages of the parent as the new tree names them (a Git import gives a moved file a new page). */
  readonly renamed: ReadonlyMap<string, string>
  /** Pages whose place changed (ids of the new tree). */
  readonly moved: ReadonlySet<string>
}

/** Where a page was (under its parent's id) and is, and whether the write left its markdown as it was. */
interface LinkingPage {
  readonly id: string
  readonly oldId: string
  readonly oldPath: string
  readonly newPath: string
  readonly documentKept: boolean
}

type Resolve = (url: string, kind: "link" | "image") => LinkResolution | undefined

const pageOf = (resolution: LinkResolution | undefined): string | undefined =>
  resolution?.status === "ok" && resolution.target.kind === "page" && "page" in resolution.target ? resolution.target.page : undefined

const fileIdOf = (resolution: LinkResolution | undefined): string | undefined =>
  resolution?.status === "ok" && resolution.target.kind === "file" ? resolution.target.file : undefined

/**
 * The link `url` of a page as it must be written for it to keep pointing where it pointed before
 * the write; `undefined` when it stays as it is.
 */
const keptUrl = (rewriting: Rewriting, resolveBefore: Resolve, resolveAfter: Resolve, page: LinkingPage, url: string, kind: "link" | "image"): string | undefined => {
  const { path, suffix } = splitUrl(url.trim())
  if (path === "" || /^\/(files|pages)\/[^/]+$/.test(path) && pageOf(resolveAfter(url, kind)) !== undefined) return undefined
  if (kind === "image" || (/\.[a-z0-9]{1,5}$/i.test(path) && !/\.md$/i.test(path))) {
    // An image or a file by relative path: the same file of the repository, from the page's new folder.
    if (!isRelative(path) || !rewriting.moved.has(page.id) || pageOf(resolveBefore(url, kind)) !== undefined) return undefined
    const file = fileIdOf(resolveBefore(url, kind))
    if (file !== undefined && fileIdOf(resolveAfter(url, kind)) === file) return undefined
    const target = normalize([...linkFolder(rewriting.before, page.oldId, page.oldPath), ...path.split("/")]).join("/")
    const next = relativeTo(linkFolder(rewriting.after, page.id, page.newPath), target)
    return target === "" || next === path.replace(/^\.\//, "") ? undefined : `${encodePath(next)}${suffix}`
  }
  const was = pageOf(resolveBefore(url, kind))
  if (was === undefined) return undefined
  const target = rewriting.renamed.get(was) ?? was
  const newTargetPath = rewriting.after.paths.get(target)
  // Only links the write's moves concern: from a page that moved, or to one.
  if (newTargetPath === undefined || (!rewriting.moved.has(page.id) && !rewriting.moved.has(target))) return undefined
  const after = resolveAfter(url, kind)
  // A link the write itself points at another page is the writer's choice; an untouched one follows its page.
  if (pageOf(after) === target || (after?.status === "ok" && !page.documentKept)) return undefined
  const markdownFile = /\.md$/i.test(path)
  const written = markdownFile ? gitPathOf(rewriting.after, newTargetPath) : newTargetPath
  const candidates: Array<string> = []
  if (path.startsWith("/pages/")) candidates.push(`/pages/${written}`)
  else if (path.startsWith("/")) candidates.push(`/${written}`)
  else {
    const dotted = (relative: string) => path.startsWith("./") && !relative.startsWith("../") ? `./${relative}` : relative
    // From the page's file to the target's (as a repository has them), else from place to place in the tree.
    if (markdownFile) candidates.push(dotted(relativeTo(linkFolder(rewriting.after, page.id, page.newPath), fileOf(rewriting.after, target, newTargetPath))))
    candidates.push(dotted(relativeTo(folderOf(rewriting.after, page.newPath), written)))
  }
  candidates.push(`/pages/${target}`)
  for (const candidate of candidates) {
    const next = `${encodePath(candidate)}${suffix}`
    if (pageOf(resolveAfter(next, kind)) === target) return next
  }
  return undefined
}

/** Link destinations of markdown and raw HTML: `](dest`, `[x]: dest`, `href="dest"`, `src="dest"` (GitBook's content references: `Syntax`). */
const destination =
  /(!?)\[([^\]\n]*)\]\(([ \t]*)(<[^<>\n]*>|[^\s()<>]+(?:\([^\s()]*\)[^\s()<>]*)*)|^([ ]{0,3}\[[^\]\n]+\]:[ \t]*)(<[^<>\n]*>|\S+)|(\s(?:href|src)=)(["'])([^"'\n]*)\8/gm

/** The markdown outside fenced code blocks, as alternating [outside, inside, outside, ...] slices. */
const outsideCode = (markdown: string): Array<{ readonly text: string; readonly code: boolean }> => {
  const out: Array<{ text: string; code: boolean }> = []
  let fence: string | undefined
  let current = ""
  for (const line of markdown.split(/(?<=\n)/)) {
    const opening = /^[ ]{0,3}(`{3,}|~{3,})/.exec(line)
    if (fence === undefined && opening !== null) {
      out.push({ text: current, code: false })
      current = line
      fence = opening[1]
    } else if (fence !== undefined && opening !== null && opening[1]!.startsWith(fence) && line.trim() === opening[1]) {
      out.push({ text: current + line, code: true })
      current = ""
      fence = undefined
    } else {
      current += line
    }
  }
  out.push({ text: current, code: fence !== undefined })
  return out
}

/** `text` with the quoted `url` of each `{% content-ref %}` that `keep` answers for written anew. */
const contentRefsMoved = (text: string, keep: (raw: string, kind: "link" | "image") => string | undefined): string =>
  !text.includes("content-ref")
    ? text
    : Syntax.replaceParamValues(text, (tag, param) =>
      tag.name === "content-ref" && param.key === "url" && param.quote !== "" ? keep(param.value, "link") : undefined)

/** `markdown` of a page with each link that a move broke written anew. */
export const rewriteMovedLinks = (
  rewriting: Rewriting,
  markdown: string,
  page: LinkingPage
): string => {
  const before = linkResolver(contextOf(rewriting.before, page.oldId, page.oldPath))
  const afterContext = contextOf(rewriting.after, page.id, page.newPath)
  const after = linkResolver(afterContext)
  // A page with a file in the repository: its relative links must reach their target from that file
  // (as on GitHub and in an export), not only through the tree's places.
  const byFile = afterContext.pageFilePath === undefined ? after : linkResolver({ ...afterContext, pagesByPath: new Map() })
  const keep = (raw: string, kind: "link" | "image") => {
    const bracketed = raw.startsWith("<") && raw.endsWith(">")
    const url = bracketed ? raw.slice(1, -1) : raw
    const resolveAfter: Resolve = (u, k) => (isRelative(splitUrl(u).path) ? byFile : after)({ url: u, kind: k })
    const next = keptUrl(rewriting, (u, k) => before({ url: u, kind: k }), resolveAfter, page, url, kind)
    if (next === undefined) return undefined
    return bracketed || /\s/.test(next) ? `<${next}>` : next
  }
  return outsideCode(markdown).map(({ code, text }) =>
    code ? text : contentRefsMoved(text.replace(destination, (match, bang?: string, label?: string, space?: string, inline?: string, definition?: string, defined?: string, attribute?: string, quote?: string, value?: string) => {
      if (inline !== undefined) {
        const next = keep(inline, bang === "!" ? "image" : "link")
        if (next === undefined) return match
        const text = label === inline ? next : label
        return `${bang}[${text}](${space}${next}`
      }
      if (defined !== undefined) {
        const next = keep(defined, "link")
        return next === undefined ? match : `${definition}${next}`
      }
      const next = keep(value ?? "", attribute?.includes("src") === true ? "image" : "link")
      return next === undefined || /["'\s]/.test(next) ? match : `${attribute}${quote}${next}${quote}`
    }), keep)
  ).join("")
}

/** Pages from Git by their blob. */
const byContent = (pages: ReadonlyArray<PageNode>) => {
  const byKey = new Map<string, Array<string>>()
  for (const page of pages) {
    if (page.git === undefined) continue
    const key = page.git.oid
    if (key !== undefined) byKey.set(key, [...(byKey.get(key) ?? []), page.id])
  }
  return byKey
}

/**
 * Pages of `before` that `after` holds under another id, matched by their Git blob (a Git import
 * of a moved file makes a new page): old id to new id, only where the match is unique. Writers
 * other than Git name the page they move by its id.
 */
const samePagesRenamed = (before: ReadonlyArray<PageNode>, after: ReadonlyArray<PageNode>): Map<string, string> => {
  const afterIds = new Set(flattenPages(after).map(({ page }) => page.id))
  const beforeIds = new Set(flattenPages(before).map(({ page }) => page.id))
  const gone = byContent(flattenPages(before).map(({ page }) => page).filter((page) => !afterIds.has(page.id)))
  const added = byContent(flattenPages(after).map(({ page }) => page).filter((page) => !beforeIds.has(page.id)))
  const renamed = new Map<string, string>()
  for (const [key, [oldId, ...moreOld]] of gone) {
    const newIds = added.get(key)
    if (oldId !== undefined && moreOld.length === 0 && newIds?.length === 1) renamed.set(oldId, newIds[0]!)
  }
  return renamed
}

/**
 * Whether the diff shows that every page of both trees keeps its place (`placeOf`): none moved,
 * none changed its slug or Git file, the first page (the root's README) is the same, and none
 * gained its first subpage or lost its last one (which moves its file into or out of a folder);
 * nor could a Git import have given a removed page a new id (`samePagesRenamed`). False when it
 * cannot tell: the caller then compares the whole trees.
 */
const noPageMoved = (before: ReadonlyArray<PageNode>, after: ReadonlyArray<PageNode>, changes: TreeChanges | undefined): boolean =>
  changes !== undefined &&
  before[0]?.id === after[0]?.id &&
  changes.leaves.length === 0 &&
  changes.changed.every(({ after: page, before: old, beforePath, path }) => beforePath === path && old.git?.path === page.git?.path) &&
  !(changes.removed.some(({ page }) => page.git !== undefined) && changes.added.some(({ page }) => page.git !== undefined))

/** What a write changes that this module reads: the new pages, the documents they introduce. */
export interface PagesChange {
  readonly pages: ReadonlyArray<PageNode>
  readonly documents?: ReadonlyMap<string, string> | undefined
}

/**
 * The pages and documents of a write with the links its moves broke rewritten: every page that
 * was in `parent` (by id, or by content for a Git import's moved file) has the links that pointed
 * at a page now elsewhere point there again, and its own relative links and images written from
 * its new folder. Nothing is read when no page's path changed. `markdownOf` reads stored documents.
 */
export const keepMovedLinks = <E, R>(
  parent: Revision,
  change: PagesChange,
  files: ReadonlyArray<FileNode>,
  markdownOf: (hashes: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, string>, E, R>
): Effect.Effect<PagesChange | undefined, E, R> =>
  Effect.gen(function*() {
    if (noPageMoved(parent.pages, change.pages, treeChanges(parent.pages, change.pages))) return undefined
    const before = indexOf(parent.pages, parent.files)
    const after = indexOf(change.pages, files)
    const renamed = samePagesRenamed(parent.pages, change.pages)
    const oldIdOf = new Map(Array.from(renamed, ([oldId, newId]) => [newId, oldId]))
    // A page moved when its path, its Git file or the folder its relative links start from changed.
    const moved = new Set(Array.from(after.paths).flatMap(([id, path]) => {
      const oldId = oldIdOf.get(id) ?? id
      const oldPath = before.paths.get(oldId)
      return oldPath !== undefined && placeOf(before, oldId, oldPath) !== placeOf(after, id, path) ? [id] : []
    }))
    if (moved.size === 0) return undefined
    const parentDocuments = new Map(flattenPages(parent.pages).map(({ page }) => [page.id, page.document]))
    const linking = flattenPages(change.pages).flatMap(({ page, path }) => {
      const oldId = oldIdOf.get(page.id) ?? page.id
      const oldPath = before.paths.get(oldId)
      return page.document === undefined || oldPath === undefined
        ? []
        : [{ id: page.id, oldId, document: page.document, oldPath, newPath: path, documentKept: parentDocuments.get(oldId) === page.document }]
    })
    const given = change.documents ?? new Map<string, string>()
    const stored = yield* markdownOf(Array.from(new Set(linking.map((l) => l.document).filter((hash) => !given.has(hash)))))
    const rewriting: Rewriting = { before, after, renamed, moved }
    // A page that did not move links to a moved one only if it names it: its old slug, or its file's name.
    const needles = Array.from(moved).flatMap((id) => {
      const oldId = oldIdOf.get(id) ?? id
      const oldPath = before.paths.get(oldId) ?? ""
      const file = fileOf(before, oldId, oldPath).split("/")
      const names = [oldPath.split("/").at(-1) ?? "", file.at(-1)!.replace(/\.md$/i, ""), file.at(-2) ?? "", oldId].filter((n) => n !== "")
      return [...names, ...names.map(encodeURIComponent)]
    })
    const documents = new Map(given)
    const rewritten = new Map<string, string>()
    for (const page of linking) {
      const markdown = given.get(page.document) ?? stored.get(page.document)
      if (markdown === undefined || (!moved.has(page.id) && !needles.some((needle) => markdown.includes(needle)))) continue
      const next = rewriteMovedLinks(rewriting, markdown, page)
      if (next === markdown) continue
      const hash = documentHash(next)
      documents.set(hash, next)
      rewritten.set(page.id, hash)
    }
    if (rewritten.size === 0) return undefined
    const visit = (nodes: ReadonlyArray<PageNode>): ReadonlyArray<PageNode> =>
      nodes.map((node) => {
        const document = rewritten.get(node.id)
        const pages = visit(node.pages)
        return document === undefined ? { ...node, pages } : { ...node, document, pages }
      })
    return { pages: visit(change.pages), documents }
  })
