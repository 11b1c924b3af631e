/**
 * Keyset pagination. A page of results carries an opaque cursor made of the sort key of its
 * last item, so the next page is a range scan that costs the same on page 1,000 as on page 1.
 */
import { Effect, Option, Schema } from "effect"
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { InvalidInput } from "./Errors.ts"

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
 * A cursor is `<key>.<signature>`, both base64url: the key as JSON and an HMAC-SHA256 of it. A
 * cursor we did not issue (crafted, altered, truncated) fails the signature before its key reaches
 * a query, so it is a 400 on `page`, never a malformed range scan. The key is random per process
 * until `useSecret` derives it from QUIRE_SECRET (the server does at startup), after which cursors
 * survive restarts and work across replicas.
 */
let signingKey: Buffer = randomBytes(32)

/** Signs and verifies cursors with a key derived from `secret` (and only used for cursors). */
export const useSecret = (secret: string): void => {
  signingKey = createHmac("sha256", secret).update("quire/cursors/v1").digest()
}

const sign = (payload: string): Buffer => createHmac("sha256", signingKey).update(payload).digest().subarray(0, 16)

export const encodeCursor = (key: CursorKey): string => {
  const payload = Buffer.from(JSON.stringify(key)).toString("base64url")
  return `${payload}.${sign(payload).toString("base64url")}`
}

/** What a key we issue looks like: a few strings and finite numbers. */
const isKey = (value: unknown): value is CursorKey =>
  Array.isArray(value) && value.length > 0 && value.length <= 8 &&
  value.every((part) =>
    (typeof part === "string" && part.length <= 1024 && !part.includes("\u0000")) ||
    (typeof part === "number" && Number.isFinite(part))
  )

const notACursor = new InvalidInput({ field: "page", reason: "is not a cursor returned by a previous page" })

const verified = (page: string): CursorKey | undefined => {
  const dot = page.indexOf(".")
  if (page.length > 4096 || dot <= 0) return undefined
  const payload = page.slice(0, dot)
  const given = Buffer.from(page.slice(dot + 1), "base64url")
  const expected = sign(payload)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  const parsed = Option.liftThrowable(() => JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as unknown)()
  return Option.isSome(parsed) && isKey(parsed.value) ? parsed.value : undefined
}

/** The key inside a cursor, or an InvalidInput on `page` for anything we did not issue. */
export const decodeCursor = (page: string): Effect.Effect<CursorKey, InvalidInput> =>
  Effect.suspend(() => {
    const key = verified(page)
    return key === undefined ? Effect.fail(notACursor) : Effect.succeed(key)
  })

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
    return String(x) < String(y) ? -1 : 1
  }
  return a.length - b.length
}

/**
 * Builds a page from rows fetched with `limit + 1` after the cursor: the extra row only says
 * that another page exists.
 */
export const pageFromRows = <A>(rows: ReadonlyArray<A>, limit: number, keyOf: (a: A) => CursorKey): Page<A> => {
  if (rows.length <= limit) return { items: rows }
  const items = rows.slice(0, limit)
  return { items, next: encodeCursor(keyOf(items[items.length - 1]!)) }
}

/** Keyset pagination over an in-memory collection (the memory adapters use it). */
export const paginateArray = <A>(
  all: Iterable<A>,
  keyOf: (a: A) => CursorKey,
  options: { readonly order: Order; readonly after: CursorKey | undefined; readonly limit: number }
): Page<A> => {
  const sign = options.order === "asc" ? 1 : -1
  const sorted = Array.from(all).sort((a, b) => sign * compareKeys(keyOf(a), keyOf(b)))
  const after = options.after
  const rest = after === undefined ? sorted : sorted.filter((a) => sign * compareKeys(keyOf(a), after) > 0)
  return pageFromRows(rest.slice(0, options.limit + 1), options.limit, keyOf)
}
