/**
 * Pure functions over a page's markdown, parsed with remark (CommonMark + GFM + YAML frontmatter):
 * the document's title and body, slugs, search sections, plain text and excerpts, and its links.
 * No I/O and nothing Node-only, so that the browser reads markdown as the server does.
 */
import * as Syntax from "@quire/document/syntax"
import GithubSlugger from "github-slugger"
import type { Heading, Nodes, Root, RootContent } from "mdast"
import { toString } from "mdast-util-to-string"
import remarkFrontmatter from "remark-frontmatter"
import remarkGfm from "remark-gfm"
import remarkParse from "remark-parse"
import { type Processor, unified } from "unified"
import { visit } from "unist-util-visit"
import { frontmatterData, splitFrontmatter } from "./Frontmatter.ts"
import { defaultMarkdownLimits, describeBreach, type MarkdownLimitBreach, markdownLimitBreach } from "./MarkdownLimits.ts"

const bodyProcessor = unified().use(remarkParse).use(remarkGfm).freeze()
const processor = bodyProcessor().use(remarkFrontmatter, ["yaml"]).freeze()

/**
 * The mdast tree of `markdown` (GFM and YAML frontmatter included, closed by `---` or `...`).
 * Markdown over a limit of `MarkdownLimits.ts` is parsed as its plain-text form (a note, then its
 * text in a code block).
 */
export const parseMarkdown = (markdown: string): Root => guarded(markdown, (text) => processor.parse(Syntax.withDashClose(text)))

/** The end of `text` as a unist point. */
const endOf = (text: string) => {
  const line = lineCount(text) + 1
  const column = text.length - text.lastIndexOf("\n")
  return { line, column, offset: text.length }
}

/**
 * The tree of a page over a limit (or, named by `over`, a parse worker's budget), built without parsing it: a note naming the limit, then the
 * whole text as a code block (what `plainTextMarkdown` reads as), its position the text's.
 */
export const plainTextTree = (markdown: string, over: MarkdownLimitBreach | string): Root => {
  const start = { line: 1, column: 1, offset: 0 }
  const position = { start, end: endOf(markdown) }
  const note = `This page is shown as plain text: its markdown is over ${typeof over === "string" ? over : describeBreach(over)}.`
  return {
    type: "root",
    children: [
      { type: "paragraph", children: [{ type: "emphasis", children: [{ type: "text", value: note }] }] },
      { type: "code", lang: "text", meta: null, value: markdown, position }
    ],
    position
  }
}

/** `parse(markdown)`, or the plain-text tree of markdown over a limit (see `markdownLimitBreach`), which costs no parse. */
const guarded = (markdown: string, parse: (text: string) => Root): Root => {
  const breach = markdownLimitBreach(markdown)
  return breach === undefined ? parse(markdown) : plainTextTree(markdown, breach)
}

/**
 * The mdast tree of a document's body (see `splitFrontmatter`): GFM, and no frontmatter, so that a
 * `---` block at its start is the thematic break or heading it reads as.
 */
export const parseBody = (markdown: string): Root => guarded(markdown, (text) => bodyProcessor.parse(text))

const autolinkLiterals = new Set(["wwwAutolink", "protocolAutolink", "emailAutolink"])

interface Construct {
  readonly name?: string
}

/** mdast-util-gfm-autolink-literal's extension (its transform finds bare URLs in text). */
const isAutolink = (extension: unknown) =>
  typeof extension === "object" && extension !== null && "enter" in extension &&
  typeof extension.enter === "object" && extension.enter !== null && "literalAutolink" in extension.enter

/**
 * Drops GFM's autolink literals (bare URLs, `www.` and emails made links) from remark-gfm's
 * syntax and its mdast transform: their text is the same either way, and they cost a quarter of
 * the parse.
 */
function withoutAutolinkLiterals(this: Processor) {
  const data = this.data() as Record<string, unknown>
  const syntax = data["micromarkExtensions"] as Array<{ readonly text?: Record<number, Construct | ReadonlyArray<Construct>> }>
  for (const [index, extension] of syntax.entries()) {
    if (extension.text === undefined) continue
    const text: Record<number, Array<Construct>> = {}
    for (const [code, constructs] of Object.entries(extension.text)) {
      const kept = (Array.isArray(constructs) ? constructs : [constructs]).filter((c: Construct) => !autolinkLiterals.has(c.name ?? ""))
      if (kept.length > 0) text[Number(code)] = kept
    }
    syntax[index] = { ...extension, text }
  }
  const fromMarkdown = data["fromMarkdownExtensions"] as Array<unknown>
  for (const [index, extension] of fromMarkdown.entries()) {
    fromMarkdown[index] = Array.isArray(extension) ? extension.filter((e) => !isAutolink(e)) : extension
  }
}

