/**
 * Inline markdown straight to ProseMirror inline nodes and marks, and back. CommonMark's delimiter
 * rules for emphasis (so the serializer's output re-parses to the same marks), GFM strikethrough,
 * GitBook's `$$tex$$` inline math and `<mark>` highlights. Entities and inline HTML we do not model
 * become `rawInline` atoms that serialize verbatim.
 */
import { maxTicks } from "../blocks/inline/node.ts"
import type { Mark, Node as PMNode, Schema } from "@tiptap/pm/model"

type Item =
  | { kind: "text"; text: string; marks: ReadonlyArray<Mark> }
  | { kind: "node"; node: PMNode; marks: ReadonlyArray<Mark> }
  | { kind: "delim"; ch: string; count: number; orig: number; canOpen: boolean; canClose: boolean; marks: ReadonlyArray<Mark>; active: boolean }

const PUNCT = /[!-/:-@[-`{-~\p{P}\p{S}]/u
const isWs = (c: string | undefined): boolean => c === undefined || /\s/u.test(c)
const isPunct = (c: string | undefined): boolean => c !== undefined && PUNCT.test(c)
const ASCII_PUNCT = /[!-/:-@[-`{-~]/

/** `re` (anchored with `^`) matched at `i` exactly; a slice, not a shared sticky copy with its `lastIndex`. */
const matchAt = (re: RegExp, text: string, i: number): RegExpExecArray | null => re.exec(text.slice(i))

const HTML_TAG =
  /^(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>|<!--[\s\S]*?-->)/
const AUTOLINK = /^<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*)>/
const ENTITY = /^&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/

/** Parses one block's inline text (lines joined by "\n") into inline nodes. */
export const parseInline = (schema: Schema, text: string): Array<PMNode> => {
  const items = scan(schema, text)
  processEmphasis(schema, items)
  pairHighlights(schema, items)
  return build(schema, items)
}

const scan = (schema: Schema, text: string): Array<Item> => {
  const items: Array<Item> = []
  let buf = ""
  const flush = (): void => {
    if (buf) items.push({ kind: "text", text: buf, marks: [] })
    buf = ""
  }
  const node = (n: PMNode): void => {
    flush()
    items.push({ kind: "node", node: n, marks: [] })
  }
  // The characters the scanner acts on; the text between them is copied as one run.
  const SPECIAL = /[\\\n`$<&[!*_~]/g
  let i = 0
  while (i < text.length) {
    SPECIAL.lastIndex = i
    const special = SPECIAL.exec(text)
    const next = special === null ? text.length : special.index
    if (next > i) {
      buf += text.slice(i, next)
      i = next
      if (i >= text.length) break
    }
    const c = text[i]!
    if (c === "\\") {
      const next = text[i + 1]
      if (next === "\n") {
        node(schema.nodes.hardBreak!.create({ style: "backslash" }))
        i += 2
        while (text[i] === " " || text[i] === "\t") i++
        continue
      }
      if (next !== undefined && ASCII_PUNCT.test(next)) {
        buf += next
        i += 2
        continue
      }
      buf += c
      i++
      continue
    }
    if (c === "\n") {
      // Trailing spaces before a line break: two or more make a hard break, fewer are dropped.
      const trailing = /[ \t]*$/.exec(buf)![0]
      buf = buf.slice(0, buf.length - trailing.length)
      const lead = matchAt(/^\n[ \t]*/, text, i)![0]
      if (trailing.length >= 2 && !trailing.includes("\t")) {
        node(schema.nodes.hardBreak!.create({ style: "spaces", text: trailing }))
        i += lead.length
      } else {
        buf += "\n"
        i += lead.length
      }
      continue
    }
    if (c === "`") {
      const run = matchAt(/^`+/, text, i)![0]
      const close = run.length > maxTicks ? -1 : findBacktickClose(text, i + run.length, run.length)
      if (close < 0) {
        buf += run
        i += run.length
        continue
      }
      let content = text.slice(i + run.length, close).replace(/\n/g, " ")
      if (/^ [\s\S]* $/.test(content) && !/^ *$/.test(content)) content = content.slice(1, -1)
      flush()
      items.push({ kind: "text", text: content, marks: [schema.marks.code!.create({ ticks: run.length })] })
      i = close + run.length
      continue
    }
    if (c === "$" && text[i + 1] === "$") {
      const close = text.indexOf("$$", i + 2)
      if (close > i + 2) {
        node(schema.nodes.inlineMath!.create({ tex: text.slice(i + 2, close) }))
        i = close + 2
        continue
      }
      buf += "$$"
      i += 2
      continue
    }
    if (c === "<") {
      const auto = matchAt(AUTOLINK, text, i)
      if (auto) {
        flush()
        items.push({ kind: "text", text: auto[1]!, marks: [schema.marks.link!.create({ href: auto[1], autolink: true })] })
        i += auto[0].length
        continue
      }
      const tag = matchAt(HTML_TAG, text, i)
      if (tag) {
        if (/^<br\s*\/?>$/i.test(tag[0])) node(schema.nodes.hardBreak!.create({ style: "html", text: tag[0] }))
        else node(schema.nodes.rawInline!.create({ text: tag[0] }))
        i += tag[0].length
        continue
      }
    }
    if (c === "&") {
      const ent = matchAt(ENTITY, text, i)
      if (ent) {
        node(schema.nodes.rawInline!.create({ text: ent[0] }))
        i += ent[0].length
        continue
      }
    }
    if (c === "[" || (c === "!" && text[i + 1] === "[")) {
      const link = scanLink(schema, text, c === "!" ? i + 1 : i, c === "!")
      if (link) {
        flush()
        items.push(...link.items)
        i = link.end
        continue
      }
      buf += c
      i++
      continue
    }
    if (c === "*" || c === "_" || c === "~") {
      const run = matchAt(c === "*" ? /^\*+/ : c === "_" ? /^_+/ : /^~+/, text, i)![0]
      const before = i === 0 ? undefined : text[i - 1]
      const after = text[i + run.length]
      const left = !isWs(after) && (!isPunct(after) || isWs(before) || isPunct(before))
      const right = !isWs(before) && (!isPunct(before) || isWs(after) || isPunct(after))
      let canOpen = left
      let canClose = right
      if (c === "_") {
        canOpen = left && (!right || isPunct(before))
        canClose = right && (!left || isPunct(after))
      }
      if (c === "~" && run.length > 2) canOpen = canClose = false
      flush()
      items.push({ kind: "delim", ch: c, count: run.length, orig: run.length, canOpen, canClose, marks: [], active: true })
      i += run.length
      continue
    }
    buf += c
    i++
  }
  flush()
  return items
}

const findBacktickClose = (text: string, from: number, n: number): number => {
  const re = /`+/g
  re.lastIndex = from
  for (let m = re.exec(text); m; m = re.exec(text)) if (m[0].length === n) return m.index
  return -1
}

/** `[text](dest "title")` or `![alt](dest "title")` starting at the `[` at `open`. */
const scanLink = (schema: Schema, text: string, open: number, image: boolean): { items: Array<Item>; end: number } | undefined => {
  let depth = 0
  let i = open
  let close = -1
  while (i < text.length) {
    const c = text[i]
    if (c === "\\") {
      i += 2
      continue
    }
    if (c === "`") {
      const run = /^`+/.exec(text.slice(i))![0]
      const end = findBacktickClose(text, i + run.length, run.length)
      i = end < 0 ? i + run.length : end + run.length
      continue
    }
    if (c === "[") depth++
    if (c === "]") {
      depth--
      if (depth === 0) {
        close = i
        break
      }
    }
    i++
  }
  if (close < 0 || text[close + 1] !== "(") return undefined
  const dest = scanDestination(text, close + 2)
  if (!dest) return undefined
  const inner = text.slice(open + 1, close)
  if (image) {
    const node = schema.nodes.image!.create({ src: dest.href, alt: inner, title: dest.title, titleQuote: dest.titleQuote, angle: dest.angle })
    return { items: [{ kind: "node", node, marks: [] }], end: dest.end }
  }
  // A link holds no other link (CommonMark), but may hold an image: `[![](badge.png) Text](url)`.
  if (/(?<!!)\[[^\]]*\]\(/.test(inner)) return undefined
  const innerItems = scan(schema, inner)
  processEmphasis(schema, innerItems)
  const link = schema.marks.link!.create({ href: dest.href, title: dest.title, titleQuote: dest.titleQuote, angle: dest.angle })
  const items = innerItems.map((it) => ({ ...it, marks: link.addToSet(it.marks) }) as Item)
  if (items.length === 0) items.push({ kind: "node", node: schema.nodes.rawInline!.create({ text: "" }), marks: [link] })
  return { items, end: dest.end }
}

const scanDestination = (
  text: string,
  from: number
): { href: string; title: string | null; titleQuote: string | null; angle: boolean; end: number } | undefined => {
  let i = from
  while (text[i] === " " || text[i] === "\n") i++
  let href = ""
  let angle = false
  if (text[i] === "<") {
    let end = i + 1
    while (end < text.length && text[end] !== ">" && text[end] !== "<" && text[end] !== "\n") end += text[end] === "\\" && end + 1 < text.length && text[end + 1] !== "\n" ? 2 : 1
    if (text[end] !== ">") return undefined
    href = unescapeMd(text.slice(i + 1, end))
    angle = true
    i = end + 1
  } else {
    let parens = 0
    const start = i
    while (i < text.length) {
      const c = text[i]!
      if (c === "\\" && i + 1 < text.length && !/\s/.test(text[i + 1]!)) {
        i += 2
        continue
      }
      if (/\s/.test(c) || c.charCodeAt(0) < 32) break
      if (c === "(") parens++
      if (c === ")") {
        if (parens === 0) break
        parens--
      }
      i++
    }
    href = unescapeMd(text.slice(start, i))
  }
  let title: string | null = null
  let titleQuote: string | null = null
  const ws = /^[ \n]*/.exec(text.slice(i))![0]
  const q = text[i + ws.length]
  if (ws.length > 0 && (q === "\"" || q === "'" || q === "(")) {
    const closeCh = q === "(" ? ")" : q
    let j = i + ws.length + 1
    while (j < text.length && text[j] !== closeCh) j += text[j] === "\\" ? 2 : 1
    if (j >= text.length) return undefined
    title = text.slice(i + ws.length + 1, j)
    titleQuote = q
    i = j + 1
  }
  while (text[i] === " " || text[i] === "\n") i++
  if (text[i] !== ")") return undefined
  if (title === null && ws.length > 0 && text.slice(from, i).trim() !== href && !angle) return undefined
  return { href, title, titleQuote, angle, end: i + 1 }
}

const MARK_OF: Record<string, [string, string]> = { "*": ["italic", "bold"], _: ["italic", "bold"], "~": ["strike", "strike"] }

const processEmphasis = (schema: Schema, items: Array<Item>): void => {
  for (let c = 0; c < items.length; c++) {
    const closer = items[c]!
    if (closer.kind !== "delim" || !closer.canClose || !closer.active) continue
    while (closer.count > 0) {
      let o = c - 1
      for (; o >= 0; o--) {
        const op = items[o]!
        if (op.kind !== "delim" || !op.active || !op.canOpen || op.ch !== closer.ch || op.count === 0) continue
        if (closer.ch === "~" && op.count !== closer.count) continue
        if ((op.canClose || closer.canOpen) && (op.orig + closer.orig) % 3 === 0 && !(op.orig % 3 === 0 && closer.orig % 3 === 0))
          continue
        break
      }
      if (o < 0) {
        if (!closer.canOpen) closer.active = false
        break
      }
      const opener = items[o] as Extract<Item, { kind: "delim" }>
      const use = closer.ch === "~" ? closer.count : opener.count >= 2 && closer.count >= 2 ? 2 : 1
      const [single, double] = MARK_OF[closer.ch]!
      const mark = schema.marks[use === 2 ? double : single]!.create({ delim: closer.ch.repeat(use) })
      for (let k = o + 1; k < c; k++) {
        const it = items[k]!
        if (it.kind === "delim") it.active = false
        items[k] = { ...it, marks: mark.addToSet(it.marks) } as Item
      }
      opener.count -= use
      closer.count -= use
      if (opener.count === 0) opener.active = false
    }
  }
}

/** HTML tags read as marks: `<mark>` (GitBook's colours) and the emphasis the serializer writes as HTML where `**` cannot go. */
const TAG_MARKS: Record<string, string> = { mark: "highlight", strong: "bold", em: "italic", s: "strike" }

const pairHighlights = (schema: Schema, items: Array<Item>): void => {
  for (let i = 0; i < items.length; i++) {
    const open = items[i]!
    if (open.kind !== "node" || open.node.type.name !== "rawInline") continue
    const m = /^<(mark|strong|em|s)(\s[^>]*)?>$/.exec(open.node.attrs.text as string)
    if (!m || (m[1] !== "mark" && m[2] !== undefined)) continue
    const tag = m[1]!
    let j = i + 1
    for (; j < items.length; j++) {
      const it = items[j]!
      if (it.kind === "node" && it.node.type.name === "rawInline" && new RegExp(`^</?${tag}[\\s>]`).test(it.node.attrs.text as string)) break
    }
    const close = items[j]
    if (!close || close.kind !== "node" || !new RegExp(`^</${tag}\\s*>$`).test(close.node.attrs.text as string)) continue
    // Only tags that enclose something visible, and are not crossed by emphasis, become a mark.
    const inside = items.slice(i + 1, j)
    if (!inside.some((it) => it.kind === "node" || (it.kind === "text" ? it.text !== "" : it.count > 0)) || !sameMarks(open.marks, close.marks)) continue
    const type = TAG_MARKS[tag]!
    const mark = type === "highlight" ? schema.marks.highlight!.create({ attrs: m[2] ?? "", close: close.node.attrs.text }) : schema.marks[type]!.create({ delim: `<${tag}>` })
    for (let k = i + 1; k < j; k++) items[k] = { ...items[k]!, marks: mark.addToSet(items[k]!.marks) } as Item
    items.splice(j, 1)
    items.splice(i, 1)
    i--
  }
}

const build = (schema: Schema, items: ReadonlyArray<Item>): Array<PMNode> => {
  const out: Array<PMNode> = []
  let text = ""
  let marks: ReadonlyArray<Mark> = []
  const flush = (): void => {
    if (text) out.push(schema.text(text, marks))
    text = ""
  }
  for (const it of items) {
    const t = it.kind === "node" ? null : it.kind === "text" ? it.text : it.ch.repeat(it.count)
    if (t === null) {
      flush()
      out.push((it as Extract<Item, { kind: "node" }>).node.mark(it.marks))
      continue
    }
    if (t === "") continue
    if (text && !sameMarks(marks, it.marks)) flush()
    if (!text) marks = it.marks
    text += t
  }
  flush()
  return out
}

const sameMarks = (a: ReadonlyArray<Mark>, b: ReadonlyArray<Mark>): boolean =>
  a.length === b.length && a.every((m, i) => m.eq(b[i]!))

/** Backslash escapes in a link destination, resolved as CommonMark does. */
const unescapeMd = (s: string): string => s.replace(/\\([!-/:-@[-`{-~])/g, "$1")
