/**
 * The translatable text of a markdown page: its text nodes, found on the markdown AST with their
 * exact source offsets, so that a translation replaces those bytes and nothing else (code, links'
 * URLs, HTML, front matter and GitBook `{% %}` tags stay byte-identical). Segments carry the
 * section (top-level heading) they belong to, which is how runs chunk their requests. Markdown is
 * read by `@quire/markdown`'s parser, with its frontmatter rule (YAML only, as content stores pages).
 */
import { parseMarkdown } from "@quire/markdown"
import type { Text } from "mdast"
import { visit } from "unist-util-visit"

export interface Segment {
  /** Source offsets of the text, end exclusive. */
  readonly start: number
  readonly end: number
  readonly text: string
  /** Index of the section (text before the first `#`/`##` heading is section 0). */
  readonly section: number
}

/** GitBook's template tags (`{% hint style="info" %}`, `{% endhint %}`...) and `{{ variables }}`. */
const tags = /\{%[\s\S]*?%\}|\{\{[\s\S]*?\}\}/g

/** Whether a piece of text is worth a translation (it holds a letter). */
export const translatable = (text: string): boolean => /\p{L}/u.test(text)

/** Words of a text, as stats count them. */
export const words = (text: string): number => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length

/** The segments of a markdown document, in source order. */
export const segments = (markdown: string): ReadonlyArray<Segment> => {
  const tree = parseMarkdown(markdown)
  const out: Array<Segment> = []
  const headings: Array<number> = []
  visit(tree, "heading", (node) => {
    if (node.depth <= 2 && node.position?.start.offset !== undefined) headings.push(node.position.start.offset)
  })
  const sectionOf = (offset: number) => headings.filter((h) => h <= offset).length
  visit(tree, "text", (node: Text) => {
    const start = node.position?.start.offset
    const end = node.position?.end.offset
    if (start === undefined || end === undefined) return
    const source = markdown.slice(start, end)
    // Split around template tags: only the prose between them is translated.
    let last = 0
    const pieces: Array<readonly [number, number]> = []
    for (const match of source.matchAll(tags)) {
      pieces.push([last, match.index])
      last = match.index + match[0].length
    }
    pieces.push([last, source.length])
    for (const [from, to] of pieces) {
      const raw = source.slice(from, to)
      // Keep the surrounding whitespace out of the segment: it stays as it is.
      const lead = raw.length - raw.trimStart().length
      const text = raw.trim()
      if (!translatable(text)) continue
      const s = start + from + lead
      out.push({ start: s, end: s + text.length, text, section: sectionOf(s) })
    }
  })
  return out.toSorted((a, b) => a.start - b.start)
}

/**
 * What markdown makes of `text`: every node but paragraphs and text (links and images with their
 * URL, HTML with its source), and the template tags it holds. Two texts with the same structure
 * differ in words only.
 */
const structure = (text: string): string => {
  const found: Array<string> = []
  visit(parseMarkdown(text), (node) => {
    if (node.type === "root" || node.type === "paragraph" || node.type === "text") return
    found.push("url" in node ? `${node.type}:${String(node.url)}` : "value" in node && node.type === "html" ? `html:${node.value}` : node.type)
  })
  return JSON.stringify([found, text.match(tags) ?? []])
}

/** Invisible, and breaks what GFM would turn into a link (`https://`, `www.`, `a@b.c`). */
const wordJoiner = "\u2060"

/** `text` as literal text in markdown: one line, punctuation escaped, autolinks broken. */
export const escapeMarkdown = (text: string): string =>
  text
    .trim()
    .replace(/\s*[\r\n]\s*/g, " ")
    .replace(/[\\`*_{}[\]()<>#+\-.!|~&=$"'%^]/g, (c) => `\\${c}`)
    .replace(/:\/\//g, `:${wordJoiner}//`)
    .replace(/@/g, `${wordJoiner}@`)
    .replace(/w(?=ww\\\.)/gi, (w) => `${w}${wordJoiner}`)

/** Characters that make markdown in running text, counted: a translation adds none of them. */
const significant = /[\\`*_{}[\]()<>#|~!&$\r\n]/g

const counts = (text: string): Map<string, number> => {
  const out = new Map<string, number>()
  for (const [c] of text.matchAll(significant)) out.set(c, (out.get(c) ?? 0) + 1)
  return out
}

/** True when `translated` holds no more of any markdown character than `source` (in place, it could close or open the source's syntax). */
const addsNoSyntax = (source: string, translated: string): boolean => {
  const allowed = counts(source)
  for (const [c, n] of counts(translated)) if (n > (allowed.get(c) ?? 0)) return false
  return true
}

/**
 * The provider's `translated` text for the `source` segment, inserted as text: kept as it is when
 * it adds no markdown character and markdown reads it as the same structure as the source (words
 * changed, nothing else); escaped otherwise (`escapeMarkdown`).
 */
export const asText = (source: string, translated: string): string =>
  addsNoSyntax(source, translated) && structure(translated) === structure(source) ? translated : escapeMarkdown(translated)

const replace = (markdown: string, found: ReadonlyArray<Segment>, texts: ReadonlyArray<string | undefined>): string => {
  let out = ""
  let at = 0
  found.forEach((segment, i) => {
    out += markdown.slice(at, segment.start) + (texts[i] ?? segment.text)
    at = segment.end
  })
  return out + markdown.slice(at)
}

/**
 * The markdown with each segment's bytes replaced by its translation (same order as `segments`),
 * inserted as text: when the result's structure (links and their URLs, images, HTML, blocks, tags)
 * is not the source's, each translation is checked on its own (`asText`), and if that is still not
 * enough every translation is escaped. What a provider answers never becomes markdown syntax.
 */
export const apply = (markdown: string, found: ReadonlyArray<Segment>, translated: ReadonlyArray<string>): string => {
  const expected = structure(markdown)
  const direct = replace(markdown, found, translated)
  if (structure(direct) === expected) return direct
  const checked = replace(markdown, found, found.map((segment, i) => {
    const text = translated[i]
    return text === undefined ? undefined : asText(segment.text, text)
  }))
  if (structure(checked) === expected) return checked
  return replace(markdown, found, translated.map((text) => escapeMarkdown(text)))
}

/** Groups items into chunks of one section each, none above `maxCharacters` (a longer item is a chunk alone). */
export const chunks = <A extends { readonly section: number; readonly text: string }>(
  items: ReadonlyArray<A>,
  maxCharacters: number
): ReadonlyArray<ReadonlyArray<A>> => {
  const out: Array<Array<A>> = []
  let current: Array<A> = []
  let size = 0
  for (const item of items) {
    const sameSection = current.length > 0 && current[0]!.section === item.section
    if (current.length > 0 && (!sameSection || size + item.text.length > maxCharacters)) {
      out.push(current)
      current = []
      size = 0
    }
    current.push(item)
    size += item.text.length
  }
  if (current.length > 0) out.push(current)
  return out
}
