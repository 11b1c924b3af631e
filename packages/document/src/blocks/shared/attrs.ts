/**
 * Attribute specs of the blocks: each attribute's default and the type and range of its values, as
 * ProseMirror's `validate` (run whenever a node or mark is made with a value: the codec, the editor, a
 * shared document read; and by `node.check()`). A shared document is input like any other: a value out
 * of its range must never reach the markdown (a heading level of 200,000,000 once wrote that many `#`).
 */

/** Throws a RangeError saying what the value should be when it is not. */
export type Validate = (value: unknown) => void

/** The most characters a text attribute holds: a page's markdown limit (content's `documentBytes`, 8 MiB). */
export const maxText = 8 * 1024 * 1024
/** The most blank lines a container keeps between its parts (more is read as raw markdown). */
export const maxBlankLines = 1_000
/** The most entries a list attribute (parameters, HTML attributes, cards' columns and rows) holds. */
export const maxEntries = 100_000

const shown = (value: unknown): string => {
  if (typeof value === "string") return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value)
  if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined) return String(value)
  return Array.isArray(value) ? "a list" : `a ${typeof value}`
}

const refuse = (want: string, value: unknown): never => {
  throw new RangeError(`must be ${want}, not ${shown(value)}`)
}

/** The value types of attributes, each a `Validate` whose message says what is wanted. */
export const is = {
  string: (max: number = maxText): Validate => (value) => {
    if (typeof value !== "string" || value.length > max) refuse(`a string of at most ${max} characters`, value)
  },
  boolean: ((value) => {
    if (typeof value !== "boolean") refuse("true or false", value)
  }) as Validate,
  int: (min: number, max: number): Validate => (value) => {
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) refuse(`an integer from ${min} to ${max}`, value)
  },
  number: (min: number, max: number): Validate => (value) => {
    if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max) refuse(`a number from ${min} to ${max}`, value)
  },
  oneOf: (...values: ReadonlyArray<string>): Validate => (value) => {
    if (typeof value !== "string" || !values.includes(value)) refuse(`one of ${values.map((v) => JSON.stringify(v)).join(", ")}`, value)
  },
  nullable: (inner: Validate): Validate => (value) => {
    if (value !== null) inner(value)
  },
  either: (...options: ReadonlyArray<Validate>): Validate => (value) => {
    const reasons: Array<string> = []
    for (const option of options) {
      try {
        option(value)
        return
      } catch (error) {
        reasons.push(error instanceof Error ? error.message : String(error))
      }
    }
    throw new RangeError(reasons.join(", or "))
  },
  list: (item: Validate, max: number = maxEntries): Validate => (value) => {
    if (!Array.isArray(value) || value.length > max) return refuse(`a list of at most ${max} entries`, value)
    value.forEach((entry, index) => within(`entry ${index}`, () => item(entry)))
  },
  record: (fields: Readonly<Record<string, Validate>>): Validate => (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return refuse("an object", value)
    for (const key of Object.keys(value)) if (!Object.hasOwn(fields, key)) throw new RangeError(`has no field ${JSON.stringify(key)}`)
    for (const [key, field] of Object.entries(fields)) within(key, () => field((value as Record<string, unknown>)[key] ?? null))
  }
}

/** Runs `check`, its message prefixed with where (`entry 2: must be …`). */
const within = (where: string, check: () => void): void => {
  try {
    check()
  } catch (error) {
    throw new RangeError(`${where}: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** A liquid tag's parameter as written (`LiquidParam`). */
export const isParam = is.record({ key: is.nullable(is.string()), value: is.string(), quote: is.oneOf("\"", "'", "") })
/** An HTML attribute as written (`HtmlAttr`). */
export const isHtmlAttr = is.record({ name: is.string(), value: is.nullable(is.string()), quote: is.oneOf("\"", "'", "") })
/** A count of blank lines kept as written. */
export const isBlankLines = is.int(0, maxBlankLines)

/** An attribute spec for source style: kept in the document, never rendered to HTML; `validate` its values' type and range. */
export const attr = <A>(value: A, validate: Validate): { default: A; rendered: false; keepOnSplit: false; validate: Validate } => ({
  default: value,
  rendered: false,
  keepOnSplit: false,
  validate
})

/** Every block keeps the markdown slice it was parsed from (see markdown/serialize.ts). */
export const sourceAttr = { source: attr<string | null>(null, is.nullable(is.string())) }

/** Attribute `name` as TipTap's own node declares it (`parent`: its attributes), with the type and range of its values added. */
export const checked = (parent: object | undefined, name: string, validate: Validate): Record<string, unknown> & { validate: Validate } => ({
  ...(parent as Record<string, Record<string, unknown>> | undefined)?.[name],
  validate
})

/** A number of repeated characters for writing, kept in `[min, max]` whatever the document holds. */
export const count = (value: unknown, min: number, max: number): number =>
  typeof value === "number" && Number.isFinite(value) ? Math.min(max, Math.max(min, Math.trunc(value))) : min
