/**
 * A Confluence space exported as HTML (a zip of `index.html`, a file per page, `attachments/`)
 * as an import tree. The page tree is the "Available Pages" list of `index.html`, else each page's
 * breadcrumbs; a page is its `#main-content`. Information, note, warning and tip macros become
 * hints, code macros fenced code blocks, attachments space files under the names the export lists.
 */
import { escapeHtml } from "@quire/kernel"
import type { DomDocument, DomElement } from "../markdown/Dom.ts"
import type { ArchiveFiles } from "./Archive.ts"
import type { ImportTree, TreeAsset, TreePage } from "./ImportTree.ts"
import { basename, htmlPage, type Resolver, resolvePath } from "./Links.ts"

const decoder = new TextDecoder("utf-8")
const text = (bytes: Uint8Array) => decoder.decode(bytes)

/** Whether the files look like a Confluence HTML export. */
export const isConfluenceExport = (files: ArchiveFiles): boolean => {
  const index = files.get("index.html")
  if (index === undefined) return false
  const html = text(index)
  return /Available Pages|confluence|breadcrumb-section/i.test(html)
}

const panelStyles: ReadonlyArray<readonly [string, "info" | "success" | "warning" | "danger"]> = [
  ["confluence-information-macro-information", "info"],
  ["confluence-information-macro-note", "warning"],
  ["confluence-information-macro-warning", "danger"],
  ["confluence-information-macro-tip", "success"]
]

/** Domino answers some selectors with a NodeList that is not iterable. */
const all = (root: { querySelectorAll(selector: string): Iterable<DomElement> }, selector: string): Array<DomElement> =>
  Array.from(root.querySelectorAll(selector) as unknown as ArrayLike<DomElement>)

