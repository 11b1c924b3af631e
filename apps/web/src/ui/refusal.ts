/**
 * A refused write read in one place for every form. The typed client checks a payload with the
 * contract's own schema before sending it (a `SchemaError`, `<words>\n  at ["a"][0]["b"]`); the
 * server answers `{"error":{"code":400,"message":"Invalid request body: a.b: <words>"}}`. Both
 * become `{ status, field, message }`, so a form can show the words under the field they name.
 */
import { Schema } from "effect"

export interface Refusal {
  readonly status: number
  /** The dotted path of the field at fault (`styling.primaryColor.light`, `emails[0]`), when the words name one. */
  readonly field: string | undefined
  readonly message: string
}

/** A schema issue's `["a"][0]["b"]` as `a[0].b`, the server's way of naming a field. */
const pathOf = (at: string) => at.replace(/\["([^"]*)"\]/g, ".$1").replace(/^\./, "")

/** The problems of a schema message (each line of words, then the `at [...]` line naming its field). */
export const schemaProblems = (message: string): ReadonlyArray<{ readonly field: string | undefined; readonly message: string }> => {
  const problems: Array<{ field: string | undefined; message: string }> = []
  const lines = message.split("\n")
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim()
    if (line === "" || line.startsWith("at [")) continue
    const next = lines[i + 1]?.trim()
    const words = line === "Expected no excess property" ? "unknown field" : line
    problems.push(next?.startsWith("at [") ? { field: pathOf(next.slice(3)), message: words } : { field: undefined, message: words })
  }
  return problems
}

/** `a.b[0]: words` as its field and words; a nested schema message (`customization: …\n at [...]`) by its own path. */
const splitField = (text: string): { readonly field: string | undefined; readonly message: string } => {
  const stripped = text.replace(/^Invalid (request body|query parameter|path parameter|header): /, "").split("; ")[0] ?? text
  const match = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\])*): ([\s\S]+)$/.exec(stripped)
  if (match === null) return { field: undefined, message: stripped }
  if (/\n\s*at \[/.test(match[2]!)) return schemaProblems(match[2]!)[0] ?? { field: undefined, message: match[2]! }
  return { field: match[1], message: match[2]! }
}

/** The refusal in a failed call, or undefined when the server was not reached (or answered nothing readable). */
export const refusalOf = (error: unknown): Refusal | undefined => {
  if (Schema.isSchemaError(error)) {
    const [first] = schemaProblems(error.message)
    return { status: 400, ...(first ?? { field: undefined, message: error.message }) }
  }
  if (typeof error === "object" && error !== null && "error" in error && typeof error.error === "object" && error.error !== null &&
    "message" in error.error && typeof error.error.message === "string") {
    const status = "code" in error.error && typeof error.error.code === "number" ? error.error.code : 400
    return { status, ...splitField(error.error.message) }
  }
  return undefined
}
