/**
 * Turns a fetched HTML page into GitBook-style markdown with turndown (GFM tables and strikethrough,
 * ATX headings, fenced code), and reads its title and outgoing links with a DOM parser.
 */
import { createRequire } from "node:module"
import TurndownService from "turndown"
import { type DomDocument, type DomElement, parseHtml } from "../markdown/Dom.ts"

// The plugin ships no typings.
const { gfm } = createRequire(import.meta.url)("turndown-plugin-gfm") as { gfm: TurndownService.Plugin }

/** Options of {@link htmlToMarkdown}. */
export interface HtmlToMarkdownOptions {
  /** Rewrites an absolute link or image URL, e.g. to point a link at an imported page (`other.md`). */
  readonly rewriteUrl?: (url: string, kind: "link" | "image") => string
  /** Changes the document before it is converted (after links are resolved): another tool's panels and code blocks into what the converter knows. */
  readonly prepare?: (document: DomDocument) => void
}

// Chrome around the content, and elements whose text is not content.
const stripped = [
  "script", "style", "noscript", "template", "link", "meta", "iframe", "object", "embed",
  "nav", "footer", "[role=navigation]", "[role=contentinfo]"
].join(", ")

/** The URL relative links of `document` are resolved against: its `<base href>`, else `baseUrl`. */
const documentBase = (document: DomDocument, baseUrl: string): string => {
  const href = document.querySelector("base[href]")?.getAttribute("href")
  return href != null && URL.canParse(href, baseUrl) ? new URL(href, baseUrl).href : baseUrl
}

const absolute = (url: string, base: string): string | undefined => {
  const trimmed = url.trim()
  if (trimmed === "" || trimmed.startsWith("#") || !URL.canParse(trimmed, base)) return undefined
  return new URL(trimmed, base).href
}

const isHttp = (url: string) => url.startsWith("http://") || url.startsWith("https://")

const service = new TurndownService({
  headingStyle: "atx",
  codeBlockStyle: "fenced",
  fence: "```",
  bulletListMarker: "-",
  emDelimiter: "_",
  strongDelimiter: "**",
  linkStyle: "inlined",
  hr: "***"
})
service.use(gfm)
// Rules added later win: GitBook writes `~~struck~~` and `- item`, where turndown would write `~x~` and `-   item`.
service.addRule("strikethrough", { filter: ["del", "s"], replacement: (content) => `~~${content}~~` })
service.addRule("listItem", {
  filter: "li",
  replacement: (content, node) => {
    const parent = node.parentNode as unknown as { nodeName: string; getAttribute(name: string): string | null; children: ArrayLike<unknown> }
    let prefix = "- "
    if (parent.nodeName === "OL") {
      const start = Number(parent.getAttribute("start") ?? "1")
      prefix = `${(Number.isFinite(start) ? start : 1) + Array.prototype.indexOf.call(parent.children, node)}. `
    }
    const endsWithParagraph = content.endsWith("\n")
    const body = content.replace(/^\n+|\n+$/g, "") + (endsWithParagraph ? "\n" : "")
    return prefix + body.replace(/\n(?=[^\n])/g, `\n${" ".repeat(prefix.length)}`) + (node.nextSibling ? "\n" : "")
  }
})

/**
 * The markdown of an HTML page: scripts, styles, navigation and footers left out, the `<main>`
 * element only when there is one, and link and image URLs made absolute against `baseUrl`.
 */
export const htmlToMarkdown = (html: string, baseUrl: string, options: HtmlToMarkdownOptions = {}): string => {
  const document = parseHtml(html)
  const base = documentBase(document, baseUrl)
  for (const element of Array.from(document.querySelectorAll(stripped) as unknown as ArrayLike<DomElement>)) element.remove()
  const resolve = (element: DomElement, attribute: string, kind: "link" | "image") => {
    const url = absolute(element.getAttribute(attribute) ?? "", base)
    if (url === undefined) return
    if (isHttp(url)) element.setAttribute(attribute, options.rewriteUrl?.(url, kind) ?? url)
    else if (kind === "image" || !/^(mailto|tel):/i.test(url)) element.removeAttribute(attribute)
  }
  for (const anchor of Array.from(document.querySelectorAll("a[href]") as unknown as ArrayLike<DomElement>)) resolve(anchor, "href", "link")
  for (const image of Array.from(document.querySelectorAll("img[src]") as unknown as ArrayLike<DomElement>)) resolve(image, "src", "image")
  options.prepare?.(document)
  const root = document.querySelector("main") ?? document.body
  return service.turndown(root.innerHTML).trim()
}

/** The page's `<title>`, else its first `<h1>`; `undefined` when it has neither. */
export const extractTitle = (html: string): string | undefined => {
  const document = parseHtml(html)
  const title = document.title.replace(/\s+/g, " ").trim()
  if (title !== "") return title
  const heading = document.querySelector("h1")?.textContent?.replace(/\s+/g, " ").trim()
  return heading === undefined || heading === "" ? undefined : heading
}

/**
 * The absolute http(s) URLs the page links to, without their `#fragment`, each once, in page order;
 * links within the page itself (`#section`, or its own URL) are left out.
 */
export const extractLinks = (html: string, baseUrl: string): ReadonlyArray<string> => {
  const document = parseHtml(html)
  const base = documentBase(document, baseUrl)
  const self = URL.canParse(baseUrl) ? withoutHash(baseUrl) : undefined
  const found = new Set<string>()
  for (const anchor of document.querySelectorAll("a[href]")) {
    const url = absolute(anchor.getAttribute("href") ?? "", base)
    if (url === undefined || !isHttp(url)) continue
    const target = withoutHash(url)
    if (target !== self) found.add(target)
  }
  return [...found]
}

const withoutHash = (url: string): string => {
  const parsed = new URL(url)
  parsed.hash = ""
  return parsed.href
}
