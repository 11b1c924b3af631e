import type { BlockMarkdown } from "../../codec/types.ts"
import type { CardColumn } from "./node.ts"

const TABLE = /^<table((?:\s+[^>]*)?\sdata-view="cards"(?:\s+[^>]*)?)><thead><tr>(.*?)<\/tr><\/thead><tbody>(.*)<\/tbody><\/table>$/

const render = (tableAttrs: string, columns: ReadonlyArray<CardColumn>, rows: ReadonlyArray<ReadonlyArray<string>>): string =>
  `<table${tableAttrs}><thead><tr>${columns.map((c) => `<th${c.attrs}>${c.label}</th>`).join("")}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`)
    .join("")}</tbody></table>`

export const cards: BlockMarkdown = {
  parse: (ctx, lines, i) => {
    const line = lines[i]!
    const m = TABLE.exec(line)
    if (!m) return undefined
    const columns = [...m[2]!.matchAll(/<th((?:\s[^>]*)?)>(.*?)<\/th>/g)].map((c) => ({ attrs: c[1]!, label: c[2]! }))
    const rows = [...m[3]!.matchAll(/<tr>(.*?)<\/tr>/g)].map((r) => [...r[1]!.matchAll(/<td>(.*?)<\/td>/g)].map((c) => c[1]!))
    if (render(m[1]!, columns, rows) !== line) return undefined
    return { node: ctx.schema.nodes.cards!.create({ tableAttrs: m[1], columns, rows }), end: i + 1 }
  },
  serialize: (_ctx, node) =>
    render(node.attrs.tableAttrs as string, node.attrs.columns as ReadonlyArray<CardColumn>, node.attrs.rows as ReadonlyArray<ReadonlyArray<string>>)
}
