/**
 * Imports a website as markdown pages: the start page and the same-site pages it links to, breadth
 * first and bounded, each converted with turndown; links between imported pages become `<path>.md`.
 */
import { Duration, Effect, Result, Schema } from "effect"
import { htmlNestingDepth, maxImportedHtmlDepth, parseDocument, slugify, uniqueSlug } from "@quire/markdown"
import { OutboundFetch, OutboundFetchError } from "@quire/outbound"

/** Bounds of a website import. */
export interface ImportWebsiteOptions {
  /** Pages imported at most (default 20); at most twice as many URLs are fetched. */
  readonly maxPages?: number
  /** The largest page accepted (default 2 MiB). */
  readonly maxBytesPerPage?: number
  /** Bytes fetched at most over the whole import (default 20 MiB). */
  readonly maxTotalBytes?: number
  /** Time limit of each fetch (default 10 seconds). */
  readonly timeout?: Duration.Input
  /** Same-site images fetched at most (default 0: images stay links to the website). */
  readonly maxImages?: number
}

/** One imported page: a root-level page of the new revision. */
export interface ImportedPage {
  /** The URL it was fetched from, after redirects. */
  readonly url: string
  /** A slug from the URL's path, unique among the imported pages. */
  readonly path: string
  readonly title: string
  readonly markdown: string
}

/** An image of the website's own origin that its pages show, fetched with them. */
export interface ImportedImage {
  /** The URL the pages' markdown names it by. */
  readonly url: string
  /** A file name from the URL's last segment. */
  readonly name: string
  readonly contentType: string
  readonly bytes: Uint8Array
}

/** The result of a website import. */
export interface WebsiteImport {
  /** The start page first, then in the order they were found. */
  readonly pages: ReadonlyArray<ImportedPage>
  /** The same-site images the pages show (up to `maxImages`; images elsewhere stay links). */
  readonly images: ReadonlyArray<ImportedImage>
  /** Resources converted into pages. */
  readonly importedResources: number
  /** Same-site resources found, imported or not. */
  readonly totalResources: number
}

/** The start page of a website import is not an HTML page. */
export class WebsiteImportError extends Schema.TaggedError<WebsiteImportError>()("WebsiteImportError", {
  url: Schema.String,
  message: Schema.String
}) {}

const htmlTypes = ["text/html", "application/xhtml+xml"]

const isHtml = (contentType: string) => htmlTypes.includes(contentType.split(";")[0]?.trim().toLowerCase() ?? "")

const decodeBody = (body: Uint8Array, contentType: string): string => {
  const charset = /charset\s*=\s*"?([^";]+)/i.exec(contentType)?.[1]?.trim()
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body)
  } catch {
    return new TextDecoder("utf-8").decode(body)
  }
}

const withoutHash = (url: string): string => {
  const parsed = new URL(url)
  parsed.hash = ""
  return parsed.href
}

const pageExtension = /\.(?:html?|xhtml|php|aspx?|jsp|shtml)$/i

/** A page slug from a URL path: `/docs/Getting-Started.html` is `docs-getting-started`; `/` is the title's slug. */
const slugOfUrl = (url: string, title: string): string => {
  const segments = new URL(url).pathname.split("/").filter((segment) => segment !== "").map((segment) => {
    try {
      return decodeURIComponent(segment)
    } catch {
      return segment
    }
  })
  const last = segments.pop()?.replace(pageExtension, "")
  if (last !== undefined && last.toLowerCase() !== "index") segments.push(last)
  return segments.length === 0 ? slugify(title) : slugify(segments.join(" "))
}

/** A readable name for a page without a title: the last segment of its URL's path, else its host. */
const nameOfUrl = (url: string): string => {
  const parsed = new URL(url)
  const last = parsed.pathname.split("/").filter((segment) => segment !== "").pop()?.replace(pageExtension, "")
  if (last === undefined || last === "" || last.toLowerCase() === "index") return parsed.hostname
  try {
    return decodeURIComponent(last)
  } catch {
    return last
  }
}

interface Fetched {
  readonly url: string
  /** The URLs that led to this page: its own and those that redirected to it. */
  readonly aliases: Array<string>
  readonly html: string
}

/**
 * HtmlToMarkdown.ts on the first website import: turndown and its DOM (domino), some 0.5 MB of code
 * and tables, are not held by a process that never imports a website (Node keeps the module once loaded).
 */
const htmlConversion = Effect.promise(() => import("./HtmlToMarkdown.ts"))

/**
 * Fetches `startUrl` and the same-origin pages it links to (breadth first, each URL once, HTML only)
 * and converts them to markdown. A failing sub-page is skipped; a failing start page fails the import.
 */
