import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import * as SignedToken from "../src/SignedToken.ts"
import { Pagination, Roles } from "../src/index.ts"

/** Cursors signed and verified with the key of `secret`, as `layerSigningKey` derives it. */
const withSecret = (secret: string) => Effect.provideService(Pagination.SigningKey, SignedToken.deriveKey(secret, "cursors"))

describe("Pagination", () => {
  const rows = Array.from({ length: 7 }, (_, i) => ({ id: `id${i}`, at: `2026-01-0${i + 1}` }))
  const key = (r: { id: string; at: string }) => [r.at, r.id] as const

  it.effect("walks every item exactly once, page by page, in either order", () =>
    Effect.gen(function*() {
      for (const order of ["asc", "desc"] as const) {
        const seen: Array<string> = []
        let page: string | undefined
        do {
          const after = yield* Pagination.cursorOf({ page })
          const result = yield* Pagination.paginateArray(rows, key, { order, after, limit: 3 })
          seen.push(...result.items.map((r) => r.id))
          page = result.next
        } while (page !== undefined)
        const expected = rows.map((r) => r.id)
        assert.deepStrictEqual(seen, order === "asc" ? expected : expected.reverse())
      }
    }))

  it.effect("rejects a cursor it did not issue, naming `page`", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(Pagination.decodeCursor("not-a-cursor"))
      assert.isTrue(Exit.isFailure(exit))
      const error = yield* Effect.flip(Pagination.decodeCursor(Buffer.from("{}").toString("base64url")))
      assert.strictEqual(error.field, "page")
    }))

  it.effect("rejects crafted, altered and foreign cursors, and keys of the wrong shape", () =>
    Effect.gen(function*() {
      const issued = yield* Pagination.encodeCursor(["2026-01-01", "id1"])
      assert.deepStrictEqual(yield* Pagination.decodeCursor(issued), ["2026-01-01", "id1"])
      const [payload, signature] = issued.split(".") as [string, string]
      const forged = Buffer.from(JSON.stringify(["9999-01-01", "id1"])).toString("base64url")
      const bad = [
        "W10", // `[]`, unsigned
        `${forged}.${signature}`,
        `${payload}.${signature.slice(1)}`,
        `${payload}.`,
        `.${signature}`,
        `${issued}x`,
        "",
        "a".repeat(10_000)
      ]
      for (const page of bad) {
        const error = yield* Effect.flip(Pagination.decodeCursor(page))
        assert.strictEqual(error.field, "page", page)
      }
      for (const key of [[], [Number.NaN], [{}], ["a\u0000b"], Array.from({ length: 9 }, () => 1)]) {
        const error = yield* Effect.flip(Pagination.decodeCursor(yield* Pagination.encodeCursor(key as never)))
        assert.strictEqual(error.field, "page", JSON.stringify(key))
      }
    }))

  it.effect("verifies cursors with the key of the configured secret", () =>
    Effect.gen(function*() {
      const issued = yield* Pagination.encodeCursor([1]).pipe(withSecret("one secret"))
      assert.strictEqual((yield* Effect.flip(Pagination.decodeCursor(issued).pipe(withSecret("another secret")))).field, "page")
      assert.strictEqual((yield* Effect.flip(Pagination.decodeCursor(issued))).field, "page")
      assert.deepStrictEqual(yield* Pagination.decodeCursor(issued).pipe(withSecret("one secret")), [1])
    }))

  it.effect("afterOf refuses a cursor of another listing's shape, naming `page`", () =>
    Effect.gen(function*() {
      const spaces = ["number", "timestamp", "string"] as const
      const issued = yield* Pagination.encodeCursor([1024, "2026-01-01T00:00:00.000Z", "s1"])
      assert.deepStrictEqual(yield* Pagination.afterOf({ page: issued }, spaces), [1024, "2026-01-01T00:00:00.000Z", "s1"])
      assert.isUndefined(yield* Pagination.afterOf({}, spaces))
      for (const other of [[7], ["2026-01-01T00:00:00.000Z", "o1"], ["x", "2026-01-01T00:00:00.000Z", "s1"], [1, "not a date", "s1"]]) {
        const error = yield* Effect.flip(Pagination.afterOf({ page: yield* Pagination.encodeCursor(other) }, spaces))
        assert.strictEqual(error.field, "page", JSON.stringify(other))
      }
    }))

  it.effect("has no next page when the last page is exactly full", () =>
    Effect.gen(function*() {
      const result = yield* Pagination.pageFromRows(rows.slice(0, 3), 3, key)
      assert.isUndefined(result.next)
    }))
})

describe("Roles", () => {
  it("orders roles as the API document lists them", () => {
    assert.isTrue(Roles.atLeast("admin", "create"))
    assert.isTrue(Roles.atLeast("create", "review"))
    assert.isTrue(Roles.atLeast("review", "edit"))
    assert.isTrue(Roles.atLeast("edit", "comment"))
    assert.isTrue(Roles.atLeast("comment", "read"))
    assert.isFalse(Roles.atLeast(null, "read"))
    assert.isFalse(Roles.atLeast("read", "comment"))
    assert.strictEqual(Roles.maxRole("edit", "review"), "review")
  })
})
