/**
 * GitBook's card grid (`<table data-view="cards">`) as GitBook's renderer draws it: a card a row,
 * its cover on top (the dark cover's variant in dark mode), then the cells of its shown columns,
 * the whole card a link to its target. Column titles are not drawn, nor the cells of the cover,
 * target and hidden columns. A table that names none of those columns stays the table it is.
 */
import type { Element, ElementContent } from "hast"
import { element, text } from "./Hast.ts"
import { tokenize } from "./HtmlFragment.ts"

/** How a card grid's covers and targets become published URLs (the site's resolvers). */
export interface CardLinks {
  /** A link's published URL; undefined keeps an external URL and leaves an internal one without a link. */
  readonly resolveLink: (url: string) => string | undefined
  /** A file's published URL (`.gitbook/assets/x.png`); undefined shows no cover. */
  readonly resolveFile: (ref: string) => { readonly url: string } | undefined
  /** The title of the page a link points to, for a column of page links (`data-type="content-ref"`); default the link's text. */
  readonly resolveTitle?: ((url: string) => string | undefined) | undefined
  /** Where the links and images whose URL is set are recorded, for the site's link pass to leave them. */
  readonly resolved?: WeakSet<Element>
}

/** A card grid's links and covers as written, for the site's link pass to resolve. */
export const linksAsWritten: CardLinks = { resolveLink: (url) => url, resolveFile: (ref) => ({ url: ref }) }

/** What drawing a card grid needs: the resolvers, and the site's drawing of an author's HTML (a cell's). */
export interface CardOptions extends CardLinks {
  readonly html: (html: string) => Array<ElementContent>
}

type Attributes = ReadonlyArray<readonly [string, string]>

interface Column {
  readonly attributes: Attributes
}

interface CardTable {
  readonly attributes: Attributes
  readonly columns: ReadonlyArray<Column>
  /** Each row's cells, their inner HTML. */
  readonly rows: ReadonlyArray<ReadonlyArray<string>>
}

const has = (attributes: Attributes, name: string): boolean => attributes.some(([key]) => key === name)
const valueOf = (attributes: Attributes, name: string): string | undefined => attributes.find(([key]) => key === name)?.[1]

const attributesOf = (tag: string): Attributes => {
  const token = tokenize(tag)[0]
  return token?.kind === "open" ? token.attributes : []
}

const tableTag = /<(\/?)(table|thead|tbody|tfoot|tr|th|td)(?=[\s/>])[^>]*>/gi

/** The table's columns (its `<thead>` cells) and rows of cells; the tables a cell holds are its content. */
const readTable = (html: string): CardTable | undefined => {
  let attributes: Attributes | undefined
  const columns: Array<Column> = []
  const rows: Array<Array<string>> = []
  let depth = 0
  let head = false
  let row: Array<string> | undefined
  let cell: { readonly start: number; readonly header: boolean; readonly attributes: Attributes } | undefined
  const endCell = (at: number) => {
    if (cell === undefined) return
    if (cell.header && head) columns.push({ attributes: cell.attributes })
    else (row ??= []).push(html.slice(cell.start, at))
    cell = undefined
  }
  const endRow = () => {
    if (row !== undefined && !head) rows.push(row)
    row = undefined
  }
  for (const match of html.matchAll(tableTag)) {
    const closing = match[1] === "/"
    const name = match[2]!.toLowerCase()
    if (name === "table") {
      depth += closing ? -1 : 1
      if (!closing && depth === 1) attributes = attributesOf(match[0])
      if (closing && depth === 0) {
        endCell(match.index)
        endRow()
        break
      }
      continue
    }
    if (depth !== 1) continue
    switch (name) {
      case "thead":
      case "tbody":
      case "tfoot":
        endCell(match.index)
        endRow()
        head = name === "thead" && !closing
        break
      case "tr":
        endCell(match.index)
        endRow()
        if (!closing) row = []
        break
      default:
        endCell(match.index)
        if (!closing) cell = { start: match.index + match[0].length, header: name === "th", attributes: attributesOf(match[0]) }
    }
  }
  return attributes === undefined ? undefined : { attributes, columns, rows }
}

/** The URL a cell links to or shows: its first link's, else its first image's. */
const urlIn = (cell: string): string | undefined => {
  for (const token of tokenize(cell)) {
    if (token.kind !== "open") continue
    const url = token.name === "a" ? valueOf(token.attributes, "href") : token.name === "img" ? valueOf(token.attributes, "src") : undefined
    if (url !== undefined && url.trim() !== "") return url.trim()
  }
  return undefined
}

const isWeb = /^(?:https?:)?\/\//i
const isExternal = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i