export const importWebsite = Effect.fn("importWebsite")(function*(
  startUrl: string,
  options: ImportWebsiteOptions = {}
): Effect.fn.Return<WebsiteImport, OutboundFetchError | WebsiteImportError, OutboundFetch> {
  const fetcher = yield* OutboundFetch
  const { extractLinks, extractTitle, htmlToMarkdown } = yield* htmlConversion
  const maxPages = Math.max(1, options.maxPages ?? 20)
  const maxBytesPerPage = options.maxBytesPerPage ?? 2 * 1024 * 1024
  const maxTotalBytes = options.maxTotalBytes ?? 20 * 1024 * 1024
  const timeout = options.timeout ?? Duration.seconds(10)
  if (!URL.canParse(startUrl)) {
    return yield* new OutboundFetchError({ reason: "invalid-url", message: `Not a URL: ${startUrl}` })
  }
  const start = withoutHash(startUrl)
  const origins = new Set([new URL(start).origin])
  // `discovered` counts the site's resources; `seen` also holds where redirects led, to fetch each once.
  const discovered = new Set([start])
  const seen = new Set([start])
  const queue = [start]
  const fetched: Array<Fetched> = []
  const fetchedByUrl = new Map<string, Fetched>()
  let fetches = 0
  let totalBytes = 0

  while (queue.length > 0 && fetched.length < maxPages && fetches < 2 * maxPages && totalBytes < maxTotalBytes) {
    const url = queue.shift()!
    const isStart = fetches === 0
    fetches++
    const result = yield* Effect.result(fetcher.get(url, {
      maxBytes: Math.min(maxBytesPerPage, maxTotalBytes - totalBytes),
      timeout
    }))
    if (Result.isFailure(result)) {
      if (isStart) return yield* result.failure
      yield* Effect.logDebug("Website import skipped a page", { url, reason: result.failure.reason })
      continue
    }
    const resource = result.success
    totalBytes += resource.body.byteLength
    if (!isHtml(resource.contentType)) {
      if (isStart) return yield* new WebsiteImportError({ url, message: `${url} is not an HTML page (${resource.contentType || "no content type"})` })
      continue
    }
    const finalUrl = withoutHash(resource.url)
    if (isStart) origins.add(new URL(finalUrl).origin)
    const already = fetchedByUrl.get(finalUrl)
    if (already !== undefined) {
      already.aliases.push(url)
      continue
    }
    seen.add(finalUrl)
    const html = decodeBody(resource.body, resource.contentType)
    // A page nested past the limit would hold the HTML parser and the converter for seconds (and overflow its stack).
    const depth = htmlNestingDepth(html)
    if (depth > maxImportedHtmlDepth) {
      const message = `${url} nests its HTML ${depth} elements deep; an imported page nests at most ${maxImportedHtmlDepth} (the HTML-nesting limit of imports)`
      if (isStart) return yield* new WebsiteImportError({ url, message })
      yield* Effect.logDebug("Website import skipped a page", { url, reason: message })
      continue
    }
    const page: Fetched = { url: finalUrl, aliases: finalUrl === url ? [url] : [url, finalUrl], html }
    fetched.push(page)
    fetchedByUrl.set(finalUrl, page)
    for (const link of extractLinks(html, finalUrl)) {
      if (!origins.has(new URL(link).origin) || seen.has(link)) continue
      seen.add(link)
      discovered.add(link)
      queue.push(link)
    }
  }

  // A page's title is its leading `# heading` (which then leaves the body, as GitBook reads markdown),
  // else its `<title>`; its path comes from its URL and is needed before links can be rewritten.
  const titles = fetched.map((page) => parseDocument(htmlToMarkdown(page.html, page.url)).title ?? extractTitle(page.html) ?? nameOfUrl(page.url))
  const taken = new Set<string>()
  const pathByUrl = new Map<string, string>()
  const paths = fetched.map((page, index) => {
    const path = uniqueSlug(slugOfUrl(page.url, titles[index] ?? ""), taken)
    taken.add(path)
    for (const alias of page.aliases) pathByUrl.set(alias, path)
    return path
  })
  const imageUrls = new Set<string>()
  const rewriteUrl = (url: string, kind: "link" | "image") => {
    if (kind === "image" && URL.canParse(url) && origins.has(new URL(url).origin)) imageUrls.add(url)
    const path = kind === "link" ? pathByUrl.get(withoutHash(url)) : undefined
    return path === undefined ? url : `${path}.md${new URL(url).hash}`
  }
  const pages = fetched.map((page, index): ImportedPage => {
    const document = parseDocument(htmlToMarkdown(page.html, page.url, { rewriteUrl }))
    return {
      url: page.url,
      path: paths[index] ?? "",
      title: titles[index] ?? "",
      markdown: document.body.trim()
    }
  })
  const images: Array<ImportedImage> = []
  const names = new Set<string>()
  for (const url of [...imageUrls].slice(0, Math.max(0, options.maxImages ?? 0))) {
    if (totalBytes >= maxTotalBytes) break
    const result = yield* Effect.result(fetcher.get(url, { maxBytes: Math.min(maxBytesPerPage, maxTotalBytes - totalBytes), timeout }))
    if (Result.isFailure(result) || !result.success.contentType.toLowerCase().startsWith("image/")) {
      yield* Effect.logDebug("Website import left an image as a link", { url })
      continue
    }
    totalBytes += result.success.body.byteLength
    const name = uniqueSlugName(nameOfUrl(url), names)
    names.add(name)
    images.push({ url, name, contentType: result.success.contentType.split(";")[0]!.trim(), bytes: result.success.body })
  }
  return { pages, images, importedResources: pages.length, totalResources: discovered.size }
})

/** `name`, or `name-2.ext`… when taken. */
const uniqueSlugName = (name: string, taken: ReadonlySet<string>): string => {
  if (!taken.has(name)) return name
  const dot = name.lastIndexOf(".")
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""]
  for (let n = 2; ; n++) if (!taken.has(`${stem}-${n}${ext}`)) return `${stem}-${n}${ext}`
}
