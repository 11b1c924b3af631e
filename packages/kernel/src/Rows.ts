/**
 * Decoding what storage returns. SQL adapters describe each row they read with a schema and decode
 * it with a decoder compiled once per schema; a row that does not match is a defect naming its
 * table and field, never a value cast into a domain type.
 */
import { Effect, Option, Result, Schema, SchemaGetter } from "effect"

/** A `timestamptz` column: the driver gives a `Date` (pg, PGlite); text is accepted too. */
export const Timestamp: Schema.Codec<Date, Date | string> = Schema.Union([Schema.Date, Schema.String]).pipe(
  Schema.decodeTo(Schema.Date, {
    decode: SchemaGetter.transform((value: Date | string) => (typeof value === "string" ? new Date(value) : value)),
    encode: SchemaGetter.transform((date: Date) => date)
  })
)

/** A nullable `timestamptz` column. */
export const TimestampOrNull: Schema.Codec<Date | null, Date | string | null> = Schema.NullOr(Timestamp)

/** A `json`/`jsonb` column holding `schema`: the driver gives it parsed; JSON text is accepted too. */
export const Json = <S extends Schema.Top>(schema: S) => Schema.Union([Schema.fromJsonString(schema), schema])

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
  const decode = (row: unknown): A => {
    const result = run(row)
    if (Result.isFailure(result)) throw new InvalidRow(table, result.failure.message)
    return f === undefined ? result.success as A : f(result.success)
  }
  return {
    decode,
    all: (rows) => Effect.sync(() => rows.map(decode)),
    first: (rows) => Effect.sync(() => (rows.length === 0 ? Option.none() : Option.some(decode(rows[0]))))
  }
}
