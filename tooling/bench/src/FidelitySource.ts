/**
 * Offenders of `pnpm bench --fidelity` traced back to the repository (FidelityBench.ts): the
 * markdown behind a link or image the renderer drew as broken, and whether a missing `#anchor` or
 * file is missing from the source too, where GitBook cannot show it either. Those keep a cause
 * starting with `inSource` and are reported beside the counts, not in them.
 */
import { existsSync } from "node:fs"
import { dirname, join, normalize } from "node:path"
import type * as FidelityCrawl from "./FidelityCrawl.ts"
import { drawnBrokenImage, drawnBrokenLink } from "./FidelityCrawl.ts"

/** The cause prefix of what is broken in the repository itself. */
export const inSource = "broken in the source too: "

export interface SourcePage {
  readonly id: string
  /** The page's file, relative to the repository's root. */
  readonly git?: { readonly path: string }
}

/** The site's pages and their markdown. */
export interface PageSource {
  /** The repository's files. */
  readonly work: string
  /** The page a crawled URL shows (its `#hash` ignored). */
  readonly pageAt: (url: string) => SourcePage | undefined
  /** The page's markdown as the repository has it (the server's when the file cannot be read). */
  readonly markdown: (page: SourcePage) => Promise<string>
}

const decoded = (uri: string) => {
  try {
    return decodeURI(uri)
  } catch {
    return uri
  }
}

/** A relative destination of the page at `pagePath` that names no file of the repository. */
const missingInRepository = (work: string, pagePath: string, target: string) => {
  if (target.startsWith("/broken/")) return true
  const bare = target.replace(/^<(.*)>$/, "$1").split("#")[0]!
  if (bare === "" || /^([a-z][a-z0-9+.-]*:|\/)/i.test(bare)) return false
  const file = normalize(join(dirname(pagePath), decoded(bare)))
  // A path above the repository's root names nothing GitBook can reach either.
  return file.startsWith("..") || (!existsSync(join(work, file)) && !existsSync(join(work, bare)))
}

/**
 * The words of a heading's or an expandable's text as GitBook's generated anchor keeps them, and
 * the same of an anchor, to compare the two: lowercase, links' destinations and tags left out,
 * character references (`&#x20;`) decoded, `&`, `|`, `<` and `>` as `and`, `or`, `less than` and
 * `greater than`, apostrophes removed, split on any other run of characters that are not letters,
 * marks or digits. `Math & TeX` and `math-and-tex` both give `math and tex`; `1. Set up Azure AD` gives
 * `1 set up azure ad` and `id-1.-set-up-azure-a-d` gives `1 set up azure a d`, another anchor.
 */
