/**
 * The HTML GitBook writes into a page's markdown, read as GitBook's blocks and inline nodes: framed,
 * aligned and full-width figures, aligned paragraphs and headings, `<pre><code>` with bold lines, HTML
 * tables, hints written as HTML, and inside them and in card cells headings, icons, emoji, mentions,
 * buttons with actions and inline images. GitBook's renderer draws a block, never the tags as text.
 *
 * A small reader of that HTML (elements, attributes, text and entities, as GitBook writes them): what
 * it cannot read whole (a tag left open, a stray end tag) is none of these forms, and the caller
 * keeps it as text. No DOM: a page's read stays one pass, in the server and anywhere else.
 */
import type { DocumentRef, Fragment, Inline, JsonBlock, Leaf, Mark, Text } from "./GitbookModel.ts"
import { htmlMarkTags, mark, markColors, paragraph, text } from "./GitbookModel.ts"

/** An element of GitBook's HTML: its tag (lower case), attributes (a bare one is null) and children. */
export interface HtmlElement {
  readonly tag: string
  readonly attrs: Readonly<Record<string, string | null>>
  readonly children: ReadonlyArray<HtmlNode>
}

/** An element, or text with its entities decoded. */
export type HtmlNode = HtmlElement | string

const VOID = new Set(["img", "br", "source", "input", "hr", "col", "wbr", "meta", "link"])
const ENTITY: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: "\u00a0" }

/** `&…;` entities as characters (an unknown name stays as written). */
export const decodeEntities = (value: string): string =>
  value.replace(/&(?:#[xX]([0-9a-fA-F]+)|#([0-9]+)|([A-Za-z][A-Za-z0-9]*));/g, (entity, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    const code = hex !== undefined ? Number.parseInt(hex, 16) : dec !== undefined ? Number.parseInt(dec, 10) : undefined
    if (code !== undefined) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd"
    return ENTITY[name!] ?? entity
  })

