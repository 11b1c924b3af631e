/**
 * A page's markdown as GitBook's JSON document (`format=document` on page reads): every block Quire
 * stores in GitBook's editor model (hints, tabs, expandables, steppers, columns, cards and tables,
 * code with its title and options, embeds, files, images with captions, math, content references,
 * OpenAPI blocks, includes, conditional blocks, integrations) with its marks and inline nodes. The
 * markdown is read with `@quire/document`'s grammar, the one the editor uses; `DocumentMarkdown.ts`
 * writes a document back.
 */
import { type BlockName, isBlockName, Syntax } from "@quire/document"
import { describeBreach, gitbookSlug, headingAnchor, headingSlugger, markdownLimitBreach } from "@quire/markdown"
import type { ContentRef } from "../domain/Revision.ts"
import {
  type DocumentRef,
  type Fragment,
  hintStyles,
  htmlMarkTags,
  type Inline,
  type JsonBlock,
  type JsonDocument,
  type Leaf,
  type Mark,
  mark,
  markColors,
  pageCodec,
  type PageNode,
  paragraph,
  type Text,
  text
} from "./GitbookModel.ts"
import { cellBlocks, decodeEntities, htmlBlock, htmlInlineNodes, readHtml } from "./GitbookHtml.ts"
import { includedId } from "./IncludeTags.ts"

export type { JsonBlock, JsonDocument } from "./GitbookModel.ts"

/** Where a link or image URL of the markdown points, as a content reference. */
export type RefResolver = (url: string, kind: "link" | "image") => ContentRef

/**
 * The id of the reusable content an include's reference names (its path as written, or
 * `/reusable-content/<id>`), undefined when it names nothing: the block is left out.
 */
export type IncludeResolver = (ref: string) => string | undefined

/** Includes by id only (`/reusable-content/<id>`). */
export const defaultIncludes: IncludeResolver = (ref) => includedId(ref.trim())

