/**
 * Relative links between page files, made to follow the files a write moves (links to deleted pages
 * stay as written); links written in Quire to a page (`/pages/<id>`, `/pages/<slug path>`) become the
 * relative `.md` paths GitBook writes.
 */
import * as Syntax from "@quire/document/syntax"
import type { RepoPage, RepositoryFiles, ReadState } from "./LayoutTypes.ts"
import type { Placed } from "./PagePlacement.ts"
import { joinPath, relativePath } from "./Paths.ts"

/** A page of a write that knows its id in the space, so that links to it by id can be written as paths. */
export interface IdentifiedPage extends RepoPage {
  readonly id: string
}

const idOf = (page: RepoPage): string | undefined => "id" in page && typeof page.id === "string" ? page.id : undefined

// A link to a page by id or slug path, where a link destination or an HTML `href="` starts (or a
// GitBook block's `url`: `blockUrls`); its anchor is kept.
const quirePageLink = /(\]\(<?|\bhref=")\/pages\/([^\s"'<>)#?]+)(#[^\s"'<>)]*)?/g
const quireBlockUrl = /^\/pages\/([^\s"'<>)#?]+)(#[^\s"'<>)]*)?/

/**
 * `body` with what `rewrite` answers for the values of GitBook's tags that name a page: a block's
 * `url` (`{% content-ref url="x.md" %}`) and an include's reference (`{% include "x.md" %}`).
 */
const blockUrls = (body: string, rewrite: (value: string) => string | undefined): string =>
  !body.includes("{%")
    ? body
    : Syntax.replaceParamValues(body, (tag, param) =>
      param.key === "url" || (tag.name === "include" && param.key === null && param.quote !== "") ? rewrite(param.value) : undefined)

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
  const targetOf = (ref: string, anchor: string | undefined): string | undefined => {
    let key = ref
    try {
      key = decodeURIComponent(ref)
    } catch {
      return undefined
    }
    const file = byRef.get(key) ?? byRef.get(key.replace(/\.md$/i, "").replace(/\/README$/i, ""))
    return file === undefined ? undefined : `${relativePath(folder, file)}${anchor ?? ""}`
  }
  const linked = body.replace(quirePageLink, (match, lead: string, ref: string, anchor: string | undefined) => {
    const target = targetOf(ref, anchor)
    if (target === undefined) return match
    // A bare destination with spaces or parentheses goes in `<>`, as GitBook writes it.
    return lead === "](" && /[\s()<>]/.test(target) ? `${lead}<${target}>` : `${lead}${target}`
  })
  return blockUrls(linked, (value) => {
    const found = quireBlockUrl.exec(value)
    const target = found === null ? undefined : targetOf(found[1]!, found[2])
    return target === undefined ? undefined : `${target}${value.slice(found![0].length)}`
  })
}

// A relative link to a markdown file: a link destination (`](x.md)`, `](<x y.md>)`), or the start
// of a GitBook block's `url` or an include's reference (`blockUrls`); URLs, absolute paths and
// anchors alone are left out.
const relativeDestination = String.raw`((?![a-z][a-z0-9+.-]*:|\/|#)[^\s"<>)]*?(?: [^\s"<>)]+?)*\.md)(#[^\s")>]*)?`
const relativePageLink = new RegExp(String.raw`(\]\()(<?)${relativeDestination}(>?)`, "gi")
const relativeBlockUrl = new RegExp(`^${relativeDestination}`, "i")

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
    /** Where `destination`, written in `from`, points from `to`: `bare` when it was not URI-encoded; undefined to keep it. */
    const rebased = (destination: string): { readonly relative: string; readonly bare: boolean } | undefined => {
      let decoded = destination
      try {
        decoded = decodeURI(destination)
      } catch {
        return undefined
      }
      const target = joinPath(from, decoded)
      const moved = moves.get(target)
      if (moved === null) return undefined
      const final = moved ?? target
      if (moved === undefined && !previous.has(target) && !used.has(target)) return undefined
      if (final === target && from === to) return undefined
      const relative = relativePath(to, final)
      return destination !== decoded ? { relative: encodeURI(relative), bare: false } : { relative, bare: true }
    }
    const linked = body.replace(relativePageLink, (match, lead: string, open: string, destination: string, anchor: string | undefined, close: string) => {
      const next = rebased(destination)
      if (next === undefined) return match
      if (next.bare && open === "" && /[\s()]/.test(next.relative)) return `${lead}<${next.relative}${anchor ?? ""}>${close}`
      return `${lead}${open}${next.relative}${anchor ?? ""}${close}`
    })
    return blockUrls(linked, (value) => {
      const found = relativeBlockUrl.exec(value)
      const next = found === null ? undefined : rebased(found[1]!)
      return next === undefined ? undefined : `${next.relative}${value.slice(found![1]!.length)}`
    })
  }
}
