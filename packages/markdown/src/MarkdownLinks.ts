/**
 * The links of a page's markdown as written: inline links and images, references resolved through
 * their definitions, definitions no reference uses, and the links of raw HTML. Only the blocks
 * that can hold one are parsed (see `eachLinkPiece`), a piece at a time, so that a parse worker can
 * digest a large page's pieces and the links of a page of plain paragraphs cost a scan, not a parse.
 */
import type { Nodes } from "mdast"
import { visit } from "unist-util-visit"
import { appendixOf, chunkLength, eachBlockChunk, eachBlockCuts, lineCount, type Piece, parsePiece } from "./Markdown.ts"
import { markdownLimitBreach } from "./MarkdownLimits.ts"

/** A link or image destination found in a markdown document. */
export interface MarkdownLink {
  readonly url: string
  readonly kind: "link" | "image"
  /** Where the link starts (1-based). */
  readonly position: { readonly line: number; readonly column: number }
}

/**
 * Where `node` starts; a node the parse made without a position (GFM's autolink literals, cut out
 * of their text after the parse) starts where its parent does, so its place does not depend on how
 * the document was cut into pieces.
 */
const positionOf = (node: Nodes, parent?: Nodes) => {
  const start = node.position?.start ?? parent?.position?.start
  return { line: start?.line ?? 1, column: start?.column ?? 1 }
}

/**
 * The `<a href>` and `<img src>` of a piece of raw HTML (GitBook writes images as
 * `<figure><img src=...>`), trimmed and not empty. An HTML parser reads them: the caller passes
 * its platform's (a DOM parser on Node, the browser's `DOMParser`).
 */
export type HtmlLinks = (html: string) => ReadonlyArray<{ readonly url: string; readonly kind: "link" | "image" }>

/**
 * Where the lines of a piece lie in its document: runs of lines, each `[from, offset]`: from the
 * piece's line `from` (0-based) on, the document has `offset` more lines before that line. A piece
 * cut from the document as it is has one run, `[0, lines before the piece]`.
 */
export type LineMap = ReadonlyArray<readonly [from: number, offset: number]>

/** The line map of a piece that is the document's text from line `offset + 1` on. */
export const linesFrom = (offset: number): LineMap => [[0, offset]]

/** A piece of a document for its links: the blocks that may hold one, and where their lines are. */
export interface LinkPiece {
  readonly text: string
  readonly lines: LineMap
}

/**
 * What every link, image, definition, reference and raw HTML is written with: a block without any
 * of these (`[`, `<`, GFM's bare `http://`, `www.` and emails) holds no link, whatever surrounds it.
 */
