/**
 * GitBook's `SUMMARY.md`: the table of contents as `## ` group headings and nested bullet lists of
 * links, read line by line (keeping each entry's line for a faithful rewrite) and written in the
 * style of the previous file.
 */
import { gitbookAnchor, gitbookAnchorId, slugify } from "@quire/markdown"

/** An entry of the table of contents: a page file, an external link, or a text without link that holds entries. */
export interface SummaryEntry {
  readonly kind: "entry"
  readonly title: string
  /** The destination as written, without `<>`, decoded; a URL for link pages; `""` for an entry without link. */
  readonly target: string
  /** The link's title (`[Title](page.md "Label")`), which GitBook shows in the navigation instead of the page's title. */
  readonly label?: string | undefined
  /** An entry that is not a link (`* Some group-like entry`): a group of the entries under it. */
  readonly unlinked?: true | undefined
  /** The entry's line without its indentation. */
  readonly line: string
  readonly lineNumber: number
  readonly children: Array<SummaryEntry>
}

/** A `## ` heading and the entries under it. */
export interface SummaryGroup {
  readonly kind: "group"
  readonly title: string
  /** The id of GitBook's anchor ending the heading (`## Get Started <a href="#getting-started" id="getting-started"></a>`): the group's slug. */
  readonly slug?: string | undefined
  readonly line: string
  readonly children: Array<SummaryEntry>
}

export interface ParsedSummary {
  /** What precedes the first entry or group (`# Table of contents` and blank lines). */
  readonly header: string
  readonly bullet: string
  readonly indent: number
  readonly newline: string
  readonly nodes: ReadonlyArray<SummaryGroup | SummaryEntry>
  readonly warnings: ReadonlyArray<string>
}

const itemLine = /^([ \t]*)([*+-])[ \t]+(.*?)[ \t]*$/
const headingLine = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/
const breakLine = /^ {0,3}(?:-{2,}|\*{3,}|_{3,})[ \t]*$/

