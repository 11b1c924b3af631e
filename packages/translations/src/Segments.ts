/**
 * The translatable text of a markdown page: each paragraph, heading and table cell is one segment
 * of whole sentences, its inline formatting (emphasis, links, code, images, HTML, `{{ variables }}`)
 * sent as numbered tags the provider keeps (`Welcome to the <1>Acme</1> handbook`), and put back
 * as the source's own markup. Segments are found on the markdown AST with their exact source
 * offsets, so that a translation replaces those bytes and nothing else (code blocks, URLs, front
 * matter and GitBook `{% %}` tags stay byte-identical). Segments carry the section (top-level
 * heading) they belong to, which is how runs chunk their requests. Markdown is read by
 * `@quire/markdown`'s parser, with its frontmatter rule (YAML only, as content stores pages).
 */
import * as Syntax from "@quire/document/syntax"
import { markdownLimitBreach, parseMarkdown } from "@quire/markdown"
import type { Nodes, PhrasingContent } from "mdast"
import { SKIP, visit } from "unist-util-visit"

/** Markup of a segment that a tag stands for: a wrapper (`<n>…</n>`) has both sides, an atom (`<n/>`) only `open`. */
export interface Mark {
  readonly open: string
  readonly close?: string | undefined
}

export interface Segment {
  /** Source offsets of the segment, end exclusive. */
  readonly start: number
  readonly end: number
  /** What the provider translates: the source's text, with `marks[n - 1]` written as tag `n`. */
  readonly text: string
  /** The markup the tags stand for. */
  readonly marks: ReadonlyArray<Mark>
  /** Index of the section (text before the first `#`/`##` heading is section 0). */
  readonly section: number
}

/** GitBook's `{{ variables }}`. */
const variables = /\{\{[\s\S]*?\}\}/g

/**
 * GitBook's tags (`{% hint style="info" %}`, `{% endhint %}`...: `split`) and `{{ variables }}`
 * (`atom`) in `text`, in order; one that starts inside another is part of it.
 */
const templateTags = (text: string): Array<{ readonly kind: "split" | "atom"; readonly start: number; readonly end: number; readonly source: string }> => {
  if (!text.includes("{")) return []
  const all = [
    ...Array.from(Syntax.scanTags(text), (tag) => ({ kind: "split" as const, start: tag.start, end: tag.end, source: tag.source })),
    ...Array.from(text.matchAll(variables), (m) => ({ kind: "atom" as const, start: m.index, end: m.index + m[0].length, source: m[0] }))
  ].toSorted((a, b) => a.start - b.start)
  let at = 0
  return all.filter((piece) => {
    if (piece.start < at) return false
    at = piece.end
    return true
  })
}

/** The tags of a segment's text as a provider answers it. */
const tagPattern = /<(\/?)(\d{1,4})(\/?)>/g

/** Whether a piece of text is worth a translation (it holds a letter). */
export const translatable = (text: string): boolean => /\p{L}/u.test(text.replace(tagPattern, ""))

/** Words of a text, as stats count them (tags are not words). */
export const words = (text: string): number => text.replace(tagPattern, " ").split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length

/** The nodes that hold a segment's phrasing. */
const containers = new Set<string>(["paragraph", "heading", "tableCell"])

/** Inline nodes whose children are text to translate, with the markup around them kept. */
const wrappers = new Set<string>(["emphasis", "strong", "delete", "link", "linkReference"])

/** A piece of a container's source: its text, markup, or a `{% %}` tag (which ends a segment). */
type Token =
  | { readonly kind: "text" | "atom" | "split"; readonly start: number; readonly end: number }
  | { readonly kind: "open" | "close"; readonly start: number; readonly end: number; readonly id: number }

const offsets = (node: Nodes): readonly [number, number] | undefined => {
  const start = node.position?.start.offset
  const end = node.position?.end.offset
  return start === undefined || end === undefined ? undefined : [start, end]
}