const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/\]\([^)]*\)|<[^>]*>/g, "")
    .replace(/&#x([0-9a-f]{1,6});|&#(\d{1,7});/g, (_, hex: string | undefined, decimal: string | undefined) => {
      const point = hex === undefined ? Number(decimal) : Number.parseInt(hex, 16)
      return point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : " "
    })
    .replace(/&amp;/g, "&")
    .replace(/&/g, " and ")
    .replace(/\|/g, " or ")
    .replace(/</g, " less than ")
    .replace(/>/g, " greater than ")
    .replace(/['\u2019]/g, "")
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((word) => word !== "")
    .join(" ")

/** An anchor's words (see `words`), without the `id-` GitBook puts before a leading digit. */
const anchorWords = (anchor: string) => words(anchor.replace(/^id-(?=\d)/, ""))

/**
 * The anchors a page's markdown gives outside code blocks: explicit ids (`<a id="x">`), and the
 * texts of headings that have none and of expandables (`<summary>`), from which GitBook makes ids
 * (a heading with `<a id>` answers to that id alone).
 */
export const anchorsOf = (markdown: string) => {
  const prose = markdown.replace(/^([ \t]*)(`{3,}|~{3,})[\s\S]*?^\1\2/gm, "")
  const explicit = new Set([...prose.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!))
  const headings = [...prose.matchAll(/^#{1,6}\s+(.*?)\s*$/gm)].filter((m) => !/\sid="/.test(m[1]!)).map((m) => m[1]!)
  const summaries = [...prose.matchAll(/<summary>([\s\S]*?)<\/summary>/g)].map((m) => m[1]!)
  return { explicit, generated: new Set([...headings, ...summaries].map(words)) }
}

/**
 * Missing anchors judged against the target page's markdown: an id the source gives (an explicit
 * `<a id>` or a heading's slug) that the site lacks is the renderer's; one the source lacks too is
 * broken in GitBook as well.
 */
export const traceAnchors = async (source: PageSource, offenders: ReadonlyArray<FidelityCrawl.Offender>) => {
  const traced: Array<FidelityCrawl.Offender> = []
  for (const o of offenders) {
    const url = new URL(o.detail, o.page)
    const page = source.pageAt(url.href)
    if (page === undefined) {
      traced.push(o)
      continue
    }
    let hash = url.hash.slice(1)
    try {
      hash = decodeURIComponent(hash)
    } catch {
      // As written.
    }
    const anchors = anchorsOf(await source.markdown(page))
    const cause = anchors.explicit.has(hash)
      ? `${o.cause}: an <a id> of the source not rendered`
      : anchors.generated.has(anchorWords(hash))
      ? `${o.cause}: GitBook's id of a heading or expandable of the source not given`
      : `${inSource}the target page has no such anchor`
    traced.push({ ...o, cause })
  }
  return traced
}


/**
 * Raw tags judged against the page's markdown: a `{% x %}` the source escapes (`\{%x%\}`, as
 * GitBook writes text that only looks like a tag) is text GitBook shows as well; on a page, as many
 * `{% x %}` shown as text as the source has escaped are taken to be those.
 */
export const traceRawTags = async (source: PageSource, offenders: ReadonlyArray<FidelityCrawl.Offender>) => {
  const escaped = new Map<string, number>()
  const traced: Array<FidelityCrawl.Offender> = []
  for (const o of offenders) {
    const page = source.pageAt(o.page)
    const name = /^\{% (.*) %\} shown as text$/.exec(o.cause)?.[1]
    if (page === undefined || name === undefined) {
      traced.push(o)
      continue
    }
    const key = `${page.id}\n${name}`
    if (!escaped.has(key)) {
      const markdown = await source.markdown(page)
      escaped.set(key, markdown.split("\\{%").slice(1).filter((after) => new RegExp(`^-?\\s*(?:end)?${name.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")}(?![\\w@/.-])`).test(after)).length)
    }
    const left = escaped.get(key)!
    if (left === 0) {
      traced.push(o)
      continue
    }
    escaped.set(key, left - 1)
    traced.push({ ...o, cause: `${inSource}${o.cause}, escaped as text (\\{%) in the source` })
  }
  return traced
}

const plain = (label: string) => label.replace(/[*_`~]|<[^>]+>/g, "").replace(/\s+/g, " ").trim()

/** Link targets of a page's markdown by their text; image sources by their alt text. */
const targetsOf = (markdown: string) => {
  const links: Array<readonly [string, string]> = []
  const images: Array<readonly [string, string]> = []
  const link = /(!?)\[((?:[^\]\\]|\\.)*)\]\(((?:<[^>]*>|[^)\s]+))(?:\s+"[^"]*")?\)/g
  for (const m of markdown.matchAll(link)) (m[1] === "!" ? images : links).push([plain(m[2]!), m[3]!])
  for (const m of markdown.matchAll(/<a\s[^>]*?href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)) links.push([plain(m[2]!), m[1]!])
  for (const m of markdown.matchAll(/<img\s[^>]*>/g)) {
    const src = /\ssrc="([^"]*)"/.exec(m[0])?.[1]
    if (src !== undefined) images.push([/\salt="([^"]*)"/.exec(m[0])?.[1] ?? "", src])
  }
  for (const m of markdown.matchAll(/\{%\s*(?:file|embed)\s+(?:src|url)="([^"]*)"/g)) links.push([decoded(m[1]!).split("/").pop()!, m[1]!])
  return { links, images }
}

/** What kind of destination a link or image had, to group them by cause. */
const targetKind = (target: string) => {
  const kinds: Array<string> = []
  if (target.startsWith("<") || /\s|%20/.test(target)) kinds.push("in <> or with spaces")
  if (/(^|\/)\.\.\//.test(target)) kinds.push("with ../")
  if (/\.gitbook\/assets\//.test(target)) kinds.push("to .gitbook/assets/")
  else if (/\.md(#|>?$)/.test(target)) kinds.push("to a .md page")
  else if (/\.[a-z0-9]{2,5}>?$/i.test(target)) kinds.push("to a file outside .gitbook/assets/")
  if (target.startsWith("/")) kinds.push("absolute")
  if (target.includes("#")) kinds.push("with #anchor")
  return kinds.length === 0 ? "other" : kinds.join(", ")
}

/**
 * The markdown behind links and images the renderer drew as broken (the page loses the
 * destination): found by their text or alt text in the page's markdown, and grouped by the kind of
 * destination. The k-th broken link or image of a given text is taken to be the k-th of that text,
 * counting those whose destination is missing from the repository first (a page linking
 * `[Agent](/broken/pages/x)` and `[Agent](../ai.md)` with one drawn broken has the first so).
 */
export const traceDrawnBroken = async (
  source: PageSource,
  offenders: ReadonlyArray<FidelityCrawl.Offender>
) => {
  const markdown = new Map<string, Promise<ReturnType<typeof targetsOf>>>()
  const seen = new Map<string, number>()
  const traced: Array<FidelityCrawl.Offender> = []
  for (const o of offenders) {
    const image = o.cause === drawnBrokenImage
    const page = source.pageAt(o.page)
    if ((!image && o.cause !== drawnBrokenLink) || page === undefined) {
      traced.push(o)
      continue
    }
    if (!markdown.has(page.id)) markdown.set(page.id, source.markdown(page).then(targetsOf))
    const targets = await markdown.get(page.id)!
    const key = `${o.page}\n${image}\n${o.detail}`
    const k = seen.get(key) ?? 0
    seen.set(key, k + 1)
    const missingHere = (target: string) => page.git !== undefined && missingInRepository(source.work, page.git.path, target)
    const same = (image ? targets.images : targets.links).filter(([text]) => text === plain(o.detail))
    // Every destination of that text missing from the repository is drawn broken whatever the
    // renderer does, so the first broken ones of the text are those, then the others in order.
    const candidates = [...same.filter(([, t]) => missingHere(t)), ...same.filter(([, t]) => !missingHere(t))]
    const target = candidates[Math.min(k, candidates.length - 1)]?.[1]
    if (target === undefined) {
      traced.push(o)
      continue
    }
    const missing = missingHere(target)
    traced.push({
      page: o.page,
      cause: missing ? `${inSource}no such ${image ? "image" : "page or file"} in the repository` : `${image ? "image" : "link"} drawn as broken, ${targetKind(target)}`,
      detail: `${image ? "!" : ""}[${o.detail}](${target})`
    })
  }
  return traced
}

