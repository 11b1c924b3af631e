/** Inline nodes and marks: the source style of each (delimiters, quoting) is an attribute. */
import { Mark, Node } from "@tiptap/core"
import { Image } from "@tiptap/extension-image"
import { safeHref } from "@quire/kernel/SafeHref"
import { attr } from "../shared/attrs.ts"

export const Text = Node.create({ name: "text", group: "inline" })

export const HardBreak = Node.create({
  name: "hardBreak",
  group: "inline",
  inline: true,
  selectable: false,
  addAttributes: () => ({ style: attr<"spaces" | "backslash" | "html">("backslash"), text: attr("") }),
  parseHTML: () => [{ tag: "br" }],
  renderHTML: () => ["br"]
})

/** Inline HTML and entities we do not model, written back as they were. */
export const RawInline = Node.create({
  name: "rawInline",
  group: "inline",
  inline: true,
  atom: true,
  addAttributes: () => ({ text: attr("") }),
  renderHTML: ({ node }) => {
    const text = node.attrs.text as string
    const entity = decodeEntity(text)
    return entity === undefined ? ["code", { "data-type": "raw-inline" }, text] : ["span", { "data-type": "entity", title: text }, entity]
  }
})

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: "\u00a0", zwj: "\u200d", zwnj: "\u200c" }

/** What an entity shows (`&#x20;` is a space); undefined for inline HTML, shown as its source. */
const decodeEntity = (text: string): string | undefined => {
  const m = /^&(?:#[xX]([0-9a-fA-F]+)|#([0-9]+)|([A-Za-z][A-Za-z0-9]*));$/.exec(text)
  if (!m) return undefined
  const code = m[1] ? Number.parseInt(m[1], 16) : m[2] ? Number.parseInt(m[2], 10) : undefined
  if (code !== undefined) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd"
  return NAMED[m[3]!]
}

export const InlineImage = Image.extend({
  inline: true,
  group: "inline",
  addAttributes() {
    return {
      ...this.parent?.(),
      src: { default: "" },
      alt: { default: "" },
      title: { default: null },
      titleQuote: attr<string | null>(null),
      angle: attr(false)
    }
  }
})

export const Link = Mark.create({
  name: "link",
  priority: 1000,
  inclusive: false,
  addAttributes: () => ({
    href: { default: "" },
    title: { default: null },
    titleQuote: attr<string | null>(null),
    angle: attr(false),
    autolink: attr(false)
  }),
  parseHTML: () => [{ tag: "a[href]" }],
  // The target stays in the mark (the markdown keeps it); the DOM's link is live only on a scheme the published site allows too.
  renderHTML: ({ HTMLAttributes }) => ["a", { ...HTMLAttributes, href: safeHref(String(HTMLAttributes["href"] ?? "")) }, 0]
})

/** An element as a parse rule sees it (this module also runs where there is no DOM). */
type Pasted = { readonly style: { readonly fontWeight: string } }
type ParseRule = { readonly tag?: string; readonly style?: string; readonly getAttrs?: (value: Pasted | string) => false | null }

const delimited = (name: string, tag: string, delim: string, alsoFrom: ReadonlyArray<ParseRule> = []) =>
  Mark.create({
    name,
    addAttributes: () => ({ delim: attr(delim) }),
    parseHTML: () => [{ tag }, ...alsoFrom],
    renderHTML: () => [tag, 0]
  })

/** `<b>` as pasted from a page or a word processor; Google Docs wraps a whole paste in a `<b style="font-weight:normal">`, which is no bold. */
const notNormalWeight = (value: Pasted | string) =>
  typeof value !== "string" && /^(normal|400)$/.test(value.style.fontWeight) ? false : null

// What other pages and editors paste as bold, italic and struck-through text, read as the same marks.
export const Bold = delimited("bold", "strong", "**", [
  { tag: "b", getAttrs: notNormalWeight },
  { style: "font-weight", getAttrs: (value) => typeof value === "string" && /^(bold(er)?|[6-9]00)$/.test(value) ? null : false }
])
export const Italic = delimited("italic", "em", "*", [{ tag: "i" }, { style: "font-style=italic" }])
export const Strike = delimited("strike", "s", "~~", [{ tag: "del" }, { tag: "strike" }, { style: "text-decoration=line-through" }])

/** GitBook's `<mark style="color:…">` text colour and highlight; the attribute text is kept as written. */
export const Highlight = Mark.create({
  name: "highlight",
  addAttributes: () => ({ attrs: attr(""), close: attr("</mark>") }),
  parseHTML: () => [{ tag: "mark" }],
  renderHTML: () => ["mark", 0]
})

export const Code = Mark.create({
  name: "code",
  code: true,
  addAttributes: () => ({ ticks: attr(1) }),
  parseHTML: () => [{ tag: "code" }],
  renderHTML: () => ["code", 0]
})

/** GitBook's inline TeX, `$$…$$`. */
export const InlineMath = Node.create({
  name: "inlineMath",
  group: "inline",
  inline: true,
  atom: true,
  addAttributes: () => ({ tex: attr("") }),
  renderHTML: ({ node }) => ["span", { "data-type": "math" }, node.attrs.tex as string]
})

export const inlineExtensions = [Text, HardBreak, RawInline, InlineImage, InlineMath, Link, Bold, Italic, Strike, Highlight, Code]