/** The tokens of a container's inline nodes, in source order. */
const tokensOf = (markdown: string, children: ReadonlyArray<PhrasingContent>): Array<Token> => {
  const out: Array<Token> = []
  let wrapperIds = 0
  const textTokens = (start: number, end: number) => {
    let at = start
    for (const piece of templateTags(markdown.slice(start, end))) {
      const from = start + piece.start
      if (from > at) out.push({ kind: "text", start: at, end: from })
      out.push({ kind: piece.kind, start: from, end: start + piece.end })
      at = start + piece.end
    }
    if (end > at) out.push({ kind: "text", start: at, end })
  }
  const walk = (nodes: ReadonlyArray<PhrasingContent>, from: number, to: number) => {
    let at = from
    for (const node of nodes) {
      const range = offsets(node)
      if (range === undefined) continue
      const [start, end] = range
      if (start > at) out.push({ kind: "atom", start: at, end: start })
      const first = "children" in node ? offsets(node.children[0] as Nodes) : undefined
      const last = "children" in node ? offsets(node.children.at(-1) as Nodes) : undefined
      if (node.type === "text") textTokens(start, end)
      else if (wrappers.has(node.type) && first !== undefined && last !== undefined && "children" in node) {
        const id = ++wrapperIds
        out.push({ kind: "open", start, end: first[0], id })
        walk(node.children as ReadonlyArray<PhrasingContent>, first[0], last[1])
        out.push({ kind: "close", start: last[1], end, id })
      } else out.push({ kind: "atom", start, end })
      at = end
    }
    if (to > at) out.push({ kind: "atom", start: at, end: to })
  }
  const first = children[0] === undefined ? undefined : offsets(children[0])
  const last = children.at(-1) === undefined ? undefined : offsets(children.at(-1)!)
  if (first !== undefined && last !== undefined) walk(children, first[0], last[1])
  return out
}

const blank = (markdown: string, token: Token) => token.kind === "text" && markdown.slice(token.start, token.end).trim() === ""

/** A run of tokens between `{% %}` tags as a segment: atoms and blanks at its ends left out, whitespace trimmed. */
const segmentOf = (markdown: string, run: ReadonlyArray<Token>, section: (offset: number) => number): Array<Segment> => {
  let from = 0
  let to = run.length
  while (from < to && (run[from]!.kind === "atom" || blank(markdown, run[from]!))) from++
  while (to > from && (run[to - 1]!.kind === "atom" || blank(markdown, run[to - 1]!))) to--
  const kept = run.slice(from, to)
  if (kept.length === 0) return []
  const opened = new Set<number>()
  for (const token of kept) {
    if (token.kind === "open") opened.add(token.id)
    else if (token.kind === "close" && !opened.delete(token.id)) opened.add(-token.id)
  }
  // A `{% %}` tag inside a link or emphasis: each text of the run alone, as text.
  if (opened.size > 0) {
    return kept.flatMap((token) => token.kind === "text" ? segmentOf(markdown, [token], section) : [])
  }
  const lead = markdown.slice(kept[0]!.start, kept[0]!.end).length - markdown.slice(kept[0]!.start, kept[0]!.end).trimStart().length
  const lastToken = kept.at(-1)!
  const trail = lastToken.kind === "text"
    ? markdown.slice(lastToken.start, lastToken.end).length - markdown.slice(lastToken.start, lastToken.end).trimEnd().length
    : 0
  const start = kept[0]!.start + (kept[0]!.kind === "text" ? lead : 0)
  const end = lastToken.end - trail
  const marks: Array<{ open: string; close?: string }> = []
  const tagOf = new Map<number, number>()
  let text = ""
  let plain = ""
  for (const token of kept) {
    const source = markdown.slice(Math.max(token.start, start), Math.min(token.end, end))
    if (token.kind === "text") {
      text += source
      plain += source
    } else if (token.kind === "atom") {
      marks.push({ open: source })
      text += `<${marks.length}/>`
    } else if (token.kind === "open") {
      marks.push({ open: source })
      tagOf.set(token.id, marks.length)
      text += `<${marks.length}>`
    } else if (token.kind === "close") {
      const tag = tagOf.get(token.id)!
      marks[tag - 1]!.close = source
      text += `</${tag}>`
    }
  }
  return translatable(plain) ? [{ start, end, text, marks, section: section(start) }] : []
}

