/** Inline nodes and marks back to markdown, with only the escapes the inline parser needs to read it back the same. */
import type { Fragment, Mark, Node as PMNode } from "@tiptap/pm/model"

const WORD = /[\p{L}\p{N}]/u

const LINE_START = /^(#{1,6}(?=[ \t]|$)|[-+*](?=[ \t]|$)|\d{1,9}(?=[.)](?:[ \t]|$))|>|=+[ \t]*$|-+[ \t]*$|\{%|\$\$|\|)/

/** Escapes one text run; `lineStart` when it begins a line of the block. */
export const escapeText = (text: string, lineStart: boolean, prev: string | undefined, next?: string): string => {
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
        out += after === "(" || after === undefined ? "\\]" : c
        break
      case "[":
        out += after === undefined ? "\\[" : c
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
        // Spaces before a line break or at the end would be dropped by the parser.
        out += after === "\n" || after === undefined ? (c === " " ? "&#x20;" : "&#x9;") : c
        break
      default:
        out += c
    }
  }
  return out
}

const isSpace = (c: string | undefined): boolean => c === undefined || /\s/u.test(c)

const codeSpan = (text: string, ticks: number): string => {
  const runs = new Set((text.match(/`+/g) ?? []).map((r) => r.length))
  let n = Math.max(1, ticks)
  while (runs.has(n)) n++
  const fence = "`".repeat(n)
  const pad = text.startsWith("`") || text.endsWith("`") || (/^ [\s\S]* $/.test(text) && !/^ *$/.test(text)) ? " " : ""
  return fence + pad + text + pad + fence
}

const renderDest = (href: string, angle: boolean): string =>
  angle || href === "" || /[\s<>]/.test(href) || !balancedParens(href) ? `<${href}>` : href

const balancedParens = (s: string): boolean => {
  let depth = 0
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "\\") i++
    else if (s[i] === "(") depth++
    else if (s[i] === ")" && --depth < 0) return false
  }
  return depth === 0
}

const linkTail = (mark: Mark): string => {
  const { href, title, titleQuote, angle } = mark.attrs as { href: string; title: string | null; titleQuote: string | null; angle: boolean }
  const close = titleQuote === "(" ? ")" : titleQuote ?? "\""
  return `](${renderDest(href, angle)}${title === null ? "" : ` ${titleQuote ?? "\""}${title}${close}`})`
}

const openDelim = (mark: Mark, prev: string | undefined): string => {
  switch (mark.type.name) {
    case "link":
      return "["
    case "highlight":
      return `<mark${mark.attrs.attrs as string}>`
    default: {
      const d = mark.attrs.delim as string
      return d.startsWith("_") && prev !== undefined && WORD.test(prev) ? "*".repeat(d.length) : d
    }
  }
}

const EMPHASIS = new Set(["bold", "italic", "strike"])

/** Serializes a block's inline content. */
/** Serializes a block's inline content; `lineStart` false where the text does not begin a markdown line (headings, cells). */
export const serializeInline = (content: Fragment, lineStart = true): string => {
  const children: Array<PMNode> = []
  content.forEach((c) => void children.push(c))
  let out = ""
  const open: Array<{ mark: Mark; close: string }> = []
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
    const opening = marks.filter((m) => !open.slice(0, keep).some((o) => o.mark.eq(m))).sort((a, b) => runOf(b) - runOf(a))
    closeTo(keep)
    if (child.isText && opening.some((m) => EMPHASIS.has(m.type.name)) && !child.marks.some((m) => m.type.name === "code")) {
      const lead = /^[ \t]+/.exec(text)?.[0] ?? ""
      if (lead && lead !== text) {
        out += escapeText(lead, (out === "" ? lineStart : last() === "\n"), last(), "x")
        text = text.slice(lead.length)
      }
    }
    const next = children[idx + 1]
    let tailWs = ""
    if (child.isText && !child.marks.some((m) => m.type.name === "code")) {
      const closing = marks.filter((m) => EMPHASIS.has(m.type.name) && !(next?.marks.some((n) => n.eq(m)) ?? false))
      const tail = /[ \t]+$/.exec(text)?.[0] ?? ""
      if (closing.length && tail && tail !== text) {
        tailWs = tail
        text = text.slice(0, -tail.length)
      }
    }
    const autolink = marks.find((m) => m.type.name === "link" && m.attrs.autolink === true)
    if (autolink && child.isText && text === autolink.attrs.href && !(next?.marks.some((n) => n.eq(autolink)) ?? false) && !open.some((o) => o.mark.eq(autolink))) {
      for (const m of opening.filter((m) => m !== autolink)) {
        const d = openDelim(m, last())
        out += d
        open.push({ mark: m, close: m.type.name === "highlight" ? (m.attrs.close as string) || "</mark>" : d })
      }
      out += `<${text}>`
      continue
    }
    for (const m of opening) {
      const d = openDelim(m, last())
      out += d
      open.push({ mark: m, close: m.type.name === "link" ? linkTail(m) : m.type.name === "highlight" ? (m.attrs.close as string) || "</mark>" : d })
    }
    const closesHere = marks.some((m) => !(next?.marks.some((n) => n.eq(m)) ?? false))
    out += renderLeaf(child, text, (out === "" ? lineStart : last() === "\n"), last(), tailWs ? tailWs[0] : closesHere ? "x" : firstChar(next))
    if (tailWs) {
      const keepNext = open.findIndex((o) => !(next?.marks.some((n) => n.eq(o.mark)) ?? false))
      closeTo(keepNext < 0 ? open.length : keepNext)
      out += next && !(next.isText && next.text!.startsWith("\n")) ? tailWs : tailWs.replace(/[ \t]$/, (c) => (c === " " ? "&#x20;" : "&#x9;"))
    }
  }
  closeTo(0)
  return out
}

/** The first character the next inline node writes, as far as escaping the text before it cares. */
const firstChar = (node: PMNode | undefined): string | undefined => {
  if (!node) return undefined
  if (node.isText) return node.marks.some((m) => m.type.name === "code") ? "`" : node.text![0]
  if (node.type.name === "hardBreak") return node.attrs.style === "backslash" ? "\\" : node.attrs.style === "html" ? "<" : " "
  return "x"
}

const renderLeaf = (child: PMNode, text: string, lineStart: boolean, prev: string | undefined, next: string | undefined): string => {
  if (child.isText) {
    const code = child.marks.find((m) => m.type.name === "code")
    return code ? codeSpan(text, code.attrs.ticks as number) : escapeText(text, lineStart, prev, next)
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