/** URLs as they are, `/files/<id>` as files. */
export const defaultRefs: RefResolver = (url) => {
  const file = /^\/files\/([^/?#]+)/.exec(url)?.[1]
  return file === undefined ? { kind: "url", url } : { kind: "file", file: decodeURIComponent(file) }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }
type Attrs = Record<string, unknown>
type Param = { readonly key: string | null; readonly value: string }

/** A URL as written; `resolveBlocks` turns it into the reference it names. */
const urlRef = (url: string, image = false): DocumentRef & { image?: true } => (image ? { kind: "url", url, image: true } : { kind: "url", url })

const param = (params: ReadonlyArray<Param>, key: string): string | undefined => params.find((p) => p.key === key)?.value
const unnamed = (params: ReadonlyArray<Param>): string | undefined => params.find((p) => p.key === null)?.value

// Inline content ---------------------------------------------------------------------------------

/** A raw inline that is one entity (`&#x3C;`), as its character; undefined for anything else. */
const decodeEntity = (raw: string): string | undefined => (/^&(?:#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);$/.test(raw) ? decodeEntities(raw) : undefined)

const ICON_OPEN = /^<i class="fa-([\w-]+)">$/
const BUTTON_OPEN = /^<a(?: href="([^"]*)")? class="button (primary|secondary)"(?: data-icon="([^"]*)")?>$/

const marksOf = (node: PageNode): Array<Mark> => {
  const out: Array<Mark> = []
  for (const m of node.marks) {
    switch (m.type.name) {
      case "bold":
        out.push(mark("bold"))
        break
      case "italic":
        out.push(mark("italic"))
        break
      case "strike":
        out.push(mark("strikethrough"))
        break
      case "code":
        out.push(mark("code"))
        break
      case "highlight":
        out.push({ object: "mark", type: "color", data: markColors(m.attrs.attrs as string) })
    }
  }
  return out
}

const rawAt = (children: ReadonlyArray<PageNode>, i: number): string | undefined =>
  children[i]?.type.name === "rawInline" ? (children[i]!.attrs.text as string) : undefined

/**
 * GitBook's image with a dark variant, `<picture><source srcset="dark" media="(prefers-color-scheme:
 * dark)"><img src="light" alt="…"></picture>`: an inline image with `refDark`.
 */
const pictureAt = (children: ReadonlyArray<PageNode>, i: number): { image: Inline; end: number } | undefined => {
  if (rawAt(children, i) !== "<picture>" || rawAt(children, i + 3) !== "</picture>") return undefined
  if (!/^<source\s/.test(rawAt(children, i + 1) ?? "") || !/^<img\s/.test(rawAt(children, i + 2) ?? "")) return undefined
  const nodes = readHtml([0, 1, 2, 3].map((k) => rawAt(children, i + k)!).join(""))
  const image = nodes === undefined ? undefined : htmlInlineNodes(nodes, urlRef)[0]
  return image?.object === "inline" && image.type === "inline-image" && image.data["refDark"] !== undefined ? { image, end: i + 4 } : undefined
}

/**
 * Marks GitBook writes as inline HTML, open from their tag to its end tag: keyboard keys,
 * superscripts and subscripts, and in a table's cell code, bold and italics (where a `|` or a line
 * break would end the cell).
 */
const inlineMarkTags: Readonly<Record<string, Exclude<Mark["type"], "color">>> = {
  ...htmlMarkTags,
  code: "code",
  strong: "bold",
  em: "italic",
  s: "strikethrough",
  del: "strikethrough"
}

/** Inline HTML elements GitBook writes that are inline nodes: buttons with an action, emoji, links. */
const HTML_INLINE_OPEN = /^<(button|span|a)\s[^<>]*(?:data-action=|data-tag="emoji"|href=)[^<>]*>$/

/**
 * At `children[i]`, an inline element GitBook writes as HTML (`<button data-action="ask">Ask</button>`,
 * `<span data-tag="emoji" …>`) whose end tag follows with only text between: its inline nodes and the
 * index after it.
 */
const htmlInlineAt = (children: ReadonlyArray<PageNode>, i: number): { readonly nodes: Array<Text | Inline>; readonly end: number } | undefined => {
  // An image written as HTML (`<img … data-size="line">`): GitBook's inline image.
  if (/^<img\s[^<>]*>$/.test(rawAt(children, i) ?? "")) {
    const nodes = readHtml(rawAt(children, i)!)
    const inline = nodes === undefined ? [] : htmlInlineNodes(nodes, urlRef).filter((node): node is Inline => node.object === "inline")
    return inline.length === 1 ? { nodes: inline, end: i + 1 } : undefined
  }
  const open = HTML_INLINE_OPEN.exec(rawAt(children, i) ?? "")
  if (open === null) return undefined
  let html = rawAt(children, i)!
  for (let j = i + 1; j < children.length && j < i + 8; j++) {
    const child = children[j]!
    if (child.type.name === "text") html += child.text ?? ""
    else if (rawAt(children, j) === `</${open[1]}>`) {
      const nodes = readHtml(`${html}</${open[1]}>`)
      if (nodes === undefined) return undefined
      const inline = htmlInlineNodes(nodes, urlRef).filter((node): node is Inline => node.object === "inline")
      return inline.length === 1 ? { nodes: inline, end: j + 1 } : undefined
    } else return undefined
  }
  return undefined
}

const linkOf = (node: PageNode) => node.marks.find((m) => m.type.name === "link")

/** Adjacent leaves of the same marks as one, as GitBook keeps a text. */
const mergedLeaves = (leaves: ReadonlyArray<Leaf>): Array<Leaf> => {
  const out: Array<Leaf> = []
  for (const leaf of leaves) {
    const last = out.at(-1)
    if (last !== undefined && JSON.stringify(last.marks) === JSON.stringify(leaf.marks)) out[out.length - 1] = { ...last, text: last.text + leaf.text }
    else if (leaf.text !== "" || leaves.length === 1) out.push(leaf)
  }
  return out.length === 0 ? [{ object: "leaf", text: "", marks: [] }] : out
}

/** The inline content of a text block: texts (adjacent ones as the leaves of one), links, mentions, images, math, icons. */
export const inlines = (content: PageNode): Array<Text | Inline> => {
  const out: Array<Text | Inline> = []
  let leaves: Array<Leaf> = []
  const flush = (into: Array<Text | Inline>) => {
    if (leaves.length > 0) into.push({ object: "text", leaves: mergedLeaves(leaves) })
    leaves = []
  }
  const children: Array<PageNode> = []
  content.forEach((child) => void children.push(child))
  // Marks GitBook writes as inline HTML (`<kbd>`), open from their tag to its end tag.
  const open: Array<Mark> = []
  const single = (child: PageNode, into: Array<Text | Inline>, i: number): number => {
    const marks = open.length === 0 ? marksOf(child) : [...marksOf(child), ...open]
    switch (child.type.name) {
      case "text":
        leaves.push({ object: "leaf", text: child.text ?? "", marks })
        return i + 1
      case "hardBreak":
        leaves.push({ object: "leaf", text: "\n", marks })
        return i + 1
      case "inlineMath":
        flush(into)
        into.push({ object: "inline", type: "inline-math", isVoid: true, data: { formula: child.attrs.tex as string } })
        return i + 1
      case "image": {
        flush(into)
        const alt = child.attrs.alt as string
        const title = child.attrs.title as string | null
        into.push({
          object: "inline",
          type: "inline-image",
          isVoid: true,
          data: { ref: urlRef(child.attrs.src as string, true), ...(alt === "" ? {} : { alt }), ...(title === null ? {} : { caption: title }) }
        })
        return i + 1
      }
      case "rawInline": {
        const raw = child.attrs.text as string
        // A line break written as HTML, as a hard break.
        if (/^<br\s*\/?>$/i.test(raw)) {
          leaves.push({ object: "leaf", text: "\n", marks })
          return i + 1
        }
        const tag = /^<(\/?)(kbd|sup|sub|code|strong|em|s|del)>$/.exec(raw)
        if (tag !== null) {
          if (tag[1] === "") open.push(mark(inlineMarkTags[tag[2]!]!))
          else {
            const at = open.findLastIndex((m) => m.type === inlineMarkTags[tag[2]!])
            if (at >= 0) open.splice(at, 1)
          }
          return i + 1
        }
        const picture = pictureAt(children, i)
        if (picture !== undefined) {
          flush(into)
          into.push(picture.image)
          return picture.end
        }
        const button = BUTTON_OPEN.exec(raw)
        const label = children[i + 1]?.type.name === "text" ? children[i + 1]!.text ?? "" : undefined
        const buttonEnd = label === undefined ? i + 1 : i + 2
        if (button !== null && rawAt(children, buttonEnd) === "</a>") {
          flush(into)
          into.push({
            object: "inline",
            type: "button",
            isVoid: true,
            // Without an `href`, GitBook's inactive button: drawn disabled, no target (GitBook's own docs show one).
            data: { label: label ?? "", kind: button[2]!, ...(button[1] === undefined ? {} : { ref: urlRef(button[1]) }), ...(button[3] === undefined ? {} : { icon: button[3] }) }
          })
          return buttonEnd + 1
        }
        const element = htmlInlineAt(children, i)
        if (element !== undefined) {
          flush(into)
          into.push(...element.nodes)
          return element.end
        }
        const icon = ICON_OPEN.exec(raw)
        const next = children[i + 1]
        if (icon && next?.type.name === "text" && next.text === `:${icon[1]}:` && children[i + 2]?.type.name === "rawInline" && children[i + 2]!.attrs.text === "</i>") {
          flush(into)
          into.push({ object: "inline", type: "icon", isVoid: true, data: { icon: icon[1]! } })
          return i + 3
        }
        leaves.push({ object: "leaf", text: decodeEntity(raw) ?? raw, marks })
        return i + 1
      }
      default:
        leaves.push({ object: "leaf", text: child.textContent, marks })
        return i + 1
    }
  }
  let i = 0
  while (i < children.length) {
    const link = linkOf(children[i]!)
    if (link === undefined) {
      i = single(children[i]!, out, i)
      continue
    }
    flush(out)
    const inner: Array<Text | Inline> = []
    let j = i
    while (j < children.length && linkOf(children[j]!)?.eq(link) === true) j = single(children[j]!, inner, j)
    flush(inner)
    const href = link.attrs.href as string
    const ref = urlRef(href)
    if (link.attrs.title === "mention") out.push({ object: "inline", type: "mention", isVoid: true, data: { ref } })
    else out.push({ object: "inline", type: "link", isVoid: false, data: { ref }, nodes: inner.length === 0 ? [text(href)] : inner })
    i = j
  }
  flush(out)
  return out.length === 0 ? [text("")] : withFootnotes(out)
}

// Footnotes --------------------------------------------------------------------------------------

const FOOTNOTE_REF = /\[\^([^\]\s]+)\]/
const FOOTNOTE_LINK = "#user-content-fn-"
/** The name of the fragment of an annotation read from footnote `label` (its label, for writing it back). */
export const footnoteFragment = (label: string): string => `footnote-${label}`

/** GitBook's annotation of `nodes` by footnote `label`; its body (the definition's blocks) is filled by `jsonDocumentBuilder`. */
const annotation = (nodes: ReadonlyArray<Text>, label: string): Inline => ({
  object: "inline",
  type: "annotation",
  isVoid: false,
  data: {},
  nodes,
  fragments: [{ object: "fragment", fragment: footnoteFragment(label), type: "annotation-body", nodes: [] }]
})

/**
 * Footnote references as GitBook's annotations: GitBook writes an annotation as a link to its
 * footnote followed by the reference (`[words](#user-content-fn-1)[^1]`), and reads a reference
 * written after a word (`word[^1]`) as that word's. A reference after no word stays text.
 */
const withFootnotes = (nodes: Array<Text | Inline>): Array<Text | Inline> => {
  if (!nodes.some((n) => n.object === "text" && n.leaves.some((l) => l.text.includes("[^")))) return nodes
  const out: Array<Text | Inline> = []
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!
    const next = nodes[i + 1]
    const ref = node.object === "inline" && node.type === "link" ? (node.data["ref"] as { url?: string }).url : undefined
    const label = next?.object === "text" ? FOOTNOTE_REF.exec(next.leaves[0]!.text) : null
    if (ref?.startsWith(FOOTNOTE_LINK) === true && label !== null && label.index === 0 && node.object === "inline" && (node.nodes ?? []).every((n) => n.object === "text")) {
      out.push(annotation(node.nodes as ReadonlyArray<Text>, label[1]!))
      const [first, ...rest] = (next as Text).leaves
      const remaining = [{ ...first!, text: first!.text.slice(label[0].length) }, ...rest].filter((l) => l.text !== "")
      if (remaining.length > 0) nodes[i + 1] = { object: "text", leaves: remaining }
      else i++
      continue
    }
    if (node.object !== "text") {
      out.push(node)
      continue
    }
    let leaves: Array<Leaf> = []
    for (const leaf of node.leaves) {
      let rest = leaf.text
      // (Code is as written: `a[^1]` there is no reference.)
      const code = leaf.marks.some((m) => m.type === "code")
      for (let m = code ? null : FOOTNOTE_REF.exec(rest); m !== null; m = FOOTNOTE_REF.exec(rest)) {
        const before = rest.slice(0, m.index)
        const word = /\S+$/.exec(before)?.[0]
        if (word === undefined) {
          leaves.push({ ...leaf, text: rest.slice(0, m.index + m[0].length) })
        } else {
          const lead = before.slice(0, before.length - word.length)
          if (lead !== "") leaves.push({ ...leaf, text: lead })
          if (leaves.length > 0) out.push({ object: "text", leaves })
          leaves = []
          out.push(annotation([{ object: "text", leaves: [{ ...leaf, text: word }] }], m[1]!))
        }
        rest = rest.slice(m.index + m[0].length)
      }
      if (rest !== "") leaves.push({ ...leaf, text: rest })
    }
    if (leaves.length > 0) out.push({ object: "text", leaves: mergedLeaves(leaves) })
  }
  return out
}

const FOOTNOTE_DEFINITION = /^\[\^([^\]\s]+)\]:[ \t]?(.*)$/
/** A line of a footnote's further blocks: indented by four spaces or a tab (blank lines between them). */
const FOOTNOTE_INDENT = /^(?: {4}|\t)/

const sourceOf = (node: PageNode): string => (node.attrs["source"] as string | null | undefined) ?? node.textContent

/** Whether a top-level node is a paragraph of footnote definitions, the first line one. */
const definesFootnotes = (node: PageNode): boolean => node.type.name === "paragraph" && FOOTNOTE_DEFINITION.test(sourceOf(node).split("\n", 1)[0]!)

/** Whether a top-level node goes on with the footnote before it: every line indented (GFM's further paragraphs of a footnote). */
const continuesFootnote = (node: PageNode): boolean => sourceOf(node).split("\n").every((line) => line.trim() === "" || FOOTNOTE_INDENT.test(line))

/**
 * Footnote definitions (`[^1]: words`, a line each, their next lines going on with them, and the
 * indented blocks after one its further paragraphs): GitBook has no block for them, they are its
 * annotations' bodies. Read as a block that `jsonDocumentBuilder` leaves out, handing each
 * definition to the annotations of its label.
 */
const footnotesOf = (nodes: ReadonlyArray<PageNode>, codec: Codec): JsonBlock => {
  const definitions: Array<FootnoteDefinition> = []
  const lines = nodes.map(sourceOf).join("").replace(/\n+$/, "").split("\n")
  for (let i = 0; i < lines.length;) {
    const m = FOOTNOTE_DEFINITION.exec(lines[i]!)!
    let end = i + 1
    while (end < lines.length && !FOOTNOTE_DEFINITION.test(lines[end]!)) end++
    const own = lines.slice(i, end)
    const blank = own.findIndex((line) => line.trim() === "")
    const first = [m[2]!, ...own.slice(1, blank === -1 ? own.length : blank).map((line) => line.trimStart())].join("\n")
    const further: Array<JsonBlock> = []
    if (blank !== -1) codec.parse(`${own.slice(blank).map((line) => line.replace(FOOTNOTE_INDENT, "")).join("\n")}\n`).forEach((child) => void further.push(...blockOf(child, codec)))
    const body = first === "" && further.length > 0 ? further : [paragraph(inlinesOfText(first, codec)), ...further]
    definitions.push([m[1]!, body, own.join("\n")])
    i = end
  }
  return { object: "block", type: FOOTNOTES, data: { definitions } }
}

/** The type of the block of footnote definitions between `pieceBlocks` and the document (never in a document). */
export const FOOTNOTES = "quire-footnotes"

/** A footnote definition as read: its label, its body, its text as written (its line, and the indented blocks after it). */
export type FootnoteDefinition = readonly [label: string, body: ReadonlyArray<JsonBlock>, text: string]

/** A run of a page's top-level nodes and the blocks it reads as (see `pageBlocks`). */
export interface NodeBlocks {
  readonly nodes: ReadonlyArray<PageNode>
  readonly blocks: Array<JsonBlock>
}

/**
 * A page's top-level nodes as GitBook's blocks (references as written), a node at a time, but
 * footnote definitions with the indented blocks that go on with them and the definitions right
 * after those (no blank line between) as one run: their `FOOTNOTES` block.
 */
export const pageBlocks = (doc: PageNode, codec: Codec): Array<NodeBlocks> => {
  const children: Array<PageNode> = []
  doc.forEach((child) => void children.push(child))
  const out: Array<NodeBlocks> = []
  for (let i = 0; i < children.length; i++) {
    if (!definesFootnotes(children[i]!)) {
      out.push({ nodes: [children[i]!], blocks: blockOf(children[i]!, codec) })
      continue
    }
    let end = i + 1
    while (end < children.length && (continuesFootnote(children[end]!) || (definesFootnotes(children[end]!) && !/\n[ \t]*\n$/.test(sourceOf(children[end - 1]!))))) end++
    const nodes = children.slice(i, end)
    out.push({ nodes, blocks: [footnotesOf(nodes, codec)] })
    i = end - 1
  }
  return out
}

// Blocks -----------------------------------------------------------------------------------------

const isImage = (node: PageNode): boolean => node.type.name === "image"
const isSpace = (node: PageNode): boolean => (node.type.name === "text" && (node.text ?? "").trim() === "") || node.type.name === "hardBreak"

/** A paragraph of images only (and the spaces between them): GitBook's `images` block. */
const imagesOf = (node: PageNode): JsonBlock | undefined => {
  const children: Array<PageNode> = []
  node.forEach((child) => void children.push(child))
  const images = children.filter(isImage)
  if (images.length === 0 || !children.every((c) => isImage(c) || isSpace(c)) || children.some((c) => c.marks.length > 0)) return undefined
  return {
    object: "block",
    type: "images",
    isVoid: false,
    data: {},
    nodes: images.map((image) => {
      const alt = image.attrs.alt as string
      const title = image.attrs.title as string | null
      return {
        object: "block",
        type: "image",
        isVoid: true,
        data: { ref: urlRef(image.attrs.src as string, true), ...(alt === "" ? {} : { alt }) },
        fragments: title === null ? [] : [{ object: "fragment", fragment: "caption", nodes: [paragraph([text(title)])] }]
      }
    })
  }
}

/** A heading's words, as its id is made of: without GitBook's tags (markup, not words), on one line. */
const headingText = (node: PageNode): string => {
  const text = node.textContent
  let out = ""
  let at = 0
  for (const tag of Syntax.scanTags(text)) {
    out += text.slice(at, tag.start)
    at = tag.end
  }
  return (out + text.slice(at)).replace(/\s+/g, " ").trim()
}

const lengthOf = (value: string): number | { unit: string; value: number } | undefined => {
  const m = /^(\d+(?:\.\d+)?)(%|px)?$/.exec(value.trim())
  if (!m) return undefined
  return m[2] === undefined ? Number(m[1]) : { unit: m[2], value: Number(m[1]) }
}

/** The blocks of a caption's or a cell's HTML (`<p>…</p>` paragraphs, inline HTML read as marks and links). */
/** HTML of a caption or a card's cell as GitBook's blocks (`GitbookHtml`); what it cannot read, one paragraph of its text. */
const htmlParagraphs = (html: string): Array<JsonBlock> => cellBlocks(html, urlRef) ?? [paragraph([text(decodeEntities(html))])]

/** Column types of cards' `data-type`. */
const COLUMN_TYPES = new Set(["content-ref", "files", "number", "checkbox", "rating", "select", "users", "image"])

const htmlAttr = (attrs: string, name: string): string | null | undefined => {
  const m = new RegExp(`\\s${name}(?:="([^"]*)")?(?=\\s|$)`).exec(attrs)
  return m === null ? undefined : m[1] ?? null
}

/** A select column's header as GitBook writes it: `<select multiple?>` and its `<option value label color>`s. */
const SELECT_COLUMN = /^<select( multiple)?>((?:<option [^<>]*><\/option>)*)<\/select>$/
const SELECT_OPTION = /<option value="([^"]*)" label="([^"]*)" color="([^"]*)"><\/option>/g

