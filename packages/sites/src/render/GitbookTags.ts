/**
 * GitBook's block tags (`{% hint style="info" %}...{% endhint %}`, tabs, code, embed, `{% if %}`,
 * `{% @github-files/github-code-block %}`...) in a page's markdown. Every tag outside code is first
 * replaced by an HTML comment marker on a line of its own, so the markdown around and between tags
 * parses as it would without them (inside lists and quotes too); then the markers, now `html` nodes
 * of the tree, are joined into one `gitbookBlock` node per tag pair around the nodes between. A tag
 * without its closing partner is a block without content; a closing tag without its opening one is
 * dropped: no tag is ever shown as text.
 */
import * as Syntax from "@quire/document/syntax"
import type { Parent, RootContent } from "mdast"

/** A tag as written: `{% hint style="info" %}` is `hint` with `{style: "info"}`. */
export interface GitbookTag {
  readonly name: string
  readonly attributes: Readonly<Record<string, string>>
  readonly closing: boolean
  /** The tag's text, shown when it has no partner. */
  readonly source: string
}

/** A block tag with the content between its opening and closing tags. */
export interface GitbookBlock extends Parent {
  readonly type: "gitbookBlock"
  readonly name: string
  readonly attributes: Readonly<Record<string, string>>
  /** The opening tag as written (`{% if visitor.claims.beta %}`: what follows the name is the condition). */
  readonly source: string
  children: Array<RootContent>
}

// A line opening or closing fenced code (in a quote or list item too): its fence, what follows.
const fence = /^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(`{3,}|~{3,})(.*)$/

const htmlStart = /^[ \t>]*(?:<\/?[a-zA-Z][\w-]*(?:[\s/>]|$)|<!--)/
const marker = (index: number) => `<!--quire-tag:${index}-->`
const markerValue = /^<!--quire-tag:(\d+)-->\s*$/

/** Where inline code spans lie on a line, so that a tag quoted in backticks stays text. */
export const codeSpans = (line: string): ReadonlyArray<readonly [number, number]> => {
  const spans: Array<readonly [number, number]> = []
  const opener = /`+/g
  let open: RegExpExecArray | null
  while ((open = opener.exec(line)) !== null) {
    const ticks = open[0]
    const closer = new RegExp(`(?<!\`)${ticks}(?!\`)`, "g")
    closer.lastIndex = open.index + ticks.length
    const close = closer.exec(line)
    if (close === null) continue
    spans.push([open.index, close.index + ticks.length])
    opener.lastIndex = close.index + ticks.length
  }
  return spans
}

export interface LineTag {
  readonly start: number
  readonly end: number
  readonly tag: GitbookTag
}

/** The known tags of a line outside its code spans, with where each lies. */
export const tagsOfLine = (line: string): ReadonlyArray<LineTag> => {
  if (!line.includes("{%")) return []
  const spans = codeSpans(line)
  const found: Array<LineTag> = []
  // The lines of a tag written over several are read as they were written (one character each: offsets hold).
  for (const tag of Syntax.scanTags(line.includes(tagBreak) ? line.replaceAll(tagBreak, "\n") : line)) {
    const { start, end } = tag
    if (spans.some(([from, to]) => start >= from && start < to)) continue
    found.push({
      start,
      end,
      tag: { name: (tag.closes ?? tag.name).toLowerCase(), attributes: Syntax.tagAttributes(tag), closing: tag.closes !== undefined, source: tag.source }
    })
  }
  return found
}

const indentOf = (line: string): number => {
  let width = 0
  for (const char of line) {
    if (char === " ") width++
    else if (char === "\t") width += 4 - (width % 4)
    else break
  }
  return width
}

const dedent = (line: string, by: number): string => {
  let width = 0
  let i = 0
  while (i < line.length && width < by && (line[i] === " " || line[i] === "\t")) {
    width += line[i] === "\t" ? 4 - (width % 4) : 1
    i++
  }
  return " ".repeat(Math.max(0, width - by)) + line.slice(i)
}

/**
 * Reads lines in order and says whether each is fenced code (its fences included): a line
 * opening or closing a fence, or one between.
 */
