/**
 * The reader's side of `pnpm bench --fidelity` (FidelityBench.ts): every page of a published site
 * opened in Debian's Chromium (playwright-core, `/usr/bin/chromium`, never a downloaded build),
 * two at a time, and what a reader would notice counted: links answering 4xx/5xx, images that do
 * not show, markup shown as text (`{% %}` blocks, `$$` math, `:emoji:` shortcodes, literal HTML
 * tags), `#anchor` links whose id is not on the target page, console errors. Requests leaving the
 * server are blocked (this machine has no network): external images and links are not judged.
 */
import { chromium, type Browser, type Page } from "playwright-core"
import { existsSync } from "node:fs"
import { chromiumArgs as sharedArgs, chromiumPath } from "@quire/testkit/Chromium"

const chromiumArgs = [
  ...sharedArgs,
  "--headless",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync"
]

export interface CrawlOptions {
  /** Pages open at once (2). */
  readonly concurrency: number
  /** Per navigation, ms. */
  readonly timeout: number
  /** A Chromium that others use too (the smoke's), crawled in a context of its own and left open; else one launched for the crawl. */
  readonly browser?: (() => Promise<Browser>) | undefined
}

/** One offending thing: where it was seen, what it is, and the cause it is grouped under. */
export interface Offender {
  readonly page: string
  readonly cause: string
  readonly detail: string
}

export interface CrawlResult {
  readonly pages: number
  /** Pages that answered 4xx/5xx or did not load. */
  readonly failedPages: ReadonlyArray<Offender>
  readonly brokenLinks: ReadonlyArray<Offender>
  readonly brokenImages: ReadonlyArray<Offender>
  readonly rawTags: ReadonlyArray<Offender>
  readonly missingAnchors: ReadonlyArray<Offender>
  readonly consoleErrors: ReadonlyArray<Offender>
  /** Links and images to other hosts, not judged. */
  readonly external: { readonly links: number; readonly images: number }
  /** Links (distinct per page) and images of the site judged, and `#anchor` links among those links. */
  readonly checked: { readonly links: number; readonly images: number; readonly anchors: number }
}

interface Seen {
  readonly links: ReadonlyArray<{ readonly href: string; readonly attr: string }>
  /** Link texts the renderer drew as broken (`.broken-link`: it resolved them to nothing). */
  readonly drawnBroken: ReadonlyArray<string>
  readonly images: ReadonlyArray<{ readonly src: string; readonly attr: string; readonly alt: string; readonly naturalWidth: number }>
  readonly ids: ReadonlyArray<string>
  readonly texts: ReadonlyArray<string>
}

interface Visit {
  readonly url: string
  readonly status: number
  readonly error?: string
  readonly seen: Seen
  readonly consoleErrors: ReadonlyArray<string>
  /** Image responses of the page that answered 4xx/5xx: URL → status. */
  readonly failedImages: ReadonlyMap<string, number>
}

/**
 * Runs in the page: lazy images made eager and awaited (8 s at most), then its links, images, ids,
 * and the visible text outside code, one string per block (KaTeX's hidden MathML source excluded).
 */
const inPage = `(async () => {
  const images = [...document.images]
  for (const img of images) if (img.loading === "lazy") img.loading = "eager"
  const settled = (img) => img.complete ? Promise.resolve() : new Promise((r) => {
    img.addEventListener("load", r, { once: true }); img.addEventListener("error", r, { once: true })
  })
  await Promise.race([Promise.all(images.map(settled)), new Promise((r) => setTimeout(r, 8000))])
  // A page's description is plain text in GitBook too (frontmatter, never rendered as markdown):
  // a tag written in it shows as written there as well.
  const skip = "pre,code,script,style,noscript,template,textarea,.katex-mathml,annotation,.page-description"
  const block = "p,li,td,th,h1,h2,h3,h4,h5,h6,blockquote,figcaption,summary,dt,dd,caption,label,button,div,section,article,aside,nav,header,footer,main,body"
  const blocks = new Map()
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const parent = node.parentElement
    if (parent === null || parent.closest(skip) !== null) continue
    if (!parent.checkVisibility({ visibilityProperty: true })) continue
    const owner = parent.closest(block) ?? document.body
    blocks.set(owner, (blocks.get(owner) ?? "") + node.nodeValue)
  }
  return {
    links: [...document.querySelectorAll("a[href]")].map((a) => ({ href: a.href, attr: a.getAttribute("href") ?? "" })),
    drawnBroken: [...document.querySelectorAll(".broken-link")].map((e) => (e.textContent ?? "").replace(/\\s+/g, " ").trim()),
    images: images.map((img) => ({ src: img.currentSrc || img.src, attr: img.getAttribute("src") ?? "", alt: img.alt, naturalWidth: img.naturalWidth })),
    ids: [...document.querySelectorAll("[id]")].map((e) => e.id).concat([...document.querySelectorAll("a[name]")].map((a) => a.name)),
    texts: [...blocks.values()].map((t) => t.replace(/\\s+/g, " ").trim()).filter((t) => t !== "")
  }
})()`

