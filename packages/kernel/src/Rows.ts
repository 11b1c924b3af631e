/**
 * Decoding what storage returns. SQL adapters describe each row they read with a schema and decode
 * it with a decoder compiled once per schema; a row that does not match is a defect naming its
 * table and field, never a value cast into a domain type.
 */
import { Effect, Option, Result, Schema, SchemaGetter, type SchemaAST } from "effect"

/** A `timestamptz` column: the driver gives a `Date` (pg, PGlite); text is accepted too. */
export const Timestamp: Schema.Codec<Date, Date | string> = Schema.Union([Schema.Date, Schema.String]).pipe(
  Schema.decodeTo(Schema.Date, {
    decode: SchemaGetter.transform((value: Date | string) => (typeof value === "string" ? new Date(value) : value)),
    encode: SchemaGetter.transform((date: Date) => date)
  })
)

/** A nullable `timestamptz` column. */
export const TimestampOrNull: Schema.Codec<Date | null, Date | string | null> = Schema.NullOr(Timestamp)

/** Guards of the schemas above whose AST the generic compiler below cannot read (they transform). */
type Guard = (value: unknown) => boolean
// quire-lint-allow module-state: marks the schemas made here at load (by AST, weakly); a fact of the schema, the same for every server
const special = new WeakMap<SchemaAST.AST, () => Guard | undefined>([
  [Timestamp.ast, () => (value) => value instanceof Date && !Number.isNaN(value.getTime())],
  // A number with effect's finite check: without this, every schema holding one (a page's cover,
  // a file's size, hence a whole revision) took the schema's path on every read.
  [Schema.Finite.ast, () => (value) => typeof value === "number" && Number.isFinite(value)]
])

/** A `json`/`jsonb` column holding `schema`: the driver gives it parsed; JSON text is accepted too. */
export const Json = <S extends Schema.Top>(schema: S) => {
  const json = Schema.Union([Schema.fromJsonString(schema), schema])
  // Parsed values (what the driver gives) take the fast path; text takes the schema's.
  special.set(json.ast, () => {
    const inner = guardOf(schema.ast)
    return inner === undefined ? undefined : (value) => typeof value !== "string" && inner(value)
  })
  return json
}

/** A row read from `table` does not match what the adapter expects of it. */
export class InvalidRow extends Error {
  override readonly name = "InvalidRow"
  constructor(readonly table: string, detail: string) {
    super(`Invalid row in ${table}: ${detail}`)
  }
}

/** Decodes the rows of one table (or one query's shape); build it once, next to the query. */
export interface RowDecoder<A> {
  /** One row; throws `InvalidRow` (use inside `Effect.sync` or `all`/`first`). */
  readonly decode: (row: unknown) => A
  /** Every row; a bad row is a defect. */
  readonly all: (rows: ReadonlyArray<unknown>) => Effect.Effect<Array<A>>
  /** The first row if there is one; a bad row is a defect. */
  readonly first: (rows: ReadonlyArray<unknown>) => Effect.Effect<Option.Option<A>>
}

/**
 * A decoder of `table`'s rows with `schema` (compiled here, once), optionally mapped to a domain
 * value by `f` (a plain function: the schema has already checked every field it reads).
 *
 * Rows are read on every request, and a revision's page tree can hold thousands of nodes, so a
 * row first meets a guard compiled from the schema's AST: a row it accepts is one the schema
 * accepts unchanged, and is taken as it is. Anything else (a value to convert, such as a timestamp
 * given as text, or a bad row) goes through the schema, which converts it or says what is wrong.
 */
export function decoder<S extends Schema.Decoder<unknown>>(table: string, schema: S): RowDecoder<S["Type"]>
export function decoder<S extends Schema.Decoder<unknown>, A>(
  table: string,
  schema: S,
  f: (row: S["Type"]) => A
): RowDecoder<A>
export function decoder<S extends Schema.Decoder<unknown>, A>(
  table: string,
  schema: S,
  f?: (row: S["Type"]) => A
): RowDecoder<A> {
  const run = Schema.decodeUnknownResult(schema)
  const fast = guardOf(schema.ast)
  const map = f ?? ((row: S["Type"]) => row as A)
  const decode = (row: unknown): A => {
    if (fast !== undefined && fast(row)) return map(row as S["Type"])
    const result = run(row)
    if (Result.isFailure(result)) throw new InvalidRow(table, result.failure.message)
    return map(result.success)
  }
  return {
    decode,
    all: (rows) => Effect.sync(() => rows.map(decode)),
    first: (rows) => Effect.sync(() => (rows.length === 0 ? Option.none() : Option.some(decode(rows[0]))))
  }
}

