/**
 * What commands print. Everything goes through Effect's `Console`, so tests capture it: results
 * on stdout (`Console.log`), problems on stderr (`Console.error`). With `--json` the API's
 * JSON is printed as is; otherwise aligned tables for people.
 */
import { Console, DateTime, Effect, Option } from "effect"
import { CliOutput } from "effect/cli"
import * as GlobalFlags from "./GlobalFlags.ts"

/** A column of a table: its header and how a row shows in it. */
export interface Column<A> {
  readonly header: string
  readonly value: (row: A) => string
  /**
   * Where the column gives way when a table would be wider than its width: cells are cut to fit,
   * an ellipsis where text was left out (`start`: the start is left out, as of a long path whose
   * end names the thing; `end`: the end). Columns without it are never cut.
   */
  readonly shrink?: "start" | "end"
}

const pad = (text: string, width: number) => text + " ".repeat(Math.max(0, width - CliOutput.displayWidth(text)))

const alignRows = (rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths: Array<number> = []
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, CliOutput.displayWidth(cell))
    })
  }
  return rows
    .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : pad(cell, widths[i] ?? 0))).join("  ").trimEnd())
    .join("\n")
}

/** Rows of cells as aligned lines, without headers. */
export const rows = (cells: ReadonlyArray<ReadonlyArray<string>>): string => alignRows(cells)

/** `text` cut to `width` display columns with an ellipsis at the side `side` left out. */
export const cut = (text: string, width: number, side: "start" | "end"): string => {
  if (CliOutput.displayWidth(text) <= width) return text
  const chars = Array.from(text)
  const kept: Array<string> = []
  let used = 1
  for (const char of side === "end" ? chars : chars.toReversed()) {
    used += CliOutput.displayWidth(char)
    if (used > width) break
    kept.push(char)
  }
  return side === "end" ? `${kept.join("")}…` : `…${kept.toReversed().join("")}`
}

/** The narrowest a shrinking column is cut to. */
const minShrunk = 12

/**
 * Widths for `cells` (rows of cells, the header first) so the table, with two spaces between
 * columns, fits `width`: the shrinking columns give up columns widest first, none below `minShrunk`.
 */
const fitWidths = (cells: ReadonlyArray<ReadonlyArray<string>>, shrinks: ReadonlyArray<boolean>, width: number): Array<number> => {
  const widths = shrinks.map((_, i) => Math.max(...cells.map((row) => CliOutput.displayWidth(row[i] ?? ""))))
  let over = widths.reduce((sum, w) => sum + w, 0) + 2 * (widths.length - 1) - width
  while (over > 0) {
    let widest = -1
    widths.forEach((w, i) => {
      if (shrinks[i] === true && w > minShrunk && (widest === -1 || w > widths[widest]!)) widest = i
    })
    if (widest === -1) break
    widths[widest] = widths[widest]! - 1
    over -= 1
  }
  return widths
}

/** Rows under upper-case headers, columns aligned; with `width`, shrinking columns are cut so the table fits it. */
export const table = <A>(columns: ReadonlyArray<Column<A>>, rows: ReadonlyArray<A>, width?: number): string => {
  const cells = [
    columns.map((column) => column.header.toUpperCase()),
    ...rows.map((row) => columns.map((column) => column.value(row)))
  ]
  if (width === undefined) return alignRows(cells)
  const widths = fitWidths(cells, columns.map((column) => column.shrink !== undefined), width)
  return alignRows(cells.map((row) => row.map((cell, i) => {
    const side = columns[i]?.shrink
    return side === undefined ? cell : cut(cell, widths[i]!, side)
  })))
}

/** The width tables for people are fitted to: a terminal of 100 columns. */
export const terminalWidth = 100

/** One record as `label  value` lines; lines without a value are left out. */
export const details = (fields: ReadonlyArray<readonly [label: string, value: string | undefined]>): string =>
  alignRows(fields.flatMap(([label, value]) => (value === undefined || value === "" ? [] : [[`${label}:`, value]])))

/** An ISO timestamp as `YYYY-MM-DD HH:MM` (UTC); anything else as given. */
export const when = (iso: string | undefined): string =>
  iso === undefined ? "" : Option.match(DateTime.make(iso), {
    onNone: () => iso,
    onSome: (dateTime) => DateTime.formatIso(dateTime).slice(0, 16).replace("T", " ")
  })

/** A size in bytes as people read it: `812 B`, `14.2 KB`, `3.1 MB` (1 KB = 1,024 bytes). */
export const bytes = (size: number): string => {
  if (size < 1024) return `${size} B`
  const units = ["KB", "MB", "GB", "TB"]
  let value = size / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`
}

export const yesNo = (value: boolean): string => (value ? "yes" : "no")

/** A role for people: `null` is a guest. */
export const role = (value: string | null): string => value ?? "guest"

/** Prints a result: its JSON with `--json`, else `render(value)`. */
export const print = Effect.fnUntraced(function*<A>(value: A, render: (value: A) => string) {
  const json = yield* GlobalFlags.Json
  yield* Console.log(json ? JSON.stringify(value, null, 2) : render(value))
})

/** Prints a list: its JSON envelope with `--json`, else a table (or `empty` when there are no rows). */
export const printList = <A>(
  list: { readonly items: ReadonlyArray<A> },
  columns: ReadonlyArray<Column<A>>,
  empty: string
) => print(list, ({ items }) => (items.length === 0 ? empty : table(columns, items)))

/** Prints a confirmation for people; with `--json`, prints `value` (nothing when undefined). */
export const done = Effect.fnUntraced(function*(message: string, value?: unknown) {
  const json = yield* GlobalFlags.Json
  if (!json) return yield* Console.log(message)
  if (value !== undefined) yield* Console.log(JSON.stringify(value, null, 2))
})
