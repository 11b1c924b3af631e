/**
 * A folder of markdown or HTML files as an import tree. The order and titles come from the tool
 * that wrote it when one is recognised: MkDocs (`mkdocs.yml`'s `nav`, under `docs_dir`), Docsify
 * (`_sidebar.md`), a GitBook `SUMMARY.md`, Docusaurus (`sidebar_position` and `_category_.json`);
 * otherwise from the folders, an index file (`README.md`, `index.md`, `index.html`) being its
 * folder's page. MkDocs' and Docusaurus' admonitions become hints.
 */
import { parse as parseYaml } from "yaml"
import { alertsToHints } from "@quire/markdown"
import type { ArchiveFiles } from "./Archive.ts"
import type { ImportTree, TreeAsset, TreePage } from "./ImportTree.ts"
import { basename, hint, htmlPage, isImage, type Resolver, rewriteMarkdown } from "./Links.ts"

const decoder = new TextDecoder("utf-8")
const text = (bytes: Uint8Array) => decoder.decode(bytes).replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n")

const isMarkdown = (path: string) => /\.(md|markdown|mdx)$/i.test(path)
const isHtml = (path: string) => /\.html?$/i.test(path)
const isPageFile = (path: string) => isMarkdown(path) || isHtml(path)
const indexNames = ["readme.md", "index.md", "_index.md", "index.mdx", "readme.mdx", "index.html", "index.htm"]
const isIndex = (path: string) => indexNames.includes(basename(path).toLowerCase())
const ignored = (path: string) => /(^|\/)(node_modules|\.git|\.github|site|build|\.docusaurus|i18n|blog)\//.test(path) || /(^|\/)_sidebar\.md$|(^|\/)_navbar\.md$|(^|\/)_coverpage\.md$|(^|\/)SUMMARY\.md$/i.test(path)

/** A file name as a title: `getting-started.md` is `Getting started`. */
export const humanize = (name: string): string => {
  const words = name.replace(/\.[^.]+$/, "").replace(/^\d+[-_.]\s*/, "").replace(/[-_]+/g, " ").trim()
  return words === "" ? name : words.charAt(0).toUpperCase() + words.slice(1)
}

interface Parsed {
  readonly title: string | undefined
  readonly body: string
  readonly front: Record<string, unknown>
}

/** Frontmatter, the leading `# title` (GitBook's page title, so not kept in the body) and the rest. */
export const splitMarkdown = (source: string): Parsed => {
  let body = source
  let front: Record<string, unknown> = {}
  const fence = /^---\n([\s\S]*?)\n---\n?/.exec(body)
  if (fence !== null) {
    try {
      const read = parseYaml(fence[1]!) as unknown
      if (read !== null && typeof read === "object") front = read as Record<string, unknown>
    } catch {
      // Not YAML: left in the body.
    }
    if (Object.keys(front).length > 0) body = body.slice(fence[0].length)
  }
  const heading = /^\s*#\s+(.+?)\s*#*\s*$/m.exec(body)
  let title = typeof front["title"] === "string" ? front["title"] : undefined
  if (heading !== null && body.slice(0, heading.index).trim() === "") {
    title ??= heading[1]!
    if (title === heading[1]) body = body.slice(heading.index + heading[0].length)
  }
  return { title, body: body.trim(), front }
}

const styles: Record<string, "info" | "success" | "warning" | "danger"> = {
  note: "info", info: "info", abstract: "info", summary: "info", question: "info", example: "info", quote: "info",
  tip: "success", hint: "success", success: "success", check: "success", done: "success",
  warning: "warning", caution: "warning", attention: "warning", important: "warning",
  danger: "danger", error: "danger", failure: "danger", bug: "danger"
}