const selectColumn = (label: string): Attrs | undefined => {
  const select = SELECT_COLUMN.exec(label)
  if (select === null) return undefined
  const options = Array.from(select[2]!.matchAll(SELECT_OPTION), (m) => ({ value: decodeEntities(m[1]!), label: decodeEntities(m[2]!), color: decodeEntities(m[3]!) }))
  return { title: "", type: "select", multiple: select[1] !== undefined, options }
}

/** Cards (`<table data-view="cards">`): GitBook's `table` block with a cards view. */
const cardsOf = (node: PageNode): JsonBlock => {
  const columns = node.attrs.columns as ReadonlyArray<{ readonly attrs: string; readonly label: string }>
  const rows = node.attrs.rows as ReadonlyArray<ReadonlyArray<string>>
  const tableAttrs = node.attrs.tableAttrs as string
  const ids = columns.map((_, k) => `c${k}`)
  const definition: Record<string, Attrs> = {}
  let targetDefinition: string | undefined
  let coverDefinition: string | undefined
  let coverDefinitionDark: string | undefined
  const view: Attrs = { type: "cards", columns: ids.filter((_, k) => htmlAttr(columns[k]!.attrs, "data-hidden") === undefined), cardSize: htmlAttr(tableAttrs, "data-card-size") === "large" ? "large" : "medium" }
  columns.forEach((column, k) => {
    const type = htmlAttr(column.attrs, "data-type")
    const kind = type != null && COLUMN_TYPES.has(type) ? type : "text"
    // A column of GitBook's tags: its options, each cell the ids of those it shows (`<span data-option>`).
    const select = kind === "text" || kind === "select" ? selectColumn(column.label) : undefined
    definition[ids[k]!] = select !== undefined
      ? { id: ids[k], ...select }
      : kind === "text" ? { id: ids[k], title: column.label, type: "text", textAlignment: "left" } : { id: ids[k], title: column.label, type: kind }
    if (htmlAttr(column.attrs, "data-card-target") !== undefined) targetDefinition = ids[k]
    if (htmlAttr(column.attrs, "data-card-cover") !== undefined) coverDefinition = ids[k]
    if (htmlAttr(column.attrs, "data-card-cover-dark") !== undefined) coverDefinitionDark = ids[k]
  })
  if (targetDefinition !== undefined) view["targetDefinition"] = targetDefinition
  if (coverDefinition !== undefined) view["coverDefinition"] = coverDefinition
  if (coverDefinitionDark !== undefined) view["coverDefinitionDark"] = coverDefinitionDark
  if (htmlAttr(tableAttrs, "data-column-title-hidden") !== undefined) view["hideColumnTitle"] = true
  const fragments: Array<Fragment> = []
  const records: Record<string, Attrs> = {}
  rows.forEach((row, r) => {
    const values: Attrs = {}
    row.forEach((cell, k) => {
      const id = ids[k]
      if (id === undefined) return
      const type = (definition[id]!["type"] as string)
      const href = /^<a href="([^"]*)">[\s\S]*<\/a>$/.exec(cell)?.[1]
      if (type === "content-ref" && href !== undefined) values[id] = urlRef(href)
      else if (type === "files" && href !== undefined) values[id] = [urlRef(href, true)]
      // An image (a card's cover): GitBook's image record, a file's or a URL's reference (`resolveRecords`).
      else if (type === "image") values[id] = href === undefined ? null : urlRef(href, true)
      else if (type === "content-ref" || type === "files") values[id] = cell === "" ? null : cell
      else if (type === "select") values[id] = Array.from(cell.matchAll(/<span data-option="([^"]*)">/g), (m) => decodeEntities(m[1]!))
      else {
        const fragment = `r${r}${id}`
        fragments.push({ object: "fragment", fragment, nodes: htmlParagraphs(cell) })
        values[id] = fragment
      }
    })
    records[`r${r}`] = { orderIndex: `a${r.toString(36).padStart(4, "0")}`, values }
  })
  const fullWidth = htmlAttr(tableAttrs, "data-full-width")
  return {
    object: "block",
    type: "table",
    isVoid: true,
    data: { view, records, definition, ...(fullWidth === undefined ? {} : { fullWidth: fullWidth === "true" }) },
    fragments
  }
}