const unescape = (text: string): string => text.replace(/\\([!-/:-@[-`{-~])/g, "$1")

const columns = (indent: string): number => {
  let n = 0
  for (const char of indent) n = char === "\t" ? n + 4 - (n % 4) : n + 1
  return n
}

const titleCloser: Record<string, string> = { "\"": "\"", "'": "'", "(": ")" }

/** The link title (`"Label"`, `'Label'`, `(Label)`) starting at `text[start]` before the closing `)`, unescaped; `undefined` without one. */
const linkTitleAt = (text: string, start: number): string | undefined => {
  let i = start
  while (text[i] === " " || text[i] === "\t") i++
  const close = titleCloser[text[i] ?? ""]
  if (close === undefined) return undefined
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === "\\") j++
    else if (text[j] === close) {
      const title = unescape(text.slice(i + 1, j)).trim()
      return title === "" ? undefined : title
    }
  }
  return undefined
}

/** `[text](destination "title")` at the start of `text`, else `undefined`; `label` is the link's title. */
export const parseLink = (text: string): { readonly title: string; readonly target: string; readonly label?: string } | undefined => {
  if (!text.startsWith("[")) return undefined
  let depth = 0
  let end = -1
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (char === "\\") i++
    else if (char === "[") depth++
    else if (char === "]" && --depth === 0) {
      end = i
      break
    }
  }
  if (end === -1 || text[end + 1] !== "(") return undefined
  let i = end + 2
  while (text[i] === " ") i++
  let destination: string
  let after: number
  if (text[i] === "<") {
    const close = text.indexOf(">", i)
    if (close === -1) return undefined
    destination = text.slice(i + 1, close)
    after = close + 1
  } else {
    let parens = 0
    const start = i
    for (; i < text.length; i++) {
      const char = text[i]!
      if (char === "\\") i++
      else if (char === "(") parens++
      else if (char === ")") {
        if (parens === 0) break
        parens--
      } else if (/\s/.test(char)) break
    }
    after = i
    let raw = text.slice(start, i)
    try {
      raw = decodeURI(raw)
    } catch {
      // kept as written
    }
    destination = unescape(raw)
  }
  const label = linkTitleAt(text, after)
  const title = unescape(text.slice(1, end)).trim()
  return label === undefined ? { title, target: destination } : { title, target: destination, label }
}

/** Reads `SUMMARY.md`: groups, entries nested by indentation; anything else is ignored. */
export const parseSummary = (text: string): ParsedSummary => {
  const newline = text.includes("\r\n") ? "\r\n" : "\n"
  const lines = text.split(/\r?\n/)
  const nodes: Array<SummaryGroup | SummaryEntry> = []
  const warnings: Array<string> = []
  let header: string | undefined
  let bullet: string | undefined
  let indentUnit = 0
  let group: SummaryGroup | undefined
  let seenTitle = false
  const stack: Array<{ indent: number; entry: SummaryEntry }> = []
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!
    const heading = headingLine.exec(line)
    const item = heading === null ? itemLine.exec(line) : null
    const startsContent = (heading !== null && (heading[1]!.length > 1 || seenTitle)) || item !== null
    if (startsContent && header === undefined) header = lines.slice(0, index).map((l) => l + newline).join("")
    if (heading !== null) {
      if (heading[1]!.length === 1 && !seenTitle) {
        seenTitle = true
        continue
      }
      const slug = gitbookAnchorId(heading[2]!)
      group = { kind: "group", title: unescape(heading[2]!.replace(gitbookAnchor, "")), ...(slug === undefined ? {} : { slug }), line, children: [] }
      nodes.push(group)
      stack.length = 0
    } else if (item !== null) {
      const text = item[3]!
      const link = parseLink(text) ?? (text.startsWith("[") || unescape(text).trim() === "" ? undefined : { title: unescape(text).trim(), target: "", unlinked: true as const })
      if (link === undefined) {
        warnings.push(`SUMMARY.md line ${index + 1}: ${JSON.stringify(line.trim())} is not a link; ignored`)
        continue
      }
      bullet ??= item[2]!
      const indent = columns(item[1]!)
      const entry: SummaryEntry = { kind: "entry", ...link, line: line.slice(item[1]!.length), lineNumber: index + 1, children: [] }
      while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop()
      const parent = stack[stack.length - 1]
      if (parent !== undefined) {
        const step = indent - parent.indent
        if (indentUnit === 0 || step < indentUnit) indentUnit = step
        parent.entry.children.push(entry)
      } else if (group !== undefined) group.children.push(entry)
      else nodes.push(entry)
      stack.push({ indent, entry })
    } else if (breakLine.test(line)) {
      group = undefined
      stack.length = 0
    }
  }
  return {
    header: header ?? (lines.length > 0 && text.trim() !== "" ? text.replace(/(?:\r?\n)*$/, "") + newline + newline : ""),
    bullet: bullet ?? "*",
    indent: indentUnit === 0 ? 2 : indentUnit,
    newline,
    nodes,
    warnings
  }
}

/** A node of the table of contents to write. */
export type SummaryNode =
  | {
    readonly kind: "group"
    readonly title: string
    /** Written as the heading's anchor when it is not the title's own slug. */
    readonly slug?: string | undefined
    readonly reuse?: string | undefined
    readonly children: ReadonlyArray<SummaryNode>
  }
  | {
    readonly kind: "entry"
    readonly title: string
    readonly target: string
    /** The navigation's label, written as the link's title (`[Title](page.md "Label")`). */
    readonly label?: string | undefined
    readonly reuse?: string | undefined
    readonly children: ReadonlyArray<SummaryNode>
  }

const escapeTitle = (title: string): string => title.replace(/([\\[\]])/g, "\\$1")

/** A destination as GitBook writes it: in `<>` when it holds spaces or parentheses. */
export const formatDestination = (target: string): string =>
  /[\s()<>]/.test(target) ? `<${target.replace(/[<>]/g, (c) => encodeURIComponent(c))}>` : target

/** `SUMMARY.md` for `nodes`, in the style (`header`, bullet, indentation, line ending) of `style`. */
export const renderSummary = (
  nodes: ReadonlyArray<SummaryNode>,
  style: Pick<ParsedSummary, "header" | "bullet" | "indent" | "newline"> | undefined
): string => {
  const header = style?.header ?? "# Table of contents\n\n"
  const bullet = style?.bullet ?? "*"
  const unit = style?.indent ?? 2
  const nl = style?.newline ?? "\n"
  const blocks: Array<string> = []
  let current: Array<string> | undefined
  let afterGroup = false
  const entries = (list: ReadonlyArray<SummaryNode>, depth: number, out: Array<string>) => {
    for (const node of list) {
      if (node.kind === "group") {
        entries(node.children, depth, out)
        continue
      }
      const label = node.label === undefined ? "" : ` "${node.label.replace(/(["\\])/g, "\\$1")}"`
      const line = node.reuse ?? `${bullet} [${escapeTitle(node.title)}](${formatDestination(node.target)}${label})`
      out.push(" ".repeat(unit * depth) + line)
      entries(node.children, depth + 1, out)
    }
  }
  for (const node of nodes) {
    if (node.kind === "group") {
      const lines: Array<string> = []
      entries(node.children, 0, lines)
      const anchor = node.slug === undefined || node.slug === slugify(node.title) ? "" : ` <a href="#${node.slug}" id="${node.slug}"></a>`
      blocks.push((node.reuse ?? `## ${node.title}${anchor}`) + (lines.length > 0 ? nl + nl + lines.join(nl) : ""))
      current = undefined
      afterGroup = true
    } else {
      if (current === undefined) {
        current = []
        blocks.push(afterGroup ? "***" : "")
        if (afterGroup) blocks.push("")
      }
      entries([node], 0, current)
      blocks[blocks.length - 1] = current.join(nl)
    }
  }
  return header + blocks.filter((b) => b !== "").join(nl + nl) + nl
}
