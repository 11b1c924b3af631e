/**
 * The translatable text of a markdown page: its text nodes, found on the markdown AST with their
 * exact source offsets, so that a translation replaces those bytes and nothing else (code, links'
 * URLs, HTML, front matter and GitBook `{% %}` tags stay byte-identical). Segments carry the
 * section (top-level heading) they belong to, which is how runs chunk their requests.
 */
import type { Root, Text } from "mdast"
import remarkFrontmatter from "remark-frontmatter"
import remarkGfm from "remark-gfm"
import remarkParse from "remark-parse"
import { unified } from "unified"
import { visit } from "unist-util-visit"

export interface Segment {
  /** Source offsets of the text, end exclusive. */
  readonly start: number
  readonly end: number
  readonly text: string
  /** Index of the section (text before the first `#`/`##` heading is section 0). */
  readonly section: number
}

const parser = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ["yaml", "toml"])

/** GitBook's template tags (`{% hint style="info" %}`, `{% endhint %}`...) and `{{ variables }}`. */
const tags = /\{%[\s\S]*?%\}|\{\{[\s\S]*?\}\}/g

/** Whether a piece of text is worth a translation (it holds a letter). */
export const translatable = (text: string): boolean => /\p{L}/u.test(text)

/** Words of a text, as stats count them. */
export const words = (text: string): number => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length

/** The segments of a markdown document, in source order. */
export const segments = (markdown: string): ReadonlyArray<Segment> => {
  const tree = parser.parse(markdown) as Root
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

/** The markdown with each segment's bytes replaced by its translation (same order as `segments`). */
export const apply = (markdown: string, found: ReadonlyArray<Segment>, translated: ReadonlyArray<string>): string => {
  let out = ""
  let at = 0
  found.forEach((segment, i) => {
    out += markdown.slice(at, segment.start) + (translated[i] ?? segment.text)
    at = segment.end
  })
  return out + markdown.slice(at)
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