// quire-lint-allow module-state: a pure function of immutable schema ASTs remembered weakly; every server gets the same guard, and decoders are made at load
const compiled = new WeakMap<SchemaAST.AST, Guard | undefined>()

/**
 * A guard that accepts only values `ast` decodes to themselves (excess keys aside), or undefined
 * when the AST holds something it does not know (a transformation, a refinement, a declaration):
 * those values always take the schema's path.
 */
const guardOf = (ast: SchemaAST.AST): Guard | undefined => {
  if (compiled.has(ast)) return compiled.get(ast)
  const known = special.get(ast)
  if (known !== undefined) {
    const guard = known()
    compiled.set(ast, guard)
    return guard
  }
  if (ast.checks !== undefined || ast.encoding !== undefined) return remember(ast, undefined)
  switch (ast._tag) {
    case "String":
      return remember(ast, (value) => typeof value === "string")
    case "Number":
      return remember(ast, (value) => typeof value === "number" && Number.isFinite(value))
    case "Boolean":
      return remember(ast, (value) => typeof value === "boolean")
    case "Null":
      return remember(ast, (value) => value === null)
    case "Unknown":
      return remember(ast, () => true)
    case "Undefined":
      return remember(ast, (value) => value === undefined)
    case "Literal": {
      const literal = ast.literal
      return remember(ast, (value) => value === literal)
    }
    case "Suspend": {
      // Recursive schemas (a page's subpages): resolved on first use, after this node is registered.
      let inner: Guard | undefined | null = null
      const guard: Guard = (value) => {
        if (inner === null) inner = guardOf(ast.thunk())
        return inner !== undefined && inner(value)
      }
      return remember(ast, guard)
    }
    case "Union": {
      if (ast.encodingChecks !== undefined) return remember(ast, undefined)
      const members = ast.types.map(guardOf)
      if (members.some((member) => member === undefined)) return remember(ast, undefined)
      const guards = members as ReadonlyArray<Guard>
      return remember(ast, (value) => {
        for (let i = 0; i < guards.length; i++) if (guards[i]!(value)) return true
        return false
      })
    }
    case "Arrays": {
      if (ast.encodingChecks !== undefined || ast.elements.length > 0 || ast.rest.length !== 1) return remember(ast, undefined)
      const item = guardOf(ast.rest[0]!)
      if (item === undefined) return remember(ast, undefined)
      return remember(ast, (value) => {
        if (!Array.isArray(value)) return false
        for (let i = 0; i < value.length; i++) if (!item(value[i])) return false
        return true
      })
    }
    case "Objects": {
      if (ast.encodingChecks !== undefined || ast.indexSignatures.length > 1) return remember(ast, undefined)
      const properties: Array<{ readonly name: PropertyKey; readonly optional: boolean; readonly guard: Guard }> = []
      for (const property of ast.propertySignatures) {
        const guard = guardOf(property.type)
        if (guard === undefined) return remember(ast, undefined)
        properties.push({ name: property.name, optional: property.type.context?.isOptional === true, guard })
      }
      const index = ast.indexSignatures[0]
      let values: Guard | undefined
      if (index !== undefined) {
        values = properties.length === 0 && index.parameter._tag === "String" && index.parameter.checks === undefined
          ? guardOf(index.type)
          : undefined
        if (values === undefined) return remember(ast, undefined)
      }
      return remember(ast, (value) => {
        if (!isRecord(value)) return false
        for (let i = 0; i < properties.length; i++) {
          const { guard, name, optional } = properties[i]!
          if (name in value ? !guard(value[name]) : !optional) return false
        }
        if (values !== undefined) for (const key in value) if (!values(value[key])) return false
        return true
      })
    }
    default:
      return remember(ast, undefined)
  }
}

const isRecord = (value: unknown): value is Record<PropertyKey, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const remember = (ast: SchemaAST.AST, guard: Guard | undefined): Guard | undefined => {
  compiled.set(ast, guard)
  return guard
}
