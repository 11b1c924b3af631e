/**
 * The sites screens' reading of a refused write (ui/refusal.ts): the field it names, as a dotted
 * path, and its words, so a form shows them under that field or, naming none, above its buttons.
 */
import { refusalOf } from "../../ui/refusal.ts"
import { messageOf as loadMessageOf } from "../../ui/States.tsx"

export interface Problem {
  /** The dotted path of the field at fault (`styling.primaryColor.light`), when the message names one. */
  readonly field: string | undefined
  readonly message: string
}

/** The problem of a failed write: the field it names and its words. */
export const problemOf = (error: unknown): Problem => {
  const refusal = refusalOf(error)
  return refusal === undefined ? { field: undefined, message: loadMessageOf(error) } : { field: refusal.field, message: refusal.message }
}

/** The words for `field` (its own path or one under it), if the problem names it. */
export const messageFor = (problem: Problem | undefined, ...fields: ReadonlyArray<string>): string | undefined => {
  if (problem?.field === undefined) return undefined
  const at = problem.field
  return fields.some((field) => at === field || at.startsWith(`${field}.`) || at.startsWith(`${field}[`)) ? problem.message : undefined
}

/** The words when the problem names none of `fields` (said once, above the form's buttons). */
export const messageElse = (problem: Problem | undefined, ...fields: ReadonlyArray<string>): string | undefined =>
  problem === undefined || messageFor(problem, ...fields) !== undefined ? undefined : problem.field === undefined ? problem.message : `${problem.field}: ${problem.message}`
