/**
 * Keyset pagination. A page of results carries an opaque cursor made of the sort key of its
 * last item, so the next page is a range scan that costs the same on page 1,000 as on page 1.
 */
import { Context, Effect, Layer, Option, Schema } from "effect"
import { compareCodePoints } from "./Collation.ts"
import { InvalidInput } from "./Errors.ts"
import * as SignedToken from "./SignedToken.ts"

/** The direction of a listing. */
export const Order = Schema.Literals(["asc", "desc"])
export type Order = typeof Order.Type

export const defaultLimit = 50
export const maxLimit = 1000

/** A sort key: compared element by element. */
export type CursorKey = ReadonlyArray<string | number>

export interface PageRequest {
  readonly page?: string | undefined
  readonly limit?: number | undefined
}

export interface Page<A> {
  readonly items: ReadonlyArray<A>
  /** Cursor of the next page, when there is one. */
  readonly next?: string | undefined
}

/*
 * A cursor is a signed token (`SignedToken`) of the key of the last item. A cursor we did not
 * issue (crafted, altered, truncated) fails the signature before its key reaches a query, so it is
 * a 400 on `page`, never a malformed range scan.
 */
const purpose = "cursors"

/**
 * The key cursors are signed with: a random key of the process unless `layerSigningKey` (or a test)
 * provides one.
 */
export const SigningKey = Context.Reference<SignedToken.Key>("@quire/kernel/Pagination/SigningKey", {
  defaultValue: () => SignedToken.processKey(purpose)
})

/**
 * `SigningKey` derived from the instance secret (`InstanceSecret`), so cursors survive restarts
 * and work across replicas; without a secret, the process's random key.
 */
export const layerSigningKey: Layer.Layer<never> = Layer.effect(SigningKey, SignedToken.keyFor(purpose))

/** What a key we issue looks like: a few strings and finite numbers. */
const Key = Schema.Array(
  Schema.Union([
    Schema.String.check(Schema.isMaxLength(1024), Schema.makeFilter((part: string) => !part.includes("\u0000"))),
    Schema.Finite
  ])
).check(Schema.isMinLength(1), Schema.isMaxLength(8))

/** A cursor as issued: whatever key the listing gave (`decodeCursor` refuses a key not of `Key`'s shape). */
const Issued = Schema.Struct({ k: Schema.Unknown })
const Verified = Schema.Struct({ k: Key })

/** The cursor of `key`, signed with the `SigningKey`. */
export const encodeCursor = (key: CursorKey): Effect.Effect<string> =>
  Effect.map(Effect.service(SigningKey), (signingKey) => SignedToken.sign(signingKey, Issued, { k: key }))

const notACursor = new InvalidInput({ field: "page", reason: "is not a cursor returned by a previous page" })

/** The key inside a cursor, or an InvalidInput on `page` for anything we did not issue. */
export const decodeCursor = (page: string): Effect.Effect<CursorKey, InvalidInput> =>
  Effect.flatMap(Effect.service(SigningKey), (signingKey) =>
    Option.match(SignedToken.verify(signingKey, Verified, page, 0), {
      onNone: () => Effect.fail(notACursor),
      onSome: ({ value }) => Effect.succeed(value.k)
    }))

/** What each element of a listing's key is: cursors of that listing hold exactly these. */
export type KeyShape = ReadonlyArray<"string" | "number" | "timestamp">

const fits = (key: CursorKey, shape: KeyShape): boolean =>
  key.length === shape.length &&
  key.every((part, i) =>
    shape[i] === "number"
      ? typeof part === "number"
      : typeof part === "string" && (shape[i] === "string" || (/^\d{4}-\d{2}-\d{2}T/.test(part) && !Number.isNaN(Date.parse(part))))
  )

/**
 * The cursor key of an optional page parameter, checked against the listing's key shape: a
 * cursor another listing issued (signed, but of another shape) is an InvalidInput on `page` too,
 * rather than a range scan over mismatched columns.
 */
export const afterOf = (request: PageRequest, shape: KeyShape): Effect.Effect<CursorKey | undefined, InvalidInput> =>
  Effect.flatMap(cursorOf(request), (key) =>
    key === undefined || fits(key, shape)
      ? Effect.succeed(key)
      : Effect.fail(new InvalidInput({ field: "page", reason: "is a cursor of another listing" })))

/** The cursor key of an optional page parameter. */
export const cursorOf = (request: PageRequest): Effect.Effect<CursorKey | undefined, InvalidInput> =>
  request.page === undefined || request.page === "" ? Effect.succeed(undefined) : decodeCursor(request.page)

export const limitOf = (request: PageRequest): number => request.limit ?? defaultLimit

export const compareKeys = (a: CursorKey, b: CursorKey): number => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!
    const y = b[i]!
    if (x === y) continue
    if (typeof x === "number" && typeof y === "number") return x < y ? -1 : 1
    return compareCodePoints(String(x), String(y)) < 0 ? -1 : 1
  }
  return a.length - b.length
}

/**
 * Builds a page from rows fetched with `limit + 1` after the cursor: the extra row only says
 * that another page exists.
 */
export const pageFromRows = <A>(rows: ReadonlyArray<A>, limit: number, keyOf: (a: A) => CursorKey): Effect.Effect<Page<A>> => {
  if (rows.length <= limit) return Effect.succeed({ items: rows })
  const items = rows.slice(0, limit)
  return Effect.map(encodeCursor(keyOf(items[items.length - 1]!)), (next) => ({ items, next }))
}

/** Keyset pagination over an in-memory collection (the memory adapters use it). */
export const paginateArray = <A>(
  all: Iterable<A>,
  keyOf: (a: A) => CursorKey,
  options: { readonly order: Order; readonly after: CursorKey | undefined; readonly limit: number }
): Effect.Effect<Page<A>> => {
  const sign = options.order === "asc" ? 1 : -1
  const sorted = Array.from(all).sort((a, b) => sign * compareKeys(keyOf(a), keyOf(b)))
  const after = options.after
  const rest = after === undefined ? sorted : sorted.filter((a) => sign * compareKeys(keyOf(a), after) > 0)
  return pageFromRows(rest.slice(0, options.limit + 1), options.limit, keyOf)
}
