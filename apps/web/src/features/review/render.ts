/**
 * A block of a page drawn for the review's diff as the published site draws it: the site's classes
 * (`.markdown`, styled by /app/render.css) around the schema's own rendering, with what that
 * rendering leaves out filled in. An image loads from the stored file its `src` names (resolved
 * among the side's files), with its caption; each tab shows its title above its content (all
 * tabs open, as an expandable is); a hint has its style's colour and icon; cards are the site's card grid (with
 * their cover); a code block has its title; a formula is typeset above its TeX; a stored file shows its name, linked
 * to its download; an OpenAPI operation, an embed and a page link show what they name. Text from the page is put in
 * as text, never as HTML.
 */
import { type DOMOutputSpec, DOMSerializer, type Node as PMNode, type Schema } from "@tiptap/pm/model"
import { type CardColumn, getHtmlAttr, getParam, type HtmlAttr, type LiquidParam } from "@quire/document"
import type { FileLookup, FileUrlResolver } from "../files/file-urls.ts"

type NodeDraw = (node: PMNode) => DOMOutputSpec

const el = (tag: string, attrs: Record<string, string> = {}, ...children: ReadonlyArray<Node | string>): HTMLElement => {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, value)
  element.append(...children)
  return element
}

/** The text a reader sees of an HTML fragment the page holds (a caption, a card's cell): parsed inert, read as text. */
const textOf = (html: string): string =>
  new DOMParser().parseFromString(html, "text/html").body.textContent?.trim() ?? ""

/** The first link's target in an HTML fragment (a card's target or cover cell). */
const hrefOf = (html: string): string | undefined =>
  new DOMParser().parseFromString(html, "text/html").querySelector("a[href]")?.getAttribute("href") ?? undefined

const image = (src: string, alt: string, resolve: FileUrlResolver, width?: string): HTMLElement =>
  el("img", { src: (src === "" ? undefined : resolve(src)) ?? src, alt, loading: "lazy", ...(width ? { width } : {}) })

const params = (node: PMNode) => node.attrs.params as ReadonlyArray<LiquidParam>

const figure = (resolve: FileUrlResolver): NodeDraw => (node) => {
  const img = node.attrs.img as ReadonlyArray<HtmlAttr>
  const caption = textOf(node.attrs.caption as string)
  return el("figure", {},
    image(getHtmlAttr(img, "src") ?? "", getHtmlAttr(img, "alt") ?? "", resolve, getHtmlAttr(img, "width") ?? undefined),
    ...(caption === "" ? [] : [el("figcaption", {}, caption)]))
}

const hasFlag = (column: CardColumn, flag: string) => new RegExp(`\\s${flag}\\b`).test(column.attrs)

/** GitBook's card table as the site's grid: a card per row, its visible cells as text, its cover as an image. */
const cards = (resolve: FileUrlResolver): NodeDraw => (node) => {
  const columns = node.attrs.columns as ReadonlyArray<CardColumn>
  const rows = node.attrs.rows as ReadonlyArray<ReadonlyArray<string>>
  const cover = columns.findIndex((column) => hasFlag(column, "data-card-cover"))
  const visible = columns.flatMap((column, i) => hasFlag(column, "data-hidden") || hasFlag(column, "data-card-target") || i === cover ? [] : [i])
  const body = el("tbody", {}, ...rows.map((row) => {
    const coverSrc = cover < 0 ? undefined : hrefOf(row[cover] ?? "") ?? (textOf(row[cover] ?? "") || undefined)
    // The cover comes last so the site's first-cell rule still makes the title; review.css puts it on top.
    return el("tr", {},
      ...visible.map((i) => el("td", {}, textOf(row[i] ?? ""))),
      ...(coverSrc === undefined ? [] : [el("td", { class: "review-card-cover" }, image(coverSrc, "", resolve))]))
  }))
  return el("table", { class: "cards" }, body)
}

const tab: NodeDraw = (node) => {
  const panel = el("div", { class: "tab-panel" })
  const title = getParam(params(node), "title") ?? ""
  return { dom: el("div", { class: "review-tab", role: "group", "aria-label": title || "Tab" }, el("div", { class: "tab-label" }, title || "Untitled tab"), panel), contentDOM: panel }
}

const codeBlock: NodeDraw = (node) => {
  const code = el("code")
  const language = node.attrs.language as string
  const title = getParam((node.attrs.wrapper as ReadonlyArray<LiquidParam> | null) ?? [], "title") ?? ""
  const pre = el("pre", language === "" ? {} : { "data-language": language }, code)
  return { dom: el("div", { class: "code-block" }, ...(title === "" ? [] : [el("div", { class: "code-title" }, title)]), pre), contentDOM: code }
}

