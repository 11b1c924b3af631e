/** Inline nodes and marks back to markdown, with only the escapes the inline parser needs to read it back the same. */
import { maxTicks } from "../blocks/inline/node.ts"
import { count } from "../blocks/shared/attrs.ts"
import type { Fragment, Mark, Node as PMNode } from "@tiptap/pm/model"

const WORD = /[\p{L}\p{N}]/u

const LINE_START = /^(([-*_])(?:[ \t]*\2){2,}[ \t]*(?=\n|$)|(?=[^\n]*\|)\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*(?=\n|$)|#{1,6}(?=[ \t\n]|$)|[-+*](?=[ \t\n]|$)|\d{1,9}(?=[.)](?:[ \t\n]|$))|>|=+[ \t]*(?=\n|$)|-+[ \t]*(?=\n|$)|\{%|\$\$|\|)/

/** Escapes one text run; `lineStart` when it begins a line of the block. */
export const escapeText = (text: string, lineStart: boolean, prev: string | undefined, next?: string, inLink = false): string => {
  let out = ""
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    const before = i === 0 ? prev : text[i - 1]
    const after = i + 1 < text.length ? text[i + 1] : next
    const atLine = (i === 0 && lineStart) || before === "\n"
    if (atLine) {
      const m = LINE_START.exec(text.slice(i))
      if (m) {
        const s = m[0]
        if (/^\d/.test(s)) {
          out += s + "\\"
          i += s.length - 1
          continue
        }
        if (s !== "{%" && s !== "$$" && s !== "|") {
          out += "\\" + c
          continue
        }
        out += "\\" + c
        continue
      }
      if (c === " " || c === "\t") {
        out += c === " " ? "&#x20;" : "&#x9;"
        continue
      }
    }
    switch (c) {
      case "\\":
        out += after === undefined || after === "\n" || /[!-/:-@[-`{-~]/.test(after) ? "\\\\" : c
        break
      case "*":
      case "~":
        out += isSpace(before) && isSpace(after) && before !== undefined && after !== undefined ? c : "\\" + c
        break
      case "_":
        out += before !== undefined && after !== undefined && WORD.test(before) && WORD.test(after) ? c : "\\" + c
        break
      case "`":
        out += "\\`"
        break
      case "]":
        out += inLink || after === "(" || after === undefined ? "\\]" : c
        break
      case "[":
        out += inLink || after === undefined ? "\\[" : c
        break
      case "!":
        out += after === "[" ? "\\!" : c
        break
      case "<":
        out += after === undefined || /[A-Za-z/!?]/.test(after) ? "\\<" : c
        break
      case "&":
        out += /^&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/.test(text.slice(i)) || after === undefined ? "\\&" : c
        break
      case "$":
        out += after === "$" || before === "$" || after === undefined || before === undefined ? "\\$" : c
        break
      case " ":
      case "\t":
        // Spaces before a line break would be dropped by the parser (at the very end, they may be).
        out += after === "\n" ? "" : c
        break
      default:
        out += c
    }
  }
  return out
}

const HTML_BLOCK_START =
  /^(?:<(?:script|pre|style|textarea)(?:\s|>|$)|<!--|<\?|<![A-Za-z]|<\/?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:\s|\/?>|$))/i

/** An inline atom whose text would start a block (HTML, `$$` on its own) if it began a line. */
const startsBlockInline = (child: PMNode): boolean =>
  (child.type.name === "rawInline" && HTML_BLOCK_START.test(child.attrs.text as string)) || child.type.name === "inlineMath"

const isSpace = (c: string | undefined): boolean => c === undefined || /\s/u.test(c)

const codeSpan = (text: string, ticks: number): string => {
  const runs = new Set((text.match(/`+/g) ?? []).map((r) => r.length))
  let n = count(ticks, 1, maxTicks)
  while (runs.has(n)) n++
  const fence = "`".repeat(n)
  const pad = text.startsWith("`") || text.endsWith("`") || (/^ [\s\S]* $/.test(text) && !/^ *$/.test(text)) ? " " : ""
  return fence + pad + text + pad + fence
}

/** A link destination, escaped so the parser reads back `href`. */
const renderDest = (href: string, angle: boolean): string =>
  angle || href === "" || /\s/.test(href) || [...href].some((c) => c.charCodeAt(0) < 32) || href.startsWith("<") || !balancedParens(href)
    ? `<${href.replace(/[\\<>]/g, "\\$&")}>`
    : href.replace(/\\(?=[!-/:-@[-`{-~]|$)/g, "\\\\")

const balancedParens = (s: string): boolean => {
  let depth = 0
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "(") depth++
    else if (s[i] === ")" && --depth < 0) return false
  }
  return depth === 0
}

const linkTail = (mark: Mark): string => {
  const { href, title, titleQuote, angle } = mark.attrs as { href: string; title: string | null; titleQuote: string | null; angle: boolean }
  const close = titleQuote === "(" ? ")" : titleQuote ?? "\""
  const dest = renderDest(href, angle)
  return `](${dest}${title === null ? "" : ` ${titleQuote ?? "\""}${title}${close}`})`
}

const HTML_TAG_OF: Record<string, string> = { bold: "strong", italic: "em", strike: "s" }

/** Opening and closing text of a mark; emphasis falls back to HTML where its delimiters could not be read back. */
const delimiters = (mark: Mark, prev: string | undefined, first: string | undefined, lastChar: string | undefined, after: string | undefined): [string, string] => {
  switch (mark.type.name) {
    case "link":
      return ["[", linkTail(mark)]
    case "highlight":
      return [`<mark${mark.attrs.attrs as string}>`, (mark.attrs.close as string) || "</mark>"]
    default: {
      let d = mark.attrs.delim as string
      if (d.startsWith("<")) return [d, `</${/^<([A-Za-z]+)/.exec(d)![1]!}>`]
      if (d.startsWith("_") && ((prev !== undefined && WORD.test(prev)) || (after !== undefined && WORD.test(after)))) d = "*".repeat(d.length)
      if (!flanks(d, prev, first, lastChar, after)) {
        const tag = HTML_TAG_OF[mark.type.name]!
        return [`<${tag}>`, `</${tag}>`]
      }
      return [d, d]
    }
  }
}

const isPunct = (c: string | undefined): boolean => c !== undefined && /[!-/:-@[-`{-~\p{P}\p{S}]/u.test(c)

/** Whether `d` before `first` (after `prev`) opens and `d` after `lastChar` (before `after`) closes, by CommonMark's flanking rules. */
const flanks = (d: string, prev: string | undefined, first: string | undefined, lastChar: string | undefined, after: string | undefined): boolean => {
  if (first === undefined || lastChar === undefined || isSpace(first) || isSpace(lastChar)) return false
  const ch = d[0]!
  const left = !(isPunct(first) && !isSpace(prev) && !isPunct(prev) && prev !== ch)
  const right = !(isPunct(lastChar) && !isSpace(after) && !isPunct(after) && after !== ch)
  if (ch === "_") return left && right && !(prev !== undefined && WORD.test(prev)) && !(after !== undefined && WORD.test(after))
  return left && right
}

const EMPHASIS = new Set(["bold", "italic", "strike"])

/** Serializes a block's inline content. */
/** Serializes a block's inline content; `lineStart` false where the text does not begin a markdown line (headings, cells). */
export const serializeInline = (content: Fragment, lineStart = true): string => {
  const children: Array<PMNode> = []
  content.forEach((c) => void children.push(c))
  let out = ""
  const open: Array<{ mark: Mark; close: string; end: number }> = []
  const last = (): string | undefined => (out.length ? out[out.length - 1] : undefined)
  const closeTo = (keep: number): void => {
    for (let j = open.length - 1; j >= keep; j--) out += open[j]!.close
    open.length = keep
  }
  for (let idx = 0; idx < children.length; idx++) {
    const child = children[idx]!
    const marks = child.marks.filter((m) => m.type.name !== "code")
    let keep = 0
    while (keep < open.length && marks.some((m) => m.eq(open[keep]!.mark))) keep++
    let text = child.isText ? child.text! : ""
    // Whitespace at the edge of an emphasis run moves outside it, or the delimiters would not be read back.
    // Marks that run longer open first (outermost), so a mark continuing past this node need not be closed early.
    const runOf = (m: Mark): number => {
      let n = idx + 1
      while (n < children.length && children[n]!.marks.some((x) => x.eq(m))) n++
      return n
    }
    const opening = marks.filter((m) => !open.slice(0, keep).some((o) => o.mark.eq(m))).toSorted((a, b) => runOf(b) - runOf(a))
    closeTo(keep)
    if (child.isText && opening.some((m) => EMPHASIS.has(m.type.name)) && !child.marks.some((m) => m.type.name === "code")) {
      const lead = /^[ \t\n]+/.exec(text)?.[0] ?? ""
      if (lead && lead !== text) {
        if (out !== "") out += escapeText(lead, last() === "\n", last(), "x")
        text = text.slice(lead.length)
      }
    }
    const next = children[idx + 1]
    let tailWs = ""
    const autolink = marks.find((m) => m.type.name === "link" && m.attrs.autolink === true)
    if (autolink && child.isText && text === autolink.attrs.href && !(next?.marks.some((n) => n.eq(autolink)) ?? false) && !open.some((o) => o.mark.eq(autolink))) {
      for (const m of opening.filter((m) => m !== autolink)) {
        const [o, c] = delimiters(m, last(), "<", ">", undefined)
        out += o
        open.push({ mark: m, close: c, end: Math.min(runOf(m), ...open.map((x) => x.end)) })
      }
      out += `<${text}>`
      continue
    }
    for (const m of opening) {
      // A mark opened inside another closes with it at the latest.
      const end = Math.min(runOf(m), ...open.map((o) => o.end))
      const [o, c] = delimiters(m, last(), leadingChar(children[idx]!, text), trailingChar(children[end - 1]!), end < children.length ? firstChar(children[end]) : undefined)
      out += o
      open.push({ mark: m, close: c, end })
    }
    // Marks closed after this node: from the first one the next node lacks, everything opened inside it too.
    const firstClosed = open.findIndex((o) => !(next?.marks.some((n) => n.eq(o.mark)) ?? false))
    const closing = firstClosed < 0 ? [] : open.slice(firstClosed).map((o) => o.mark)
    if (child.isText && !child.marks.some((m) => m.type.name === "code") && closing.some((m) => EMPHASIS.has(m.type.name))) {
      const tail = /[ \t]+$/.exec(text)?.[0] ?? ""
      if (tail && tail !== text) {
        tailWs = tail
        text = text.slice(0, -tail.length)
      }
    }
    const openingNext = next?.marks.filter((n) => n.type.name !== "code" && !marks.some((m) => m.eq(n))) ?? []
    const delimiterNext = closing.length ? (closing.some((m) => m.type.name === "link") ? "]" : "*") : openingNext.length ? delimiterOf(openingNext) : undefined
    // Inline HTML that would start an HTML block at the start of a line stays inline when indented.
    if (out !== "" && last() === "\n" && startsBlockInline(child)) out += "    "
    const inLink = marks.some((m) => m.type.name === "link")
    out += renderLeaf(child, text, out === "" ? lineStart : last() === "\n", last(), tailWs ? tailWs[0] : (delimiterNext ?? firstChar(next)), inLink)
    if (tailWs) {
      const keepNext = open.findIndex((o) => !(next?.marks.some((n) => n.eq(o.mark)) ?? false))
      closeTo(keepNext < 0 ? open.length : keepNext)
      out += !next || (next.isText && next.text!.startsWith("\n")) ? "" : tailWs
    }
  }
  closeTo(0)
  return out
}

/** The first character the next inline node writes, as far as escaping the text before it cares. */
const firstChar = (node: PMNode | undefined): string | undefined => {
  if (!node) return undefined
  if (node.isText) return node.marks.some((m) => m.type.name === "code") ? "`" : node.text![0]
  switch (node.type.name) {
    case "hardBreak":
      return node.attrs.style === "backslash" ? "\\" : node.attrs.style === "html" ? "<" : " "
    case "rawInline":
      return (node.attrs.text as string)[0] ?? "x"
    case "image":
      return "!"
    case "inlineMath":
      return "$"
    default:
      return "x"
  }
}

/** The first and last characters a node writes (text as given, after whitespace moved out). */
const leadingChar = (node: PMNode, text: string): string | undefined => (node.isText ? (node.marks.some((m) => m.type.name === "code") ? "`" : text[0]) : firstChar(node))
const trailingChar = (node: PMNode): string | undefined => {
  if (!node.isText) return node.type.name === "hardBreak" ? "\n" : node.type.name === "inlineMath" ? "$" : node.type.name === "image" ? ")" : ((node.attrs.text as string).slice(-1) || undefined)
  return node.marks.some((m) => m.type.name === "code") ? "`" : node.text!.replace(/[ \t]+$/, "").slice(-1) || " "
}

/** The first character written when these marks open. */
const delimiterOf = (marks: ReadonlyArray<Mark>): string => {
  if (marks.some((m) => m.type.name === "link")) return "["
  if (marks.some((m) => m.type.name === "highlight")) return "<"
  return (marks[0]!.attrs.delim as string)[0]!
}

const renderLeaf = (child: PMNode, text: string, lineStart: boolean, prev: string | undefined, next: string | undefined, inLink: boolean): string => {
  if (child.isText) {
    const code = child.marks.find((m) => m.type.name === "code")
    return code ? codeSpan(text, code.attrs.ticks as number) : escapeText(text, lineStart, prev, next, inLink)
  }
  const a = child.attrs
  switch (child.type.name) {
    case "hardBreak":
      return a.style === "backslash" ? "\\\n" : a.style === "html" ? (a.text as string) : `${(a.text as string) || "  "}\n`
    case "image": {
      const quote = (a.titleQuote as string | null) ?? "\""
      const title = a.title === null ? "" : ` ${quote}${a.title as string}${quote === "(" ? ")" : quote}`
      return `![${a.alt as string}](${renderDest(a.src as string, a.angle as boolean)}${title})`
    }
    case "inlineMath":
      return `$$${a.tex as string}$$`
    case "rawInline":
      return a.text as string
    default:
      return child.textContent
  }
}