const textProcessor = unified().use(remarkParse).use(remarkGfm).use(withoutAutolinkLiterals).use(remarkFrontmatter, ["yaml"]).freeze()

/** Characters of markdown parsed at once by the chunked readers: small enough that one piece never holds the event loop long. */
export const chunkLength = 8_192

const fenceOpen = /^ {0,3}(`{3,}|~{3,})/
const rawHtmlOpen = /^ {0,3}<(script|pre|style|textarea)(?:[\s>]|$)/i
/**
 * The text that ends the raw HTML block `line` opens, when blank lines do not end it (CommonMark's
 * kinds 1 to 5: `<script>`, `<pre>`, `<style>`, `<textarea>`, comments, `<?`, `<!X` and CDATA).
 */
const rawHtmlEnd = (line: string): string | undefined => {
  const raw = rawHtmlOpen.exec(line)
  if (raw !== null) return `</${raw[1]!.toLowerCase()}>`
  if (/^ {0,3}<!--/.test(line)) return "-->"
  if (/^ {0,3}<\?/.test(line)) return "?>"
  if (/^ {0,3}<!\[CDATA\[/.test(line)) return "]]>"
  if (/^ {0,3}<![A-Za-z]/.test(line)) return ">"
  return undefined
}

// A line after which a blank line may end every block: not indented, not a list item, quote or table row.
const blockStart = /^(?![ \t]|[-*+>|]|\d{1,9}[.)])\S/

/** The start of a line that `blockStart` accepts and that opens no fence or raw HTML block. */
const plainStart = /[A-Za-z#]|[^\s\0-\x7f]/

/** `plainStart`'s ASCII characters, told by their code (the pattern is tried only past ASCII). */
const plainStartCode = (code: number) => (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 35

/**
 * `markdown` cut at blank lines between top-level blocks into pieces of about `target` characters
 * (the whole document when it is shorter), so that a large document is parsed a piece at a time.
 * A cut never falls inside frontmatter, a fenced code block, a raw HTML block, a list, a quote or
 * a table; a reference whose definition lies in another piece reads as text (its definition is
 * still a link).
 */
export const blockChunks = (markdown: string, target = chunkLength): ReadonlyArray<string> =>
  Array.from(eachBlockChunk(markdown, target))

/** `blockChunks` one at a time, so that a caller can give the event loop back while a long page is cut. */
export function* eachBlockChunk(markdown: string, target = chunkLength): Generator<string> {
  let start = 0
  for (const { ends } of eachBlockCuts(markdown, target)) {
    for (const end of ends) {
      yield markdown.slice(start, end)
      start = end
    }
  }
}

/** Where pieces of a document end (see `eachBlockCuts`), and the newlines before each end. */
export interface BlockCuts {
  readonly ends: ReadonlyArray<number>
  readonly lines: ReadonlyArray<number>
}

/** Cuts `eachBlockCuts` gathers before it hands them over. */
const cutBatch = 256

/**
 * Where `eachBlockChunk` ends its pieces (the last end is `markdown.length`), a few hundred at a
 * time, so that a caller that needs few of the pieces (the links read every block) slices only
 * those, and a page of 26,000 blocks is not handed over one block at a time.
 */
export function* eachBlockCuts(markdown: string, target = chunkLength): Generator<BlockCuts> {
  if (markdown.length <= target) {
    yield { ends: [markdown.length], lines: [lineCount(markdown)] }
    return
  }
  let ends: Array<number> = []
  let counts: Array<number> = []
  let start = 0
  let fence: string | undefined
  let html: string | undefined
  // The frontmatter is never cut.
  let lineStart = splitFrontmatter(markdown).block.length
  // Newlines before `lineStart`.
  let lines = lineCount(markdown.slice(0, lineStart))
  let previousBlank = false
  // Sticky: tried where each line starts.
  const plainStartAt = new RegExp(plainStart, "y")
  while (lineStart < markdown.length) {
    const newline = markdown.indexOf("\n", lineStart)
    const lineEnd = newline === -1 ? markdown.length : newline
    if (fence === undefined && html === undefined) {
      // Most lines are empty, or start a block that is no fence or raw HTML (a letter or `#` first).
      if (lineEnd === lineStart) {
        previousBlank = true
        lineStart = lineEnd + 1
        lines++
        continue
      }
      const code = markdown.charCodeAt(lineStart)
      let plain = plainStartCode(code)
      if (!plain && code > 0x7f) {
        plainStartAt.lastIndex = lineStart
        plain = plainStartAt.test(markdown)
      }
      if (plain) {
        if (previousBlank && lineStart - start >= target) {
          ends.push(lineStart)
          counts.push(lines)
          start = lineStart
          if (ends.length >= cutBatch) {
            yield { ends, lines: counts }
            ;[ends, counts] = [[], []]
          }
        }
        previousBlank = false
        lineStart = lineEnd + 1
        if (newline !== -1) lines++
        continue
      }
    }
    const line = markdown.slice(lineStart, lineEnd)
    const blank = line.trim() === ""
    if (fence !== undefined) {
      const close = /^ {0,3}(`{3,}|~{3,})[ \t]*\r?$/.exec(line)
      if (close !== null && close[1]![0] === fence[0] && close[1]!.length >= fence.length) fence = undefined
    } else if (html !== undefined) {
      if (line.toLowerCase().includes(html)) html = undefined
    } else if (!blank) {
      if (previousBlank && lineStart - start >= target && blockStart.test(line)) {
        ends.push(lineStart)
        counts.push(lines)
        start = lineStart
        if (ends.length >= cutBatch) {
          yield { ends, lines: counts }
          ;[ends, counts] = [[], []]
        }
      }
      const open = fenceOpen.exec(line)
      const end = open === null ? rawHtmlEnd(line) : undefined
      if (open !== null) fence = open[1]!
      else if (end !== undefined && !line.toLowerCase().includes(end)) html = end
    }
    previousBlank = blank
    lineStart = lineEnd + 1
    if (newline !== -1) lines++
  }
  ends.push(markdown.length)
  counts.push(lines)
  yield { ends, lines: counts }
}

/** One piece of a document (see `blockChunks`), parsed. */
export interface Piece {
  readonly text: string
  /** The piece's own top-level blocks. */
  readonly children: ReadonlyArray<RootContent>
  /** The whole parse: the piece, then the document's link definitions (so references resolve across pieces). */
  readonly tree: Root
}

// A link reference definition (`[label]: url`) on a line of its own (a footnote's `[^1]:` is not one).
const definitionLine = /^ {0,3}\[(?!\^)(?:[^\\\]\n]|\\.)+\]:[ \t]*\S.*$/gm

/** How a document is parsed a piece at a time: its pieces' text and the definitions appended to each. */
export interface PiecePlan {
  readonly chunks: ReadonlyArray<string>
  /** The document's link definitions, appended to each piece of a document of several (else `""`). */
  readonly appendix: string
}

/** The pieces of `markdown` (see `blockChunks`) and the definitions each is parsed with. */
export const piecePlan = (markdown: string): PiecePlan => {
  const chunks = blockChunks(markdown)
  return { chunks, appendix: chunks.length === 1 ? "" : appendixOf(markdown) }
}

/** How many link reference definitions `markdown` holds, counted as `appendixOf` gathers them (without a parse). */
export const definitionCount = (markdown: string): number => markdown.match(definitionLine)?.length ?? 0

/** The definitions appended to each piece of a document of several (see `piecePlan`). */
export const appendixOf = (markdown: string): string => {
  const definitions = markdown.match(definitionLine) ?? []
  // Past the definitions limit, each piece would parse them all: references resolve within their piece only.
  // Each stands alone, so that a line that does not parse as a definition leaves the others definitions.
  // Without their indentation, so that none continues a list item the piece ends in.
  return definitions.length === 0 || definitions.length > defaultMarkdownLimits.definitions ? "" : `\n\n${definitions.map((line) => line.trimStart()).join("\n\n")}\n`
}

/** A label as references and definitions are matched (micromark's `normalizeIdentifier`): whitespace collapsed, trimmed, case folded. */
const normalLabel = (label: string) => label.replace(/[\t\n\r ]+/g, " ").replace(/^ | $/g, "").toLowerCase().toUpperCase()

/** Text between square brackets with none inside it (a reference's label, among others). */
const bracketed = /\[((?:[^[\]\\]|\\.)*)\]/g

/** The label of an appendix's definition line. */
const definitionLabel = /^ {0,3}\[((?:[^\\\]\n]|\\.)+)\]:/

/**
 * The definitions of `appendix` whose labels `text` may use: those written between brackets in it
 * (a label over several lines also without the quote markers and indentation that continue it).
 * Only these can resolve a reference of the piece, and a parse takes every definition it is given
 * through the parser: a page of a thousand definitions parsed each of its pieces with all of them.
 */
export const appendixFor = (text: string, appendix: string): string => {
  if (appendix === "") return ""
  const labels = new Set<string>()
  for (const match of text.matchAll(bracketed)) {
    const label = match[1]!
    labels.add(normalLabel(label))
    if (label.includes("\n")) labels.add(normalLabel(label.replace(/\n[ \t>]*/g, " ")))
  }
  if (labels.size === 0) return ""
  const kept = appendix.split("\n\n").filter((line) => {
    const label = definitionLabel.exec(line)
    return label !== null && labels.has(normalLabel(label[1]!))
  })
  return kept.length === 0 ? "" : `\n\n${kept.join("\n\n")}\n`
}

/**
 * One piece of a `piecePlan`, parsed with the definitions of its appendix it may use (see
 * `appendixFor`); `forText`: for its words only (search sections), without GFM's autolink literals.
 */
export const parsePiece = (text: string, documentAppendix: string, forText = false): Piece => {
  const parse = forText ? (markdown: string) => guarded(markdown, (all) => textProcessor.parse(Syntax.withDashClose(all))) : parseMarkdown
  const breach = markdownLimitBreach(text)
  if (breach !== undefined) {
    const tree = plainTextTree(text, breach)
    return { text, children: tree.children, tree }
  }
  const appendix = appendixFor(text, documentAppendix)
  if (appendix === "") {
    const tree = parse(text)
    return { text, children: tree.children, tree }
  }
  const tree = parse(text + appendix)
  const children = tree.children.filter((node) => (node.position?.start.offset ?? 0) < text.length)
  return { text, children, tree }
}

/**
 * The pieces of `markdown` (see `blockChunks`), each parsed when the iteration reaches it. A
 * document of one piece is parsed as it is; the pieces of a longer one are parsed with the
 * document's definitions appended, so that a reference in one piece resolves through a definition
 * in another, as in a parse of the whole.
 */
export const pieces = (markdown: string): Iterable<Piece> => ({
  *[Symbol.iterator]() {
    const { chunks, appendix } = piecePlan(markdown)
    for (const text of chunks) yield parsePiece(text, appendix)
  }
})

/** Lines a piece's text ends (its newlines), to number the lines of the pieces after it. */
export const lineCount = (text: string): number => {
  let count = 0
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count++
  return count
}

/** The top-level blocks of `markdown`, parsed a piece at a time (see `pieces`). */
export const parseBlocks = (markdown: string): Iterable<RootContent> => ({
  *[Symbol.iterator]() {
    for (const piece of pieces(markdown)) yield* piece.children
  }
})

/**
 * The tree of the start of `markdown` that holds its frontmatter and first block: enough to read
 * its title without parsing a large document whole. A leading heading that may use a reference is
 * parsed with the document's definitions after it (see `appendixOf`), as it reads in the whole.
 * Falls back to the whole document when the start does not settle it (frontmatter still open).
 */
const parseLead = (markdown: string): Root => {
  const frontmatter = splitFrontmatter(markdown).yaml !== undefined
  for (let limit = 256; limit < markdown.length; limit *= 4) {
    const blank = /\n[ \t]*\r?\n/g
    blank.lastIndex = limit
    const found = blank.exec(markdown)
    if (found === null) break
    const cut = found.index + 1
    const tree = parseMarkdown(markdown.slice(0, cut))
    if (frontmatter && tree.children[0]?.type !== "yaml") continue
    const lead = tree.children.find((node) => node.type !== "yaml")
    if (lead === undefined) continue
    if (lead.type === "heading" && markdown.slice(lead.position?.start.offset ?? 0, lead.position?.end.offset ?? cut).includes("[")) {
      return parseMarkdown(markdown.slice(0, cut) + appendixOf(markdown))
    }
    return tree
  }
  return parseMarkdown(markdown)
}

// Lines as micromark ends them, and what may start a heading or underline one as a level-1 heading (more than can).
const lines = /([^\r\n]*)(?:\r\n|\r|\n|$)/g
const headingStart = /^[ \t]*#/
const deeperHeading = /^ {0,3}#{2,6}(?:[ \t]|$)/
const underline = /^[ \t]*=/

/**
 * Whether `markdown` certainly gives `parseDocument` no frontmatter and no title, told without a
 * parse: it does not start with `-` (a YAML fence) or a byte order mark, its first line that is not
 * blank (which starts its first block) starts no `#` heading or one of level 2 to 6, and no line from
 * there to the next blank one may underline it with `=`. A page whose first block is long (hundreds of definitions,
 * a long paragraph) is then not parsed for its title (docs/content.md).
 */
const titleless = (markdown: string): boolean => {
  if (markdown.startsWith("-") || markdown.startsWith("\uFEFF")) return false
  let first = true
  for (const [, line = ""] of markdown.matchAll(lines)) {
    const blank = /^[ \t]*$/.test(line)
    if (first) {
      if (blank) continue
      // A heading of level 2 to 6 is a block of one line that no underline changes: no title.
      if (deeperHeading.test(line)) return true
      if (headingStart.test(line)) return false
      first = false
    } else {
      if (blank) return true
      if (underline.test(line)) return false
    }
  }
  return true
}

/** A markdown page split into its metadata and its body. */
export interface ParsedDocument {
  readonly frontmatter: Record<string, unknown>
  readonly title?: string
  readonly description?: string
  readonly body: string
}

const nonEmptyString = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : undefined

/**
 * Frontmatter, title (frontmatter `title`, else the leading `# heading`, which then leaves the body),
 * description (frontmatter `description`) and the body without either, as Git Sync reads a page.
 */
export const parseDocument = (markdown: string): ParsedDocument => {
  if (titleless(markdown)) return { frontmatter: {}, body: markdown.replace(/^(?:[ \t]*\r?\n)+/, "") }
  const tree = parseLead(markdown)
  let frontmatter: Record<string, unknown> = {}
  let cut = 0
  const [first] = tree.children
  if (first?.type === "yaml") {
    frontmatter = frontmatterData(first.value)
    cut = first.position?.end.offset ?? 0
  }
  let title = nonEmptyString(frontmatter["title"])
  if (title === undefined) {
    const lead = tree.children.find((node) => node.type !== "yaml")
    if (lead?.type === "heading" && lead.depth === 1) {
      const text = headingTitle(lead)
      if (text !== "") {
        title = text
        cut = lead.position?.end.offset ?? cut
      }
    }
  }
  const description = nonEmptyString(frontmatter["description"])
  // Only the blank lines left behind by what was cut go; the author's markdown is kept verbatim.
  const body = markdown.slice(cut).replace(/^(?:[ \t]*\r?\n)+/, "")
  return {
    frontmatter,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    body
  }
}

/** An empty anchor GitBook appends to headings with a custom id (`<a href="#x" id="x"></a>`). */
export const gitbookAnchor = /\s*<a\s[^>]*><\/a>\s*$/i

const anchorIdAttribute = /\bid\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i

/**
 * The id GitBook gives a heading in the empty anchor that ends it (`## Title <a href="#x" id="x"></a>`,
 * GitBook's custom heading ids, also on `SUMMARY.md` group headings), from the heading's text as
 * written or as `toString` reads it; `undefined` without one.
 */
export const gitbookAnchorId = (text: string): string | undefined => {
  const anchor = gitbookAnchor.exec(text)
  if (anchor === null) return undefined
  const id = anchorIdAttribute.exec(anchor[0])
  const value = (id?.[1] ?? id?.[2] ?? id?.[3] ?? "").trim()
  return value === "" ? undefined : value
}

/** The id a heading asks for (see `gitbookAnchorId`); `undefined` when its id comes from its text. */
export const explicitHeadingId = (heading: Heading): string | undefined => {
  const last = heading.children.at(-1)
  return last?.type === "html" ? gitbookAnchorId(toString(heading)) : undefined
}

/** The title a heading gives its page: its text, without GitBook's empty anchor. */
export const headingTitle = (heading: Heading): string => toString(heading).replace(gitbookAnchor, "").trim()

/** `headingTitle` of the ATX heading `# text`, parsed only when it may hold markdown. */
export const atxHeadingTitle = (text: string): string => {
  const raw = text.replace(gitbookAnchor, "")
  if (!/[\\`*_[\]<>&!~]/.test(raw)) return raw.trim()
  const [heading] = parseBody(`# ${raw}`).children
  return heading?.type === "heading" ? headingTitle(heading) : raw.trim()
}

const atxH1 = /^ {0,3}#(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*(?:\r?\n|$)/
const setextH1 = /^ {0,3}\S[^\r\n]*\r?\n {0,3}=+[ \t]*(?:\r?\n|$)/

/**
 * The title heading that `text` starts with, as written (its line ending included) and its title:
 * a `# Title` line, or a one-line `Title` underlined with `=`, whose title is not empty. What
 * `parseDocument` takes for the title when frontmatter has none, read without parsing the page.
 */
export const leadingTitle = (text: string): { readonly heading: string; readonly title: string } | undefined => {
  const atx = atxH1.exec(text)
  if (atx !== null) {
    const title = atxHeadingTitle(atx[1] ?? "")
    return title === "" ? undefined : { heading: atx[0], title }
  }
  const setext = setextH1.exec(text)
  if (setext === null) return undefined
  const [heading] = parseBody(setext[0]).children
  if (heading?.type !== "heading" || heading.depth !== 1) return undefined
  const title = headingTitle(heading)
  return title === "" ? undefined : { heading: setext[0], title }
}

const transliterations: Record<string, string> = {
  "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "ł": "l", "þ": "th", "ı": "i"
}

/** The maximum length of a slug. */
export const maxSlugLength = 100

/** A GitBook-like URL slug: lowercase ASCII, diacritics stripped, hyphen-separated, at most 100 characters. */
export const slugify = (title: string): string => {
  const ascii = title
    .toLowerCase()
    .replace(/[ßæœøđðłþı]/g, (char) => transliterations[char] ?? char)
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
  const slug = ascii.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, maxSlugLength).replace(/-+$/, "")
  return slug === "" ? "untitled" : slug
}

/** `slug`, or the first of `slug-2`, `slug-3`... that is not in `taken` (still at most 100 characters). */
export const uniqueSlug = (slug: string, taken: ReadonlySet<string>): string => {
  if (!taken.has(slug)) return slug
  for (let n = 2; ; n++) {
    const suffix = `-${n}`
    const candidate = `${slug.slice(0, maxSlugLength - suffix.length).replace(/-+$/, "")}${suffix}`
    if (!taken.has(candidate)) return candidate
  }
}

const blockParents = new Set<string>([
  "root", "blockquote", "list", "listItem", "table", "footnoteDefinition"
])

/** `text` without GitBook's tags (`{% hint style="info" %}`, `{% endhint %}`...): they are markup, not words. */
const withoutTags = (text: string): string => {
  let out = ""
  let at = 0
  for (const tag of Syntax.scanTags(text)) {
    out += text.slice(at, tag.start)
    at = tag.end
  }
  return at === 0 ? text : out + text.slice(at)
}

const namedEntities: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: " ", ndash: "–", mdash: "—", hellip: "…", copy: "©", reg: "®", trade: "™" }

/**
 * The words of an HTML block: a table's cells, a `<pre>`'s code, a `<details>`'s summary (GitBook's
 * exports write tables and highlighted code as HTML). Comments, scripts and styles say nothing;
 * cells and rows are kept apart; the common entities are read.
 */
const htmlWords = (html: string): string =>
  html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<\/?(?:td|th)\b[^>]*>/gi, " ")
    .replace(/<(?:br|\/?(?:tr|p|div|li|pre|table|thead|tbody|tfoot|h[1-6]|ul|ol|dl|dt|dd|details|summary|figcaption|blockquote))\b[^>]*>/gi, "\n")
    .replace(/<\/?[a-z][^>]*>/gi, "")
    .replace(/&(?:#(\d{1,7})|#x([\da-f]{1,6})|([a-z]{2,8}));/gi, (whole, dec?: string, hex?: string, name?: string) => {
      const code = dec !== undefined ? Number(dec) : hex !== undefined ? Number.parseInt(hex, 16) : undefined
      if (code !== undefined) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
      return namedEntities[name!.toLowerCase()] ?? whole
    })

const textOf = (node: Nodes): string => {
  switch (node.type) {
    case "text":
    case "inlineCode":
    case "code":
      return node.value
    case "image":
    case "imageReference":
      return node.alt ?? ""
    case "break":
      return "\n"
    case "html":
      return htmlWords(node.value)
    case "yaml":
    case "definition":
    case "thematicBreak":
    case "footnoteReference":
      return ""
    case "tableRow":
      return node.children.map(textOf).join(" ")
    default:
      if ("children" in node) {
        return node.children.map(textOf).filter((text) => text !== "").join(blockParents.has(node.type) ? "\n" : "")
      }
      return ""
  }
}

const tidy = (text: string): string =>
  withoutTags(text)
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line !== "")
    .join("\n")