/** Docusaurus' `:::note Title` … `:::` and MkDocs' `!!! note "Title"` (indented body) as GitBook hints. */
export const admonitionsToHints = (markdown: string): string =>
  markdown
    .replace(/^:::(\w+)(?:[ \t]+(.*))?\n([\s\S]*?)^:::[ \t]*$/gm, (_m, kind: string, title: string | undefined, body: string) =>
      hint(styles[kind.toLowerCase()] ?? "info", `${title === undefined || title.trim() === "" ? "" : `**${title.trim()}**\n\n`}${body.trim()}`))
    .replace(/^(?:!!!|\?\?\?\+?)[ \t]+(\w+)(?:[ \t]+"([^"]*)")?[ \t]*\n((?:(?:[ ]{4}|\t).*\n?|[ \t]*\n)+)/gm, (_m, kind: string, title: string | undefined, body: string) => {
      const inner = body.split("\n").map((line) => line.replace(/^(?: {4}|\t)/, "")).join("\n")
      return `${hint(styles[kind.toLowerCase()] ?? "info", `${title === undefined || title === "" ? "" : `**${title}**\n\n`}${inner.trim()}`)}\n\n`
    })

/** An entry of a navigation file: a page's path, or a section with children. */
interface NavEntry {
  readonly title: string | undefined
  readonly path: string | undefined
  readonly children: ReadonlyArray<NavEntry>
}

/** A nested markdown list of links (`_sidebar.md`, `SUMMARY.md`), paths read from `from`. */
export const parseListNav = (source: string, resolveFrom: (target: string) => string): ReadonlyArray<NavEntry> => {
  const root: Array<NavEntry & { children: Array<NavEntry> }> = []
  const stack: Array<{ indent: number; children: Array<NavEntry> }> = [{ indent: -1, children: root }]
  let pendingHeading: (NavEntry & { children: Array<NavEntry> }) | undefined
  for (const line of source.split("\n")) {
    const heading = /^#{2,}\s+(.+)$/.exec(line)
    if (heading !== null) {
      pendingHeading = { title: heading[1]!.trim(), path: undefined, children: [] }
      root.push(pendingHeading)
      stack.length = 1
      stack.push({ indent: -1, children: pendingHeading.children })
      continue
    }
    const item = /^(\s*)[-*+]\s+(.*)$/.exec(line)
    if (item === null) continue
    const indent = item[1]!.replace(/\t/g, "  ").length
    const link = /^\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/.exec(item[2]!.trim())
    const entry = { title: link?.[1] ?? item[2]!.trim(), path: link === null || link[2] === "" ? undefined : resolveFrom(link[2]!), children: [] as Array<NavEntry> }
    while (stack.length > 1 && stack[stack.length - 1]!.indent >= indent) stack.pop()
    stack[stack.length - 1]!.children.push(entry)
    stack.push({ indent, children: entry.children })
  }
  return root
}

/** MkDocs' `nav`: `- Title: path.md`, `- path.md`, `- Section: [ … ]`. */
const mkdocsNav = (nav: unknown): ReadonlyArray<NavEntry> => {
  if (!Array.isArray(nav)) return []
  return nav.flatMap((item): ReadonlyArray<NavEntry> => {
    if (typeof item === "string") return [{ title: undefined, path: item, children: [] }]
    if (item === null || typeof item !== "object") return []
    return Object.entries(item as Record<string, unknown>).map(([title, value]): NavEntry =>
      typeof value === "string"
        ? { title, path: /^[a-z]+:\/\//i.test(value) ? undefined : value, children: [] }
        : { title, path: undefined, children: mkdocsNav(value) }
    )
  })
}

interface Source {
  /** The page files by key (path from the upload's root). */
  readonly files: ReadonlyMap<string, string>
  readonly root: string
  /** Docusaurus' `_category_.json` of each folder (path from `root`): its label and position. */
  readonly categories: ReadonlyMap<string, Category>
}

interface Category {
  readonly label?: string | undefined
  readonly position?: number | undefined
}

const readCategories = (all: ArchiveFiles, root: string): ReadonlyMap<string, Category> => {
  const found = new Map<string, Category>()
  for (const [path, bytes] of all) {
    if (basename(path) !== "_category_.json" || (root !== "" && !path.startsWith(`${root}/`))) continue
    try {
      const json = JSON.parse(text(bytes)) as Record<string, unknown>
      const folder = path.slice(root === "" ? 0 : root.length + 1, path.lastIndexOf("/"))
      found.set(folder, {
        label: typeof json["label"] === "string" ? json["label"] : undefined,
        position: typeof json["position"] === "number" ? json["position"] : undefined
      })
    } catch {
      // An unreadable category file orders nothing.
    }
  }
  return found
}

const docusaurusPosition = (front: Record<string, unknown>) => typeof front["sidebar_position"] === "number" ? front["sidebar_position"] : undefined

const compareNames = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true, sensitivity: "base" })

