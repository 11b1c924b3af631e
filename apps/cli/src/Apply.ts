/**
 * `quire cr apply`'s plan: markdown files (one, or a folder as a page tree) as the changes of a
 * change request. Slugs come from file names, so that a page's path is its file's path and
 * relative links between the files work as written; a folder is a page (its README.md, if any)
 * whose subpages are its files and folders. Images referenced by relative path are uploaded and
 * their links rewritten to the files; every link is checked before anything is sent, with the
 * server's own rules (`@quire/content`'s link resolution, loaded only by this command).
 */
import { Effect, FileSystem, Path, type PlatformError } from "effect"
import type { RevisionPage } from "@quire/api"
import { validSlug } from "./Content.ts"
import { CliFailure } from "./Failure.ts"

/** A markdown file that becomes a page. */
export interface Document {
  /** The page's path below where the files are applied (`guides/install`). */
  readonly path: string
  /** The file it is read from; none for a folder without README.md. */
  readonly file: string | undefined
  /** The folder its relative links and images start from. */
  readonly folder: string
  readonly markdown: string
  /** A title for a page whose markdown names none: its file's or folder's name. */
  readonly fallbackTitle: string
}

/** A link that would not work, where it is written. */
export interface BrokenLink {
  readonly file: string
  readonly line: number
  readonly url: string
  readonly reason: string
}

const ignored = (name: string) => name.startsWith(".") || name === "node_modules"

/** A folder's name as a page title: words split at `-`, `_` and spaces, each capitalized (`getting-started` is "Getting Started"). */
export const titleOfFolder = (name: string): string =>
  name.split(/[-_\s]+/).filter((word) => word !== "").map((word) => word[0]!.toUpperCase() + word.slice(1)).join(" ") || name

/**
 * The relative paths `markdown` links to, in the order of their first link (`./guides/install.md`
 * is `guides/install.md`); links elsewhere (absolute URLs, anchors, `/` or `../` paths) are left out.
 */