const textOfBlocks = (nodes: ReadonlyArray<RootContent>): string => tidy(nodes.map(textOf).filter((t) => t !== "").join("\n"))

/** The words of `markdown` without any markdown syntax, frontmatter or HTML tags (an HTML block's words kept); one line per block. */
export const plainText = (markdown: string): string => textOfBlocks(Array.from(parseBlocks(markdown)))

/** A part of a page for search: the text under one heading. */
export interface Section {
  /** The heading's anchor, `""` for the text before the first heading. */
  readonly id: string
  readonly title: string
  /** The heading's depth (1-6), 0 for the text before the first heading. */
  readonly level: number
  /** Plain text, no markdown syntax. */
  readonly body: string
}

const spelledSymbols: Readonly<Record<string, string>> = { "&": "and", "|": "or", "<": "less than", ">": "greater than" }

/**
 * GitBook's id for a heading's text: lowercase, `&`, `|`, `<` and `>` spelled `and`, `or`,
 * `less than` and `greater than`, apostrophes dropped, every other run of characters that are not
 * letters, marks, digits, `.`, `_` or `-` as one hyphen (none at either end), and `id-` before an
 * id that starts with a digit (`1. Create an app` → `id-1.-create-an-app`, `Math & TeX` →
 * `math-and-tex`, `User(s)` → `user-s`, `User's` → `users`, `Scores > X` → `scores-greater-than-x`).
 */