/** The segments of a markdown document, in source order (none for a page over a markdown limit: it stays as it is). */
export const segments = (markdown: string): ReadonlyArray<Segment> => {
  if (markdownLimitBreach(markdown) !== undefined) return []
  const tree = parseMarkdown(markdown)
  const out: Array<Segment> = []
  const headings: Array<number> = []
  visit(tree, "heading", (node) => {
    if (node.depth <= 2 && node.position?.start.offset !== undefined) headings.push(node.position.start.offset)
  })
  const sectionOf = (offset: number) => headings.filter((h) => h <= offset).length
  visit(tree, (node) => {
    if (!containers.has(node.type) || !("children" in node)) return
    const tokens = tokensOf(markdown, node.children as ReadonlyArray<PhrasingContent>)
    let run: Array<Token> = []
    for (const token of tokens) {
      if (token.kind !== "split") {
        run.push(token)
        continue
      }
      out.push(...segmentOf(markdown, run, sectionOf))
      run = []
    }
    out.push(...segmentOf(markdown, run, sectionOf))
    return SKIP
  })
  return out.toSorted((a, b) => a.start - b.start)
}

/**
 * What markdown makes of `text`: every node but paragraphs and text (links and images with their
 * URL, HTML with its source), and the template tags it holds. Two texts with the same structure
 * differ in words and in the order of their inline markup only.
 */
const structure = (text: string): string => {
  const found: Array<string> = []
  visit(parseMarkdown(text), (node) => {
    if (node.type === "root" || node.type === "paragraph" || node.type === "text") return
    found.push("url" in node ? `${node.type}:${String(node.url)}` : "value" in node && node.type === "html" ? `html:${node.value}` : node.type)
  })
  // In any order: a translation may move a link or emphasis within its sentence.
  return JSON.stringify([found.toSorted(), templateTags(text).map((piece) => piece.source).toSorted()])
}

/** Invisible, and breaks what GFM would turn into a link (`https://`, `www.`, `a@b.c`). */
const wordJoiner = "\u2060"

