/**
 * Relative links between page files, made to follow the files a write moves (links to deleted pages
 * stay as written); links written in Quire to a page (`/pages/<id>`, `/pages/<slug path>`) become the
 * relative `.md` paths GitBook writes.
 */
import type { RepoPage, RepositoryFiles, ReadState } from "./LayoutTypes.ts"
import type { Placed } from "./PagePlacement.ts"
import { joinPath, relativePath } from "./Paths.ts"

/** A page of a write that knows its id in the space, so that links to it by id can be written as paths. */
export interface IdentifiedPage extends RepoPage {
  readonly id: string
}

const idOf = (page: RepoPage): string | undefined => "id" in page && typeof page.id === "string" ? page.id : undefined

// A link to a page by id or slug path, where a link destination, a GitBook block's `url="` or an
// HTML `href="` starts; its anchor is kept.
const quirePageLink = /(\]\(<?|\burl="|\bhref=")\/pages\/([^\s"'<>)#?]+)(#[^\s"'<>)]*)?/g

/**
 * A link page's `href` that names a page file from the repository root (`docs/page.md#anchor`, as an
 * import reads a `SUMMARY.md` entry to a heading), not a URL: the file and the anchor.
 */
export const pageFileLink = (href: string): { readonly path: string; readonly anchor: string | undefined } | undefined => {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("/") || !/\.md(?:#|$)/i.test(href)) return undefined
  const hash = href.indexOf("#")
  return hash === -1 ? { path: href, anchor: undefined } : { path: href.slice(0, hash), anchor: href.slice(hash + 1) || undefined }
}

/** The files of the pages of `tree` by their id and by their slug path (groups included, as the space's URLs). */
export const pageFilesByRef = (tree: ReadonlyArray<Placed>): ReadonlyMap<string, string> => {
  const byRef = new Map<string, string>()
  const walk = (list: ReadonlyArray<Placed>, base: string) => {
    for (const placed of list) {
      const slugPath = base === "" ? placed.page.slug : `${base}/${placed.page.slug}`
      const id = idOf(placed.page)
      if (placed.page.kind === "document" && placed.path !== undefined) {
        if (id !== undefined) byRef.set(id, placed.path)
        if (!byRef.has(slugPath)) byRef.set(slugPath, placed.path)
      }
      walk(placed.children, slugPath)
    }
  }
  walk(tree, "")
  return byRef
}

/** `body`, in a file of the folder `folder`, with its links to pages by id or slug path as relative paths to their files. */
const quireLinksAsPaths = (body: string, folder: string, byRef: ReadonlyMap<string, string>): string => {
  if (!body.includes("/pages/")) return body
  return body.replace(quirePageLink, (match, lead: string, ref: string, anchor: string | undefined) => {
    let key = ref
    try {
      key = decodeURIComponent(ref)
    } catch {
      return match
    }
    const file = byRef.get(key) ?? byRef.get(key.replace(/\.md$/i, "").replace(/\/README$/i, ""))
    if (file === undefined) return match
    const target = `${relativePath(folder, file)}${anchor ?? ""}`
    // A bare destination with spaces or parentheses goes in `<>`, as GitBook writes it.
    return lead === "](" && /[\s()<>]/.test(target) ? `${lead}<${target}>` : `${lead}${target}`
  })
}

// A relative link to a markdown file: a link destination (`](x.md)`, `](<x y.md>)`), a GitBook
// block's `url="x.md"` or an include's `{% include "x.md" %}`; URLs, absolute paths and anchors
// alone are left out.
const relativePageLink = /(\]\(|\burl="|\binclude\s+")(<?)((?![a-z][a-z0-9+.-]*:|\/|#)[^\s"<>)]*?(?: [^\s"<>)]+?)*\.md)(#[^\s")>]*)?(>?)/gi

/**
 * The rebasing of a write: `rebase(body, from, to)` is a body written in the folder `from`, moved
 * to the folder `to`, whose relative links point where the pages they name went.
 */
export const linkRebaser = (
  tree: ReadonlyArray<Placed>,
  state: ReadState | undefined,
  previous: RepositoryFiles,
  used: ReadonlySet<string>
) => {
  // Where each previous page file went, for the relative links that point to it.
  const moves = new Map<string, string | null>()
  const collectMoves = (list: ReadonlyArray<Placed>) => {
    for (const placed of list) {
      // A page read from a previous file, or from one an earlier export moved (gone since).
      const from = placed.page.path
      if (placed.page.kind === "document" && from !== undefined && (state?.pageInfo.has(from) === true || !previous.has(from)) && placed.path !== from) {
        if (!moves.has(from)) moves.set(from, placed.path ?? null)
      }
      collectMoves(placed.children)
    }
  }
  collectMoves(tree)
  for (const path of state?.pageInfo.keys() ?? []) if (!used.has(path) && !moves.has(path)) moves.set(path, null)
  const byRef = pageFilesByRef(tree)
  return (body: string, from: string, to: string): string => quireLinksAsPaths(rebaseRelative(body, from, to), to, byRef)
  function rebaseRelative(body: string, from: string, to: string): string {
    if (!body.includes(".md") || (from === to && moves.size === 0)) return body
    return body.replace(relativePageLink, (match, lead: string, open: string, destination: string, anchor: string | undefined, close: string) => {
      let decoded = destination
      try {
        decoded = decodeURI(destination)
      } catch {
        return match
      }
      const target = joinPath(from, decoded)
      const moved = moves.get(target)
      if (moved === null) return match
      const final = moved ?? target
      if (moved === undefined && !previous.has(target) && !used.has(target)) return match
      if (final === target && from === to) return match
      let relative = relativePath(to, final)
      if (destination !== decoded) relative = encodeURI(relative)
      else if (open === "" && /[\s()]/.test(relative) && lead.endsWith("(")) return `${lead}<${relative}${anchor ?? ""}>${close}`
      return `${lead}${open}${relative}${anchor ?? ""}${close}`
    })
  }
}
