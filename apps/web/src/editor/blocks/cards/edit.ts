/** Editing GitBook cards (a `<table data-view="cards">`) as data: cells, targets, cards added and removed. No DOM. */
import type { CardColumn } from "@quire/document"

export interface CardsData {
  readonly columns: ReadonlyArray<CardColumn>
  readonly rows: ReadonlyArray<ReadonlyArray<string>>
}

export const isHidden = (c: CardColumn): boolean => /\sdata-hidden\b/.test(c.attrs)
export const targetColumn = (columns: ReadonlyArray<CardColumn>): number => columns.findIndex((c) => /\sdata-card-target\b/.test(c.attrs))
/** The columns a reader sees on a card (title first). */
export const visibleColumns = (columns: ReadonlyArray<CardColumn>): Array<number> =>
  columns.map((c, i) => (isHidden(c) ? -1 : i)).filter((i) => i >= 0)

const STRONG = /^<strong>([^<]*)<\/strong>$/
const TABLE_TAG = /<\/?(?:td|tr|th|tbody|thead|table)\b/i

/** A cell as it is edited: the text of `<strong>text</strong>` (GitBook's titles), else the cell's HTML as written. */
export const cellText = (html: string): string => STRONG.exec(html)?.[1] ?? html

/** The cell for typed `text`, keeping a `<strong>` title strong; tags that would end the table are written as text. */
export const cellHtml = (previous: string, text: string): string => {
  const safe = TABLE_TAG.test(text) ? text.replace(/</g, "&lt;") : text
  return STRONG.test(previous) && safe !== "" && !safe.includes("<") ? `<strong>${safe}</strong>` : safe
}

const LINK = /^<a href="([^"]*)">([\s\S]*)<\/a>$/

/** A card's target as a path or URL (the `href` of the target cell's link). */
export const targetOf = (html: string): string => LINK.exec(html)?.[1]?.replace(/&quot;/g, "\"").replace(/&amp;/g, "&") ?? html

export const targetHtml = (previous: string, href: string): string => {
  if (href === "") return ""
  const escaped = href.replace(/&/g, "&amp;").replace(/"/g, "&quot;")
  const m = LINK.exec(previous)
  return m ? `<a href="${escaped}">${m[2] === m[1] ? escaped : m[2]}</a>` : `<a href="${escaped}">${escaped.replace(/</g, "&lt;")}</a>`
}

export const setCell = (data: CardsData, row: number, column: number, html: string): CardsData => ({
  columns: data.columns,
  rows: data.rows.map((r, i) => (i === row ? Array.from({ length: Math.max(r.length, column + 1) }, (_, k) => (k === column ? html : (r[k] ?? ""))) : r))
})

/** Sets a card's target, adding GitBook's hidden target column when the cards have none. */
export const setTarget = (data: CardsData, row: number, href: string): CardsData => {
  let column = targetColumn(data.columns)
  if (column < 0) {
    if (href === "") return data
    data = { columns: [...data.columns, { attrs: " data-hidden data-card-target data-type=\"content-ref\"", label: "" }], rows: data.rows.map((r) => [...r, ""]) }
    column = data.columns.length - 1
  }
  return setCell(data, row, column, targetHtml(data.rows[row]?.[column] ?? "", href))
}

export const addCard = (data: CardsData): CardsData => ({ columns: data.columns, rows: [...data.rows, data.columns.map(() => "")] })
export const removeCard = (data: CardsData, row: number): CardsData => ({ columns: data.columns, rows: data.rows.filter((_, i) => i !== row) })