export const gitbookSlug = (text: string): string => {
  const slug = text
    .replace(/['’]/g, "")
    .replace(/[&|<>]/g, (symbol) => ` ${spelledSymbols[symbol]} `)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}._-]+/gu, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-|-$/g, "")
  return /^\d/.test(slug) ? `id-${slug}` : slug
}

/**
 * Hands out the anchors of one page's headings: GitBook's ids (see `gitbookSlug`; a repeated one
 * gets `-1`, `-2`...) and, beside each, the GitHub-style slug Quire gave the heading before, so that
 * links written against the old ids still land.
 */
export interface HeadingSlugger {
  /** The next unique GitBook id for `text`. */
  readonly slug: (text: string) => string
  /** The next unique GitHub-style slug for `text` (the id headings had before GitBook's). */
  readonly legacy: (text: string) => string
  /** Marks `id` as taken (a heading's explicit id). */
  readonly take: (id: string) => void
}

/** `base`, or the first of `base-1`, `base-2`... not in `taken`; added to `taken`. */
export const takeFreeId = (base: string, taken: Set<string>): string => {
  let id = base
  for (let count = 1; taken.has(id); count++) id = `${base}-${count}`
  taken.add(id)
  return id
}

export const headingSlugger = (): HeadingSlugger => {
  const taken = new Set<string>()
  const github = new GithubSlugger()
  return {
    slug: (text) => takeFreeId(gitbookSlug(text), taken),
    legacy: (text) => github.slug(text),
    take: (id) => {
      taken.add(id)
      github.slug(id)
    }
  }
}

