import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Option, Schema } from "effect"
import { Roles, Rows } from "../src/index.ts"

describe("Rows", () => {
  const Row = Schema.Struct({ id: Schema.String, role: Roles.MemberRole, created_at: Rows.Timestamp, tags: Rows.Json(Schema.Array(Schema.String)) })
  const rows = Rows.decoder("things", Row, (row) => ({ id: row.id, role: row.role, createdAt: row.created_at, tags: row.tags }))

  it.effect("decodes timestamps given as dates or text, and JSON given parsed or as text", () =>
    Effect.gen(function*() {
      const at = new Date("2026-01-02T03:04:05.000Z")
      const decoded = yield* rows.all([
        { id: "a", role: "admin", created_at: at, tags: ["x"], extra: 1 },
        { id: "b", role: "read", created_at: "2026-01-02T03:04:05Z", tags: "[\"y\"]" }
      ])
      assert.deepStrictEqual(decoded, [
        { id: "a", role: "admin", createdAt: at, tags: ["x"] },
        { id: "b", role: "read", createdAt: at, tags: ["y"] }
      ])
      assert.isTrue(Option.isNone(yield* rows.first([])))
    }))

  it.effect("makes a row that does not match a defect naming the table and the field", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(rows.first([{ id: "a", role: "owner", created_at: new Date(), tags: [] }]))
      assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause))
      const message = Exit.isFailure(exit) ? String(Cause.squash(exit.cause)) : ""
      assert.include(message, "things")
      assert.include(message, "[\"role\"]")
    }))
})