const ALIGN = (delimiter: string): string => (delimiter.startsWith(":") && delimiter.endsWith(":") ? "center" : delimiter.endsWith(":") ? "right" : "left")

/** A markdown table: GitBook's `table` block with a grid view; each cell is a fragment. */
const tableOf = (node: PageNode): JsonBlock => {
  const delimiters = node.attrs.delimiters as ReadonlyArray<string>
  const rows: Array<PageNode> = []
  node.forEach((row) => void rows.push(row))
  const header = rows[0]!
  const ids = Array.from({ length: header.childCount }, (_, k) => `c${k}`)
  const definition: Record<string, Attrs> = {}
  ids.forEach((id, k) => {
    definition[id] = { id, title: header.child(k).textContent, type: "text", textAlignment: ALIGN(delimiters[k] ?? "") }
  })
  const fragments: Array<Fragment> = []
  // The header's cells too: their marks and links are the column titles' words.
  ids.forEach((id, k) => fragments.push({ object: "fragment", fragment: `h${id}`, nodes: [paragraph(inlines(header.child(k).firstChild!))] }))
  const records: Record<string, Attrs> = {}
  rows.slice(1).forEach((row, r) => {
    const values: Attrs = {}
    ids.forEach((id, k) => {
      const fragment = `r${r}${id}`
      const cell = row.maybeChild(k)
      fragments.push({ object: "fragment", fragment, nodes: cell?.firstChild ? cellParagraphs(cell.firstChild) : [paragraph([])] })
      values[id] = fragment
    })
    records[`r${r}`] = { orderIndex: `a${r.toString(36).padStart(4, "0")}`, values }
  })
  return { object: "block", type: "table", isVoid: true, data: { view: { type: "grid", columns: ids, hideHeader: false }, records, definition }, fragments }
}

/** Tags GitBook writes inside a markdown table's cell to hold several paragraphs or a list. */
const CELL_TAG = /^<(\/?)(p|ul|ol|li)>$/

/**
 * A markdown table cell's content as GitBook's blocks: GitBook writes a cell of several paragraphs or
 * a list as `<p>…</p><p>…</p>` or `<ul><li>…</li></ul>` around markdown; each is its block.
 */
