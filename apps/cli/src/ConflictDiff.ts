/**
 * A change request's conflicts as a person reads them: each with its id, where it is and what
 * clashes; a content conflict as two line diffs from the common ancestor (main's and the change
 * request's). Coloured only when printed to a terminal.
 */
import { Config, Effect, Option } from "effect"
import { diffArrays } from "diff"
import type { MergeConflict } from "@quire/api"

type Conflict = typeof MergeConflict.Type

/** ANSI styles, or none. */
export interface Styles {
  readonly heading: (text: string) => string
  readonly removed: (text: string) => string
  readonly added: (text: string) => string
  readonly dim: (text: string) => string
}

const ansi = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`

export const colored: Styles = { heading: ansi(1, 22), removed: ansi(31, 39), added: ansi(32, 39), dim: ansi(2, 22) }
export const plain: Styles = { heading: (t) => t, removed: (t) => t, added: (t) => t, dim: (t) => t }

/** Colours when stdout is a terminal and `NO_COLOR` is not set. */
export const styles: Effect.Effect<Styles> = Effect.map(
  Effect.orElseSucceed(Config.option(Config.String("NO_COLOR")), () => Option.none<string>()),
  (noColor) => (process.stdout.isTTY === true && Option.isNone(noColor) ? colored : plain)
)

const lines = (text: string): Array<string> => (text === "" ? [] : text.split("\n"))

interface Context {
  readonly before: ReadonlyArray<string>
  readonly after: ReadonlyArray<string>
}

/** `side`'s lines as a diff from `base`'s: ` ` kept, `-` removed, `+` added; the merged lines around it dimmed. */
const lineDiff = (base: string, side: string, context: Context | undefined, s: Styles): Array<string> => {
  const out: Array<string> = []
  for (const change of diffArrays(lines(base), lines(side))) {
    for (const line of change.value) {
      if (change.removed) out.push(s.removed(`- ${line}`))
      else if (change.added) out.push(s.added(`+ ${line}`))
      else out.push(`  ${line}`)
    }
  }
  if (out.length === 0) out.push(s.dim("  (no lines)"))
  const around = (line: string) => (line === "" ? "" : s.dim(`  ${line}`))
  return [...(context?.before ?? []).map(around), ...out, ...(context?.after ?? []).map(around)]
}

/** A metadata value as stored (JSON), for people: `null` reads "none". */
const value = (json: string | undefined): string => (json === undefined || json === "null" ? "none" : json)

const indent = (text: string) => (text === "" ? "" : `    ${text}`)

/** A side of a delete-edit conflict on a page put under a deleted one: the delete, or the page put there. */
const put = (id: string | undefined) => (id === undefined || id === "null" ? "deleted this page" : `put page ${id} under it`)

/** A side of a delete-edit conflict. */
const did = (v: string | undefined) => (v === "null" ? "deleted it" : "edited it")

/** What main and the change request each did, as lines under the conflict's heading. */
const sides = (c: Conflict, s: Styles): Array<string> => {
  const side = (label: string, body: ReadonlyArray<string>) => [`  ${s.heading(label)}`, ...body.map(indent)]
  if (c.kind === "content" && c.hunks !== undefined && c.hunks.length > 0) {
    return c.hunks.flatMap((hunk) => [
      ...side("main (from the common ancestor):", lineDiff(hunk.base, hunk.ours, c.context, s)),
      ...side("change request (from the common ancestor):", lineDiff(hunk.base, hunk.theirs, c.context, s))
    ])
  }
  if (c.kind === "delete-edit" && c.field === "pages") {
    return [`  ${s.heading("main:")}           ${put(c.ours)}`, `  ${s.heading("change request:")} ${put(c.theirs)}`]
  }
  if (c.kind === "delete-edit") {
    return [`  ${s.heading("main:")}           ${did(c.ours)}`, `  ${s.heading("change request:")} ${did(c.theirs)}`]
  }
  if (c.kind === "structure" && c.field === "slug") {
    return [`  two sibling pages have the same slug: give the change request's page another slug (quire cr apply --page), then merge again`]
  }
  if (c.ours === undefined && c.theirs === undefined) return [`  the moves of both sides put the page under itself`]
  return [`  ${s.heading("main:")}           ${value(c.ours)}`, `  ${s.heading("change request:")} ${value(c.theirs)}`]
}

/** One conflict: `c1  path  kind field`, then both sides. */
export const renderConflict = (c: Conflict, s: Styles): string => {
  const what = c.kind === "content" ? "content" : `${c.kind}${c.field === undefined ? "" : ` ${c.field}`}`
  return [`${s.heading(c.id)}  ${c.path}  ${s.dim(what)}`, ...sides(c, s)].join("\n")
}

/** Every conflict, a blank line between them. */
export const renderConflicts = (conflicts: ReadonlyArray<Conflict>, s: Styles): string =>
  conflicts.map((c) => renderConflict(c, s)).join("\n\n")

/** How to resolve the conflicts of change request `ref` of space `spaceId`, as a command line. */
export const resolveHint = (spaceId: string, ref: string, conflicts: ReadonlyArray<Conflict>): string => {
  const first = conflicts[0]?.id ?? "c1"
  const example = conflicts.length > 1 ? ` --main ${first} --change-request ${conflicts[1]!.id}` : ` --markdown ${first}=FILE.md`
  return `quire cr resolve ${spaceId} ${ref}${example}`
}