const visit = async (page: Page, url: string, origin: string, timeout: number): Promise<Visit> => {
  const consoleErrors: Array<string> = []
  const failedImages = new Map<string, number>()
  const onConsole = (message: import("playwright-core").ConsoleMessage) => {
    if (message.type() !== "error") return
    const source = message.location().url
    // Requests to other hosts are blocked here on purpose; their failures are not the site's.
    if (source !== "" && !source.startsWith(origin) && /net::ERR_/.test(message.text())) return
    consoleErrors.push(message.text())
  }
  const onPageError = (error: Error) => consoleErrors.push(`uncaught ${error.name}: ${error.message}`)
  const onResponse = (response: import("playwright-core").Response) => {
    if (response.request().resourceType() === "image" && response.status() >= 400) failedImages.set(response.url(), response.status())
  }
  page.on("console", onConsole)
  page.on("pageerror", onPageError)
  page.on("response", onResponse)
  try {
    const response = await page.goto(url, { waitUntil: "load", timeout })
    await page.waitForLoadState("networkidle", { timeout: 5_000 }).catch(() => undefined)
    const seen = await page.evaluate(inPage) as Seen
    // After a redirect, the page's links and anchors are relative to where it landed.
    return { url: page.url(), status: response?.status() ?? 0, seen, consoleErrors, failedImages }
  } catch (error) {
    return { url, status: 0, error: String(error instanceof Error ? error.message.split("\n")[0] : error), seen: { links: [], drawnBroken: [], images: [], ids: [], texts: [] }, consoleErrors, failedImages }
  } finally {
    page.off("console", onConsole)
    page.off("pageerror", onPageError)
    page.off("response", onResponse)
  }
}

/** Runs `f` over `items`, `concurrency` at a time, in order of the items. */
export const pool = async <A, B>(items: ReadonlyArray<A>, concurrency: number, f: (item: A, i: number) => Promise<B>) => {
  const results: Array<B> = []
  let next = 0
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await f(items[i]!, i)
    }
  }))
  return results
}

// ---------------------------------------------------------------------------------------------
// What a reader would call raw markup

const htmlTags = "a|i|div|span|img|figure|figcaption|details|summary|mark|table|thead|tbody|tr|td|th|p|br|sup|sub|picture|source|video|iframe|embed|svg|button|kbd|u|s|strong|em|b|h[1-6]|ul|ol|li|hr|center|font"

const htmlCause = (m: RegExpExecArray) => `<${m[1]!.toLowerCase()}${/\bclass=/.test(m[2] ?? "") ? " class=" : ""}> tag shown as text`

/**
 * Markup a reader should never see, most specific first: a match inside an earlier one is not
 * counted again (a literal `<picture>…</picture>` is one, not its `<source>` and `<img>` too), and
 * a closing tag shares its opening tag's cause.
 */
const rawPatterns: ReadonlyArray<{ readonly pattern: RegExp; readonly cause: (match: RegExpExecArray) => string }> = [
  { pattern: /\{%-?\s*(?:end)?([@\w][\w@/.-]*)?/g, cause: (m) => `{% ${m[1] ?? ""} %} shown as text` },
  { pattern: /%\}/g, cause: () => "stray %} shown as text" },
  { pattern: /\$\$[^$]{1,2000}?\$\$/g, cause: () => "$$ math shown as text" },
  { pattern: /\$\$/g, cause: () => "$$ math shown as text" },
  { pattern: /(?<![\w:/.])(:[a-z0-9_+-]*[a-z][a-z0-9_+-]*:)(?![\w/:])/g, cause: (m) => `${m[1]} shortcode shown as text` },
  { pattern: new RegExp(`<(${htmlTags})\\b([^<>]{0,200})>[\\s\\S]{0,2000}?</\\1\\s*>`, "gi"), cause: htmlCause },
  { pattern: new RegExp(`</?(${htmlTags})\\b([^<>]{0,200})>`, "gi"), cause: htmlCause }
]

