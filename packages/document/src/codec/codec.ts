/**
 * Markdown straight to ProseMirror and back. Every block keeps the slice of markdown it was parsed from (with
 * the blank lines after it); serializing writes that slice unchanged when re-parsing it gives an equal node,
 * so only edited blocks are re-serialized and an untouched page comes back byte for byte.
 */
import { Fragment, type Node as PMNode, type Schema } from "@tiptap/pm/model"
import { blocks, parseOrder, type BlockName } from "../blocks/index.ts"
import { LIST_ITEM } from "../blocks/list/markdown.ts"
import { MATH_FENCE } from "../blocks/math/markdown.ts"
import { parseParagraph } from "../blocks/paragraph/markdown.ts"
import { rawNode } from "../blocks/raw/markdown.ts"
import { RULE } from "../blocks/rule/markdown.ts"
import { startsTable } from "../blocks/table/markdown.ts"
import { openFence } from "../blocks/code/markdown.ts"
import { parseInline } from "./inline.ts"
import { serializeInline } from "./inline-serialize.ts"
import { dominantEol, indentOf, isBlank, splitLinesKeepEol, splitSlice, stripEol } from "./lines.ts"
import { findLiquidEnd, liquidLineName } from "../syntax/Liquid.ts"
import { blockTagNames, opensUnclosedTag, readTag } from "../syntax/Tags.ts"
import type { BlockParse, MarkdownContext } from "./types.ts"

export interface MarkdownCodec {
  readonly schema: Schema
  readonly parse: (markdown: string) => PMNode
  /** `fresh` names top-level blocks to write from their attributes even when their kept slice still fits. */
  readonly serialize: (doc: PMNode, fresh?: (block: PMNode) => boolean) => string
  /**
   * Checks, from top-level block `from` on, whether each block's kept slice can be written back as it
   * is (what `serialize` asks of every block, remembered per block) while `more()` says there is time;
   * answers where it stopped (`doc.childCount` when done), so the work can be spread over idle moments.
   */
  readonly prepare: (doc: PMNode, from: number, more: () => boolean) => number
}

const HTML_RAW_END: ReadonlyArray<[RegExp, RegExp]> = [
  [/^ {0,3}<(?:script|pre|style|textarea)(?:\s|>|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<![A-Za-z]/, />/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/]
]
const BLOCK_TAGS =
  "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul"
const HTML_BLOCK6 = new RegExp(`^ {0,3}</?(?:${BLOCK_TAGS})(?:\\s|/?>|$)`, "i")
const HTML_BLOCK7 = /^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)[ \t]*$/

const blankEnd = (text: string): boolean => /\n[ \t]*\n$/.test(text.replace(/\r\n?/g, "\n"))
const endsLine = (text: string): boolean => text.endsWith("\n") || text.endsWith("\r")

const nestedLines = (source: string): Array<string> => {
  const lines = source.split("\n")
  lines.pop()
  return lines
}