/** `text` as literal text in running markdown: punctuation escaped, autolinks broken (spacing kept). */
const escapeText = (text: string): string =>
  text
    .replace(/[\\`*_{}[\]()<>#+\-.!|~&=$"'%^]/g, (c) => `\\${c}`)
    .replace(/:\/\//g, `:${wordJoiner}//`)
    .replace(/@/g, `${wordJoiner}@`)
    .replace(/w(?=ww\\\.)/gi, (w) => `${w}${wordJoiner}`)

/** `text` as literal text in markdown: one line, punctuation escaped, autolinks broken. */
export const escapeMarkdown = (text: string): string => escapeText(text.trim().replace(/\s*[\r\n]\s*/g, " "))

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
 * The provider's `translated` text for the `source` text, inserted as text: kept as it is when
 * it adds no markdown character and markdown reads it as the same structure as the source (words
 * changed, nothing else); escaped otherwise (`escapeMarkdown`).
 */
export const asText = (source: string, translated: string): string =>
  addsNoSyntax(source, translated) && structure(translated) === structure(source) ? translated : escapeMarkdown(translated)

/** A translation split at its tags: text, and the tags with their number. */
type Piece = string | { readonly tag: number; readonly side: "open" | "close" | "atom" }

/** The pieces of `translated` when its tags are the segment's, each once and well nested; `undefined` otherwise. */
const piecesOf = (segment: Segment, translated: string): ReadonlyArray<Piece> | undefined => {
  const pieces: Array<Piece> = []
  const seen = new Set<string>()
  const open: Array<number> = []
  let at = 0
  for (const match of translated.matchAll(tagPattern)) {
    const tag = Number(match[2])
    const mark = segment.marks[tag - 1]
    const side = match[3] === "/" ? "atom" : match[1] === "/" ? "close" : "open"
    if (mark === undefined || (side === "atom") !== (mark.close === undefined) || seen.has(`${side}${tag}`)) return undefined
    if (side === "close" && open.pop() !== tag) return undefined
    if (side === "open") open.push(tag)
    seen.add(`${side}${tag}`)
    pieces.push(translated.slice(at, match.index), { tag, side })
    at = match.index + match[0].length
  }
  pieces.push(translated.slice(at))
  const expected = segment.marks.reduce((n, mark) => n + (mark.close === undefined ? 1 : 2), 0)
  return open.length === 0 && seen.size === expected ? pieces : undefined
}

const textOf = (pieces: ReadonlyArray<Piece>) => pieces.filter((piece) => typeof piece === "string").join("")

/**
 * A segment's translation as markdown: its tags put back as the source's markup, its words as they
 * are or (`escaped`) as literal text. `undefined` when the provider lost, added or crossed a tag.
 */
export const restore = (segment: Segment, translated: string, escaped = false): string | undefined => {
  const pieces = piecesOf(segment, translated)
  if (pieces === undefined) return undefined
  return pieces.map((piece) => {
    if (typeof piece === "string") return escaped ? escapeText(piece.replace(/\s*[\r\n]\s*/g, " ")) : piece
    const mark = segment.marks[piece.tag - 1]!
    return piece.side === "close" ? mark.close! : mark.open
  }).join("")
}

const replace = (markdown: string, found: ReadonlyArray<Segment>, texts: ReadonlyArray<string | undefined>): string => {
  let out = ""
  let at = 0
  found.forEach((segment, i) => {
    out += markdown.slice(at, segment.start) + (texts[i] ?? markdown.slice(segment.start, segment.end))
    at = segment.end
  })
  return out + markdown.slice(at)
}

/**
 * The markdown with each segment's bytes replaced by its translation (same order as `segments`),
 * its tags put back as the source's markup (`restore`). What a provider answers never becomes
 * markdown syntax: when the result's structure (links and their URLs, images, HTML, blocks, tags)
 * is not the source's, each segment is checked on its own, its words escaped where they add
 * syntax. A segment whose translation lost its tags is written as its words alone, escaped, when
 * it had no markup, and kept as the source otherwise (never a link without its URL).
 */
export const apply = (markdown: string, found: ReadonlyArray<Segment>, translated: ReadonlyArray<string>): string => {
  const expected = structure(markdown)
  const direct = replace(markdown, found, found.map((segment, i) => translated[i] === undefined ? undefined : restore(segment, translated[i])))
  if (structure(direct) === expected) return direct
  const escapedOf = (segment: Segment, answer: string | undefined) =>
    answer === undefined ? undefined : restore(segment, answer, true) ?? (segment.marks.length === 0 ? escapeMarkdown(answer) : undefined)
  const checked = replace(markdown, found, found.map((segment, i) => {
    const answer = translated[i]
    if (answer === undefined) return undefined
    const source = markdown.slice(segment.start, segment.end)
    const raw = restore(segment, answer)
    const words = piecesOf(segment, answer)
    if (raw !== undefined && words !== undefined && addsNoSyntax(textOf(piecesOf(segment, segment.text)!), textOf(words)) && structure(raw) === structure(source)) return raw
    return escapedOf(segment, answer)
  }))
  if (structure(checked) === expected) return checked
  return replace(markdown, found, found.map((segment, i) => escapedOf(segment, translated[i])))
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