const linkSyntax = /[[<@]|:\/\/|www\./i

/** What `eachLinkPiece` may do besides cutting pieces to parse. */
export interface LinkPieceOptions {
  /**
   * Takes the links of the blocks `simpleLinks` reads without a parse (those blocks are then not
   * yielded). Without it every block that may hold a link is yielded. Only a document within the
   * markdown limits is read so: one past them is parsed a piece at a time as before (each piece
   * over a limit is read as plain text).
   */
  readonly read?: ((links: ReadonlyArray<MarkdownLink>) => void) | undefined
  /** The caller found the document within the markdown limits (`markdownLimitBreach`): it is not scanned again. */
  readonly withinLimits?: boolean | undefined
}

/**
 * The pieces of `markdown` that its links are read from, one at a time: its top-level blocks (cut
 * where `blockChunks` may cut, so each parses alone as it does in the whole) that may hold a link,
 * joined into pieces of about `target` characters, with where their lines lie in `markdown`.
 * Blocks that cannot hold a link are left out, so a page of plain paragraphs is scanned, not parsed;
 * with `options.read`, so are the blocks whose links `simpleLinks` reads.
 */
export function* eachLinkPiece(markdown: string, target = chunkLength, options: LinkPieceOptions = {}): Generator<LinkPiece> {
  // Lines are counted at "\n" here and at a lone "\r" too by micromark: a page with one is parsed.
  const read = options.read !== undefined && !loneReturn.test(markdown) && (options.withinLimits === true || markdownLimitBreach(markdown) === undefined)
    ? options.read
    : undefined
  if (markdown.length <= target) {
    if (!linkSyntax.test(markdown)) return
    // A short page is parsed whole unless every block that may hold a link is read without a parse.
    const found = read === undefined ? undefined : readAll(markdown)
    if (found === undefined) yield { text: markdown, lines: linesFrom(0) }
    else read!(found)
    return
  }
  let text = ""
  let lines: Array<readonly [number, number]> = []
  // Lines of the document before the block, and of the piece being joined.
  let documentLine = 0
  let pieceLine = 0
  let joined = -1
  // Most blocks of a long page hold no link: where the next link syntax starts is found once for
  // all the blocks before it, and only the blocks that hold one are cut out of the page.
  const linkAt = new RegExp(linkSyntax.source, "gi")
  let nextLink = -1
  let start = 0
  for (const cuts of eachBlockCuts(markdown, 1)) {
    for (let i = 0; i < cuts.ends.length; i++) {
      const from = start
      const end = cuts.ends[i]!
      start = end
      const blockLine = documentLine
      documentLine = cuts.lines[i]!
      if (nextLink < from) {
        linkAt.lastIndex = from
        nextLink = linkAt.exec(markdown)?.index ?? markdown.length
      }
      // A match starting in the block ends in it: the block ends with a newline, which none holds.
      if (nextLink >= end) continue
      const block = markdown.slice(from, end)
      const found = read === undefined ? undefined : simpleLinks(block, blockLine)
      if (found !== undefined) read!(found)
      else {
        if (text.length > 0 && text.length + block.length > target) {
          yield { text, lines }
          ;[text, lines, pieceLine] = ["", [], 0]
        }
        // A block that follows the last one joined continues its run of lines.
        if (lines.length === 0 || joined !== blockLine) lines.push([pieceLine, blockLine - pieceLine])
        text += block
        pieceLine += documentLine - blockLine
        joined = documentLine
      }
    }
  }
  if (text.length > 0) yield { text, lines }
}

// Told by a search for "\r" first: the pattern's lookahead reads a long page several times slower.
const loneReturnPattern = /\r(?!\n)/
const loneReturn = { test: (text: string) => text.includes("\r") && loneReturnPattern.test(text) }

/** The links of every block of a short `markdown` that may hold one, when `simpleLinks` reads them all. */
const readAll = (markdown: string): ReadonlyArray<MarkdownLink> | undefined => {
  const found: Array<MarkdownLink> = []
  let documentLine = 0
  for (const block of eachBlockChunk(markdown, 1)) {
    if (linkSyntax.test(block)) {
      const links = simpleLinks(block, documentLine)
      if (links === undefined) return undefined
      found.push(...links)
    }
    documentLine += lineCount(block)
  }
  return found
}

/**
 * What `simpleLinks` leaves to the parser, anywhere in a block: code spans and fences, escapes,
 * raw HTML and autolinks, tabs (which micromark counts in columns of its own), a carriage return
 * that does not end a line, NUL, four spaces (indented code inside a list or quote), frontmatter.
 */
const parsedSyntax = /[`\\<\t\0]|\r(?!\n)|~~~|    |^---|^[ \t]/m

/** What makes text outside a link's destination a link by itself (GFM's autolink literals), or a stray bracket. */
const linkyText = /[\]@]|:\/\/|www\./i

/** What a destination `simpleLinks` reads holds none of: whitespace and controls, nested brackets or parentheses, entities, angle brackets, table pipes. */
const unreadDestination = /[\0-\x20\x7f()[\]<>&|]/

/** The longest link text `simpleLinks` reads (micromark's bound on link labels). */
const maxLabel = 999

/**
 * The inline links and images of `block` (a top-level block as `eachBlockChunk` cuts it, whose
 * first line is the document's line `documentLine + 1`), read without a parse: `[text](url)` and
 * `![text](url)` whose text holds no bracket or newline and whose url holds no space, parenthesis,
 * entity or escape. Undefined when the block holds anything else that may make or unmake a link
 * (references, definitions, footnotes, titles, code, HTML, autolinks, indented code): the parser
 * reads those. What it answers is what a parse of the block gives (`test/MarkdownLinks.test.ts`
 * compares them on a corpus).
 */
export const simpleLinks = (block: string, documentLine: number): ReadonlyArray<MarkdownLink> | undefined => {
  if (parsedSyntax.test(block)) return undefined
  const found: Array<MarkdownLink> = []
  let from = 0
  let line = documentLine + 1
  let lineStart = 0
  for (let open = block.indexOf("[", from); open !== -1; open = block.indexOf("[", from)) {
    const close = block.indexOf("]", open + 1)
    if (close === -1 || block.charCodeAt(close + 1) !== 40 /* ( */) return undefined
    const label = block.slice(open + 1, close)
    if (label.length > maxLabel || label.startsWith("^") || label.includes("[") || label.includes("\n") || label.includes("|")) return undefined
    const end = block.indexOf(")", close + 2)
    if (end === -1) return undefined
    const url = block.slice(close + 2, end)
    if (unreadDestination.test(url)) return undefined
    if (linkyText.test(block.slice(from, open)) || linkyText.test(label)) return undefined
    const start = open > 0 && block.charCodeAt(open - 1) === 33 /* ! */ ? open - 1 : open
    for (let newline = block.indexOf("\n", lineStart); newline !== -1 && newline < start; newline = block.indexOf("\n", lineStart)) {
      line++
      lineStart = newline + 1
    }
    found.push({ url, kind: start === open ? "link" : "image", position: { line, column: start - lineStart + 1 } })
    from = end + 1
  }
  return linkyText.test(block.slice(from)) ? undefined : found
}

/** The document line (1-based) of the piece's line `line` (1-based). */
const documentLineOf = (lines: LineMap, line: number): number => {
  let offset = 0
  for (const [from, by] of lines) {
    if (from >= line) break
    offset = by
  }
  return line + offset
}

/** What a document's links need of one piece (see `pieceLinks`); a parse worker computes it. */
export interface PieceLinks {
  /** Inline links and images, and references that resolve. */
  readonly found: ReadonlyArray<MarkdownLink>
  /** The piece's own definitions, in order. */
  readonly definitions: ReadonlyArray<readonly [identifier: string, url: string, position: MarkdownLink["position"]]>
  /** The definitions its references use. */
  readonly used: ReadonlyArray<string>
}

/** The links of one parsed piece whose lines lie in the document as `lines` says (`html` reads raw HTML). */
export const pieceLinks = (piece: Piece, lines: LineMap, html: HtmlLinks): PieceLinks => {
  const found: Array<MarkdownLink> = []
  const definitions: Array<readonly [string, string, MarkdownLink["position"]]> = []
  const used = new Set<string>()
  const shift = (position: MarkdownLink["position"]) => ({ line: documentLineOf(lines, position.line), column: position.column })
  // Definitions resolve references anywhere in the document; those of the appendix are copies.
  const known = new Map<string, string>()
  visit(piece.tree, "definition", (node) => {
    if (!known.has(node.identifier)) known.set(node.identifier, node.url)
  })
  for (const child of piece.children) {
    visit(child, (node, _index, parent) => {
      switch (node.type) {
        case "definition":
          definitions.push([node.identifier, node.url, shift(positionOf(node))])
          break
        case "link":
        case "image":
          found.push({ url: node.url, kind: node.type, position: shift(positionOf(node, parent)) })
          break
        case "linkReference":
        case "imageReference": {
          const url = known.get(node.identifier)
          if (url !== undefined) {
            used.add(node.identifier)
            found.push({ url, kind: node.type === "linkReference" ? "link" : "image", position: shift(positionOf(node)) })
          }
          break
        }
        case "html":
          for (const link of html(node.value)) found.push({ ...link, position: shift(positionOf(node)) })
          break
      }
    })
  }
  return { found, definitions, used: Array.from(used) }
}

/**
 * A document's links gathered from its pieces' `PieceLinks` (`addLinks`, in the order of the
 * pieces, which a parse worker may compute), then `done`. Lets a caller give the event loop back
 * between pieces.
 */
export const linkCollector = () => {
  const found: Array<MarkdownLink> = []
  const definitions = new Map<string, { url: string; position: MarkdownLink["position"] }>()
  const used = new Set<string>()
  return {
    addLinks: (links: PieceLinks) => {
      for (const link of links.found) found.push(link)
      for (const [identifier, url, position] of links.definitions) {
        if (!definitions.has(identifier)) definitions.set(identifier, { url, position })
      }
      for (const identifier of links.used) used.add(identifier)
    },
    done: (): ReadonlyArray<MarkdownLink> => {
      const all = [...found]
      for (const [identifier, definition] of definitions) {
        if (!used.has(identifier)) all.push({ url: definition.url, kind: "link", position: definition.position })
      }
      return all
        .filter((link) => link.url !== "")
        .toSorted((a, b) => a.position.line - b.position.line || a.position.column - b.position.column)
    }
  }
}

/**
 * Every link and image of `markdown` in document order: inline ones, references resolved through
 * their definitions, definitions no reference uses, and `<a href>`/`<img src>` in raw HTML (read by `html`).
 */
export const links = (markdown: string, html: HtmlLinks): ReadonlyArray<MarkdownLink> => {
  const collector = linkCollector()
  const all = Array.from(eachLinkPiece(markdown, chunkLength, { read: (found) => collector.addLinks({ found, definitions: [], used: [] }) }))
  // References resolve through definitions in other pieces, as in a parse of the whole.
  const appendix = all.length > 1 ? appendixOf(markdown) : ""
  for (const { text, lines } of all) collector.addLinks(pieceLinks(parsePiece(text, appendix), lines, html))
  return collector.done()
}