const snippet = (text: string, index: number, length: number) =>
  `${index > 30 ? "…" : ""}${text.slice(Math.max(0, index - 30), index + Math.min(length, 80) + 20)}${index + Math.min(length, 80) + 20 < text.length ? "…" : ""}`

export const rawTagsOf = (url: string, texts: ReadonlyArray<string>): ReadonlyArray<Offender> =>
  texts.flatMap((text) => {
    const covered: Array<readonly [number, number]> = []
    const found: Array<Offender> = []
    for (const { pattern, cause } of rawPatterns) {
      for (const m of text.matchAll(pattern)) {
        const end = m.index + m[0].length
        if (covered.some(([from, to]) => m.index >= from && end <= to)) continue
        // A `{% … %}` covers up to its `%}`, which is then not a stray one.
        const close = m[0].startsWith("{%") ? text.indexOf("%}", m.index) : -1
        covered.push([m.index, close >= 0 ? close + 2 : end])
        found.push({ page: url, cause: cause(m as RegExpExecArray), detail: snippet(text, m.index, m[0].length) })
      }
    }
    return found
  })

// ---------------------------------------------------------------------------------------------
// Checking links, images and anchors after the pages were seen

const withoutHash = (href: string) => href.split("#")[0]!

const ids = (html: string) => [...html.matchAll(/\s(?:id|name)="([^"]*)"/g)].map((m) => m[1]!)

/** Statuses (and ids, for HTML) of internal URLs the crawl did not open itself, fetched once each. */
const probe = async (urls: ReadonlyArray<string>, concurrency: number, timeout: number) => {
  const answers = new Map<string, { readonly status: number; readonly contentType: string; readonly ids: ReadonlyArray<string> }>()
  await pool(urls, concurrency, async (url) => {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(timeout), redirect: "follow" })
      const contentType = response.headers.get("content-type") ?? ""
      const html = contentType.includes("html")
      if (!html) await response.body?.cancel()
      const body = html ? await response.text() : ""
      answers.set(url, { status: response.status, contentType, ids: ids(body) })
    } catch (error) {
      answers.set(url, { status: 0, contentType: String(error), ids: [] })
    }
  })
  return answers
}

const decodeHash = (hash: string) => {
  try {
    return decodeURIComponent(hash)
  } catch {
    return hash
  }
}

/** The cause of a link the renderer drew as broken, and of an image it left without a file; FidelityBench.ts looks up their source. */
export const drawnBrokenLink = "link drawn as broken (no page or file found for it)"
export const drawnBrokenImage = "image drawn as broken (no file found for it)"

/** Where a broken link's target went wrong, to group links by cause. */
const linkCause = (attr: string, status: number) => {
  const kind = /\.md(#|$)/.test(attr)
    ? "relative .md link left unresolved"
    : /\/(files|~files|assets)\//.test(attr) || /\.gitbook\/assets/.test(attr)
    ? "file link"
    : /^\.{1,2}\//.test(attr) || !/^(\/|[a-z]+:)/i.test(attr)
    ? "relative link left unresolved"
    : "site link"
  return `${kind} answering ${status === 0 ? "no answer" : status}`
}

/** Opens every one of `urls` (the site's pages) and checks what they show; the origin of `urls[0]` is the site's. */
export const crawl = async (
  urls: ReadonlyArray<string>,
  options: CrawlOptions,
  progress: (message: string) => void
): Promise<CrawlResult> => {
  if (!existsSync(chromiumPath)) {
    throw new Error(`${chromiumPath} is missing: install Debian's chromium package (apt-get install chromium); nothing is downloaded`)
  }
  const origin = new URL(urls[0]!).origin
  const browser: Browser = options.browser === undefined
    ? await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, timeout: 60_000 })
    : await options.browser()
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.route("**/*", (route) =>
      route.request().url().startsWith(origin) || route.request().url().startsWith("data:") ? route.continue() : route.abort("blockedbyclient"))
    const pages = await Promise.all(Array.from({ length: options.concurrency }, () => context.newPage()))
    let done = 0
    const free = [...pages]
    const visits = await pool(urls, options.concurrency, async (url) => {
      const page = free.pop()!
      try {
        return await visit(page, url, origin, options.timeout)
      } finally {
        free.push(page)
        if (++done % 20 === 0 || done === urls.length) progress(`crawled ${done}/${urls.length} pages`)
      }
    })
    await context.close()
    return await judge(visits, origin, options)
  } finally {
    if (options.browser === undefined) await browser.close()
  }
}