export const linkTargets = (markdown: string): ReadonlyArray<string> => {
  const found: Array<string> = []
  for (const match of markdown.matchAll(/\]\(\s*<?([^)\s>]+)>?|^\s*\[[^\]]+\]:\s*<?(\S+?)>?\s*$|href="([^"]+)"/gm)) {
    const target = match[1] ?? match[2] ?? match[3] ?? ""
    if (/^[a-z][a-z0-9+.-]*:|^[#/]/i.test(target)) continue
    let relative: string
    try {
      relative = decodeURIComponent(target.split(/[?#]/)[0]!).replace(/^(\.\/)+/, "")
    } catch {
      continue
    }
    if (relative === "" || relative.startsWith("../") || found.includes(relative)) continue
    found.push(relative)
  }
  return found
}

/** The entries of a folder (file and subfolder names) that `targets` lead to, first link first. */
const entryNames = (targets: ReadonlyArray<string>): ReadonlyArray<string> => [...new Set(targets.map((target) => target.split("/")[0]!))]

/** The targets below the subfolder `name`, relative to it. */
const below = (targets: ReadonlyArray<string>, name: string): ReadonlyArray<string> =>
  targets.filter((target) => target.startsWith(`${name}/`)).map((target) => target.slice(name.length + 1))

/** `entries` in the order `markdown` links to them, the others after them in their own order. */
const orderedByLinks = <E extends { readonly name: string }>(entries: ReadonlyArray<E>, targets: ReadonlyArray<string>): ReadonlyArray<E> => {
  const linked = entryNames(targets)
  const rank = (entry: E) => {
    const index = linked.indexOf(entry.name)
    return index === -1 ? linked.length : index
  }
  return entries.toSorted((a, b) => rank(a) - rank(b))
}


/**
 * The markdown files of a folder as pages, parents before their subpages: in each folder the order
 * its SUMMARY.md lists them in, else its README.md (the order a reader meets their links in), the
 * others after them by name; at the top the README.md first. A folder without README.md is a page
 * titled after the folder.
 */
export const readFolder = Effect.fnUntraced(function*(root: string) {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const documents: Array<Document> = []
  // A folder is a page only when it holds markdown (an images/ folder is not).
  const holdsMarkdown = (dir: string): Effect.Effect<boolean, PlatformError.PlatformError> =>
    Effect.gen(function*() {
      for (const name of (yield* fs.readDirectory(dir)).filter((name) => !ignored(name))) {
        const info = yield* fs.stat(path.join(dir, name))
        if (info.type === "File" && /\.md$/i.test(name)) return true
        if (info.type === "Directory" && (yield* holdsMarkdown(path.join(dir, name)))) return true
      }
      return false
    })
  // `summary`: the links of the nearest SUMMARY.md above, relative to `dir`, which order the folder
  // when it has no SUMMARY.md of its own.
  const walk = (dir: string, prefix: string, summary: ReadonlyArray<string>): Effect.Effect<void, CliFailure | PlatformError.PlatformError> =>
    Effect.gen(function*() {
      const names = (yield* fs.readDirectory(dir)).filter((name) => !ignored(name)).toSorted((a, b) => a.localeCompare(b))
      const entries: Array<{ readonly name: string; readonly directory: boolean }> = []
      for (const name of names) {
        const info = yield* fs.stat(path.join(dir, name))
        if (info.type === "Directory") {
          if (yield* holdsMarkdown(path.join(dir, name))) entries.push({ name, directory: true })
        }
        else if (info.type === "File" && /\.md$/i.test(name)) entries.push({ name, directory: false })
      }
      const named = (lower: string) => entries.find((entry) => !entry.directory && entry.name.toLowerCase() === lower)
      const links = (entry: { readonly name: string } | undefined) =>
        entry === undefined ? Effect.succeed(undefined) : Effect.map(fs.readFileString(path.join(dir, entry.name)), linkTargets)
      const ownSummary = yield* links(named("summary.md"))
      const order = ownSummary ?? (summary.length > 0 ? summary : (yield* links(named("readme.md"))) ?? [])
      const linked = orderedByLinks(entries, order)
      const readme = prefix === "" ? named("readme.md") : undefined
      const ordered = readme === undefined ? linked : [readme, ...linked.filter((entry) => entry !== readme)]
      for (const entry of ordered) {
        // A folder's README.md is the folder's page; at the top, where there is no folder page, it is the first page.
        if (!entry.directory && entry.name.toLowerCase() === "readme.md" && prefix !== "") continue
        // A SUMMARY.md is a folder's table of contents, not a page.
        if (!entry.directory && entry.name.toLowerCase() === "summary.md") continue
        // The top README.md is the page `readme` (GitBook's first page), whatever the file name's case.
        const slug = entry.directory ? entry.name : entry === readme ? "readme" : entry.name.replace(/\.md$/i, "")
        const pagePath = prefix === "" ? slug : `${prefix}/${slug}`
        if (documents.some((document) => document.path === pagePath)) {
          return yield* new CliFailure({
            message: `${path.join(dir, entry.name)}: the page ${pagePath} is already the folder ${slug}/ (put its content in ${slug}/README.md)`
          })
        }
        if (!entry.directory) {
          const file = path.join(dir, entry.name)
          documents.push({ path: pagePath, file, folder: dir, markdown: yield* fs.readFileString(file), fallbackTitle: slug })
          continue
        }
        const folder = path.join(dir, entry.name)
        const readmeName = (yield* fs.readDirectory(folder)).find((name) => name.toLowerCase() === "readme.md")
        const file = readmeName === undefined ? undefined : path.join(folder, readmeName)
        documents.push({
          path: pagePath,
          file,
          folder,
          markdown: file === undefined ? "" : yield* fs.readFileString(file),
          fallbackTitle: file === undefined ? titleOfFolder(entry.name) : entry.name
        })
        yield* walk(folder, pagePath, below(ownSummary ?? summary, entry.name))
      }
    })
  yield* walk(root, "", [])
  return documents
})

/** One markdown file as a page named after the file. */
export const readFile = Effect.fnUntraced(function*(file: string) {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const name = path.basename(file)
  // As in a folder, README.md is the page `readme`.
  const slug = name.toLowerCase() === "readme.md" ? "readme" : name.replace(/\.md$/i, "")
  const document: Document = {
    path: slug,
    file,
    folder: path.dirname(file),
    markdown: yield* fs.readFileString(file),
    fallbackTitle: slug
  }
  return document
})

/** Refuses page paths whose slugs the server would not take (letters, digits, "-", "_"), naming the file. */
export const checkSlugs = (documents: ReadonlyArray<Document>) => {
  const bad = documents.find((document) => !document.path.split("/").every((slug) => validSlug.test(slug)))
  return bad === undefined ? Effect.void : Effect.fail(
    new CliFailure({
      message: `${bad.file ?? bad.folder}: ${JSON.stringify(bad.path)} cannot be a page's path: name files and folders with letters, digits, "-" or "_" (the name is the page's slug)`
    })
  )
}


const isRelative = (url: string) => url !== "" && !url.startsWith("/") && !url.startsWith("#") && !url.startsWith("//") && !/^[a-z][a-z0-9+.-]*:/i.test(url)

const decode = (url: string) => {
  try {
    return decodeURIComponent(url)
  } catch {
    return url
  }
}

/** The images a document references by relative path: the URL as written and the file on disk. */
export interface LocalImage {
  readonly url: string
  readonly file: string
  readonly line: number
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** `markdown` with each image URL of `replacements` (as written) replaced, in link, definition and `src` syntax. */
export const rewriteUrls = (markdown: string, replacements: ReadonlyMap<string, string>): string => {
  let result = markdown
  for (const [from, to] of replacements) {
    const pattern = new RegExp(`(\\]\\(\\s*<?|\\]:[ \\t]*<?|src=["'])${escapeRegExp(from)}(?=[>\\s)"'])`, "g")
    result = result.replace(pattern, (_match, open: string) => `${open}${to}`)
  }
  return result
}

/**
 * What applying `documents` below `prefix` (the path of the page they go under, "" for the top
 * level) would leave broken, against the change request's `existing` pages and `fileIds`, with the
 * images each document references by relative path (which the apply uploads).
 */
export const check = Effect.fnUntraced(function*(
  documents: ReadonlyArray<Document>,
  options: {
    readonly prefix: string
    readonly existing: ReadonlyArray<RevisionPage>
    readonly fileIds: ReadonlySet<string>
    readonly appBaseUrl: string
  }
) {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const { classifyLinks, htmlLinks, links } = yield* Effect.promise(() => import("@quire/content"))
  const full = (document: Document) => (options.prefix === "" ? document.path : `${options.prefix}/${document.path}`)
  const pagesByPath = new Map<string, string>()
  const walk = (pages: ReadonlyArray<RevisionPage>) => {
    for (const page of pages) {
      pagesByPath.set(page.path, page.id)
      walk(page.pages ?? [])
    }
  }
  walk(options.existing)
  for (const document of documents) if (!pagesByPath.has(full(document))) pagesByPath.set(full(document), `new:${full(document)}`)
  const rootPagePath = options.existing[0]?.path ?? (options.prefix === "" ? documents[0]?.path : undefined) ?? ""

  const broken: Array<BrokenLink> = []
  const images = new Map<Document, ReadonlyArray<LocalImage>>()
  const placeholders = new Set(options.fileIds)
  const uploads: Array<string> = []
  for (const document of documents) {
    const found: Array<LocalImage> = []
    const where = document.file ?? path.join(document.folder, "README.md")
    for (const link of links(document.markdown, htmlLinks)) {
      if (link.kind !== "image" || !isRelative(link.url)) continue
      const file = path.resolve(document.folder, decode(link.url.split(/[?#]/)[0] ?? ""))
      const exists = yield* fs.exists(file)
      if (!exists) {
        broken.push({ file: where, line: link.position.line, url: link.url, reason: "no such file" })
        continue
      }
      found.push({ url: link.url, file, line: link.position.line })
    }
    images.set(document, found)
    // The images are checked on disk; the rest by the server's rules, images standing for the files they become.
    const placeholder = (file: string) => `local-${uploads.indexOf(file) === -1 ? uploads.push(file) - 1 : uploads.indexOf(file)}`
    const replacements = new Map(found.map((image) => [image.url, `/files/${placeholder(image.file)}`]))
    for (const image of found) placeholders.add(placeholder(image.file))
    const rewritten = rewriteUrls(document.markdown, replacements)
    const classified = classifyLinks(rewritten, {
      pagePath: full(document),
      pagesByPath,
      fileIds: placeholders,
      appBaseUrl: options.appBaseUrl,
      rootPagePath
    }, htmlLinks)
    for (const link of classified) {
      // Images by relative path were looked for on disk above.
      if (link.status !== "broken" || (link.kind === "image" && isRelative(link.url))) continue
      const reason = link.target.kind === "file"
        ? "no such file in the change request"
        : "path" in link.target
        ? `no page ${link.target.path === "" ? "at the top" : link.target.path}`
        : "not found"
      broken.push({ file: where, line: link.position.line, url: link.url, reason })
    }
  }
  return { broken, images }
})
