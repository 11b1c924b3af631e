/**
 * The limits on how deeply a page's markdown nests, measured by one linear scan before any parse.
 * micromark's cost grows much faster than the text for deep nesting (brackets, lists, quotes,
 * emphasis, tables) and for many sibling quotes; past these limits a page being written is
 * refused, and a page already stored is parsed as plain text with a note (see "Markdown limits"
 * in docs/content.md).
 */
import * as Syntax from "@quire/document/syntax"
import { splitFrontmatter } from "./Frontmatter.ts"

/** The limits, by name. */
export interface MarkdownLimits {
  /** Unclosed `[` (links, images, references) at once in a paragraph. */
  readonly bracketDepth: number
  /** Block quotes and list items inside each other (`>`, `-`, `1.`, on a line or by indentation). */
  readonly containerDepth: number
  /** Consecutive emphasis delimiters (`*`, `_`, `~`) in a run inside text. */
  readonly emphasisRun: number
  /** Runs of emphasis delimiters in a paragraph (micromark matches each opener against those before it). */
  readonly emphasisDelimiters: number
  /** Lengths of backtick runs in a paragraph (micromark looks ahead for a closing run of each length). */
  readonly codeSpanLengths: number
  /** HTML elements open at once (across blocks: the renderer nests the blocks between an element's tags). */
  readonly htmlDepth: number
  /** GitBook blocks (`{% hint %}`, `{% tabs %}`...) inside each other. */
  readonly gitbookDepth: number
  /** Cells in one table row (`|` on a line). */
  readonly tableColumns: number
  /** Separate block quotes in a page (each costs micromark work over the whole page). */
  readonly quotes: number
  /** Link reference definitions (`[label]: url`, footnotes `[^1]: text`) in a page. */
  readonly definitions: number
}

/** The limits every page meets (chosen from measurements: each costs under a few ms at its maximum). */
export const defaultMarkdownLimits: MarkdownLimits = {
  bracketDepth: 32,
  containerDepth: 32,
  emphasisRun: 64,
  emphasisDelimiters: 1_000,
  codeSpanLengths: 16,
  htmlDepth: 64,
  gitbookDepth: 32,
  tableColumns: 128,
  quotes: 1_000,
  definitions: 2_000
}

/** What each limit is called in messages: "the markdown <name> limit". */
export const markdownLimitNames: Readonly<Record<keyof MarkdownLimits, string>> = {
  bracketDepth: "bracket-nesting",
  containerDepth: "list-and-quote-nesting",
  emphasisRun: "emphasis-run",
  emphasisDelimiters: "emphasis-delimiters-per-paragraph",
  codeSpanLengths: "code-span-lengths-per-paragraph",
  htmlDepth: "HTML-nesting",
  gitbookDepth: "GitBook-block-nesting",
  tableColumns: "table-columns",
  quotes: "block-quotes-per-page",
  definitions: "definitions-per-page"
}

/** A limit that markdown passes: which, its maximum, what was found, and the line (1-based). */
export interface MarkdownLimitBreach {
  readonly limit: keyof MarkdownLimits
  readonly max: number
  readonly found: number
  readonly line: number
}

/** "the markdown bracket-nesting limit (at most 32; line 1 has 40)". */
export const describeBreach = (breach: MarkdownLimitBreach): string =>
  `the markdown ${markdownLimitNames[breach.limit]} limit (at most ${breach.max}; line ${breach.line} reaches ${breach.found})`

// Elements that never close, and those whose closing tag HTML lets a page leave out: neither nests.
const voidElements = new Set([
  "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr", "param", "keygen",
  "p", "li", "dt", "dd", "tr", "td", "th", "thead", "tbody", "tfoot", "option", "optgroup", "colgroup", "caption", "rt", "rp", "html", "head", "body"
])

const fencePattern = /^(`{3,}|~{3,})/
const markerPattern = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)/
const definitionPattern = /^\[(?:[^\\\]\n]|\\.)+\]:/
const htmlTagPattern = /<(\/?)([a-zA-Z][\w-]*)[^<>]*?(\/?)>/g

/**
 * A line, newline included, that no limit looks at: it starts with a letter or `#` (not a
 * container, fence, definition, tag or blank) and holds nothing the inline reading counts (brackets, backticks,
 * escapes, pipes, emphasis delimiters, HTML or GitBook tags).
 */