/** Confluence's macros as what the converter turns into GitBook's blocks. */
export const prepareConfluence = (document: DomDocument): void => {
  const main = document.querySelector("#main-content")
  if (main !== null) document.body.innerHTML = main.innerHTML
  for (const chrome of all(document, "#main-header, #breadcrumb-section, .page-metadata, .pageSection, #footer, .confluence-information-macro-icon")) chrome.remove()
  for (const [className, style] of panelStyles) {
    for (const panel of all(document, `.${className}`)) {
      const title = panel.querySelector(".title")?.textContent?.trim()
      const body = panel.querySelector(".confluence-information-macro-body")?.innerHTML ?? panel.innerHTML
      panel.innerHTML = `<p>{% hint style="${style}" %}</p>${title === undefined || title === "" ? "" : `<p><strong>${escapeHtml(title)}</strong></p>`}${body}<p>{% endhint %}</p>`
    }
  }
  for (const pre of all(document, "pre.syntaxhighlighter-pre, div.code pre, div.preformatted pre")) {
    const params = pre.getAttribute("data-syntaxhighlighter-params") ?? ""
    const language = /brush:\s*([\w+#-]+)/.exec(params)?.[1]
    const code = pre.textContent ?? ""
    pre.innerHTML = `<code${language === undefined || language === "none" ? "" : ` class="language-${language}"`}>${escapeHtml(code)}</code>`
  }
  // A table's `colgroup` hides its header row from the converter, which then keeps the table as HTML.
  for (const element of all(document, "colgroup, div.codeHeader")) element.remove()
}

/** The "Available Pages" tree of `index.html`: the page file of each item and its nested items. */
interface IndexEntry {
  readonly path: string
  readonly title: string
  readonly children: ReadonlyArray<IndexEntry>
}

const readIndex = async (html: string): Promise<ReadonlyArray<IndexEntry>> => {
  const { parseHtml } = await import("../markdown/Dom.ts")
  const document = parseHtml(html)
  const section = all(document, ".pageSection").find((s) => /Available Pages/i.test(s.querySelector("h2")?.textContent ?? ""))
  const list = section?.querySelector("ul") ?? null
  if (list == null) return []
  // Nested lists are read from their HTML: each `li` holds its link and, maybe, a `ul` of children.
  const walk = (ul: string): ReadonlyArray<IndexEntry> => {
    const fragment = parseHtml(`<ul id="root">${ul}</ul>`)
    const root = fragment.querySelector("#root")!
    const items = all(root, "li").filter((li) => isDirectChild(li, root))
    return items.flatMap((li): ReadonlyArray<IndexEntry> => {
      const link = li.querySelector("a[href]")
      const href = link?.getAttribute("href")
      if (link == null || href == null) return []
      const nested = li.querySelector("ul")
      return [{ path: decodeURIComponent(href), title: (link.textContent ?? "").trim(), children: nested == null ? [] : walk(nested.innerHTML) }]
    })
  }
  return walk(list.innerHTML)
}

const isDirectChild = (li: unknown, root: unknown): boolean => (li as { readonly parentNode: unknown }).parentNode === root

/** `Space : Page` of a page's `<title>`: the page's own title. */
const pageTitle = (html: string): string | undefined => {
  const raw = /<span id="title-text">\s*([\s\S]*?)\s*<\/span>/i.exec(html)?.[1] ?? /<title>([\s\S]*?)<\/title>/i.exec(html)?.[1]
  if (raw === undefined) return undefined
  const decoded = raw.replace(/<[^>]+>/g, "").replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, "\"").replace(/&#39;/g, "'").trim()
  const colon = decoded.indexOf(" : ")
  return colon < 0 ? decoded : decoded.slice(colon + 3).trim()
}

/** The page files a page's breadcrumbs list, after the space's index. */
const breadcrumbs = (html: string): ReadonlyArray<string> => {
  const section = /<ol id="breadcrumbs">([\s\S]*?)<\/ol>/i.exec(html)?.[1] ?? ""
  return [...section.matchAll(/href="([^"]+)"/g)].map((m) => decodeURIComponent(m[1]!)).filter((href) => href !== "index.html")
}

/** The names the export gives attachments (`attachments/65540/65541.png` is `diagram.png`), from each page's list. */
const attachmentNames = (html: string, from: string, names: Map<string, string>) => {
  for (const match of html.matchAll(/<a href="(attachments\/[^"]+)"[^>]*>([^<]+)<\/a>/g)) {
    const resolved = resolvePath(from, match[1]!)
    if (resolved !== undefined) names.set(resolved.path, match[2]!.trim())
  }
}

export const confluenceTree = async (files: ArchiveFiles): Promise<ImportTree> => {
  const pageFiles = new Map<string, string>()
  for (const [path, bytes] of files) if (/\.html?$/i.test(path) && path !== "index.html" && !path.includes("/")) pageFiles.set(path, text(bytes))
  const resolver: Resolver = {
    page: (path) => (pageFiles.has(path) ? path : undefined),
    file: (path) => files.has(path) && path.startsWith("attachments/")
  }
  const names = new Map<string, string>()
  const pages = new Map<string, { readonly title: string; readonly markdown: string }>()
  for (const [path, html] of pageFiles) {
    attachmentNames(html, path, names)
    pages.set(path, { title: pageTitle(html) ?? basename(path).replace(/_\d+\.html?$/i, "").replace(/[-_]+/g, " "), markdown: await htmlPage(html, path, resolver, prepareConfluence) })
  }
  const used = new Set<string>()
  const node = (path: string, title: string | undefined, children: ReadonlyArray<TreePage>): TreePage => {
    used.add(path)
    const page = pages.get(path)!
    return { key: path, title: page.title || (title ?? path), markdown: page.markdown, children }
  }
  const index = files.get("index.html")
  const fromIndex = index === undefined ? [] : await readIndex(text(index))
  const build = (entries: ReadonlyArray<IndexEntry>): Array<TreePage> =>
    entries.flatMap((entry) => (pages.has(entry.path) && !used.has(entry.path) ? [node(entry.path, entry.title, build(entry.children))] : build(entry.children)))
  let tree = build(fromIndex)
  // Pages the index does not list are placed by their breadcrumbs.
  const rest = [...pages.keys()].filter((path) => !used.has(path))
  if (rest.length > 0) {
    const parents = new Map(rest.map((path) => [path, breadcrumbs(pageFiles.get(path)!).filter((p) => pages.has(p)).pop()]))
    const childrenOf = (parent: string | undefined): Array<TreePage> =>
      rest.filter((path) => parents.get(path) === parent && !used.has(path)).map((path) => node(path, undefined, childrenOf(path)))
    const attach = (list: Array<TreePage>): Array<TreePage> =>
      list.map((page) => ({ ...page, children: [...attach([...page.children]), ...childrenOf(page.key)] }))
    tree = [...attach(tree), ...childrenOf(undefined)]
    for (const path of rest) if (!used.has(path)) tree.push(node(path, undefined, []))
  }
  const assets = new Map<string, TreeAsset>()
  for (const [path, bytes] of files) if (path.startsWith("attachments/")) assets.set(path, { name: names.get(path) ?? basename(path), bytes })
  return { pages: tree, assets }
}