const cellParagraphs = (content: PageNode): Array<JsonBlock> => {
  const children: Array<PageNode> = []
  content.forEach((child) => void children.push(child))
  if (!children.some((child) => child.type.name === "rawInline" && CELL_TAG.test(child.attrs.text as string))) return [paragraph(inlines(content))]
  const out: Array<JsonBlock> = []
  let run: Array<PageNode> = []
  let list: { type: "list-unordered" | "list-ordered"; items: Array<JsonBlock> } | undefined
  const flush = () => {
    const words = run.some((child) => child.type.name !== "text" || (child.text ?? "").trim() !== "")
    if (words) {
      const block = paragraph(inlines(content.type.create(content.attrs, run)))
      if (list === undefined) out.push(block)
      else list.items.push({ object: "block", type: "list-item", nodes: [block] })
    }
    run = []
  }
  for (const child of children) {
    const tag = child.type.name === "rawInline" ? CELL_TAG.exec(child.attrs.text as string) : null
    if (tag === null) {
      run.push(child)
      continue
    }
    flush()
    const [, close, name] = tag as unknown as [string, string, string]
    if ((name === "ul" || name === "ol") && close === "") list = { type: name === "ol" ? "list-ordered" : "list-unordered", items: [] }
    else if ((name === "ul" || name === "ol") && list !== undefined) {
      out.push({ object: "block", type: list.type, ...(list.type === "list-ordered" ? { data: {} } : {}), nodes: list.items.length === 0 ? [{ object: "block", type: "list-item", nodes: [paragraph([])] }] : list.items })
      list = undefined
    }
  }
  flush()
  if (list !== undefined) out.push({ object: "block", type: list.type, nodes: list.items })
  return out.length === 0 ? [paragraph([])] : out
}

const codeOf = (node: PageNode): JsonBlock => {
  const wrapper = (node.attrs.wrapper as ReadonlyArray<Param> | null) ?? []
  const data: Attrs = {}
  const language = (node.attrs.language as string).trim()
  if (language !== "") data["syntax"] = language
  const title = param(wrapper, "title")
  if (title !== undefined) data["title"] = title
  const overflow = param(wrapper, "overflow")
  if (overflow === "wrap" || overflow === "scroll") data["overflow"] = overflow
  for (const flag of ["lineNumbers", "fullWidth", "expandable"]) {
    const value = param(wrapper, flag)
    if (value === "true" || value === "false") data[flag] = value === "true"
  }
  const body = node.textContent
  return {
    object: "block",
    type: "code",
    data,
    nodes: body.split("\n").map((line): JsonBlock => ({ object: "block", type: "code-line", data: {}, nodes: [text(line)] }))
  }
}

/** Children of a container node as blocks. */
const childBlocks = (node: PageNode, codec: Codec): Array<JsonBlock> => {
  const out: Array<JsonBlock> = []
  node.forEach((child) => void out.push(...blockOf(child, codec)))
  return out.length === 0 ? [paragraph([])] : out
}

type Codec = ReturnType<typeof pageCodec>

/** A raw slice: GitBook blocks the editor keeps as written (conditional blocks, OpenAPI schemas, swagger, integrations). */
const rawOf = (raw: string, codec: Codec): Array<JsonBlock> => {
  const lines = raw.split("\n")
  const tag = Syntax.readTag(lines[0]!)
  if (tag !== undefined && tag.start === 0 && tag.end === lines[0]!.length) {
    const params = tag.params ?? []
    const last = lines.at(-1)!
    const closed = lines.length > 1 && Syntax.readTag(last)?.closes === tag.name
    const body = closed ? lines.slice(1, -1).join("\n") : ""
    switch (tag.name) {
      case "if":
        if (closed) {
          const inner: Array<JsonBlock> = []
          codec.parse(body === "" ? "" : `${body}\n`).forEach((child) => void inner.push(...blockOf(child, codec)))
          return [{ object: "block", type: "if", isVoid: false, data: { expression: tag.args }, nodes: inner.length ? inner : [paragraph([])] }]
        }
        break
      // A prompt to copy or open in an AI provider: GitBook's prompt block around its one code block.
      case "prompt": {
        const description = param(params, "description")
        if (!closed || description === undefined) break
        const inner = codec.parse(body === "" ? "" : `${body}\n`)
        if (inner.childCount !== 1 || inner.firstChild!.type.name !== "codeBlock") break
        const data: Attrs = { description }
        const icon = param(params, "icon")
        if (icon !== undefined && icon !== "") data["icon"] = icon
        const open = param(params, "openInAIProviders")
        if (open === "true" || open === "false") data["openInAIProviders"] = open === "true"
        const expanded = param(params, "defaultExpanded")
        if (expanded === "hidden" || expanded === "partial" || expanded === "full") data["defaultExpanded"] = expanded
        return [{ object: "block", type: "prompt", isVoid: false, data, nodes: [codeOf(inner.firstChild!)] }]
      }
      // A changelog: GitBook's updates block, one update a date.
      case "updates": {
        const updates = closed ? updatesOf(body, codec) : undefined
        if (updates === undefined) break
        const format = param(params, "format")
        return [{ object: "block", type: "updates", isVoid: false, data: { format: format === "numeric" || format === "short" ? format : "full" }, nodes: updates }]
      }
      // GitBook's older spelling of an OpenAPI operation from a spec's URL: its swagger block.
      case "openapi":
      case "swagger": {
        const src = param(params, "src")
        if (src !== undefined) {
          const data: Attrs = { ref: urlRef(src), path: param(params, "path") ?? "", method: param(params, "method") ?? "get" }
          if (param(params, "expanded") === "true") data["expanded"] = true
          return [{ object: "block", type: "swagger", isVoid: true, data }]
        }
        break
      }
      case "openapi-schemas": {
        const spec = param(params, "spec")
        if (spec !== undefined) {
          const data: Attrs = { ref: { kind: "openapi", spec }, schemas: (param(params, "schemas") ?? "").split(",").filter((s) => s !== "") }
          const grouped = param(params, "grouped")
          if (grouped === "true" || grouped === "false") data["grouped"] = grouped === "true"
          return [{ object: "block", type: "openapi-schemas", isVoid: true, data }]
        }
        break
      }
      case "openapi-webhook": {
        const spec = param(params, "spec")
        if (spec !== undefined) {
          return [{ object: "block", type: "openapi-webhook", isVoid: true, data: { ref: { kind: "openapi", spec }, name: param(params, "name") ?? "", method: param(params, "method") ?? "post" } }]
        }
        break
      }
      default:
        if (tag.name.startsWith("@") && lines.length === 1 && tag.params !== undefined) {
          const [integration, block] = tag.name.slice(1).split("/") as [string, string | undefined]
          const props: Attrs = {}
          for (const p of params) if (p.key !== null) props[p.key] = p.value
          return [{ object: "block", type: "integration", isVoid: true, data: { integration, block: block ?? integration, props } }]
        }
    }
  }
  // The HTML GitBook writes (figures framed or aligned, aligned paragraphs and headings, `<pre>`,
  // tables, hints): its blocks. Other HTML and syntax GitBook has no block for: its text, as a
  // reader of the markdown sees it.
  return htmlBlock(raw, urlRef) ?? [paragraph([text(raw)])]
}

/**
 * The `{% update date="…" %}` … `{% endupdate %}` blocks of an updates block's body, each GitBook's
 * update of its date and blocks; undefined when the body holds anything else.
 */
