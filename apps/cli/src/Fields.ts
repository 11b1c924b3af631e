/** Request fields from command-line values that may be absent: the key is present only when given. */
import { Option } from "effect"

/** `{ [key]: value }` when `value` is Some, else `{}`. */
export const optional = <const K extends string, A>(key: K, value: Option.Option<A>): { readonly [P in K]?: A } =>
  Option.match(value, {
    onNone: () => ({}),
    // A computed key widens to `string`; the mapped type says what it is.
    onSome: (value) => ({ [key]: value }) as { readonly [P in K]?: A }
  })

/** `{ [key]: values }` when there is at least one value (a repeatable flag), else `{}`. */
export const nonEmpty = <const K extends string, A>(key: K, values: ReadonlyArray<A>) =>
  optional(key, values.length === 0 ? Option.none() : Option.some(values))