/** A heading's anchor, and the GitHub-style slug it had before when that differs (see `HeadingSlugger`). */
export interface HeadingAnchors {
  readonly id: string
  readonly legacy?: string
}

/**
 * The anchors a heading gets: the id it asks for (`explicit`, see `explicitHeadingId`) as it is, else
 * its text's GitBook id, with its old GitHub-style slug when that differs.
 */
export const headingAnchors = (text: string, slugger: HeadingSlugger = headingSlugger(), explicit?: string): HeadingAnchors => {
  if (explicit !== undefined) {
    // Taken, so that a later heading whose text slugs the same gets `-1`.
    slugger.take(explicit)
    return { id: explicit }
  }
  const id = slugger.slug(text)
  const legacy = slugger.legacy(text)
  return legacy === id || legacy === "" ? { id } : { id, legacy }
}

/** The anchor a heading gets (see `headingAnchors`). */
export const headingAnchor = (text: string, slugger: HeadingSlugger = headingSlugger(), explicit?: string): string =>
  headingAnchors(text, slugger, explicit).id

/**
 * A heading's words as search sections and tables of contents show them, and its id is made of:
 * no tags (an inline `<picture>` badge, GitBook's empty anchor), one line.
 */
export const headingText = (heading: Heading): string => tidy(toString(heading, { includeHtml: false })).replace(/\s+/g, " ").trim()