const TAG = /<!--[\s\S]*?-->|<(\/?)([A-Za-z][A-Za-z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/g
const ATTR = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g

const attributesOf = (source: string): Record<string, string | null> => {
  const attrs: Record<string, string | null> = {}
  for (const m of source.matchAll(ATTR)) {
    const value = m[2] ?? m[3] ?? m[4]
    attrs[m[1]!.toLowerCase()] = value === undefined ? null : decodeEntities(value)
  }
  return attrs
}

/** Reads `html` into nodes; undefined when a tag is left open or closes one that is not open. */
export const readHtml = (html: string): Array<HtmlNode> | undefined => {
  interface Open { readonly tag: string; readonly attrs: Record<string, string | null>; readonly children: Array<HtmlNode> }
  const root: Open = { tag: "", attrs: {}, children: [] }
  const stack: Array<Open> = [root]
  let at = 0
  const textUntil = (end: number) => {
    if (end > at) stack.at(-1)!.children.push(decodeEntities(html.slice(at, end)))
  }
  for (const m of html.matchAll(TAG)) {
    textUntil(m.index)
    at = m.index + m[0].length
    if (m[2] === undefined) continue
    const tag = m[2].toLowerCase()
    if (m[1] === "/") {
      if (VOID.has(tag)) continue
      const open = stack.pop()!
      if (open === root || open.tag !== tag) return undefined
      stack.at(-1)!.children.push(open)
      continue
    }
    const element: Open = { tag, attrs: attributesOf(m[3] ?? ""), children: [] }
    if (VOID.has(tag) || m[4] === "/") stack.at(-1)!.children.push(element)
    else stack.push(element)
  }
  textUntil(html.length)
  return stack.length === 1 ? root.children : undefined
}

const isElement = (node: HtmlNode): node is HtmlElement => typeof node !== "string"

/** The element children of `nodes`, none being text other than white space. */
const elementsOf = (nodes: ReadonlyArray<HtmlNode>): Array<HtmlElement> | undefined => {
  const out: Array<HtmlElement> = []
  for (const node of nodes) {
    if (isElement(node)) out.push(node)
    else if (node.trim() !== "") return undefined
  }
  return out
}

/** The one element `nodes` hold (around white space), if so. */
const onlyElement = (nodes: ReadonlyArray<HtmlNode>, tag?: string): HtmlElement | undefined => {
  const elements = elementsOf(nodes)
  return elements?.length === 1 && (tag === undefined || elements[0]!.tag === tag) ? elements[0] : undefined
}

/** The words of `nodes`, without their tags. */
export const textOf = (nodes: ReadonlyArray<HtmlNode>): string => nodes.map((node) => (isElement(node) ? textOf(node.children) : node)).join("")

/** How the caller turns a URL as written into a reference (`JsonDocument`'s, resolved later). */
export type UrlRef = (url: string, image?: boolean) => DocumentRef

// Inline content --------------------------------------------------------------------------------

const MARKS: Readonly<Record<string, Exclude<Mark["type"], "color">>> = {
  strong: "bold",
  b: "bold",
  em: "italic",
  i: "italic",
  code: "code",
  s: "strikethrough",
  del: "strikethrough",
  ...htmlMarkTags
}

/** GitBook's alignment of a paragraph or heading from HTML's `align`. */
const textAlignment = (align: string | null | undefined): "start" | "center" | "end" | undefined =>
  align === "center" ? "center" : align === "right" ? "end" : align === "left" ? "start" : undefined

const kindOf = (element: HtmlElement): "primary" | "secondary" => (/\bsecondary\b/.test(element.attrs["class"] ?? "") ? "secondary" : "primary")

/** Adjacent leaves of the same marks as one (a `<br>` between words is their text's line break). */
const sameMarksJoined = (leaves: ReadonlyArray<Leaf>): Array<Leaf> => {
  const out: Array<Leaf> = []
  for (const leaf of leaves) {
    const last = out.at(-1)
    if (last !== undefined && JSON.stringify(last.marks) === JSON.stringify(leaf.marks)) out[out.length - 1] = { ...last, text: last.text + leaf.text }
    else out.push(leaf)
  }
  return out
}

/** A `<picture>`'s image and the image for dark mode (its `<source>` for a dark scheme). */
const pictureParts = (picture: HtmlElement): { readonly img: HtmlElement; readonly dark: string | undefined } | undefined => {
  const children = picture.children.filter(isElement)
  const img = children.find((child) => child.tag === "img")
  if (img === undefined || typeof img.attrs["src"] !== "string") return undefined
  const dark = children.find((child) => child.tag === "source" && /dark/.test(child.attrs["media"] ?? ""))?.attrs["srcset"]
  return { img, dark: typeof dark === "string" ? dark : undefined }
}

/** GitBook's inline image of an `<img>`'s attributes (and a dark variant's URL). */
const inlineImageOf = (a: HtmlElement["attrs"], dark: string | undefined, urlRef: UrlRef): Inline => {
  const alt = a["alt"] ?? ""
  return {
    object: "inline",
    type: "inline-image",
    isVoid: true,
    data: { ref: urlRef(a["src"]!, true), ...(dark === undefined ? {} : { refDark: urlRef(dark, true) }), ...(alt === "" ? {} : { alt }), ...(a["data-size"] === "line" ? { size: "line" } : {}) }
  }
}

/**
 * Inline HTML as GitBook's text, marks and inline nodes. `collapse` folds white space as a browser
 * does (a `<p align>` written over several lines); in a cell or a caption it is kept as written.
 */
export const htmlInlineNodes = (nodes: ReadonlyArray<HtmlNode>, urlRef: UrlRef, collapse = false): Array<Text | Inline> => {
  const out: Array<Text | Inline> = []
  let leaves: Array<Leaf> = []
  const flush = () => {
    if (leaves.length > 0) out.push({ object: "text", leaves: sameMarksJoined(leaves) })
    leaves = []
  }
  const inline = (node: Inline) => {
    flush()
    out.push(node)
  }
  const walk = (list: ReadonlyArray<HtmlNode>, marks: ReadonlyArray<Mark>) => {
    for (const node of list) {
      if (!isElement(node)) {
        const value = collapse ? node.replace(/\s+/g, " ") : node
        if (value !== "") leaves.push({ object: "leaf", text: value, marks })
        continue
      }
      const a = node.attrs
      const markType = MARKS[node.tag]
      if (node.tag === "i" && (a["class"] ?? "").startsWith("fa-")) {
        inline({ object: "inline", type: "icon", isVoid: true, data: { icon: a["class"]!.slice(3).split(/\s/)[0]! } })
      } else if (node.tag === "span" && a["data-tag"] === "emoji" && typeof a["data-code"] === "string") {
        inline({ object: "inline", type: "emoji", isVoid: true, data: { code: a["data-code"] } })
      } else if (markType !== undefined && Object.keys(a).length === 0) {
        walk(node.children, [...marks, mark(markType)])
      } else if (node.tag === "mark") {
        walk(node.children, [...marks, { object: "mark", type: "color", data: markColors(` style="${a["style"] ?? ""}"`) }])
      } else if (node.tag === "br") {
        leaves.push({ object: "leaf", text: "\n", marks })
      } else if (node.tag === "img" && typeof a["src"] === "string") {
        inline(inlineImageOf(a, undefined, urlRef))
      } else if (node.tag === "picture" && pictureParts(node) !== undefined) {
        const { img, dark } = pictureParts(node)!
        inline(inlineImageOf(img.attrs, dark, urlRef))
      } else if (node.tag === "button") {
        const action = a["data-action"]
        const query = a["data-query"]
        inline({
          object: "inline",
          type: "button",
          isVoid: true,
          data: {
            label: textOf(node.children).trim(),
            kind: kindOf(node),
            ...(typeof a["data-icon"] === "string" ? { icon: a["data-icon"] } : {}),
            ...(action === "ask" || action === "search"
              ? { action: { action, ...(typeof query === "string" ? { query } : {}) } }
              : { ref: urlRef(a["href"] ?? "") })
          }
        })
      } else if (node.tag === "a" && a["href"] === undefined && /\bbutton\b/.test(a["class"] ?? "")) {
        // GitBook's inactive button: no target, drawn disabled.
        inline({ object: "inline", type: "button", isVoid: true, data: { label: textOf(node.children).trim(), kind: kindOf(node), ...(typeof a["data-icon"] === "string" ? { icon: a["data-icon"] } : {}) } })
      } else if (node.tag === "a" && typeof a["href"] === "string") {
        if (a["data-mention"] !== undefined) inline({ object: "inline", type: "mention", isVoid: true, data: { ref: urlRef(a["href"]) } })
        else if (/\bbutton\b/.test(a["class"] ?? "")) {
          inline({ object: "inline", type: "button", isVoid: true, data: { label: textOf(node.children).trim(), kind: kindOf(node), ...(typeof a["data-icon"] === "string" ? { icon: a["data-icon"] } : {}), ref: urlRef(a["href"]) } })
        } else {
          flush()
          const inner = htmlInlineNodes(node.children, urlRef, collapse)
          out.push({ object: "inline", type: "link", isVoid: false, data: { ref: urlRef(a["href"]) }, nodes: inner })
        }
      } else if (node.tag === "select") {
        // A select column's options, in a table's header: not words of the title.
      } else {
        walk(node.children, marks)
      }
    }
  }
  walk(nodes, [])
  flush()
  if (collapse) trimEnds(out)
  return out.length === 0 ? [text("")] : out
}

/** Drops the white space that starts and ends a run of inline content (as a browser does). */
const trimEnds = (nodes: Array<Text | Inline>) => {
  const first = nodes[0]
  if (first?.object === "text") {
    const [leaf, ...rest] = first.leaves
    const trimmed = leaf!.text.replace(/^\s+/, "")
    const leaves = trimmed === "" ? rest : [{ ...leaf!, text: trimmed }, ...rest]
    if (leaves.length === 0) nodes.shift()
    else nodes[0] = { object: "text", leaves }
  }
  const last = nodes.at(-1)
  if (last?.object === "text") {
    const leaf = last.leaves.at(-1)!
    const trimmed = leaf.text.replace(/\s+$/, "")
    const leaves = trimmed === "" ? last.leaves.slice(0, -1) : [...last.leaves.slice(0, -1), { ...leaf, text: trimmed }]
    if (leaves.length === 0) nodes.pop()
    else nodes[nodes.length - 1] = { object: "text", leaves }
  }
}

// Blocks ----------------------------------------------------------------------------------------

/** GitBook's heading block of an HTML heading `<hN>`, as `headingType` maps markdown's levels. */
const headingOf = (element: HtmlElement, urlRef: UrlRef): JsonBlock => {
  const level = Number(element.tag.slice(1))
  const align = textAlignment(element.attrs["align"])
  return {
    object: "block",
    type: level <= 2 ? "heading-1" : level === 3 ? "heading-2" : "heading-3",
    data: { id: textOf(element.children).trim(), ...(align === undefined ? {} : { align }) },
    nodes: htmlInlineNodes(element.children, urlRef, true)
  }
}

const INLINE_TAGS = new Set([...Object.keys(MARKS), "a", "span", "mark", "br", "img", "button", "select", "option", "small", "u"])

/**
 * HTML block content (a cell, a caption, a hint written as HTML) as GitBook's blocks: paragraphs,
 * headings, lists; a run of inline content outside them is one paragraph.
 */
export const htmlBlockNodes = (nodes: ReadonlyArray<HtmlNode>, urlRef: UrlRef): Array<JsonBlock> => {
  const out: Array<JsonBlock> = []
  let run: Array<HtmlNode> = []
  const flush = () => {
    if (run.some((node) => isElement(node) || node.trim() !== "")) out.push(paragraph(htmlInlineNodes(run, urlRef)))
    run = []
  }
  for (const node of nodes) {
    if (!isElement(node) || INLINE_TAGS.has(node.tag)) {
      run.push(node)
      continue
    }
    flush()
    if (node.tag === "p") {
      const align = textAlignment(node.attrs["align"])
      out.push({ ...paragraph(htmlInlineNodes(node.children, urlRef)), ...(align === undefined ? {} : { data: { align } }) })
    } else if (/^h[1-6]$/.test(node.tag)) out.push(headingOf(node, urlRef))
    else if (node.tag === "ul" || node.tag === "ol") {
      const items = node.children.filter(isElement).filter((item) => item.tag === "li")
      out.push({
        object: "block",
        type: node.tag === "ol" ? "list-ordered" : "list-unordered",
        ...(node.tag === "ol" ? { data: {} } : {}),
        nodes: items.map((item): JsonBlock => {
          const inner = htmlBlockNodes(item.children, urlRef)
          return { object: "block", type: "list-item", nodes: inner.length === 0 ? [paragraph([])] : inner }
        })
      })
    } else out.push(...htmlBlockNodes(node.children, urlRef))
  }
  flush()
  return out
}

/** A cell's, caption's or hint's blocks: at least one paragraph. */
const blocksOrEmpty = (nodes: ReadonlyArray<HtmlNode>, urlRef: UrlRef): Array<JsonBlock> => {
  const blocks = htmlBlockNodes(nodes, urlRef)
  return blocks.length === 0 ? [paragraph([])] : blocks
}

/** HTML a card's or a table's cell holds, as GitBook's blocks; undefined when it is not HTML this reads whole. */
export const cellBlocks = (html: string, urlRef: UrlRef): Array<JsonBlock> | undefined => {
  const nodes = readHtml(html)
  return nodes === undefined ? undefined : blocksOrEmpty(nodes, urlRef)
}

/** A length as GitBook's `Length`: a number of pixels, or a value with its unit. */
const lengthOf = (value: string | null | undefined): number | { unit: string; value: number } | undefined => {
  if (typeof value !== "string") return undefined
  const m = /^\s*(\d+(?:\.\d+)?)\s*(px|%)?\s*$/.exec(value)
  if (m === null) return undefined
  return m[2] === "%" ? { unit: "%", value: Number(m[1]) } : Number(m[1])
}

/** A `<figure>` (an `<img>` and its `<figcaption>`) or a lone `<img>` as GitBook's image block. */
const imageOf = (element: HtmlElement, urlRef: UrlRef): JsonBlock | undefined => {
  // A `<picture>` holds the image for dark mode as a `<source>` and the image as its `<img>`.
  const picture = element.tag === "figure" ? element.children.filter(isElement).find((child) => child.tag === "picture") : undefined
  const holder = picture ?? element
  const img = holder.tag === "img" ? holder : holder.children.filter(isElement).find((child) => child.tag === "img")
  if (img === undefined || typeof img.attrs["src"] !== "string") return undefined
  const dark = picture?.children.filter(isElement).find((child) => child.tag === "source" && /dark/.test(child.attrs["media"] ?? ""))?.attrs["srcset"]
  const caption = element.tag === "figure" ? element.children.filter(isElement).find((child) => child.tag === "figcaption") : undefined
  const captionBlocks = caption === undefined ? [] : htmlBlockNodes(caption.children, urlRef)
  const alt = img.attrs["alt"] ?? ""
  const width = lengthOf(img.attrs["width"])
  const fragments: Array<Fragment> = captionBlocks.length === 0 ? [] : [{ object: "fragment", fragment: "caption", nodes: captionBlocks.filter((b) => b.type === "paragraph") }]
  return {
    object: "block",
    type: "image",
    isVoid: true,
    data: {
      ref: urlRef(img.attrs["src"], true),
      ...(typeof dark === "string" ? { refDark: urlRef(dark, true) } : {}),
      ...(alt === "" ? {} : { alt }),
      ...(width === undefined ? {} : { width })
    },
    fragments
  }
}

/** `<pre class="language-…"><code>`: GitBook's code block, a line per code-line with its marks (bold lines). */
const codeOf = (pre: HtmlElement, urlRef: UrlRef): JsonBlock | undefined => {
  const code = onlyElement(pre.children, "code")
  if (code === undefined) return undefined
  const a = pre.attrs
  const syntax = /(?:^|\s)language-(\S+)/.exec(a["class"] ?? "")?.[1]
  const data: Record<string, unknown> = {}
  if (syntax !== undefined) data["syntax"] = syntax
  if (typeof a["data-title"] === "string") data["title"] = a["data-title"]
  if (a["data-overflow"] === "wrap" || a["data-overflow"] === "scroll") data["overflow"] = a["data-overflow"]
  for (const [attribute, flag] of [["data-line-numbers", "lineNumbers"], ["data-full-width", "fullWidth"], ["data-expandable", "expandable"]] as const) {
    const value = a[attribute]
    if (value === null || value === "true") data[flag] = true
    else if (value === "false") data[flag] = false
  }
  // The code's leaves, split at each line's end: a mark that ends with the line stays on it.
  const lines: Array<Array<Leaf>> = [[]]
  for (const node of htmlInlineNodes(code.children, urlRef)) {
    const leaves = node.object === "text" ? node.leaves : [{ object: "leaf" as const, text: textOfInline(node), marks: [] }]
    for (const leaf of leaves) {
      leaf.text.split("\n").forEach((part, i) => {
        if (i > 0) lines.push([])
        if (part !== "") lines.at(-1)!.push({ ...leaf, text: part, marks: leaf.marks.filter((m) => m.type !== "code") })
      })
    }
  }
  // GitBook ends the last line with a newline before `</code>`.
  if (lines.length > 1 && lines.at(-1)!.length === 0) lines.pop()
  return {
    object: "block",
    type: "code",
    data,
    nodes: lines.map((leaves): JsonBlock => ({ object: "block", type: "code-line", data: {}, nodes: [{ object: "text", leaves: leaves.length === 0 ? [{ object: "leaf", text: "", marks: [] }] : leaves }] }))
  }
}

const textOfInline = (node: Inline): string =>
  (node.nodes ?? []).map((child) => (child.object === "text" ? child.leaves.map((leaf) => leaf.text).join("") : child.object === "inline" ? textOfInline(child) : "")).join("")

/** An HTML `<table>`: GitBook's table with a grid view, each header and body cell a fragment of blocks. */
const tableOf = (table: HtmlElement, urlRef: UrlRef): JsonBlock | undefined => {
  const sections = elementsOf(table.children)
  if (sections === undefined) return undefined
  const rowsOf = (section: HtmlElement | undefined) => (section === undefined ? [] : section.children.filter(isElement).filter((row) => row.tag === "tr"))
  const head = rowsOf(sections.find((s) => s.tag === "thead"))[0]
  const body = [...rowsOf(sections.find((s) => s.tag === "tbody")), ...sections.filter((s) => s.tag === "tr")]
  const headers = head === undefined ? [] : head.children.filter(isElement).filter((cell) => cell.tag === "th" || cell.tag === "td")
  const width = Math.max(headers.length, ...body.map((row) => row.children.filter(isElement).length))
  if (width === 0) return undefined
  const ids = Array.from({ length: width }, (_, k) => `c${k}`)
  const definition: Record<string, Record<string, unknown>> = {}
  const fragments: Array<Fragment> = []
  const columnWidths: Record<string, number> = {}
  ids.forEach((id, k) => {
    const header = headers[k]
    const align = header?.attrs["align"]
    definition[id] = { id, title: header === undefined ? "" : textOf(header.children.filter((c) => !isElement(c) || c.tag !== "select")).trim(), type: "text", textAlignment: align === "center" || align === "right" ? align : "left" }
    const valign = header?.attrs["valign"]
    if (valign === "top" || valign === "middle" || valign === "bottom") definition[id]!["verticalAlignment"] = valign
    const pixels = lengthOf(header?.attrs["width"])
    if (typeof pixels === "number") columnWidths[id] = pixels
    if (header !== undefined) fragments.push({ object: "fragment", fragment: `h${id}`, nodes: blocksOrEmpty(header.children.filter((c) => !isElement(c) || c.tag !== "select"), urlRef) })
  })
  const hidden = new Set(ids.filter((_, k) => headers[k]?.attrs["data-hidden"] !== undefined))
  const records: Record<string, { orderIndex: string; values: Record<string, string> }> = {}
  body.forEach((row, r) => {
    const cells = row.children.filter(isElement)
    const values: Record<string, string> = {}
    ids.forEach((id, k) => {
      const fragment = `r${r}${id}`
      fragments.push({ object: "fragment", fragment, nodes: blocksOrEmpty(cells[k]?.children ?? [], urlRef) })
      values[id] = fragment
    })
    records[`r${r}`] = { orderIndex: `a${r.toString(36).padStart(4, "0")}`, values }
  })
  const view: Record<string, unknown> = { type: "grid", columns: ids.filter((id) => !hidden.has(id)), hideHeader: head === undefined }
  if (Object.keys(columnWidths).length > 0) {
    view["columnWidths"] = columnWidths
    view["useNewSizing"] = true
  }
  const data: Record<string, unknown> = { view, records, definition }
  const fullWidth = table.attrs["data-full-width"]
  if (fullWidth === "true" || fullWidth === "false") data["fullWidth"] = fullWidth === "true"
  const search = table.attrs["data-search"]
  if (search === "true" || search === "false") data["search"] = search === "true"
  return { object: "block", type: "table", isVoid: true, data, fragments }
}

const HINT_STYLES = new Set(["info", "success", "warning", "danger"])

/**
 * A top-level HTML block of a page as GitBook's blocks, when it is one of the forms GitBook writes;
 * undefined otherwise (the caller keeps it as text).
 */
export const htmlBlock = (html: string, urlRef: UrlRef): Array<JsonBlock> | undefined => {
  const nodes = readHtml(html)
  if (nodes === undefined) return undefined
  const element = onlyElement(nodes)
  if (element === undefined) return undefined
  const a = element.attrs
  switch (element.tag) {
    case "pre": {
      const code = codeOf(element, urlRef)
      return code === undefined ? undefined : [code]
    }
    case "div": {
      // A figure framed, aligned or full width (or none of these): GitBook's images block with those settings.
      // (Several figures side by side are one images block of several images.)
      const figures = elementsOf(element.children)
      if (figures !== undefined && figures.length > 0 && figures.every((child) => child.tag === "figure")) {
        const images = figures.map((figure) => imageOf(figure, urlRef))
        if (images.some((image) => image === undefined)) return undefined
        const data: Record<string, unknown> = {}
        if (a["align"] === "left" || a["align"] === "center" || a["align"] === "right") data["align"] = a["align"]
        if (a["data-with-frame"] === "true") data["withFrame"] = true
        if (a["data-full-width"] === "true" || a["data-full-width"] === "false") data["fullWidth"] = a["data-full-width"] === "true"
        return [{ object: "block", type: "images", isVoid: false, data, nodes: images as Array<JsonBlock> }]
      }
      if (a["data-tag"] === "hint") {
        const style = a["data-style"] ?? "info"
        return [{ object: "block", type: "hint", isVoid: false, data: { style: HINT_STYLES.has(style) ? style : "info" }, nodes: blocksOrEmpty(element.children, urlRef) }]
      }
      return undefined
    }
    case "figure":
    case "img": {
      const image = imageOf(element, urlRef)
      return image === undefined ? undefined : [{ object: "block", type: "images", isVoid: false, data: {}, nodes: [image] }]
    }
    case "p": {
      const align = textAlignment(a["align"])
      return [{ ...paragraph(htmlInlineNodes(element.children, urlRef, true)), ...(align === undefined ? {} : { data: { align } }) }]
    }
    case "h1":
    case "h2":
    case "h3":
    case "h4":
    case "h5":
    case "h6":
      return [headingOf(element, urlRef)]
    case "table": {
      const table = tableOf(element, urlRef)
      return table === undefined ? undefined : [table]
    }
    case "a":
      return typeof a["href"] === "string" ? [paragraph(htmlInlineNodes([element], urlRef, true))] : undefined
    default:
      return undefined
  }
}

// Writing: each form above as GitBook writes it, so that what it reads comes back the same --------

/** How a reference is written as a URL (`DocumentMarkdown`'s writer). */
export type RefText = (ref: DocumentRef) => string

/** Text in HTML, as GitBook escapes it (`<` and `&` as hexadecimal references). */
export const escapeHtml = (value: string): string => value.replaceAll("&", "&#x26;").replaceAll("<", "&#x3C;")
export const escapeAttribute = (value: string): string => escapeHtml(value).replaceAll("\"", "&#x22;")

/** The tag of each mark but colour, as `MARKS` reads it. */
const MARK_TAGS: Readonly<Record<Exclude<Mark["type"], "color">, string>> = {
  bold: "strong",
  italic: "em",
  code: "code",
  strikethrough: "s",
  keyboard: "kbd",
  superscript: "sup",
  subscript: "sub"
}

/** HTML's `align` of GitBook's alignment. */
export const htmlAlign = (align: unknown): string | undefined => (align === "center" ? "center" : align === "end" ? "right" : align === "start" ? "left" : undefined)

const leafHtml = (leaf: Leaf): string =>
  leaf.marks.reduceRight(
    (inner, m) => (m.type === "color" ? `<mark style="${m.data.text === "default" ? "" : `color:${m.data.text};`}${m.data.background === "default" ? "" : `background-color:${m.data.background};`}">${inner}</mark>` : `<${MARK_TAGS[m.type]}>${inner}</${MARK_TAGS[m.type]}>`),
    escapeHtml(leaf.text).replaceAll("\n", "<br>")
  )

/** A button as GitBook writes it: `<button data-action>` for Ask or search, else a link with the button's class. */
export const buttonHtml = (data: Readonly<Record<string, unknown>>, write: RefText): string => {
  const kind = `class="button ${data["kind"] === "secondary" ? "secondary" : "primary"}"`
  const icon = typeof data["icon"] === "string" ? ` data-icon="${escapeAttribute(data["icon"])}"` : ""
  const label = escapeHtml(String(data["label"] ?? ""))
  const action = data["action"] as { readonly action?: unknown; readonly query?: unknown } | undefined
  if (action !== undefined && typeof action.action === "string") {
    const query = typeof action.query === "string" ? ` data-query="${escapeAttribute(action.query)}"` : ""
    return `<button type="button" ${kind} data-action="${escapeAttribute(action.action)}"${query}${icon}>${label}</button>`
  }
  // No target: GitBook's inactive button.
  if (data["ref"] === undefined) return `<a ${kind}${icon}>${label}</a>`
  return `<a href="${escapeAttribute(write(data["ref"] as DocumentRef))}" ${kind}${icon}>${label}</a>`
}

/** An inline image: `<picture>` when it has a dark variant, else `<img>` (`data-size="line"` at the text's height). */
export const inlineImageHtml = (data: Readonly<Record<string, unknown>>, write: RefText): string => {
  const img = `<img src="${escapeAttribute(write(data["ref"] as DocumentRef))}" alt="${escapeAttribute(String(data["alt"] ?? ""))}"${data["size"] === "line" ? " data-size=\"line\"" : ""}>`
  return data["refDark"] === undefined ? img : `<picture><source srcset="${escapeAttribute(write(data["refDark"] as DocumentRef))}" media="(prefers-color-scheme: dark)">${img}</picture>`
}

/** Inline content as the HTML `htmlInlineNodes` reads back the same. */
export const inlineHtmlOf = (nodes: ReadonlyArray<Text | Inline | JsonBlock> | undefined, write: RefText): string =>
  (nodes ?? []).map((node): string => {
    if (node.object === "text") return node.leaves.map(leafHtml).join("")
    if (node.object !== "inline") return ""
    const data = node.data
    switch (node.type) {
      case "link":
        return `<a href="${escapeAttribute(write(data["ref"] as DocumentRef))}">${inlineHtmlOf(node.nodes, write)}</a>`
      case "mention": {
        const href = write(data["ref"] as DocumentRef)
        return `<a data-mention href="${escapeAttribute(href)}">${escapeHtml(href.split(/[?#]/)[0]!.split("/").filter((s) => s !== "").at(-1) ?? href)}</a>`
      }
      case "button":
        return buttonHtml(data, write)
      case "inline-image":
        return inlineImageHtml(data, write)
      case "icon":
        return `<i class="fa-${escapeAttribute(String(data["icon"]))}">:${escapeHtml(String(data["icon"]))}:</i>`
      case "emoji": {
        const code = String(data["code"])
        return `<span data-gb-custom-inline data-tag="emoji" data-code="${escapeAttribute(code)}">${String.fromCodePoint(...code.split("-").map((c) => Number.parseInt(c, 16) || 0xfffd))}</span>`
      }
      default:
        return inlineHtmlOf(node.nodes, write)
    }
  }).join("")

/**
 * Blocks in a cell, a caption or a list item as the HTML `htmlBlockNodes` reads back the same: a lone
 * paragraph as its inline content, else each paragraph, heading and list as its element.
 */
export const blocksHtmlOf = (blocks: ReadonlyArray<Text | Inline | JsonBlock>, write: RefText): string => {
  const only = blocks[0]
  if (blocks.length === 1 && only?.object === "block" && only.type === "paragraph" && htmlAlign(only.data?.["align"]) === undefined) return inlineHtmlOf(only.nodes, write)
  return blocks.map((block) => {
    if (block.object !== "block") return ""
    const align = htmlAlign(block.data?.["align"])
    const attrs = align === undefined ? "" : ` align="${align}"`
    if (block.type === "paragraph") return `<p${attrs}>${inlineHtmlOf(block.nodes, write)}</p>`
    if (block.type.startsWith("heading-")) {
      const tag = `h${Number(block.type.slice(-1)) + 1}`
      return `<${tag}${attrs}>${inlineHtmlOf(block.nodes, write)}</${tag}>`
    }
    if (block.type === "list-unordered" || block.type === "list-ordered") {
      const tag = block.type === "list-ordered" ? "ol" : "ul"
      return `<${tag}>${(block.nodes ?? []).map((item) => `<li>${item.object === "block" ? blocksHtmlOf(item.nodes ?? [], write) : ""}</li>`).join("")}</${tag}>`
    }
    return ""
  }).join("")
}

interface TableData {
  readonly view: Readonly<Record<string, unknown>>
  readonly definition: Readonly<Record<string, Readonly<Record<string, unknown>>>>
  readonly records: Readonly<Record<string, { readonly orderIndex: string; readonly values: Readonly<Record<string, unknown>> }>>
}

/** A grid table as GitBook's `<table>` (what `tableOf` reads): widths, alignments, hidden columns, cells of blocks. */
export const tableHtmlOf = (block: JsonBlock, write: RefText): string => {
  const data = block.data as unknown as TableData & Readonly<Record<string, unknown>>
  const view = data.view
  const shown = (view["columns"] as ReadonlyArray<string> | undefined) ?? Object.keys(data.definition)
  const ids = [...shown, ...Object.keys(data.definition).filter((id) => !shown.includes(id))]
  const widths = (view["columnWidths"] as Readonly<Record<string, unknown>> | undefined) ?? {}
  const cellOf = (id: unknown) => {
    const nodes = typeof id === "string" ? block.fragments?.find((f) => f.fragment === id)?.nodes ?? [] : []
    return blocksHtmlOf(nodes, write)
  }
  const headers = ids.map((id) => {
    const def = data.definition[id] ?? {}
    const width = widths[id]
    const align = def["textAlignment"]
    let attrs = typeof width === "number" ? ` width="${width}"` : ""
    if (align === "center" || align === "right") attrs += ` align="${align}"`
    if (typeof def["verticalAlignment"] === "string") attrs += ` valign="${escapeAttribute(def["verticalAlignment"])}"`
    if (!shown.includes(id)) attrs += " data-hidden"
    const fragment = block.fragments?.find((f) => f.fragment === `h${id}`)
    return `<th${attrs}>${fragment === undefined ? escapeHtml(String(def["title"] ?? "")) : cellOf(`h${id}`)}</th>`
  })
  const records = Object.values(data.records).toSorted((a, b) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0))
  const rows = records.map((record) => `<tr>${ids.map((id) => `<td>${cellOf(record.values[id])}</td>`).join("")}</tr>`)
  let attrs = typeof data["fullWidth"] === "boolean" ? ` data-full-width="${String(data["fullWidth"])}"` : ""
  if (typeof data["search"] === "boolean") attrs += ` data-search="${String(data["search"])}"`
  const head = view["hideHeader"] === true ? "" : `<thead><tr>${headers.join("")}</tr></thead>`
  return `<table${attrs}>${head}<tbody>${rows.join("")}</tbody></table>`
}