/** Turns upload files into an import tree. */
export const markdownFolderTree = async (all: ArchiveFiles): Promise<ImportTree> => {
  let root = ""
  let nav: ReadonlyArray<NavEntry> | undefined
  const mkdocs = all.get("mkdocs.yml") ?? all.get("mkdocs.yaml")
  if (mkdocs !== undefined) {
    let config: Record<string, unknown> = {}
    try {
      // MkDocs' `!!python/name:` tags are read as plain strings.
      config = (parseYaml(text(mkdocs), { customTags: [], strict: false, logLevel: "silent" }) ?? {}) as Record<string, unknown>
    } catch {
      config = {}
    }
    root = typeof config["docs_dir"] === "string" ? config["docs_dir"].replace(/^\.\/|\/$/g, "") : "docs"
    if (config["nav"] !== undefined) nav = mkdocsNav(config["nav"]).map(function prefix(entry): NavEntry {
      return { ...entry, path: entry.path === undefined ? undefined : `${root}/${entry.path}`.replace(/^\//, ""), children: entry.children.map(prefix) }
    })
  } else if ((all.has("docusaurus.config.js") || all.has("docusaurus.config.ts") || all.has("sidebars.js")) && [...all.keys()].some((p) => p.startsWith("docs/"))) {
    root = "docs"
  }
  const inRoot = (path: string) => root === "" || path.startsWith(`${root}/`)
  const pageFiles = new Map<string, string>()
  for (const [path, bytes] of all) {
    if (!inRoot(path) || !isPageFile(path) || ignored(path)) continue
    const body = text(bytes)
    // Docsify's and other single-page apps' shell is no page.
    if (isHtml(path) && /window\.\$docsify|<div id="(app|root)"><\/div>/.test(body)) continue
    pageFiles.set(path, body)
  }
  for (const navFile of ["_sidebar.md", "SUMMARY.md", `${root}/_sidebar.md`, `${root}/SUMMARY.md`]) {
    const bytes = nav === undefined ? all.get(navFile) : undefined
    if (bytes === undefined) continue
    const folder = navFile.includes("/") ? navFile.slice(0, navFile.lastIndexOf("/")) : ""
    nav = parseListNav(text(bytes), (target) => {
      const clean = decodeURIComponent(target.replace(/#.*$/, "").replace(/^\.\//, ""))
      return clean.startsWith("/") ? clean.slice(1) : folder === "" ? clean : `${folder}/${clean}`
    })
  }
  return buildTree({ files: pageFiles, root, categories: readCategories(all, root) }, all, nav)
}

/** The key of the page a path names: the file, the file with an extension, or a folder's index. */
const pageFinder = (files: ReadonlyMap<string, string>) => (path: string): string | undefined => {
  const bare = path.replace(/\/$/, "")
  const candidates = [bare, `${bare}.md`, `${bare}.mdx`, `${bare}.html`, ...indexNames.map((name) => (bare === "" ? name : `${bare}/${name}`))]
  for (const candidate of candidates) {
    const found = [...files.keys()].find((key) => key.toLowerCase() === candidate.toLowerCase())
    if (found !== undefined) return found
  }
  return undefined
}

const buildTree = async (source: Source, all: ArchiveFiles, nav: ReadonlyArray<NavEntry> | undefined): Promise<ImportTree> => {
  const findPage = pageFinder(source.files)
  const resolver: Resolver = { page: findPage, file: (path) => all.has(path) && !isPageFile(path) }
  const parsed = new Map<string, Parsed>()
  for (const [key, body] of source.files) {
    if (isHtml(key)) {
      const markdown = await htmlPage(body, key, resolver)
      const split = splitMarkdown(markdown)
      const title = /<title>([^<]*)<\/title>/i.exec(body)?.[1]?.trim()
      parsed.set(key, { ...split, title: split.title ?? (title === "" ? undefined : title) })
    } else {
      const split = splitMarkdown(body)
      // GitHub's alerts become hints here as through the API's writes (`quire pages put`), Docusaurus' and MkDocs' admonitions too.
      parsed.set(key, { ...split, body: rewriteMarkdown(alertsToHints(admonitionsToHints(split.body)), key, resolver) })
    }
  }
  const titleOf = (key: string, fallback?: string) => {
    const front = parsed.get(key)?.front ?? {}
    const label = typeof front["sidebar_label"] === "string" ? front["sidebar_label"] : undefined
    return fallback ?? parsed.get(key)?.title ?? label ?? humanize(isIndex(key) ? basename(key.slice(0, key.lastIndexOf("/"))) || "Home" : basename(key))
  }
  const used = new Set<string>()
  const pageOf = (key: string, title: string | undefined, children: ReadonlyArray<TreePage>): TreePage => {
    used.add(key)
    return { key, title: titleOf(key, title), markdown: parsed.get(key)?.body ?? "", children }
  }
  let pages: Array<TreePage>
  if (nav !== undefined) {
    const fromNav = (entries: ReadonlyArray<NavEntry>, prefix: string): Array<TreePage> =>
      entries.flatMap((entry, index): Array<TreePage> => {
        const key = entry.path === undefined ? undefined : findPage(entry.path)
        const children = fromNav(entry.children, `${prefix}${index}.`)
        if (key !== undefined && !used.has(key)) return [pageOf(key, entry.title, children)]
        if (children.length === 0) return []
        return [{ key: `nav:${prefix}${index}`, title: entry.title ?? "Section", children }]
      })
    pages = fromNav(nav, "")
    // Pages no navigation lists are kept, after those it lists.
    const rest = folderTree(source, parsed, titleOf, (key) => used.has(key))
    pages.push(...rest)
  } else {
    pages = folderTree(source, parsed, titleOf, () => false)
  }
  const assets = new Map<string, TreeAsset>()
  for (const [path, bytes] of all) if (!isPageFile(path) && (isImage(path) || resolver.file(path))) assets.set(path, { name: basename(path), bytes })
  return { pages, assets }
}

/** The pages by folder: a folder's index is its page, the others its children, in Docusaurus' order or by name. */
const folderTree = (
  source: Source,
  parsed: ReadonlyMap<string, Parsed>,
  titleOf: (key: string) => string,
  skip: (key: string) => boolean
): Array<TreePage> => {
  interface Folder { readonly files: Array<string>; readonly folders: Map<string, Folder> }
  const top: Folder = { files: [], folders: new Map() }
  for (const key of source.files.keys()) {
    if (skip(key)) continue
    const rel = source.root === "" ? key : key.slice(source.root.length + 1)
    const segments = rel.split("/")
    let folder = top
    for (const segment of segments.slice(0, -1)) {
      const next = folder.folders.get(segment) ?? { files: [], folders: new Map() }
      folder.folders.set(segment, next)
      folder = next
    }
    folder.files.push(key)
  }
  const position = (key: string) => docusaurusPosition(parsed.get(key)?.front ?? {})
  const walk = (folder: Folder, path: string): Array<TreePage> => {
    const entries: Array<{ readonly order: number | undefined; readonly name: string; readonly page: TreePage }> = []
    for (const key of folder.files) {
      if (isIndex(key) && path !== "") continue
      entries.push({ order: isIndex(key) ? -Infinity : position(key), name: basename(key), page: { key, title: titleOf(key), markdown: parsed.get(key)?.body ?? "", children: [] } })
    }
    for (const [name, sub] of folder.folders) {
      const subPath = path === "" ? name : `${path}/${name}`
      const index = sub.files.find(isIndex)
      const children = walk(sub, subPath)
      const category = source.categories.get(subPath)
      if (index === undefined && children.length === 0) continue
      const title = category?.label ?? (index === undefined ? humanize(name) : titleOf(index))
      const page: TreePage = index === undefined
        ? { key: `folder:${subPath}`, title, children }
        : { key: index, title, markdown: parsed.get(index)?.body ?? "", children }
      entries.push({ order: category?.position ?? (index === undefined ? undefined : position(index)), name, page })
    }
    entries.sort((a, b) => (a.order ?? Number.MAX_SAFE_INTEGER) - (b.order ?? Number.MAX_SAFE_INTEGER) || compareNames(a.name, b.name))
    return entries.map((entry) => entry.page)
  }
  return walk(top, "")
}