/**
 * The anchor of every heading of `tree`, as search sections name them: the top-level headings in
 * order, then the nested ones (in lists and quotes), so that a section's `#anchor` lands on its heading.
 */
export const headingIds = (tree: Root): Map<Heading, string> =>
  new Map([...headingAnchorsOf(tree)].map(([node, anchors]) => [node, anchors.id]))

/** `headingIds`, with each heading's old GitHub-style slug where it differs (see `headingAnchors`). */
export const headingAnchorsOf = (tree: Root): Map<Heading, HeadingAnchors> => {
  const slugger = headingSlugger()
  const ids = new Map<Heading, HeadingAnchors>()
  const idOf = (node: Heading) => headingAnchors(headingText(node), slugger, explicitHeadingId(node))
  for (const node of tree.children) if (node.type === "heading") ids.set(node, idOf(node))
  visit(tree, "heading", (node) => {
    if (!ids.has(node)) ids.set(node, idOf(node))
  })
  return ids
}

/**
 * Splits a page into search sections at each heading (outside lists and quotes); the text before the first heading
 * is titled `pageTitle` and is left out when it is empty and headings follow.
 */
export const sections = (markdown: string, pageTitle = ""): ReadonlyArray<Section> => {
  const splitter = sectionSplitter(pageTitle)
  const { chunks, appendix } = piecePlan(markdown)
  for (const text of chunks) splitter.addItems(pieceSectionItems(text, appendix))
  return splitter.done()
}