/** Whether a line would start a block that interrupts a paragraph. */
const interrupts = (lines: ReadonlyArray<string>, i: number): boolean => {
  const line = lines[i]!
  if (/^ {0,3}#{1,6}(?:[ \t]|$)/.test(line) || openFence(line) || MATH_FENCE.test(line) || RULE.test(line)) return true
  if (/^ {0,3}>/.test(line)) return true
  const item = LIST_ITEM.exec(line)
  if (item && item[6] !== "" && (item[3] === undefined || item[3] === "1")) return true
  if (line.startsWith("{%") && liquidLineName(line) !== undefined) return true
  if (HTML_RAW_END.some(([start]) => start.test(line)) || HTML_BLOCK6.test(line)) return true
  return startsTable(lines, i)
}

/** Lines a tag may run over (`{% @mermaid/diagram content="graph TD` … `" %}`), as the sites' renderer reads them. */
const TAG_LINES = 40

/**
 * The line that ends a tag opened and not closed on line `i` (its parameters run over the next lines), when the
 * lines up to it read as one tag; else -1.
 */
const tagLinesEnd = (lines: ReadonlyArray<string>, i: number): number => {
  for (let j = i + 1; j < lines.length && j <= i + TAG_LINES; j++) {
    if (!lines[j]!.includes("%}")) continue
    return readTag(lines.slice(i, j + 1).join("\n")) === undefined ? -1 : j
  }
  return -1
}

/** A line that is one of GitBook's block tags, `{% hint style="info" %}`, opening the block (up to three spaces before it). */
const opensBlock = (line: string): boolean => {
  const trimmed = line.trim()
  if (!trimmed.startsWith("{%") || indentOf(line) > 3) return false
  const tag = readTag(trimmed)
  return tag !== undefined && tag.closes === undefined && blockTagNames.has(tag.name)
}

/** Where markdown we do not model, starting at `i`, ends: unknown liquid blocks, tags over several lines, HTML blocks, indented code. */
const rawEnd = (lines: ReadonlyArray<string>, i: number, line: string): number | undefined => {
  if (line.startsWith("{%") && opensUnclosedTag(line)) {
    const last = tagLinesEnd(lines, i)
    if (last >= 0) {
      const name = readTag(lines.slice(i, last + 1).join("\n"))!.name
      const end = blockTagNames.has(name) ? findLiquidEnd(lines, last, name) : -1
      return end < 0 ? last + 1 : end + 1
    }
  }
  if (line.startsWith("{%")) {
    const tag = liquidLineName(line)
    if (tag !== undefined) {
      const end = findLiquidEnd(lines, i, tag)
      return end < 0 ? i + 1 : end + 1
    }
  }
  for (const [start, stop] of HTML_RAW_END) {
    if (!start.test(line)) continue
    let j = i
    while (j < lines.length && !stop.test(j === i ? line.slice(line.indexOf("<") + 2) : lines[j]!)) j++
    if (j < lines.length) return j + 1
    // Never closed: up to the last line that is not blank (the blank lines after belong to no block).
    while (j > i + 1 && isBlank(lines[j - 1]!)) j--
    return j
  }
  if (HTML_BLOCK6.test(line) || HTML_BLOCK7.test(line)) {
    // GitBook reads a block's tag on a line of its own as the block even inside HTML (`<div>` then `{% hint %}`).
    let j = i + 1
    while (j < lines.length && !isBlank(lines[j]!) && !opensBlock(lines[j]!)) j++
    return j
  }
  if (indentOf(line) >= 4) {
    let j = i + 1
    let last = i + 1
    while (j < lines.length && (isBlank(lines[j]!) || indentOf(lines[j]!) >= 4)) {
      if (!isBlank(lines[j]!)) last = j + 1
      j++
    }
    return last
  }
  return undefined
}

/**
 * Whether two top-level blocks' kept slices, one right after the other, read back as those two blocks
 * (remembered per pair of nodes). `first` reads a page's start, `rest` the rest of it.
 */
const pairsReadApart = (first: (text: string) => Array<PMNode>, rest: (text: string) => Array<PMNode>) => {
  const apart = new WeakMap<PMNode, WeakMap<PMNode, boolean>>()
  return (before: PMNode, beforeChunk: string, after: PMNode, afterChunk: string, pageStart: boolean): boolean => {
    // The page's first block reads as it does only at the start (a frontmatter): its pairs are not remembered.
    const known = pageStart ? undefined : apart.get(before)?.get(after)
    if (known !== undefined) return known
    const again = (pageStart ? first : rest)(beforeChunk + afterChunk)
    const ok = again.length === 2 && again[0]!.eq(before) && again[1]!.eq(after)
    if (pageStart) return ok
    let afters = apart.get(before)
    if (afters === undefined) apart.set(before, (afters = new WeakMap()))
    afters.set(after, ok)
    return ok
  }
}

/**
 * The top-level blocks without the empty paragraphs the editor left at the end (the line after a block inserted
 * last): they have no source and would only add blank lines. A page of nothing else keeps one.
 */
const withoutTrailingEmpty = (content: Fragment): Fragment => {
  let n = content.childCount
  while (n > 1) {
    const child = content.child(n - 1)
    if (child.type.name !== "paragraph" || child.content.size > 0 || child.attrs.source != null) break
    n--
  }
  if (n === content.childCount) return content
  const kept: Array<PMNode> = []
  for (let i = 0; i < n; i++) kept.push(content.child(i))
  return Fragment.fromArray(kept)
}

export const createMarkdownCodec = (schema: Schema): MarkdownCodec => {
  const reusable = new WeakMap<PMNode, boolean>()

  /** Markdown we do not model at `i`: unknown liquid blocks, HTML blocks, indented code. */
  const rawBlock = (lines: ReadonlyArray<string>, i: number): BlockParse | undefined => {
    const line = lines[i]!
    const end = rawEnd(lines, i, line)
    return end === undefined ? undefined : { node: rawNode(schema, lines.slice(i, end)), end }
  }

  const parseBlockAt = (lines: ReadonlyArray<string>, i: number, first: boolean): BlockParse => {
    for (const name of parseOrder) {
      const parse = blocks[name].markdown.parse
      const r = parse?.(ctx, lines, i, first)
      if (r) return r
    }
    return rawBlock(lines, i) ?? parseParagraph(ctx, lines, i)
  }

  /** Blocks of `lines`; `slice(start, end)` gives the source of lines [start, end). */
  const parseSequence = (lines: ReadonlyArray<string>, slice: (start: number, end: number) => string, top: boolean): Array<PMNode> => {
    const found: Array<{ node: PMNode; start: number }> = []
    let i = 0
    while (i < lines.length) {
      if (isBlank(lines[i]!)) {
        i++
        continue
      }
      const r = parseBlockAt(lines, i, top && i === 0)
      found.push({ node: r.node, start: i })
      i = Math.max(r.end, i + 1)
    }
    if (found.length === 0) return [schema.nodes.paragraph!.create({ source: slice(0, lines.length) })]
    return found.map((f, k) => {
      const start = k === 0 ? 0 : f.start
      const end = k + 1 < found.length ? found[k + 1]!.start : lines.length
      return f.node.type.create({ ...f.node.attrs, source: slice(start, end) }, f.node.content, f.node.marks)
    })
  }

  const parseNested = (lines: ReadonlyArray<string>): Array<PMNode> =>
    parseSequence(lines, (s, e) => lines.slice(s, e).map((l) => `${l}\n`).join(""), false)

  const parseTop = (text: string): Array<PMNode> => {
    const raw = splitLinesKeepEol(text)
    return parseSequence(raw.map(stripEol), (s, e) => raw.slice(s, e).join(""), true)
  }

  const canReuse = (node: PMNode, top: boolean, first: boolean): boolean => {
    const source = node.attrs.source as string | null | undefined
    if (source == null) return false
    const key = top && first ? undefined : node
    if (key && reusable.has(key)) return reusable.get(key)!
    const again = top ? (first ? parseTop(source) : parseTopNotFirst(source)) : parseNested(nestedLines(source))
    const ok = again.length === 1 && again[0]!.eq(node)
    if (key) reusable.set(key, ok)
    return ok
  }

  const keptApart = pairsReadApart((text) => parseTop(text), (text) => parseTopNotFirst(text))

  const parseTopNotFirst = (text: string): Array<PMNode> => {
    const raw = splitLinesKeepEol(text)
    return parseSequence(raw.map(stripEol), (s, e) => raw.slice(s, e).join(""), false)
  }

  const serializeBlock = (node: PMNode): string => {
    const name = node.type.name as BlockName
    const entry = blocks[name]
    if (!entry) throw new Error(`no markdown for block ${node.type.name}`)
    return entry.markdown.serialize(ctx, node)
  }

  /**
   * Children in order, each as its kept slice when re-parsing that gives the same node. A re-serialized
   * top-level block is set off by blank lines, so it cannot join the block before or after it.
   */
  const serializeSequence = (content: Fragment, top: boolean, eol: string, fresh?: (node: PMNode) => boolean): string => {
    // Chunks are joined once at the end: asking a long concatenated string how it ends would flatten it each time.
    const chunks: Array<string> = []
    let tail = ""
    const push = (text: string): void => {
      if (text === "") return
      chunks.push(text)
      tail = (tail + text).slice(-8)
    }
    let previous: { readonly node: PMNode; readonly chunk: string; readonly first: boolean } | undefined
    content.forEach((child, _offset, index) => {
      const last = index === content.childCount - 1
      let chunk: string
      if (!fresh?.(child) && canReuse(child, top, index === 0)) {
        chunk = child.attrs.source as string
        // Two kept slices with no blank line between were neighbours as written, or were put side by side
        // (a block moved, dropped, or merged from another person's edit): then they are set apart when
        // they would read as something else ("Two.\n" then "One.\n", one paragraph).
        if (top && previous !== undefined && endsLine(tail) && !blankEnd(tail) && !keptApart(previous.node, previous.chunk, child, chunk, previous.first)) {
          push(tail.endsWith("\r") ? "\r" : eol)
        }
      } else {
        const source = child.attrs.source as string | null
        const { lead, trail } = source == null ? { lead: "", trail: null } : splitSlice(source)
        const body = serializeBlock(child)
        let end = trail === null || (trail === "" && !last) ? (last ? eol : eol + eol) : trail
        if (top && !last && !blankEnd(end)) end = eol + eol
        // A new paragraph right after a paragraph's last line would be read as more of it: a blank line between.
        const afterParagraph = child.type.name === "paragraph" && index > 0 && content.child(index - 1).type.name === "paragraph"
        if ((top || afterParagraph) && chunks.length && !blankEnd(tail)) push(tail.endsWith("\r") ? "\r" : endsLine(tail) ? eol : eol + eol)
        chunk = lead + (eol === "\n" ? body : body.replace(/\r?\n/g, eol)) + end
      }
      if (chunks.length && !endsLine(tail)) push(eol + eol)
      push(chunk)
      previous = { node: child, chunk, first: index === 0 }
    })
    return chunks.join("")
  }

  const ctx: MarkdownContext = {
    schema,
    parseBlocks: parseNested,
    parseInline: (text) => parseInline(schema, text),
    serializeBlocks: (content) => serializeSequence(content, false, "\n"),
    serializeInline,
    interrupts
  }

  return {
    schema,
    parse: (markdown) => schema.nodes.doc!.create(null, parseTop(markdown)),
    prepare: (doc, from, more) => {
      let index = from
      // The first block's answer depends on the document's start, so it is not remembered: skip it.
      if (index === 0) index = 1
      while (index < doc.childCount && more()) {
        canReuse(doc.child(index), true, false)
        index++
      }
      return index
    },
    serialize: (doc, fresh) => {
      const sources: Array<string> = []
      doc.forEach((c) => void (typeof c.attrs.source === "string" && sources.push(c.attrs.source)))
      return serializeSequence(withoutTrailingEmpty(doc.content), true, dominantEol(sources.join("")), fresh)
    }
  }
}
