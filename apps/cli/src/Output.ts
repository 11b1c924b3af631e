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

/** Rows under upper-case headers, columns aligned. */
export const table = <A>(columns: ReadonlyArray<Column<A>>, rows: ReadonlyArray<A>): string =>
  alignRows([
    columns.map((column) => column.header.toUpperCase()),
    ...rows.map((row) => columns.map((column) => column.value(row)))
  ])

/** One record as `label  value` lines; lines without a value are left out. */
export const details = (fields: ReadonlyArray<readonly [label: string, value: string | undefined]>): string =>
  alignRows(fields.flatMap(([label, value]) => (value === undefined || value === "" ? [] : [[`${label}:`, value]])))

/** An ISO timestamp as `YYYY-MM-DD HH:MM` (UTC); anything else as given. */
export const when = (iso: string | undefined): string =>
  iso === undefined ? "" : Option.match(DateTime.make(iso), {
    onNone: () => iso,
    onSome: (dateTime) => DateTime.formatIso(dateTime).slice(0, 16).replace("T", " ")
  })

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
