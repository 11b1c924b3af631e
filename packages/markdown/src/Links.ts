/**
 * Classifies the links of a page against the revision it belongs to, in the link forms GitBook's
 * markdown uses (the insert_page and insert_files descriptions of its API):
 * - pages: relative Git paths (`./sibling.md`, `../other.md`, `README.md`, folder-style `./section`),
 *   and `/pages/<pageId>`, `/pages/<slug path>`, `/pages/<path>.md`, `/pages/<path>/README.md`,
 *   each with an optional `#anchor`;
 * - files: `/files/<fileId>`;
 * - URLs: `http(s)://...`, `in-app` when they point into the app itself.
 * Anchor-only links (`#x`) and other schemes (`mailto:`, `tel:`, `data:`...) are not links to check.
 */
import type { LinkStatus } from "./domain/LinkStatus.ts"
import { type HtmlLinks, links as markdownLinks, type MarkdownLink } from "./MarkdownLinks.ts"

/** What a page's links are resolved against: the page's own path and the revision's pages and files. */
export interface LinkContext {
  /** The linking page's path, e.g. `guides/install`. */
  readonly pagePath: string
  /** Every page of the revision by path (`guides/install`) to its id. */
  readonly pagesByPath: ReadonlyMap<string, string>
  /** The ids of the revision's files. */
  readonly fileIds: ReadonlySet<string>
  /** Links starting with this URL point into the app (`in-app`). */
  readonly appBaseUrl: string
  /** The path of the space's first page, which Git Sync stores as the root `README.md`; default `""`. */
  readonly rootPagePath?: string
  /** The paths of the pages that have subpages; computed from `pagesByPath` when absent (pass it when resolving many pages). */
  readonly parentPaths?: ReadonlySet<string>
  /**
   * The linking page's file in the repository (`mining/setup/getting-started.md`) when it has one
   * (pages imported by Git Sync keep it): its relative links start from that file's folder, as on
   * GitHub and in GitBook, wherever the table of contents nests the page.
   */
  readonly pageFilePath?: string | undefined
  /** The pages that have a file in the repository, by that file's path (`mining/overview/node-types.md`). */
  readonly pagesByFile?: ReadonlyMap<string, string> | undefined
  /** The files that have a path in the repository (`mining/images/rig.png`), by that path. */
  readonly filesByPath?: ReadonlyMap<string, string> | undefined
}

/** Where a link points. A page that was found has its id; a missing one, the path that was looked up. */
export type LinkTarget =
  | { readonly kind: "page"; readonly page: string; readonly anchor?: string }
  | { readonly kind: "page"; readonly path: string; readonly anchor?: string }
  | { readonly kind: "file"; readonly file: string }
  | { readonly kind: "url"; readonly url: string }

export { LinkStatus } from "./domain/LinkStatus.ts"

/** Where a link points and whether it works. */
export interface LinkResolution {
  readonly target: LinkTarget
  readonly status: LinkStatus
}

/** A link of a page, classified. */
export interface ClassifiedLink extends MarkdownLink, LinkResolution {}

/** Totals over a page's or a revision's links. */
export interface LinkStats {
  readonly total: number
  readonly broken: number
}

const scheme = /^[a-z][a-z0-9+.-]*:/i

const splitAnchor = (url: string): { path: string; anchor?: string } => {
  const hash = url.indexOf("#")
  const beforeHash = hash === -1 ? url : url.slice(0, hash)
  const query = beforeHash.indexOf("?")
  const path = query === -1 ? beforeHash : beforeHash.slice(0, query)
  const anchor = hash === -1 ? "" : url.slice(hash + 1)
  return anchor === "" ? { path } : { path, anchor }
}

/**
 * A destination as a path to match: without the `<>` a destination with spaces is written in
 * (`<../.gitbook/assets/image (3).png>`), when a caller passes it as written.
 */
const unwrap = (url: string): string => {
  const trimmed = url.trim()
  return trimmed.startsWith("<") && trimmed.endsWith(">") ? trimmed.slice(1, -1).trim() : trimmed
}