const plainLine = /(?:[A-Za-z#]|[^\s\0-\x7f])[^\n`\\[\]|*_~<{]*\n/

/** Columns of leading whitespace (a tab to the next multiple of 4) and where the text starts. */
const indentOf = (line: string, from: number): { readonly columns: number; readonly at: number } => {
  let columns = 0
  let at = from
  for (; at < line.length; at++) {
    const char = line[at]
    if (char === " ") columns++
    else if (char === "\t") columns += 4 - (columns % 4)
    else break
  }
  return { columns, at }
}

/**
 * The longest run of `*`, `_` and `~` in `line`, and how many runs it has (a line of only those
 * and spaces is a thematic break: none).
 */
const emphasisRuns = (line: string): { readonly longest: number; readonly runs: number } => {
  let longest = 0
  let run = 0
  let runs = 0
  let other = false
  for (let i = 0; i < line.length; i++) {
    const char = line[i]
    if (char === "*" || char === "_" || char === "~") {
      if (run === 0) runs++
      run++
      if (run > longest) longest = run
    } else {
      run = 0
      if (char !== " " && char !== "\t" && char !== "-" && char !== "=") other = true
    }
  }
  return other ? { longest, runs } : { longest: 0, runs: 0 }
}

/**
 * The containers a line opens: `>` and list markers, in any order (several on one line nest).
 * `items` (the content columns of the list items open around the line) is updated in place; in a
 * code fence only quotes count.
 */
const openContainers = (line: string, items: Array<number>, inFence: boolean, maxDepth: number) => {
  let quoted = 0
  let rest = line
  let column = 0
  let first = true
  for (;;) {
    const indent = indentOf(rest, 0)
    if (rest[indent.at] === ">" && quoted + items.length <= maxDepth) {
      quoted++
      column += indent.columns + 1
      rest = rest.slice(indent.at + 1)
      continue
    }
    const found = markerPattern.exec(rest.slice(indent.at))
    if (found === null || inFence || quoted + items.length > maxDepth) break
    column += indent.columns
    // Only a marker line, or a line after a blank one, closes list items (others may be lazy continuations).
    if (first) while (items.length > 0 && items[items.length - 1]! > column) items.pop()
    first = false
    column += found[0].length
    items.push(column)
    rest = rest.slice(indent.at + found[0].length)
  }
  return { quoted, rest, column, first }
}

/** HTML elements open after the tags of `line`, from `depth` open before it; the first depth past `max` when one is. */
const htmlDepthAfter = (line: string, depth: number, max: number): number => {
  for (const tag of line.matchAll(htmlTagPattern)) {
    const name = tag[2]!.toLowerCase()
    if (voidElements.has(name) || tag[3] === "/") continue
    if (tag[1] === "/") depth = Math.max(0, depth - 1)
    else if (++depth > max) return depth
  }
  return depth
}

/**
 * The first limit `markdown` passes, or undefined: one pass over its lines, in time linear in its
 * length (code fences are skipped; frontmatter is not markdown).
 */
export const markdownLimitBreach = (markdown: string, limits: MarkdownLimits = defaultMarkdownLimits): MarkdownLimitBreach | undefined => {
  const front = splitFrontmatter(markdown).block
  const lineBase = front === "" ? 0 : front.split("\n").length - 1
  const body = front === "" ? markdown : markdown.slice(front.length)
  // GitBook blocks: a tag is a block when its closing tag appears somewhere.
  const closed = new Set<string>()
  // Sticky: tried where each line starts.
  const plainLineAt = new RegExp(plainLine, "y")
  if (body.includes("{%")) {
    for (const tag of Syntax.scanTags(body)) if (tag.closes !== undefined) closed.add(tag.closes.toLowerCase())
  }
  let fence: string | undefined
  let brackets = 0
  let html = 0
  let delimiters = 0
  const backticks = new Set<number>()
  let gitbook = 0
  let quotes = 0
  let definitions = 0
  let previousQuoted = false
  let previousBlank = true
  // Content columns of the list items open around the current line (see CommonMark's list items).
  const items: Array<number> = []
  const breach = (limit: keyof MarkdownLimits, found: number, line: number): MarkdownLimitBreach | undefined =>
    found > limits[limit] ? { limit, max: limits[limit], found, line: line + lineBase + 1 } : undefined
  let lineStart = 0
  for (let number = 0; lineStart <= body.length; number++) {
    // Most lines of prose are empty (ending the paragraph) or plain (closing every list item after a blank line; see
    // `plainLine`): what they change is set here, and only when it changes (`clear` and `length` are calls into V8).
    if (body.charCodeAt(lineStart) === 10) {
      if (fence === undefined) {
        brackets = 0
        delimiters = 0
        if (backticks.size > 0) backticks.clear()
        previousQuoted = false
      }
      previousBlank = true
      lineStart++
      continue
    }
    plainLineAt.lastIndex = lineStart
    if (plainLineAt.test(body)) {
      if (fence === undefined) {
        if (previousBlank && items.length > 0) items.length = 0
        previousQuoted = false
      }
      previousBlank = false
      lineStart = plainLineAt.lastIndex
      continue
    }
    const newline = body.indexOf("\n", lineStart)
    const lineEnd = newline === -1 ? body.length : newline
    const line = body.slice(lineStart, lineEnd)
    lineStart = lineEnd + 1
    const containers = openContainers(line, items, fence !== undefined, limits.containerDepth)
    const { quoted, column, first } = containers
    let rest = containers.rest
    const blank = rest.trim() === ""
    if (fence !== undefined) {
      const inner = line.trimStart().replace(/^(?:>\s*)*/, "")
      if (inner.startsWith(fence) && inner.slice(fence.length).trim() === "") fence = undefined
      previousBlank = blank
      continue
    }
    if (blank && first) {
      brackets = 0
      delimiters = 0
      backticks.clear()
      previousBlank = true
      // A `>` line without text goes on with its quote.
      previousQuoted = quoted > 0
      if (newline === -1) break
      continue
    }
    if (quoted > 0 && !previousQuoted) {
      quotes++
      const found = breach("quotes", quotes, number)
      if (found !== undefined) return found
    }
    previousQuoted = quoted > 0
    if (first && previousBlank) {
      const indent = indentOf(rest, 0)
      while (items.length > 0 && items[items.length - 1]! > column + indent.columns) items.pop()
    }
    rest = rest.trimStart()
    const deep = breach("containerDepth", quoted + items.length, number)
    if (deep !== undefined) return deep
    previousBlank = false
    const open = fencePattern.exec(rest)
    if (open !== null) {
      fence = open[1]!
      continue
    }
    if (definitionPattern.test(rest)) {
      definitions++
      const found = breach("definitions", definitions, number)
      if (found !== undefined) return found
    }
    // Inline: brackets, emphasis runs, table cells, HTML and GitBook tags.
    let pipes = 0
    let ticks = 0
    for (let i = 0; i < rest.length; i++) {
      const char = rest[i]
      if (char === "`") {
        ticks++
        continue
      }
      if (ticks > 0) {
        backticks.add(ticks)
        ticks = 0
        const found = breach("codeSpanLengths", backticks.size, number)
        if (found !== undefined) return found
      }
      if (char === "\\") i++
      else if (char === "[") {
        brackets++
        const found = breach("bracketDepth", brackets, number)
        if (found !== undefined) return found
      } else if (char === "]") {
        if (brackets > 0) brackets--
      } else if (char === "|") pipes++
    }
    if (ticks > 0) backticks.add(ticks)
    const columns = breach("tableColumns", pipes - 1, number) ?? breach("codeSpanLengths", backticks.size, number)
    if (columns !== undefined) return columns
    const emphasis = emphasisRuns(rest)
    delimiters += emphasis.runs
    const run = breach("emphasisRun", emphasis.longest, number) ?? breach("emphasisDelimiters", delimiters, number)
    if (run !== undefined) return run
    if (rest.includes("<")) html = htmlDepthAfter(rest, html, limits.htmlDepth)
    const nested = breach("htmlDepth", html, number)
    if (nested !== undefined) return nested
    if (closed.size > 0 && rest.includes("{%")) {
      // A tag written over several lines counts on the line it opens.
      const unclosed = Syntax.unclosedTagName(rest)
      const names = [...Array.from(Syntax.scanTags(rest), (tag) => tag.name), ...(unclosed === undefined ? [] : [unclosed])]
      for (const name of names) {
        if (Syntax.closedName(name) !== undefined) gitbook = Math.max(0, gitbook - 1)
        else if (closed.has(name.toLowerCase())) {
          gitbook++
          const found = breach("gitbookDepth", gitbook, number)
          if (found !== undefined) return found
        }
      }
    }
    if (newline === -1) break
  }
  return undefined
}

/** The longest run of backticks in `text`. */
const longestBackticks = (text: string): number => {
  let longest = 0
  let run = 0
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "`") {
      run++
      if (run > longest) longest = run
    } else run = 0
  }
  return longest
}