/** What search sections need of a block: a heading's title, depth and the id it asks for, or another block's raw text. */
export type SectionItem =
  | { readonly heading: string; readonly depth: number; readonly id?: string }
  | { readonly text: string }

const headingItem = (node: Heading): SectionItem => {
  const id = explicitHeadingId(node)
  return id === undefined ? { heading: headingText(node), depth: node.depth } : { heading: headingText(node), depth: node.depth, id }
}

/** The section items of a piece's top-level blocks (see `sectionSplitter`). */
export const sectionItems = (nodes: ReadonlyArray<RootContent>): Array<SectionItem> =>
  nodes.map((node) =>
    node.type === "heading"
      ? headingItem(node)
      : { text: textOf(node) }
  )

// Characters that may be markdown anywhere in a line (NUL: micromark replaces it).
const inlineSyntax = /[\\`*_[\]<>&~|\0]/
// A line that may start a block other than a paragraph, continue one, or underline a heading.
const blockSyntax = /^(?:[\s#=+\-*>]|\d{1,9}[.)])/
const atxHeading = /^(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*\r?$/

/**
 * The section item of a top-level block that is plain text: a paragraph or a one-line ATX heading
 * with no character that markdown could read as syntax, whose words are then its text as written;
 * `undefined` for any other block.
 */
const plainItem = (block: string): SectionItem | undefined => {
  const text = block.trimEnd()
  if (text === "" || inlineSyntax.test(text)) return undefined
  const lines = text.split("\n")
  if (lines.length === 1 && text.startsWith("#")) {
    const heading = atxHeading.exec(text)
    return heading === null ? undefined : { heading: tidy(heading[2] ?? "").replace(/\n/g, " "), depth: heading[1]!.length }
  }
  return lines.every((line) => line !== "" && !blockSyntax.test(line)) ? { text } : undefined
}

/**
 * The section items of a piece (see `sectionItems`), without parsing the blocks that are plain text
 * (see `plainItem`; most paragraphs of most pages): the others are parsed in runs, with `appendix`,
 * for their words only.
 */
export const pieceSectionItems = (text: string, appendix: string): Array<SectionItem> => {
  const items: Array<SectionItem> = []
  // A run is parsed with the piece's own definitions too, as the piece would be (blank lines
  // between them, so that none continues a footnote's paragraph).
  const own = text.match(definitionLine) ?? []
  const definitions = own.length === 0 ? appendix : `${appendix}\n\n${own.join("\n\n")}\n`
  let run = ""
  const flush = () => {
    if (run !== "") items.push(...sectionItems(parsePiece(run, definitions, true).children))
    run = ""
  }
  // `eachBlockChunk` with a target of 1 cuts between every two top-level blocks it can tell apart.
  for (const block of eachBlockChunk(text, 1)) {
    const item = plainItem(block)
    if (item === undefined) {
      run += block
    } else {
      flush()
      items.push(item)
    }
  }
  flush()
  return items
}

/**
 * `sections`, one piece of the document at a time (see `blockChunks`): `add` the blocks of each
 * piece in order (or `addItems`, their `sectionItems`, which a parse worker computes), then
 * `done`. Lets a caller give the event loop back between pieces.
 */
export const sectionSplitter = (pageTitle = "") => {
  const slugger = headingSlugger()
  const result: Array<Section> = []
  let current: { id: string; title: string; level: number; texts: Array<string> } = {
    id: "", title: pageTitle, level: 0, texts: []
  }
  const flush = () => {
    const body = tidy(current.texts.filter((t) => t !== "").join("\n"))
    if (current.level > 0 || body !== "") result.push({ id: current.id, title: current.title, level: current.level, body })
  }
  const addItems = (items: ReadonlyArray<SectionItem>) => {
    for (const item of items) {
      if ("heading" in item) {
        flush()
        current = { id: headingAnchor(item.heading, slugger, item.id), title: item.heading, level: item.depth, texts: [] }
      } else {
        current.texts.push(item.text)
      }
    }
  }
  return {
    add: (nodes: ReadonlyArray<RootContent>) => addItems(sectionItems(nodes)),
    addItems,
    done: (): ReadonlyArray<Section> => {
      flush()
      return result.length === 0 ? [{ id: "", title: pageTitle, level: 0, body: "" }] : result
    }
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/**
 * About `maxLength` characters of `text` around the first occurrence of any word of `query`
 * (case-insensitive), cut at word boundaries and marked with "…" where text was left out.
 */
export const excerpt = (text: string, query: string, maxLength = 160): string => {
  const flat = text.replace(/\s+/g, " ").trim()
  if (flat.length <= maxLength) return flat
  const terms = query.split(/[^\p{L}\p{N}]+/u).filter((term) => term !== "")
  let hit: { index: number; length: number } | undefined
  for (const term of terms) {
    const match = new RegExp(escapeRegExp(term), "iu").exec(flat)
    if (match !== null && (hit === undefined || match.index < hit.index)) hit = { index: match.index, length: match[0].length }
  }
  let start = hit === undefined ? 0 : Math.max(0, hit.index - Math.floor(maxLength / 3))
  // The window and its "…" marks fit in maxLength; near the end, the window slides back.
  let end = start + maxLength - (start > 0 ? 1 : 0)
  if (end >= flat.length) {
    end = flat.length
    start = flat.length - (maxLength - 1)
  } else {
    end -= 1
  }
  if (start > 0 && flat[start - 1] !== " ") {
    const space = flat.indexOf(" ", start)
    if (space !== -1 && space < (hit?.index ?? end)) start = space + 1
  }
  if (end < flat.length && flat[end] !== " ") {
    const space = flat.lastIndexOf(" ", end)
    if (space > start && space >= (hit === undefined ? start : hit.index + hit.length)) end = space
  }
  const slice = flat.slice(start, end).trim()
  return `${start > 0 ? "…" : ""}${slice}${end < flat.length ? "…" : ""}`
}