const decode = (segment: string): string => {
  if (!segment.includes("%")) return segment
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** Joins path segments the way a file system does: `.` dropped, `..` back one (never above the root). */
const normalizeSegments = (segments: ReadonlyArray<string>): Array<string> => {
  const result: Array<string> = []
  for (const segment of segments) {
    if (segment === "" || segment === ".") continue
    if (segment === "..") result.pop()
    else result.push(decode(segment))
  }
  return result
}

/** The page path a Git file path names: `a/README.md` and `a/` are `a`, `a/b.md` is `a/b`. */
const pagePathOfGitPath = (segments: ReadonlyArray<string>): string => {
  const last = segments.at(-1)
  if (last === undefined) return ""
  if (last.toLowerCase() === "readme.md") return segments.slice(0, -1).join("/")
  if (last.toLowerCase().endsWith(".md")) return [...segments.slice(0, -1), last.slice(0, -3)].join("/")
  return segments.join("/")
}

/** `pagePathOfGitPath` of a path written as one string with no empty segment. */
const pagePathOfFilePath = (path: string): string => {
  const slash = path.lastIndexOf("/")
  const last = path.slice(slash + 1).toLowerCase()
  if (last === "readme.md") return slash === -1 ? "" : path.slice(0, slash)
  return last.endsWith(".md") ? path.slice(0, -3) : path
}

/**
 * Whether `url` (absolute, http or https) points into the app at `base`. `origins` keeps, by the
 * text before the URL's path, whether it is the app's origin: the links of a revision point to a
 * few sites, and each is parsed once, not once a link.
 */
const isInApp = (url: string, base: URL | undefined, origins: Map<string, boolean>): boolean => {
  if (base === undefined) return false
  const authority = url.indexOf("//")
  if (authority !== -1 && authority === url.indexOf(":") + 1) {
    let end = authority + 2
    while (end < url.length && !"/\\?#".includes(url[end]!)) end++
    const prefix = url.slice(0, end)
    let same = origins.get(prefix)
    if (same === undefined) {
      same = URL.canParse(prefix) && new URL(prefix).origin === base.origin
      origins.set(prefix, same)
    }
    if (!same) return false
  }
  if (!URL.canParse(url)) return false
  const link = new URL(url)
  if (link.origin !== base.origin) return false
  const prefix = base.pathname.endsWith("/") ? base.pathname : `${base.pathname}/`
  return base.pathname === "/" || link.pathname === base.pathname || link.pathname.startsWith(prefix)
}

/**
 * The folder a page's relative links start from, in the Git layout: a page with subpages is
 * `<path>/README.md`, the first page is the root `README.md`, any other page is `<path>.md`.
 */
const baseFolder = (context: LinkContext): Array<string> => {
  const { pagePath } = context
  if (pagePath === (context.rootPagePath ?? "")) return []
  const segments = pagePath.split("/").filter((segment) => segment !== "")
  if (context.parentPaths !== undefined) return context.parentPaths.has(pagePath) ? segments : segments.slice(0, -1)
  const prefix = `${pagePath}/`
  for (const path of context.pagesByPath.keys()) {
    if (path.startsWith(prefix)) return segments
  }
  return segments.slice(0, -1)
}

/** The deepest folder that holds every file of `files` (as segments; none when they share none). */
const commonFolder = (files: ReadonlyMap<string, string> | undefined): ReadonlyArray<string> => {
  let common: Array<string> | undefined
  for (const path of files?.keys() ?? []) {
    const folder = fileFolder(path)
    if (common === undefined) common = folder
    else {
      let i = 0
      while (i < common.length && i < folder.length && common[i] === folder[i]) i++
      common.length = i
    }
    if (common.length === 0) break
  }
  return common ?? []
}

/** A value computed on first use, so a page's links scan the revision's pages at most once. */
const lazy = <A>(compute: () => A): () => A => {
  let value: { readonly a: A } | undefined
  return () => (value ??= { a: compute() }).a
}

const withAnchor = <T extends object>(target: T, anchor: string | undefined): T & { anchor?: string } =>
  anchor === undefined ? target : { ...target, anchor }

const pageByPath = (path: string, anchor: string | undefined, context: LinkContext): LinkResolution => {
  const lookup = path === "" ? context.rootPagePath ?? "" : path
  const page = context.pagesByPath.get(lookup)
  return page === undefined
    ? { target: withAnchor({ kind: "page", path: lookup }, anchor), status: "broken" }
    : { target: withAnchor({ kind: "page", page }, anchor), status: "ok" }
}

const fileById = (file: string, context: LinkContext): LinkResolution => ({
  target: { kind: "file", file },
  status: context.fileIds.has(file) ? "ok" : "broken"
})

/** The folder of a repository file path, as segments. */
const fileFolder = (filePath: string): Array<string> => filePath.split("/").filter((segment) => segment !== "").slice(0, -1)

const assetsMarker = ".gitbook/assets/"

/** Neutral asset references (`/.gitbook/assets/<name>`, from the documentation root) to the files that hold them. */
const assetRefsOf = (filesByPath: ReadonlyMap<string, string> | undefined): Map<string, string> => {
  const refs = new Map<string, string>()
  for (const [path, id] of filesByPath ?? []) {
    const inner = path.indexOf(`/${assetsMarker}`)
    const at = path.startsWith(assetsMarker) ? 0 : inner === -1 ? -1 : inner + 1
    if (at === -1) continue
    const ref = `/${path.slice(at)}`
    if (!refs.has(ref)) refs.set(ref, id)
  }
  return refs
}

/**
 * What a relative destination (its segments resolved from the page's file) names in the repository:
 * a page's file (`x.md`, a folder's `README.md`, `x` for `x.md`) or a file; `undefined` when nothing.
 */
const byFile = (path: string, anchor: string | undefined, context: LinkContext): LinkResolution | undefined => {
  const file = context.filesByPath?.get(path)
  if (file !== undefined) return { target: { kind: "file", file }, status: "ok" }
  const pages = context.pagesByFile
  if (pages === undefined) return undefined
  const candidates = /\.md$/i.test(path) ? [path] : [`${path}.md`, path === "" ? "README.md" : `${path}/README.md`]
  for (const candidate of candidates) {
    const page = pages.get(candidate) ?? pages.get(candidate.replace(/README\.md$/, "readme.md"))
    if (page !== undefined) return { target: withAnchor({ kind: "page", page }, anchor), status: "ok" }
  }
  return undefined
}

/**
 * A relative path joined to `folder` as `normalizeSegments([...folder, ...path.split("/")]).join("/")`
 * joins it, made from strings when the path is plain (leading `./` and `../`, then segments none of
 * which is empty, `.` or `..` or holds a `%`): how most links between pages of a Git repository are
 * written, and a link graph resolves tens of thousands. `undefined` for any other path.
 */
export const plainJoin = (folder: ReadonlyArray<string>) => {
  const base = normalizeSegments(folder)
  // The folder with its last `up` segments dropped, for each `up` met.
  const prefixes: Array<string | undefined> = []
  const prefix = (up: number) => (prefixes[up] ??= base.slice(0, Math.max(0, base.length - up)).join("/"))
  return (path: string): string | undefined => {
    let start = 0
    let up = 0
    for (;;) {
      if (path.startsWith("./", start)) start += 2
      else if (path.startsWith("../", start)) {
        start += 3
        up++
      } else break
    }
    if (!plainSegments(path, start)) return undefined
    const rest = start === 0 ? path : path.slice(start)
    const head = prefix(up)
    return head === "" ? rest : `${head}/${rest}`
  }
}

/** Whether `path` from `start` on is segments none of which is empty, `.` or `..` or holds a `%`. */
const plainSegments = (path: string, start: number): boolean => {
  if (start >= path.length) return false
  let segmentStart = start
  for (let i = start; i <= path.length; i++) {
    const code = i === path.length ? 47 : path.charCodeAt(i)
    if (code === 37) return false // %
    if (code !== 47) continue // not /
    const length = i - segmentStart
    if (length === 0) return false
    if (path.charCodeAt(segmentStart) === 46 && (length === 1 || (length === 2 && path.charCodeAt(segmentStart + 1) === 46))) return false
    segmentStart = i + 1
  }
  return true
}

/** What every page of one revision resolves its links against: a `LinkContext` without the page. */
export type RevisionLinkContext = Omit<LinkContext, "pagePath" | "pageFilePath">

/** The page whose links a resolver resolves: its path in the tree and its file in the repository. */
export interface LinkPlace {
  readonly pagePath: string
  readonly pageFilePath?: string | undefined
}

/**
 * Whether `url` resolves alike on every page of a revision: it has no relative path (an absolute
 * URL, a path from the root, an anchor, nothing), so neither the page's place nor its file matters.
 */
export const resolvesAlikeOnEveryPage = (url: string): boolean => {
  const given = unwrap(url)
  return given === "" || given.startsWith("#") || given.startsWith("/") || scheme.test(given)
}

/**
 * Resolvers for the pages of one revision, sharing what does not depend on the page: the set of
 * page ids, the asset paths, the parsed app URL, and the resolution of each absolute URL.
 */
export const revisionLinkResolver = (revision: RevisionLinkContext) => {
  const pageIds = lazy(() => new Set(revision.pagesByPath.values()))
  const assetRefs = lazy(() => assetRefsOf(revision.filesByPath))
  const projectRoot = lazy(() => commonFolder(revision.pagesByFile))
  const base = lazy(() => URL.canParse(revision.appBaseUrl) ? new URL(revision.appBaseUrl) : undefined)
  const absolute = new Map<string, LinkResolution | undefined>()
  const origins = new Map<string, boolean>()
  const absoluteLink = (url: string): LinkResolution | undefined => {
    if (absolute.has(url)) return absolute.get(url)
    const full = url.startsWith("//") ? `https:${url}` : url
    const resolution: LinkResolution | undefined = /^https?:/i.test(full)
      ? { target: { kind: "url", url }, status: isInApp(full, base(), origins) ? "in-app" : "ok" }
      : undefined
    absolute.set(url, resolution)
    return resolution
  }
  return (place: LinkPlace): (link: Pick<MarkdownLink, "url" | "kind">) => LinkResolution | undefined => {
    const context: LinkContext = { ...revision, pagePath: place.pagePath, pageFilePath: place.pageFilePath }
    const folder = lazy(() => baseFolder(context))
    const { pageFilePath } = place
    const fileFolderOfPage = pageFilePath === undefined ? undefined : fileFolder(pageFilePath)
    const plainFromFile = fileFolderOfPage === undefined ? () => undefined : plainJoin(fileFolderOfPage)
    const plainFromTree = lazy(() => plainJoin(folder()))
    return (link) => {
      const url = unwrap(link.url)
      if (url === "" || url.startsWith("#")) return undefined
      if (url.startsWith("//") || scheme.test(url)) return absoluteLink(url)
      const { anchor, path } = splitAnchor(url)
      const rooted = path.startsWith("/")
      if (!rooted && fileFolderOfPage !== undefined) {
        const plain = plainFromFile(path)
        const found = plain === undefined ? undefined : byFile(plain, anchor, context)
        if (found !== undefined) return found
      }
      // A page with no file of its own: a plain relative path is joined to its folder in the tree as strings.
      if (!rooted && fileFolderOfPage === undefined && link.kind !== "image") {
        const plain = plainFromTree()(path)
        if (plain !== undefined) return pageByPath(pagePathOfFilePath(plain), anchor, context)
      }
      const segments = path.split("/")
      if (rooted && segments[1] === "files" && segments[2] !== undefined && segments[2] !== "") {
        return fileById(decode(segments[2]), context)
      }
      if (rooted && segments[1] === "pages") {
        const rest = normalizeSegments(segments.slice(2))
        const [only] = rest
        if (rest.length === 1 && only !== undefined && pageIds().has(only)) {
          return { target: withAnchor({ kind: "page", page: only }, anchor), status: "ok" }
        }
        return pageByPath(pagePathOfGitPath(rest), anchor, context)
      }
      if (rooted && segments[1] === ".gitbook" && segments[2] === "assets") {
        const file = assetRefs().get(`/${normalizeSegments(segments).join("/")}`)
        if (file !== undefined) return { target: { kind: "file", file }, status: "ok" }
      }
      // A path from the root, as GitBook reads it: from the repository's root, else from the project's
      // (the folder that holds every page file, `.gitbook.yaml`'s `root`).
      if (rooted) {
        const fromRoot = normalizeSegments(segments)
        const found = byFile(fromRoot.join("/"), anchor, context) ??
          (projectRoot().length === 0 ? undefined : byFile([...projectRoot(), ...fromRoot].join("/"), anchor, context))
        if (found !== undefined) return found
      }
      const fromFile = rooted || fileFolderOfPage === undefined ? undefined : normalizeSegments([...fileFolderOfPage, ...segments])
      if (fromFile !== undefined) {
        const found = byFile(fromFile.join("/"), anchor, context)
        if (found !== undefined) return found
      }
      const resolved = fromFile !== undefined && link.kind === "image" ? fromFile : normalizeSegments(rooted ? segments : [...folder(), ...segments])
      if (link.kind === "image") {
        // An image of the revision is a file referenced by id; a path names nothing Quire stores.
        return { target: { kind: "file", file: resolved.join("/") }, status: "broken" }
      }
      return pageByPath(pagePathOfGitPath(resolved), anchor, context)
    }
  }
}

const resolver = (context: LinkContext) => revisionLinkResolver(context)(context)

/**
 * A resolver for the links of the page at `context.pagePath`: like `resolveLink`, but the
 * revision-wide lookups it needs are computed once for all the links it resolves.
 */
export const linkResolver = (context: LinkContext): (link: Pick<MarkdownLink, "url" | "kind">) => LinkResolution | undefined =>
  resolver(context)

/** What one link URL of the page at `context.pagePath` points to; `undefined` when it is not a link to check. */
export const resolveLink = (
  link: Pick<MarkdownLink, "url" | "kind">,
  context: LinkContext
): LinkResolution | undefined => resolver(context)(link)

/** Every link of a page's markdown with its target and status (anchors-only and `mailto:` links left out; `html` reads raw HTML). */
export const classifyLinks = (markdown: string, context: LinkContext, html: HtmlLinks): ReadonlyArray<ClassifiedLink> => {
  const resolve = resolver(context)
  return markdownLinks(markdown, html).flatMap((link) => {
    const resolution = resolve(link)
    return resolution === undefined ? [] : [{ ...link, ...resolution }]
  })
}

/** The totals of a list of classified links. */
export const linkStats = (links: ReadonlyArray<Pick<ClassifiedLink, "status">>): LinkStats => ({
  total: links.length,
  broken: links.filter((link) => link.status === "broken").length
})