export const codeTracker = (): ((line: string) => boolean) => {
  let open: { readonly char: string; readonly length: number } | undefined
  return (line) => {
    const found = fence.exec(line)
    if (open !== undefined) {
      if (found !== null && found[1]![0] === open.char && found[1]!.length >= open.length && found[2]!.trim() === "") open = undefined
      return true
    }
    if (found !== null && !(found[1]![0] === "`" && found[2]!.includes("`"))) {
      open = { char: found[1]![0]!, length: found[1]!.length }
      return true
    }
    return false
  }
}

// A line break inside a tag written over several lines (`content="graph TD` and what follows).
const tagBreak = "\ue002"

/** Lines of a tag written over several lines (at most 40) joined into one, outside code. */
const joinTagLines = (lines: ReadonlyArray<string>): Array<string> => {
  const out: Array<string> = []
  const inCode = codeTracker()
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!
    if (!inCode(line) && Syntax.opensUnclosedTag(line)) {
      let end = i + 1
      while (end < lines.length && end <= i + 40 && !lines[end]!.includes("%}") && fence.exec(lines[end]!) === null) end++
      if (end < lines.length && end <= i + 40 && lines[end]!.includes("%}") && lines[end]!.indexOf("%}") < (lines[end]!.indexOf("{%") + 1 || Infinity)) {
        line = lines.slice(i, end + 1).join(tagBreak)
        i = end
      }
    }
    out.push(line)
  }
  return out
}

/** The markdown with every known tag replaced by a marker, and the tags by marker number. */
export interface Marked {
  readonly markdown: string
  readonly tags: ReadonlyArray<GitbookTag>
}

/**
 * Replaces known tags outside code with markers on lines of their own. Content indented under its
 * tag (`{% tab %}` then lines indented further) is brought back to the tag's indentation, so that
 * it does not turn into an indented code block.
 */
export const markTags = (markdown: string): Marked => {
  if (!markdown.includes("{%")) return { markdown, tags: [] }
  const lines = joinTagLines(markdown.split("\n"))
  const lineTags: Array<ReadonlyArray<LineTag>> = []
  const inCode = codeTracker()
  for (const line of lines) {
    if (inCode(line)) {
      lineTags.push([])
      continue
    }
    lineTags.push(tagsOfLine(line))
  }
  if (lineTags.every((tags) => tags.length === 0)) return { markdown, tags: [] }

  // Pairs of tags alone on their lines, outermost first, for the dedent.
  const soleTag = (i: number): GitbookTag | undefined => {
    const [only, ...rest] = lineTags[i]!
    return only !== undefined && rest.length === 0 && lines[i]!.trim() === only.tag.source ? only.tag : undefined
  }
  const pending: Array<{ readonly name: string; readonly line: number }> = []
  const pairs: Array<readonly [number, number]> = []
  for (let i = 0; i < lines.length; i++) {
    const tag = soleTag(i)
    if (tag === undefined) continue
    if (!tag.closing) pending.push({ name: tag.name, line: i })
    else {
      const at = pending.findLastIndex((p) => p.name === tag.name)
      if (at !== -1) {
        pairs.push([pending[at]!.line, i])
        pending.length = at
      }
    }
  }
  pairs.sort((a, b) => a[0] - b[0])
  for (const [from, to] of pairs) {
    const own = indentOf(lines[from]!)
    let least = Infinity
    for (let i = from + 1; i < to; i++) if (lines[i]!.trim() !== "") least = Math.min(least, indentOf(lines[i]!))
    if (least !== Infinity && least > own) {
      for (let i = from + 1; i <= to; i++) lines[i] = dedent(lines[i]!, least - own)
    }
  }

  const tags: Array<GitbookTag> = []
  const out: Array<string> = []
  // An HTML block runs to the next blank line and would swallow a marker: one goes before it.
  let inHtml = false
  const emit = (line: string) => {
    out.push(line)
    inHtml = line.trim() === "" ? false : inHtml || htmlStart.test(line)
  }
  const emitMarker = (line: string, prefix: string) => {
    if (inHtml) out.push(prefix.trimEnd())
    out.push(line)
    inHtml = false
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    // Positions were found before the dedent; find them again on the dedented line.
    const found = lineTags[i]!.length === 0 ? [] : tagsOfLine(line)
    if (found.length === 0) {
      emit(line)
      continue
    }
    if (/^\s*\|/.test(line)) {
      // A table row cannot be split across lines: the markers stay inline, in the cell.
      let rebuilt = ""
      let at = 0
      for (const { start, end, tag } of found) {
        rebuilt += line.slice(at, start) + marker(tags.push(tag) - 1)
        at = end
      }
      emit(rebuilt + line.slice(at))
      continue
    }
    // Lines added inside a quote or list item keep its prefix (the list marker as spaces).
    const lead = /^((?:[ \t]*>)*[ \t]*)((?:[-*+]|\d{1,9}[.)])[ \t]+)?/.exec(line)!
    const prefix = lead[1]! + " ".repeat(lead[2]?.length ?? 0)
    let current = line.slice(0, found[0]!.start)
    let hasContent = current.slice(lead[0].length).trim() !== ""
    let at = 0
    for (const { start, end, tag } of found) {
      const between = line.slice(at, start)
      if (at > 0) {
        current = between.trim() === "" ? prefix : prefix + between.trimStart()
        hasContent = between.trim() !== ""
      }
      if (hasContent) {
        emit(current.trimEnd())
        current = prefix
      }
      emitMarker(current + marker(tags.push(tag) - 1), prefix)
      at = end
      hasContent = false
    }
    const rest = line.slice(at)
    if (rest.trim() !== "") emit(prefix + rest.trimStart())
  }
  return { markdown: out.join("\n"), tags }
}