const updatesOf = (body: string, codec: Codec): Array<JsonBlock> | undefined => {
  const out: Array<JsonBlock> = []
  let open: { date: string; lines: Array<string> } | undefined
  for (const line of body.split("\n")) {
    const tag = Syntax.readTag(line)
    const whole = tag !== undefined && tag.start === 0 && tag.end === line.length
    if (open === undefined) {
      if (line.trim() === "") continue
      const date = whole && tag.name === "update" ? param(tag.params ?? [], "date") : undefined
      if (date === undefined) return undefined
      open = { date, lines: [] }
    } else if (whole && tag.closes === "update") {
      const inner: Array<JsonBlock> = []
      codec.parse(open.lines.length === 0 ? "" : `${open.lines.join("\n")}\n`).forEach((child) => void inner.push(...blockOf(child, codec)))
      out.push({ object: "block", type: "update", isVoid: false, data: { date: open.date }, nodes: inner.length === 0 ? [paragraph([])] : inner })
      open = undefined
    } else open.lines.push(line)
  }
  return open === undefined && out.length > 0 ? out : undefined
}

/**
 * GitBook's heading block of a markdown heading's level: GitBook writes its heading-1, 2 and 3 as
 * `##`, `###` and `####` (`#` is the page's title), so `##` is heading-1; a `#` in the body is
 * heading-1 too and one deeper than `####` heading-3, as GitBook has no other (`DocumentMarkdown.ts`
 * writes them back as `##`, `###` and `####`).
 */
export const headingType = (level: number): "heading-1" | "heading-2" | "heading-3" =>
  level <= 2 ? "heading-1" : level === 3 ? "heading-2" : "heading-3"

/** A block's GitBook JSON form: the page codec's node as GitBook's blocks (none for frontmatter, several for a legacy table). */
type JsonForm = (node: PageNode, codec: Codec) => Array<JsonBlock>

const paramsOf = (node: PageNode): ReadonlyArray<Param> => (node.attrs.params as ReadonlyArray<Param> | undefined) ?? []

const listOf: JsonForm = (node, codec) => {
  const type = node.type.name === "taskList" ? "list-tasks" : node.type.name === "orderedList" ? "list-ordered" : "list-unordered"
  const start = node.type.name === "orderedList" ? (node.attrs.start as number | null) ?? 1 : 1
  const items: Array<JsonBlock> = []
  node.forEach((item) => {
    items.push({
      object: "block",
      type: "list-item",
      ...(item.type.name === "taskItem" ? { data: { checked: item.attrs.checked === true } } : {}),
      nodes: childBlocks(item, codec)
    })
  })
  return [{ object: "block", type, ...(type === "list-ordered" ? { data: start === 1 ? {} : { start } } : {}), nodes: items }]
}

/** Tabs, a stepper or columns: GitBook's block of that name holding its items. */
const groupOf: JsonForm = (node, codec) => {
  const items: Array<JsonBlock> = []
  node.forEach((child) => {
    const p = child.attrs.params as ReadonlyArray<Param>
    const data: Attrs = {}
    if (node.type.name === "tabs") data["title"] = param(p, "title") ?? ""
    if (node.type.name === "columns") {
      const width = param(p, "width")
      const size = width === undefined ? undefined : lengthOf(width)
      if (size !== undefined) data["width"] = size
      const valign = param(p, "valign")
      if (valign !== undefined) data["verticalAlignment"] = valign
    }
    const type = node.type.name === "tabs" ? "tabs-item" : node.type.name === "stepper" ? "stepper-step" : "column"
    items.push({ object: "block", type, isVoid: false, data, nodes: childBlocks(child, codec) })
  })
  const fullWidth = param(paramsOf(node), "fullWidth")
  return [{ object: "block", type: node.type.name, isVoid: false, data: fullWidth === undefined ? {} : { fullWidth: fullWidth === "true" }, nodes: items }]
}

/** Every block's GitBook JSON form, keyed by the registry's names: a block without one does not compile. */
const jsonForms: { readonly [K in BlockName]: JsonForm } = {
  // (Footnote definitions are the page's, at its top level (`pageBlocks`); in a list or a block they are its words.)
  paragraph: (node) => [imagesOf(node) ?? paragraph(inlines(node))],
  heading: (node) => {
    const anchor = node.attrs.anchor as string | null
    return [{
      object: "block",
      type: headingType(node.attrs.level as number),
      // The heading's words and its custom anchor, until the document's anchors are given out (`jsonDocumentBuilder`).
      data: { id: headingText(node), ...(anchor === null ? {} : { explicitId: anchor }) },
      nodes: inlines(node)
    }]
  },
  bulletList: listOf,
  orderedList: listOf,
  taskList: listOf,
  blockquote: (node, codec) => [{ object: "block", type: "blockquote", nodes: childBlocks(node, codec) }],
  codeBlock: (node) => [codeOf(node)],
  mathBlock: (node) => [{ object: "block", type: "math", isVoid: true, data: { formula: node.textContent } }],
  figure: (node) => {
    const img = node.attrs.img as ReadonlyArray<{ readonly name: string; readonly value: string | null }>
    // HTML's attributes, their references decoded (GitBook writes `&` in a URL as `&#x26;`).
    const get = (name: string) => {
      const value = img.find((x) => x.name === name)?.value
      return value === undefined || value === null ? undefined : decodeEntities(value)
    }
    const alt = get("alt")
    const width = get("width")
    const size = width === undefined ? undefined : lengthOf(width)
    const caption = node.attrs.caption as string
    return [{
      object: "block",
      type: "images",
      isVoid: false,
      data: {},
      nodes: [{
        object: "block",
        type: "image",
        isVoid: true,
        data: { ref: urlRef(get("src") ?? "", true), ...(alt === undefined || alt === "" ? {} : { alt }), ...(size === undefined ? {} : { width: size }) },
        // GitBook's caption holds paragraphs only.
        fragments: caption === "" ? [] : [{ object: "fragment", fragment: "caption", nodes: htmlParagraphs(caption).filter((b) => b.type === "paragraph") }]
      }]
    }]
  },
  horizontalRule: () => [{ object: "block", type: "divider", isVoid: true, data: {} }],
  hint: (node, codec) => {
    const params = paramsOf(node)
    const style = param(params, "style") ?? "info"
    // Its icon (`icon="books"`) is GitBook's `data.icon`, shown in place of the style's.
    const icon = param(params, "icon")
    const data = { style: hintStyles.has(style) ? style : "info", ...(icon === undefined || icon === "" ? {} : { icon }) }
    return [{ object: "block", type: "hint", isVoid: false, data, nodes: childBlocks(node, codec) }]
  },
  tabs: groupOf,
  stepper: groupOf,
  columns: groupOf,
  expandable: (node, codec) => {
    const title: Array<Text | Inline> = []
    for (const child of inlinesOfText(node.attrs.summary as string, codec)) title.push(child)
    return [{
      object: "block",
      type: "expandable",
      isVoid: true,
      data: /\sopen\b/.test(node.attrs.openTag as string) ? { defaultExpanded: true } : {},
      fragments: [
        { object: "fragment", fragment: "expandable-title", type: "expandable-title", nodes: [paragraph(title)] },
        { object: "fragment", fragment: "expandable-body", type: "expandable-body", nodes: childBlocks(node, codec) }
      ]
    }]
  },
  cards: (node) => [cardsOf(node)],
  table: (node) => [tableOf(node)],
  embed: (node, codec) => {
    const params = paramsOf(node)
    const url = param(params, "url") ?? ""
    const fullWidth = param(params, "fullWidth")
    return [{ object: "block", type: "embed", isVoid: true, data: { url, ...(fullWidth === undefined ? {} : { fullWidth: fullWidth === "true" }) }, ...captionOf(node.attrs.body, codec) }]
  },
  contentRef: (node) => [{ object: "block", type: "content-ref", isVoid: true, data: { ref: urlRef(param(paramsOf(node), "url") ?? "") } }],
  file: (node, codec) => [{ object: "block", type: "file", isVoid: true, data: { ref: urlRef(param(paramsOf(node), "src") ?? "", true) }, ...captionOf(node.attrs.body, codec) }],
  openapiOperation: (node) => {
    const params = paramsOf(node)
    return [{
      object: "block",
      type: "openapi-operation",
      isVoid: true,
      data: { ref: { kind: "openapi", spec: param(params, "spec") ?? "" }, path: param(params, "path") ?? "", method: param(params, "method") ?? "get" }
    }]
  },
  // The reference as written; `resolveBlocks` turns it into the reusable content's id.
  include: (node) => [{ object: "block", type: "reusable-content", isVoid: true, data: { ref: { kind: "reusable-content", reusableContent: unnamed(paramsOf(node)) ?? "" } } }],
  frontmatter: () => [],
  // `<br>` alone on its line is how GitBook writes a paragraph of one line break (DocumentMarkdown writes it back so).
  raw: (node, codec) => (/^<br\s*\/?>$/i.test((node.attrs.text as string).trim()) ? [paragraph([text("\n")])] : rawOf(node.attrs.text as string, codec))
}