const judge = async (visits: ReadonlyArray<Visit>, origin: string, options: CrawlOptions): Promise<CrawlResult> => {
  const opened = new Map(visits.map((v) => [withoutHash(v.url), v]))
  const internal = (url: string) => url.startsWith(`${origin}/`) || url === origin
  const external = { links: 0, images: 0 }
  const toProbe = new Set<string>()
  for (const v of visits) {
    for (const link of v.seen.links) {
      if (!/^https?:/.test(link.href)) continue
      if (!internal(link.href)) external.links++
      else if (!opened.has(withoutHash(link.href))) toProbe.add(withoutHash(link.href))
    }
    for (const image of v.seen.images) {
      if (image.attr === "") continue
      if (!internal(image.src) && !image.src.startsWith("data:")) external.images++
      else if (image.naturalWidth === 0 && internal(image.src)) toProbe.add(image.src)
    }
  }
  const probed = await probe([...toProbe], 4, options.timeout)
  const statusOf = (url: string) => opened.get(url)?.status ?? probed.get(url)?.status ?? 0
  const idsOf = (url: string) => opened.get(url)?.seen.ids ?? probed.get(url)?.ids ?? []

  const failedPages: Array<Offender> = []
  const brokenLinks: Array<Offender> = []
  const brokenImages: Array<Offender> = []
  const missingAnchors: Array<Offender> = []
  const checked = { links: 0, images: 0, anchors: 0 }
  for (const v of visits) {
    if (v.status === 0 || v.status >= 400) failedPages.push({ page: v.url, cause: `page answering ${v.status || "nothing"}`, detail: v.error ?? "" })
    const seenHere = new Set<string>()
    for (const link of v.seen.links) {
      if (!internal(link.href) || seenHere.has(link.href)) continue
      seenHere.add(link.href)
      checked.links++
      const target = withoutHash(link.href)
      const status = statusOf(target)
      if (status === 0 || status >= 400) {
        brokenLinks.push({ page: v.url, cause: linkCause(link.attr, status), detail: link.attr })
        continue
      }
      const hash = link.href.slice(target.length + 1)
      if (!link.href.includes("#") || hash === "") continue
      checked.anchors++
      if (!idsOf(target).includes(decodeHash(hash))) {
        const samePage = target === withoutHash(v.url)
        missingAnchors.push({ page: v.url, cause: samePage ? "#anchor on the same page" : "#anchor on another page", detail: link.attr })
      }
    }
    for (const text of v.seen.drawnBroken) {
      checked.links++
      brokenLinks.push({ page: v.url, cause: drawnBrokenLink, detail: text })
    }
    for (const image of v.seen.images) {
      if (image.attr === "") {
        checked.images++
        brokenImages.push({ page: v.url, cause: drawnBrokenImage, detail: image.alt })
        continue
      }
      if (!internal(image.src)) continue
      checked.images++
      const failed = v.failedImages.get(image.src)
      const probedImage = probed.get(image.src)
      // An SVG without intrinsic size reports naturalWidth 0 yet shows: only its answer counts.
      const broken = failed !== undefined ||
        (image.naturalWidth === 0 && (probedImage === undefined || probedImage.status >= 400 || probedImage.status === 0 || !probedImage.contentType.includes("svg")))
      if (!broken) continue
      const status = failed ?? probedImage?.status ?? 0
      brokenImages.push({
        page: v.url,
        cause: status >= 400 ? `image answering ${status}` : "image that does not decode",
        detail: image.attr
      })
    }
  }
  return {
    pages: visits.length,
    failedPages,
    brokenLinks,
    brokenImages,
    rawTags: visits.flatMap((v) => rawTagsOf(v.url, v.seen.texts)),
    missingAnchors,
    consoleErrors: visits.flatMap((v) =>
      v.consoleErrors.map((message) => ({ page: v.url, cause: message.replace(/https?:\/\/\S+/g, "URL").replace(/\d+/g, "N").slice(0, 120), detail: message.slice(0, 300) }))
    ),
    external,
    checked
  }
}
