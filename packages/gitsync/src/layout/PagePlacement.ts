/**
 * Where each page of a write goes: its file stays while its slug and parent do (and until it gets
 * its first subpages, which make it `slug/README.md`); a new or moved page gets GitBook's path
 * (`slug.md`, `slug/README.md` with children, the readme for the first top-level document), the
 * first free one.
 */
import { slugify } from "@quire/markdown"
import type { ReadState, RepoPage } from "./LayoutTypes.ts"
import { basename, dirname, isReadmeName, joinPath, validSlug } from "./Paths.ts"

/** A page of the tree being written, with the file it goes to. */
export interface Placed {
  readonly page: RepoPage
  readonly parent: Placed | undefined
  readonly children: Array<Placed>
  kept: boolean
  path: string | undefined
}

/**
 * The tree of `pages` with each document's file, and the files used. `isFree` tells a path no
 * other file of the write (an asset, a file of another kind) holds.
 */
export const placePages = (
  pages: ReadonlyArray<RepoPage>,
  state: ReadState | undefined,
  paths: { readonly docsRoot: string; readonly readmePath: string },
  isFree: (path: string) => boolean
): { readonly tree: ReadonlyArray<Placed>; readonly used: ReadonlySet<string> } => {
  const { docsRoot, readmePath } = paths
  const used = new Set<string>()
  const place = (pages: ReadonlyArray<RepoPage>, parent: Placed | undefined): Array<Placed> =>
    pages.map((page) => {
      const placed: Placed = { page, parent, children: [], kept: false, path: undefined }
      const key = parent === undefined
        ? "root"
        : parent.page.kind === "document"
        ? `page:${parent.page.path ?? "(new)"}`
        : `group:${parent.page.slug}`
      const info = page.kind === "document" && page.path !== undefined ? state?.pageInfo.get(page.path) : undefined
      const parentStays = parent === undefined || parent.page.kind !== "document" || parent.kept
      // A page given its first subpages becomes its folder's README.md, as GitBook writes every page with subpages.
      const becomesFolder = info !== undefined && page.children.length > 0 && info.page.children.length === 0 &&
        !isReadmeName(basename(page.path!)) && page.path !== readmePath
      if (info !== undefined && parentStays && !becomesFolder && !used.has(page.path!) && info.page.slug === page.slug && info.parentKey === key && state?.docsRoot === docsRoot) {
        placed.kept = true
        placed.path = page.path
        used.add(page.path!)
      }
      placed.children.push(...place(page.children, placed))
      return placed
    })
  const tree = place(pages, undefined)
  const free = (path: string) => !used.has(path) && isFree(path)
  const folderOf = (parent: Placed | undefined): string => {
    if (parent === undefined) return docsRoot
    if (parent.page.kind !== "document" || parent.path === undefined) return joinPath(docsRoot, parent.page.slug)
    if (isReadmeName(basename(parent.path))) {
      return dirname(parent.path) === docsRoot ? joinPath(docsRoot, parent.page.slug) : dirname(parent.path)
    }
    return parent.path.replace(/\.md$/i, "")
  }
  let firstDocument = true
  const assign = (list: ReadonlyArray<Placed>) => {
    for (const placed of list) {
      const { page } = placed
      if (page.kind === "document") {
        const top = placed.parent === undefined && firstDocument
        if (placed.parent === undefined) firstDocument = false
        if (!placed.kept) {
          const folder = folderOf(placed.parent)
          let path: string | undefined = top && free(readmePath) ? readmePath : undefined
          // A slug never leaves its folder.
          const base = validSlug.test(page.slug) ? page.slug : slugify(page.slug)
          for (let n = 1; path === undefined; n++) {
            const slug = n === 1 ? base : `${base}-${n}`
            const candidate = page.children.length > 0 ? joinPath(folder, slug, "README.md") : joinPath(folder, `${slug}.md`)
            if (free(candidate)) path = candidate
          }
          placed.path = path
          used.add(path)
        }
      }
      assign(placed.children)
    }
  }
  assign(tree)
  return { tree, used }
}

/**
 * The previous file of a page whose own file an earlier export moved (content still names the file
 * it was imported from): the file now at its place, when no page of the write was read from there
 * and it holds a page of the same title.
 */
export const movedPageFile = (tree: ReadonlyArray<Placed>, state: ReadState | undefined) => {
  const claimed = new Set<string>()
  const claim = (list: ReadonlyArray<Placed>) => {
    for (const placed of list) {
      if (placed.page.path !== undefined) claimed.add(placed.page.path)
      claim(placed.children)
    }
  }
  claim(tree)
  return (placed: Placed) => {
    const { page, path } = placed
    if (state === undefined || page.path === undefined || path === undefined || state.pageInfo.has(page.path) || claimed.has(path)) return undefined
    const info = state.pageInfo.get(path)
    return info !== undefined && info.page.title === page.title ? info : undefined
  }
}