/** One block of the page codec's document as GitBook's blocks. */
const blockOf = (node: PageNode, codec: Codec): Array<JsonBlock> =>
  isBlockName(node.type.name) ? jsonForms[node.type.name](node, codec) : [paragraph([text(node.textContent)])]

/**
 * The caption of an embed or a file (the body up to `{% endembed %}`/`{% endfile %}`): GitBook's
 * `caption` fragment of one paragraph, as its renderer reads an image's, an embed's and a file's.
 */
const captionOf = (body: unknown, codec: Codec): { fragments?: Array<Fragment> } => {
  const caption = typeof body === "string" ? body.trim() : ""
  return caption === "" ? {} : { fragments: [{ object: "fragment", fragment: "caption", nodes: [paragraph(inlinesOfText(caption, codec))] }] }
}

/** Markdown inline text (an expandable's summary) as GitBook's inline nodes. */
const inlinesOfText = (markdown: string, codec: Codec): Array<Text | Inline> => {
  const schema = codec.schema
  return inlines(schema.nodes.paragraph!.create(null, markdownInline(markdown, codec)))
}

const markdownInline = (markdown: string, codec: Codec) => {
  if (markdown === "") return []
  const doc = codec.parse(markdown)
  const first = doc.firstChild
  return first !== null && doc.childCount === 1 && first.type.name === "paragraph" ? first.content : codec.schema.text(markdown)
}

/**
 * The blocks of markdown `text`, with every link and image left as a URL as written and each
 * heading's id its text: what does not depend on the rest of the page, so that a parse worker can
 * build it (`jsonDocumentBuilder().addPieceBlocks` then resolves them).
 */
/** The markdown limits on the nesting the grammar parses by recursion (brackets, lists and quotes): past them, its stack could overflow. */
const nestingLimits: ReadonlySet<string> = new Set(["bracketDepth", "containerDepth"])

/**
 * The blocks of a page nested past a markdown limit (deep enough to overflow the grammar's stack):
 * its text as it is, with a note why; undefined for any other page (the per-page counts do not
 * threaten the parse and a long page may pass them).
 */
export const plainPage = (markdown: string): Array<JsonBlock> | undefined => {
  const breach = markdownLimitBreach(markdown)
  return breach !== undefined && nestingLimits.has(breach.limit) ? plainBlocks(describeBreach(breach), markdown) : undefined
}

export const pieceBlocks = (markdown: string): Array<JsonBlock> => {
  const plain = plainPage(markdown)
  if (plain !== undefined) return plain
  const codec = pageCodec()
  return pageBlocks(codec.parse(markdown), codec).flatMap((run) => run.blocks)
}

/** The blocks of plain text: a note on why, then the text as code (a page past the parse budget). */
export const plainBlocks = (note: string, plain: string): Array<JsonBlock> => [
  paragraph([text(`This page is shown as plain text: it passed ${note}.`)]),
  { object: "block", type: "code", data: {}, nodes: plain.split("\n").map((line): JsonBlock => ({ object: "block", type: "code-line", data: {}, nodes: [text(line)] })) }
]

/**
 * The JSON document of `markdown`; `refs` turns link and image URLs into content references,
 * `includes` the references of includes into reusable contents' ids.
 */
export const toJsonDocument = (markdown: string, refs: RefResolver = defaultRefs, includes: IncludeResolver = defaultIncludes): JsonDocument => {
  const builder = jsonDocumentBuilder(refs, includes)
  builder.addPieceBlocks(pieceBlocks(markdown))
  return builder.done()
}

/**
 * `toJsonDocument` from `pieceBlocks` computed elsewhere (a parse worker): `addPieceBlocks` them in
 * order, then `done`.
 */
export const jsonDocumentBuilder = (refs: RefResolver = defaultRefs, includes: IncludeResolver = defaultIncludes) => {
  const slugger = headingSlugger()
  const nodes: Array<JsonBlock> = []
  const footnotes: Footnotes = { annotations: [], definitions: new Map() }
  // Headings in lists, quotes and containers get their ids after every top-level heading, as the page's anchors do (`headingIds`).
  const nested: Array<Mutable<JsonBlock>> = []
  // GitBook's `data.id` is a heading's custom anchor (written `<a href="#id" id="id"></a>`); `meta.id` the anchor it has.
  const giveId = (heading: Mutable<JsonBlock>) => {
    const data = heading.data as Mutable<Attrs>
    const explicit = data["explicitId"] as string | undefined
    heading.meta = { id: headingAnchor(data["id"] as string, slugger, explicit) }
    delete data["explicitId"]
    if (explicit === undefined) delete data["id"]
    else data["id"] = explicit
  }
  const addPieceBlocks = (pieceBlocks: ReadonlyArray<JsonBlock>) => {
    nodes.push(...resolveBlocks(pieceBlocks, { refs, includes, footnotes }, (data, topLevel) => (topLevel ? giveId(data) : nested.push(data))))
  }
  return {
    add: (markdown: string) => addPieceBlocks(pieceBlocks(markdown)),
    addPieceBlocks,
    done: (): JsonDocument => {
      for (const data of nested.splice(0)) giveId(data)
      // Each annotation's body is its footnote's definition, wherever on the page (one without is empty).
      for (const note of footnotes.annotations.splice(0)) {
        note.fragments = (note.fragments ?? []).map((fragment) => {
          const label = fragment.fragment.slice(footnoteFragment("").length)
          return { ...fragment, nodes: footnotes.definitions.get(label) ?? [paragraph([text("")])] }
        })
      }
      // Then tabs and expandables, in that order, as the published page names them: GitBook's `meta.id`.
      const [tabs, expandables] = linkableBlocks(nodes)
      // (One whose words give no id has none: GitBook's renderer then names it by its key.)
      const name = (block: Mutable<JsonBlock>, words: string) => {
        if (gitbookSlug(words) !== "") block.meta = { id: slugger.slug(words) }
      }
      for (const tab of tabs) name(tab, String(tab.data?.["title"] ?? "").replace(/\s+/g, " ").trim())
      for (const block of expandables) name(block, textOfNodes(block.fragments?.[0]?.nodes ?? []))
      if (nodes.length === 0) return { object: "document", data: { schemaVersion: 1 }, nodes: [paragraph([])] }
      return { object: "document", data: { schemaVersion: 1 }, nodes }
    }
  }
}

