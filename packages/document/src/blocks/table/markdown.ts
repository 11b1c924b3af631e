import type { Node as PMNode } from "@tiptap/pm/model"
import type { BlockMarkdown, MarkdownContext } from "../../codec/types.ts"
import { LIST_ITEM } from "../list/markdown.ts"

const DELIM_CELL = /^:?-+:?$/

/** Splits a table row on unescaped pipes; undefined when it has no pipe. */
export const splitRow = (line: string): Array<string> | undefined => {
  let s = line.trim()
  if (!s.includes("|")) return undefined
  if (s.startsWith("|")) s = s.slice(1)
  if (s.endsWith("|") && !s.endsWith("\\|")) s = s.slice(0, -1)
  const cells: Array<string> = []
  let cur = ""
  for (let i = 0; i < s.length; i++) {
    const math = s.startsWith("$$", i) ? s.indexOf("$$", i + 2) : -1
    if (math > 0) {
      // A formula is one cell: `$$a|b$$` is TeX, not two cells.
      cur += s.slice(i, math + 2)
      i = math + 1
    } else if (s[i] === "\\" && s[i + 1] === "|") {
      cur += "\\|"
      i++
    } else if (s[i] === "|") {
      cells.push(cur.trim())
      cur = ""
    } else cur += s[i]
  }
  cells.push(cur.trim())
  return cells
}

/** Whether `lines[i]` starts a table (a row followed by a matching delimiter row). */
export const startsTable = (lines: ReadonlyArray<string>, i: number): boolean => {
  const head = splitRow(lines[i]!)
  const delim = i + 1 < lines.length ? splitRow(lines[i + 1]!) : undefined
  return head !== undefined && delim !== undefined && delim.length === head.length && delim.every((c) => DELIM_CELL.test(c))
}

const cell = (ctx: MarkdownContext, type: string, text: string): PMNode =>
  ctx.schema.nodes[type]!.create(null, ctx.schema.nodes.paragraph!.create(null, ctx.parseInline(text.replace(/\\\|/g, "|"))))

export const table: BlockMarkdown = {
  parse: (ctx, lines, i) => {
    if (!startsTable(lines, i)) return undefined
    const head = splitRow(lines[i]!)!
    const delimiters = splitRow(lines[i + 1]!)!
    const rows = [ctx.schema.nodes.tableRow!.create({ line: lines[i] }, head.map((c) => cell(ctx, "tableHeader", c)))]
    let j = i + 2
    while (j < lines.length && !/^[ \t]*$/.test(lines[j]!) && !ctx.interrupts(lines, j)) {
      const cells = splitRow(lines[j]!) ?? [lines[j]!.trim()]
      if (cells.length > head.length) return undefined
      while (cells.length < head.length) cells.push("")
      rows.push(ctx.schema.nodes.tableRow!.create({ line: lines[j] }, cells.map((c) => cell(ctx, "tableCell", c))))
      j++
    }
    return { node: ctx.schema.nodes.table!.create({ delimiters, delimiterRow: lines[i + 1], pipes: lines[i]!.trim().startsWith("|") }, rows), end: j }
  },
  serialize: (ctx, node) => {
    const pipes = node.attrs.pipes as boolean
    const row = (cells: ReadonlyArray<string>): string => {
      const bare = cells.join(" | ")
      // Without outer pipes, a row that reads as another block (or as nothing) gets them.
      const ambiguous = cells.length === 1 || cells[0] === "" || cells[cells.length - 1] === "" || ctx.interrupts([bare], 0) || LIST_ITEM.test(bare)
      return pipes || ambiguous ? `| ${bare} |` : bare
    }
    const out: Array<string> = []
    let width = 0
    node.forEach((r, _o, index) => {
      const line = r.attrs.line as string | null
      if (line !== null && sameRow(ctx, line, r, index === 0 ? "tableHeader" : "tableCell")) {
        out.push(line)
        if (index === 0) {
          width = r.childCount
          out.push(delimiterRow(node, width, row))
        }
        return
      }
      const cells: Array<string> = []
      r.forEach((c) => void cells.push(ctx.serializeInline(c.firstChild!.content, false).replace(/\$\$[^\n]*?\$\$|\|/g, (found) => (found === "|" ? "\\|" : found)).replace(/\n/g, " ")))
      if (index === 0) {
        width = cells.length
        out.push(row(cells))
        out.push(delimiterRow(node, width, row))
      } else out.push(row(cells))
    })
    return out.join("\n")
  }
}

const delimiterRow = (node: PMNode, width: number, row: (cells: ReadonlyArray<string>) => string): string => {
  const kept = node.attrs.delimiterRow as string | null
  if (kept !== null && splitRow(kept)?.length === width) return kept
  const given = node.attrs.delimiters as ReadonlyArray<string>
  return row(Array.from({ length: width }, (_, k) => given[k] ?? "---"))
}

const sameRow = (ctx: MarkdownContext, line: string, r: PMNode, type: string): boolean => {
  const cells = splitRow(line)
  if (!cells || cells.length > r.childCount) return false
  while (cells.length < r.childCount) cells.push("")
  return cells.every((c, k) => cell(ctx, type, c).eq(r.child(k)))
}