/**
 * `markdown` as a page past a limit is shown: a note naming the limit, then its text as it is, in
 * a code block (which micromark reads in linear time).
 */
export const plainTextMarkdown = (markdown: string, breach: MarkdownLimitBreach): string => {
  const fence = "`".repeat(Math.max(3, longestBackticks(markdown) + 1))
  return `*This page is shown as plain text: its markdown is over ${describeBreach(breach)}.*\n\n${fence}text\n${markdown}\n${fence}\n`
}

/** `markdown` when it is within the limits, else its plain-text form (see `plainTextMarkdown`). */
export const withinLimits = (markdown: string): string => {
  const breach = markdownLimitBreach(markdown)
  return breach === undefined ? markdown : plainTextMarkdown(markdown, breach)
}

/** How deeply an imported HTML page may nest its elements (a real site nests a few dozen). */
export const maxImportedHtmlDepth = 256

/**
 * The deepest nesting of elements in `html`, by one linear pass over its tags (void elements and
 * those whose closing tag HTML lets a page leave out not counted):
 * checked before an HTML parser and a converter, whose cost and recursion grow with it, see the page.
 */
export const htmlNestingDepth = (html: string): number => {
  let depth = 0
  let deepest = 0
  for (const tag of html.matchAll(htmlTagPattern)) {
    const name = tag[2]!.toLowerCase()
    if (voidElements.has(name) || tag[3] === "/") continue
    if (tag[1] === "/") depth = Math.max(0, depth - 1)
    else if (++depth > deepest) deepest = depth
  }
  return deepest
}