const anyMarker = /<!--quire-tag:(\d+)-->/g

/** `text` with the markers in it back as the tags they replaced (for code and HTML that swallowed them). */
export const restoreTags = (text: string, tags: ReadonlyArray<GitbookTag>): string =>
  tags.length === 0 || !text.includes("<!--quire-tag:")
    ? text
    : text.replace(anyMarker, (found, index: string) => tags[Number(index)]?.source ?? found)

/** The blocks named `name` directly inside `block` (the tabs of `{% tabs %}`). */
export const childBlocks = (block: GitbookBlock, name: string): ReadonlyArray<GitbookBlock> =>
  (block.children as ReadonlyArray<RootContent | GitbookBlock>).filter((child): child is GitbookBlock =>
    child.type === "gitbookBlock" && (child as GitbookBlock).name === name)

const markerOf = (node: RootContent): number | undefined => {
  if (node.type !== "html") return undefined
  const match = markerValue.exec(node.value)
  return match === null ? undefined : Number(match[1])
}

/**
 * Joins the markers under `parent` (and its descendants) into `gitbookBlock` nodes: an opening tag
 * takes the siblings up to its closing tag; one without its partner is an empty block.
 */
export const stitchTags = (parent: Parent, tags: ReadonlyArray<GitbookTag>): void => {
  if (tags.length === 0) return
  const children = parent.children as Array<RootContent>
  // Each opening tag's closing partner: the nearest closing tag of its name not taken by a nearer opening one.
  const partners = new Map<number, number>()
  const opened = new Map<string, Array<number>>()
  children.forEach((child, i) => {
    const tag = tags[markerOf(child) ?? -1]
    if (tag === undefined) return
    const stack = opened.get(tag.name) ?? []
    opened.set(tag.name, stack)
    if (!tag.closing) stack.push(i)
    else {
      const open = stack.pop()
      if (open !== undefined) partners.set(open, i)
    }
  })
  const out: Array<RootContent> = []
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!
    const index = markerOf(child)
    const tag = index === undefined ? undefined : tags[index]
    if (tag === undefined) {
      if ("children" in child) stitchTags(child, tags)
      else if (child.type === "html" || child.type === "code") {
        // A tag inside an HTML block or an indented code block is part of it: shown as written.
        child.value = restoreTags(child.value, tags)
      }
      out.push(child)
      continue
    }
    // A closing tag without its opening one says nothing a reader needs.
    if (tag.closing) continue
    const close = partners.get(i) ?? -1
    if (close === -1) {
      // GitBook writes `{% embed url="..." %}`, `{% include "..." %}`, `{% else %}` without a closing tag.
      out.push({ type: "gitbookBlock", name: tag.name, attributes: tag.attributes, source: tag.source, children: [] } as GitbookBlock as unknown as RootContent)
      continue
    }
    const block: GitbookBlock = {
      type: "gitbookBlock", name: tag.name, attributes: tag.attributes, source: tag.source, children: children.slice(i + 1, close)
    }
    stitchTags(block, tags)
    out.push(block as unknown as RootContent)
    i = close
  }
  parent.children = out as Parent["children"]
}