/** A card's target as the site's link pass resolves links: a page, a file, an anchor or another site; undefined for a broken one. */
const targetOf = (href: string, links: CardLinks): { readonly href: string; readonly rel?: ReadonlyArray<string> } | undefined => {
  if (href.startsWith("#")) return { href }
  const to = links.resolveLink(href) ?? (isExternal.test(href) ? undefined : links.resolveFile(href)?.url)
  if (to !== undefined) return { href: to }
  if (isWeb.test(href)) return { href, rel: ["noopener"] }
  return /^(?:mailto|tel):/i.test(href) ? { href } : undefined
}

/** A cover's image: Quire's file, or an image on the web; undefined for one Quire cannot show. */
const coverOf = (ref: string | undefined, className: Array<string>, links: CardLinks): Element | undefined => {
  if (ref === undefined) return undefined
  const url = links.resolveFile(ref)?.url ?? (/^https?:\/\//i.test(ref) ? ref : undefined)
  if (url === undefined) return undefined
  const img = element("img", { src: url, alt: "", loading: "lazy", className }, [])
  links.resolved?.add(img)
  return img
}

/** A cell of a column of page links: a link titled by its page, as GitBook shows a content reference. */
const pageLinkCell = (cell: string, options: CardOptions): Array<ElementContent> => {
  const href = urlIn(cell)
  if (href === undefined) return options.html(cell)
  const written = tokenize(cell).flatMap((token) => (token.kind === "text" ? [token.value] : [])).join("").trim()
  const title = options.resolveTitle?.(href) ?? (written === "" ? href : written)
  return [element("a", { href }, [text(title)])]
}

/** Links inside a card that is a link itself are its words (a link cannot hold another). */
const unlinked = (nodes: Array<ElementContent>): Array<ElementContent> =>
  nodes.map((node) => {
    if (node.type !== "element") return node
    const children = unlinked(node.children)
    if (node.tagName !== "a") return { ...node, children }
    const properties = { ...node.properties }
    for (const name of ["href", "rel", "download"]) delete properties[name]
    return { ...node, tagName: "span", properties, children }
  })

const isBlank = (nodes: ReadonlyArray<ElementContent>): boolean =>
  nodes.every((node) => (node.type === "text" ? node.value.trim() === "" : node.type !== "element"))

/**
 * A card grid's HTML as GitBook's renderer draws it: a `cards` grid of `card`s, each a link when
 * its row has a target. A table without cover, target or hidden columns is drawn as its HTML.
 */
export const cardGrid = (html: string, options: CardOptions): Array<ElementContent> => {
  const table = readTable(html)
  const column = (name: string) => table?.columns.findIndex((c) => has(c.attributes, name)) ?? -1
  const cover = column("data-card-cover")
  const coverDark = column("data-card-cover-dark")
  const target = column("data-card-target")
  if (table === undefined || (cover === -1 && target === -1 && !table.columns.some((c) => has(c.attributes, "data-hidden")))) return options.html(html)
  // GitBook shows the columns not hidden, a target's too (its page's title), never a cover's.
  const shown = table.columns.flatMap((c, k) => (k === cover || k === coverDark || has(c.attributes, "data-hidden") ? [] : [k]))
  const cards = table.rows.map((row): Element => {
    const href = target === -1 ? undefined : urlIn(row[target] ?? "")
    const to = href === undefined ? undefined : targetOf(href, options)
    const light = coverOf(urlIn(row[cover] ?? ""), ["card-cover"], options)
    const dark = light === undefined || coverDark === -1 ? undefined : coverOf(urlIn(row[coverDark] ?? ""), ["card-cover", "card-cover-dark"], options)
    if (light !== undefined && dark !== undefined) light.properties["className"] = ["card-cover", "card-cover-light"]
    const cells = shown.flatMap((k) => {
      const drawn = valueOf(table.columns[k]!.attributes, "data-type") === "content-ref" ? pageLinkCell(row[k] ?? "", options) : options.html(row[k] ?? "")
      return isBlank(drawn) ? [] : [element("div", { className: ["card-cell"] }, to === undefined ? drawn : unlinked(drawn))]
    })
    const children = [...(light === undefined ? [] : [light]), ...(dark === undefined ? [] : [dark]), element("div", { className: ["card-body"] }, cells)]
    if (to === undefined) return element("div", { className: ["card"] }, children)
    const card = element("a", { href: to.href, className: ["card"], ...(to.rel === undefined ? {} : { rel: [...to.rel] }) }, children)
    options.resolved?.add(card)
    return card
  })
  const large = valueOf(table.attributes, "data-card-size") === "large"
  return [element("div", { className: large ? ["cards", "cards-large"] : ["cards"] }, cards)]
}
