/** Inline nodes and marks: the source style of each (delimiters, quoting) is an attribute. */
import { Mark, Node } from "@tiptap/core"
import { Image } from "@tiptap/extension-image"
import { safeHref } from "@quire/kernel/SafeHref"
import { attr, checked, is } from "../shared/attrs.ts"

/** How a link or image title was quoted: `"`, `'` or `(`. */
const isTitleQuote = is.nullable(is.oneOf("\"", "'", "("))

export const Text = Node.create({ name: "text", group: "inline" })

export const HardBreak = Node.create({
  name: "hardBreak",
  group: "inline",
  inline: true,
  selectable: false,
  addAttributes: () => ({ style: attr<"spaces" | "backslash" | "html">("backslash", is.oneOf("spaces", "backslash", "html")), text: attr("", is.string()) }),
  parseHTML: () => [{ tag: "br" }],
  renderHTML: () => ["br"]
})

/** Inline HTML and entities we do not model, written back as they were. */
export const RawInline = Node.create({
  name: "rawInline",
  group: "inline",
  inline: true,
  atom: true,
  addAttributes: () => ({ text: attr("", is.string()) }),
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
    const parent = this.parent?.()
    return {
      ...parent,
      src: { default: "", validate: is.string() },
      alt: { default: "", validate: is.string() },
      title: { default: null, validate: is.nullable(is.string()) },
      width: checked(parent, "width", is.nullable(is.either(is.number(0, 100_000), is.string(64)))),
      height: checked(parent, "height", is.nullable(is.either(is.number(0, 100_000), is.string(64)))),
      titleQuote: attr<string | null>(null, isTitleQuote),
      angle: attr(false, is.boolean)
    }
  }
})

export const Link = Mark.create({
  name: "link",
  priority: 1000,
  inclusive: false,
  addAttributes: () => ({
    href: { default: "", validate: is.string() },
    title: { default: null, validate: is.nullable(is.string()) },
    titleQuote: attr<string | null>(null, isTitleQuote),
    angle: attr(false, is.boolean),
    autolink: attr(false, is.boolean)
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
    // `**`, `__`, `<strong>`… as written.
    addAttributes: () => ({ delim: attr(delim, is.string(64)) }),
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
  addAttributes: () => ({ attrs: attr("", is.string()), close: attr("</mark>", is.string()) }),
  parseHTML: () => [{ tag: "mark" }],
  renderHTML: () => ["mark", 0]
})

/** The longest backtick run that opens a code span (a longer one is read as text). */
export const maxTicks = 1_000

export const Code = Mark.create({
  name: "code",
  code: true,
  addAttributes: () => ({ ticks: attr(1, is.int(1, maxTicks)) }),
  parseHTML: () => [{ tag: "code" }],
  renderHTML: () => ["code", 0]
})

/** GitBook's inline TeX, `$$…$$`. */
export const InlineMath = Node.create({
  name: "inlineMath",
  group: "inline",
  inline: true,
  atom: true,
  addAttributes: () => ({ tex: attr("", is.string()) }),
  renderHTML: ({ node }) => ["span", { "data-type": "math" }, node.attrs.tex as string]
})

export const inlineExtensions = [Text, HardBreak, RawInline, InlineImage, InlineMath, Link, Bold, Italic, Strike, Highlight, Code]
