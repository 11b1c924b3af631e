/**
 * A refused write read in one place for every form. The server's error envelope names the field
 * a refusal is about (`{"error":{"code":400,"message":"...","field":"a.b[0]"}}`), and the typed
 * client's own check of a payload (a `SchemaError`) carries the path of each issue. Both become
 * `{ status, field, message }`, so a form can show the words under the field they name. A message
 * naming no field is shown whole: field names are never read out of the words.
 */
import { Schema, SchemaIssue } from "effect"

export interface Refusal {
  readonly status: number
  /** The dotted path of the field at fault (`styling.primaryColor.light`, `emails[0]`), when the refusal names one. */
  readonly field: string | undefined
  readonly message: string
}

/** A path of an issue (`["a", 0, "b"]`) as the server writes it: `a[0].b`. */
const pathText = (path: ReadonlyArray<PropertyKey>): string =>
  path.map((key, i) => typeof key === "number" ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`).join("")

const standard = SchemaIssue.makeFormatterStandardSchemaV1()

/** The first issue of a schema refusal: its field and its words ("unknown field" for a key the contract does not name). */
const schemaRefusal = (error: Schema.SchemaError): Refusal => {
  const [first] = standard(error.issue).issues
  if (first === undefined) return { status: 400, field: undefined, message: error.message }
  const path = (first.path ?? []).map((segment) => typeof segment === "object" ? segment.key : segment)
  const message = first.message === "Expected no excess property" ? "unknown field" : first.message
  return { status: 400, field: path.length === 0 ? undefined : pathText(path), message }
}

/**
 * The words of a server refusal about `field`: the message without what names the field again
 * (`Invalid request body: `, `<field>: `) and without the problems after the first.
 */
const wordsAbout = (message: string, field: string): string => {
  const first = message.replace(/^Invalid (request body|query parameter|path parameter|header): /, "").split("; ")[0] ?? message
  return first.startsWith(`${field}: `) ? first.slice(field.length + 2) : first
}

/** The refusal in a failed call, or undefined when the server was not reached (or answered nothing readable). */
export const refusalOf = (error: unknown): Refusal | undefined => {
  if (Schema.isSchemaError(error)) return schemaRefusal(error)
  if (typeof error === "object" && error !== null && "error" in error && typeof error.error === "object" && error.error !== null &&
    "message" in error.error && typeof error.error.message === "string") {
    const status = "code" in error.error && typeof error.error.code === "number" ? error.error.code : 400
    const field = "field" in error.error && typeof error.error.field === "string" && error.error.field !== "" ? error.error.field : undefined
    return { status, field, message: field === undefined ? error.error.message : wordsAbout(error.error.message, field) }
  }
  return undefined
}