/** KaTeX's HTML and MathML of a display formula (loaded with the diff when a page has formulas). */
export type Typeset = (tex: string) => string

/**
 * A formula typeset as the site shows it, once KaTeX has loaded, above its TeX, which holds the
 * diff's marks: a reviewer sees the formula and what changed in its source.
 */
const mathBlock = (typeset: Typeset | undefined): NodeDraw => (node) => {
  const code = el("code")
  const drawn = el("div", { class: "review-math-typeset" })
  // KaTeX escapes the TeX and, untrusted, refuses links and raw HTML: its output is safe to insert.
  if (typeset !== undefined) drawn.innerHTML = typeset(node.textContent)
  return {
    dom: el("div", { class: "math math-display review-math", role: "group", "aria-label": "Formula" },
      ...(typeset === undefined ? [] : [drawn]),
      el("span", { class: "review-math-label" }, "TeX"),
      el("div", { role: "math", "aria-label": "Formula (TeX)" }, code)),
    contentDOM: code
  }
}

const openapiOperation: NodeDraw = (node) => {
  const method = (getParam(params(node), "method") ?? "").toLowerCase()
  const spec = getParam(params(node), "spec") ?? ""
  return el("div", { class: "openapi-operation openapi-card" },
    el("div", { class: "openapi-header" },
      el("span", { class: `openapi-method openapi-method-${method}` }, method.toUpperCase() || "?"),
      el("code", { class: "openapi-path" }, getParam(params(node), "path") ?? "")),
    el("p", { class: "openapi-note" }, spec === "" ? "OpenAPI operation" : `OpenAPI operation of the spec “${spec}”`))
}

const linkBlock = (kind: string, key: string, label: string): NodeDraw => (node) => {
  const target = getParam(params(node), key) ?? ""
  const words = textOf((node.attrs.body as string | null) ?? "")
  return el("div", { class: kind }, el("span", { class: `${kind}-link` },
    el("span", { class: `${kind}-title` }, words || target || label),
    ...(target === "" || words === "" ? [] : [el("span", { class: "embed-url" }, target)])))
}

/** A hint as the site draws it: its style's class (render.css gives it the colour and the icon), its blocks inside. */
const hint: NodeDraw = (node) => {
  const style = getParam(params(node), "style") ?? "info"
  const dom = el("div", { class: `hint hint-${style}`, "data-style": style })
  return { dom, contentDOM: dom }
}

/** A file block as the site draws it: the stored file's name and type, linked to its download (a src stored nowhere here shows its last part), and its caption. */
const fileBlock = (find: FileLookup): NodeDraw => (node) => {
  const src = getParam(params(node), "src") ?? ""
  const stored = src === "" ? undefined : find(src)
  const caption = textOf((node.attrs.body as string | null) ?? "")
  const label = [
    el("span", { class: "file-name" }, stored?.name ?? (src.split("/").pop() || "A file")),
    ...(stored?.contentType === undefined ? [] : [el("span", { class: "file-type" }, stored.contentType)])
  ]
  return el("div", { class: "file" },
    stored === undefined ? el("span", { class: "file-link broken-link" }, ...label) : el("a", { class: "file-link", href: stored.downloadURL, download: stored.name }, ...label),
    ...(caption === "" ? [] : [el("div", { class: "file-caption" }, caption)]))
}

const inlineImage = (resolve: FileUrlResolver): NodeDraw => (node) =>
  image(node.attrs.src as string, node.attrs.alt as string, resolve)

/** The drawing of one top-level block of a document of `schema`, its files looked up with `find`, its formulas typeset by `typeset` when given. */
export const blockDrawer = (schema: Schema, find: FileLookup, typeset?: Typeset) => {
  const resolve: FileUrlResolver = (src) => find(src)?.downloadURL
  const base = DOMSerializer.fromSchema(schema)
  const serializer = new DOMSerializer({
    ...base.nodes,
    figure: figure(resolve),
    image: inlineImage(resolve),
    cards: cards(resolve),
    tabs: () => {
      const dom = el("div", { class: "review-tabs" })
      return { dom, contentDOM: dom }
    },
    tab,
    hint,
    codeBlock,
    mathBlock: mathBlock(typeset),
    openapiOperation,
    embed: linkBlock("embed", "url", "Embedded content"),
    contentRef: linkBlock("content-ref", "url", "A page"),
    file: fileBlock(find)
  }, base.marks)
  return (node: PMNode): string => {
    const div = el("div")
    div.appendChild(serializer.serializeNode(node))
    // A reviewer reads what an expandable holds: drawn open, its summary as the reader sees it.
    for (const details of div.querySelectorAll("details")) details.open = true
    return div.innerHTML
  }
}
