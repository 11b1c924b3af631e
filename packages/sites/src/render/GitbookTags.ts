/**
 * GitBook's tags as the site's tag forms read them (Blocks.ts, ApiBlocks.ts): a tag block the block
 * tree keeps as raw text (`{% updates %}`, `{% if %}`, `{% swagger %}`, integrations) is given to
 * its form as a `gitbookBlock` with the blocks between its tags (TreeHtml.ts draws them), and the
 * tags of a line outside its code, which adaptive content reads.
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
  for (const tag of Syntax.scanTags(line)) {
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

/** The blocks named `name` directly inside `block` (the tabs of `{% tabs %}`). */
export const childBlocks = (block: GitbookBlock, name: string): ReadonlyArray<GitbookBlock> =>
  (block.children as ReadonlyArray<RootContent | GitbookBlock>).filter((child): child is GitbookBlock =>
    child.type === "gitbookBlock" && (child as GitbookBlock).name === name)