/** The tabs and the expandables of `nodes` at any depth, each in document order (for their ids). */
const linkableBlocks = (nodes: ReadonlyArray<JsonBlock>): [Array<Mutable<JsonBlock>>, Array<Mutable<JsonBlock>>] => {
  const tabs: Array<Mutable<JsonBlock>> = []
  const expandables: Array<Mutable<JsonBlock>> = []
  const walk = (list: ReadonlyArray<JsonBlock | Text | Inline>) => {
    for (const node of list) {
      if (node.object !== "block") continue
      if (node.type === "tabs-item") tabs.push(node as Mutable<JsonBlock>)
      else if (node.type === "expandable") expandables.push(node as Mutable<JsonBlock>)
      if (node.nodes !== undefined) walk(node.nodes)
      for (const fragment of node.fragments ?? []) walk(fragment.nodes)
    }
  }
  walk(nodes)
  return [tabs, expandables]
}

/** The words of nodes, their leaves' text joined (HTML tags written in a summary left out), spaces folded. */
const textOfNodes = (nodes: ReadonlyArray<JsonBlock | Text | Inline>): string => {
  const parts: Array<string> = []
  const walk = (list: ReadonlyArray<JsonBlock | Text | Inline>) => {
    for (const node of list) {
      if (node.object === "text") parts.push(...node.leaves.map((l) => l.text))
      else if (node.nodes !== undefined) walk(node.nodes)
    }
  }
  walk(nodes)
  return parts.join("").replace(/<\/?[a-z][^>]*>/gi, "").replace(/\s+/g, " ").trim()
}

/** A reference as GitBook's documents carry it: a page's anchor as an `anchor`, `#x` as this page's. */
const documentRef = (ref: ContentRef): DocumentRef =>
  ref.kind === "page" && ref.anchor !== undefined
    ? { kind: "anchor", anchor: ref.anchor, page: ref.page }
    : ref.kind === "url" && ref.url.startsWith("#") && ref.url.length > 1
    ? { kind: "anchor", anchor: decodeURIComponent(ref.url.slice(1)) }
    : ref.kind === "page"
    ? { kind: "page", page: ref.page }
    : ref

interface Resolvers {
  readonly refs: RefResolver
  readonly includes: IncludeResolver
  /** Where the document's annotations and footnote definitions are gathered (the builder's), to meet in `done`. */
  readonly footnotes?: Footnotes
}

interface Footnotes {
  readonly annotations: Array<Mutable<Inline>>
  readonly definitions: Map<string, ReadonlyArray<JsonBlock>>
}

const isUrlRef = (value: unknown): value is { kind: "url"; url: string; image?: true } =>
  typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "url" && typeof (value as { url?: unknown }).url === "string"

const resolveRef = (value: { kind: "url"; url: string; image?: true }, resolvers: Resolvers): DocumentRef =>
  documentRef(resolvers.refs(value.url, value.image === true ? "image" : "link"))

/**
 * The records of a table, their references resolved (a file column's values are file ids; an image
 * column's a file's reference, or a URL's for an image that is no file: GitBook's image record).
 */
const resolveRecords = (records: Record<string, { values: Attrs }>, definition: Record<string, Attrs>, resolvers: Resolvers) => {
  for (const record of Object.values(records)) {
    for (const [key, value] of Object.entries(record.values)) {
      if (isUrlRef(value) && definition[key]?.["type"] === "image") {
        const ref = resolveRef(value, resolvers)
        record.values[key] = ref.kind === "file" || ref.kind === "url" ? ref : { kind: "url", url: value.url }
      } else if (isUrlRef(value)) record.values[key] = resolveRef(value, resolvers)
      else if (Array.isArray(value) && definition[key]?.["type"] !== "select") {
        // A file column: its files' ids, or the URL of an image that is no file (GitBook's image record).
        const refs = value.map((v: unknown) => (isUrlRef(v) ? resolveRef(v, resolvers) : v))
        record.values[key] = refs.every((ref) => typeof ref === "object" && ref !== null && (ref as DocumentRef).kind === "file")
          ? refs.map((ref) => (ref as { file: string }).file)
          : refs.length === 1 ? refs[0] : refs
      }
    }
  }
}

/**
 * `pieceBlocks`' links, images and includes resolved with `resolvers`, and each heading's data
 * handed to `heading`, in place (they are this thread's copies); an include that names nothing is
 * left out of the answer.
 */
const resolveBlocks = <N extends JsonBlock | Text | Inline>(
  nodes: ReadonlyArray<N>,
  resolvers: Resolvers,
  heading: (heading: Mutable<JsonBlock>, topLevel: boolean) => void,
  topLevel = true
): Array<N> => {
  const out: Array<N> = []
  for (const node of nodes) {
    if (node.object === "text") {
      out.push(node)
      continue
    }
    // Footnote definitions are no block of the document: the first of each label is its annotations' body.
    if (node.object === "block" && node.type === FOOTNOTES) {
      for (const [label, body] of node.data!["definitions"] as ReadonlyArray<FootnoteDefinition>) {
        if (resolvers.footnotes !== undefined && !resolvers.footnotes.definitions.has(label)) resolvers.footnotes.definitions.set(label, resolveBlocks(body, resolvers, heading, false))
      }
      continue
    }
    if (node.object === "inline" && node.type === "annotation") resolvers.footnotes?.annotations.push(node as Mutable<Inline>)
    const data = node.data as Mutable<Attrs> | undefined
    if (data !== undefined) {
      if (node.type === "reusable-content") {
        const id = resolvers.includes((data["ref"] as { readonly reusableContent: string }).reusableContent)
        if (id === undefined) continue
        data["ref"] = { kind: "reusable-content", reusableContent: id }
      } else if (node.type.startsWith("heading-")) heading(node as Mutable<JsonBlock>, topLevel)
      else if (node.type === "table") resolveRecords(data["records"] as Record<string, { values: Attrs }>, data["definition"] as Record<string, Attrs>, resolvers)
      if (isUrlRef(data["ref"])) data["ref"] = resolveRef(data["ref"], resolvers)
      if (isUrlRef(data["refDark"])) data["refDark"] = resolveRef(data["refDark"], resolvers)
    }
    const mutable = node as Mutable<JsonBlock>
    // GitBook's file block holds a file of the space only: one attached by URL is its embed of that URL, caption kept.
    const ref = data?.["ref"] as DocumentRef | undefined
    if (node.type === "file" && ref?.kind === "url") {
      mutable.type = "embed"
      mutable.data = { url: ref.url }
    }
    if (node.nodes !== undefined) mutable.nodes = resolveBlocks(node.nodes, resolvers, heading, false)
    if (node.object === "block" && node.fragments !== undefined) {
      mutable.fragments = node.fragments.map((fragment) => ({ ...fragment, nodes: resolveBlocks(fragment.nodes, resolvers, heading, false) }))
    }
    out.push(node)
  }
  return out
}

/** `pieceBlocks` resolved with `refs` and `includes`, headings keeping their words as ids. */
export const resolvedBlocks = (blocks: ReadonlyArray<JsonBlock>, refs: RefResolver, includes: IncludeResolver): Array<JsonBlock> =>
  resolveBlocks(blocks, { refs, includes }, () => undefined)
