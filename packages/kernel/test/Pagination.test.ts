import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { Pagination, Roles } from "../src/index.ts"

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
          const result = Pagination.paginateArray(rows, key, { order, after, limit: 3 })
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

  it("has no next page when the last page is exactly full", () => {
    const result = Pagination.pageFromRows(rows.slice(0, 3), 3, key)
    assert.isUndefined(result.next)
  })
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
