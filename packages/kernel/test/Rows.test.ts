import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Option, Schema } from "effect"
import { Roles, Rows } from "../src/index.ts"

interface Node {
  readonly id: string
  readonly kind: "a" | "b"
  readonly tags?: Readonly<Record<string, string>> | undefined
  readonly target?: { readonly url: string } | { readonly page: string } | undefined
  readonly children: ReadonlyArray<Node>
}
const Node: Schema.Codec<Node> = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literals(["a", "b"]),
  tags: Schema.optional(Schema.Record(Schema.String, Schema.String)),
  target: Schema.optional(Schema.Union([Schema.Struct({ url: Schema.String }), Schema.Struct({ page: Schema.String })])),
  children: Schema.Array(Schema.suspend((): Schema.Codec<Node> => Node))
})

const Row = Schema.Struct({
  id: Schema.String,
  role: Roles.MemberRoleOrGuest,
  size: Schema.Number,
  done: Schema.Boolean,
  created_at: Rows.Timestamp,
  deleted_at: Rows.TimestampOrNull,
  tree: Rows.Json(Schema.Array(Node))
})
const rows = Rows.decoder("things", Row)

const at = new Date("2026-01-02T03:04:05.000Z")
const tree: ReadonlyArray<Node> = [
  { id: "n1", kind: "a", tags: { x: "y" }, children: [{ id: "n2", kind: "b", target: { page: "p" }, children: [] }] },
  { id: "n3", kind: "b", target: { url: "https://example.test" }, children: [] }
]
const row: typeof Row.Type = { id: "r1", role: "admin", size: 3, done: false, created_at: at, deleted_at: null, tree }

const defect = (value: unknown): string => {
  const exit = Effect.runSyncExit(rows.all([value]))
  assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause), `accepted ${JSON.stringify(value)}`)
  return Exit.isFailure(exit) ? String(Cause.squash(exit.cause)) : ""
}

describe("Rows", () => {
  it.effect("decodes timestamps given as dates or text, and JSON given parsed or as text", () =>
    Effect.gen(function*() {
      const users = Rows.decoder("users", Schema.Struct({ id: Schema.String, created_at: Rows.Timestamp }), (r) => ({
        id: r.id,
        createdAt: r.created_at
      }))
      assert.deepStrictEqual(yield* users.all([{ id: "a", created_at: at, extra: 1 }, { id: "b", created_at: "2026-01-02T03:04:05Z" }]), [
        { id: "a", createdAt: at },
        { id: "b", createdAt: at }
      ])
      const decoded = rows.decode({ ...row, created_at: "2026-01-02T03:04:05Z", tree: JSON.stringify(tree) })
      assert.deepStrictEqual(decoded, row)
      assert.isTrue(Option.isNone(yield* rows.first([])))
    }))

  it("takes a valid row as it is, as the schema would decode it", () => {
    assert.strictEqual(rows.decode(row), row)
    assert.deepStrictEqual(Schema.decodeUnknownSync(Row)(row), row)
  })

  it("takes a row of finite numbers and free-form values as it is, and refuses a number that is not finite", () => {
    const Page = Schema.Struct({
      id: Schema.String,
      height: Schema.optional(Schema.Finite),
      frontmatter: Schema.optional(Schema.Record(Schema.String, Schema.Unknown))
    })
    const pages = Rows.decoder("pages", Schema.Struct({ size: Schema.Finite, pages: Rows.Json(Schema.Array(Page)) }))
    const valid = { size: 2, pages: [{ id: "p1", height: 0.5, frontmatter: { tags: ["a"], n: null } }, { id: "p2" }] }
    assert.strictEqual(pages.decode(valid), valid)
    assert.strictEqual(pages.decode(valid).pages, valid.pages)
    assert.deepStrictEqual(pages.decode({ ...valid, pages: JSON.stringify(valid.pages) }), valid)
    for (const size of [Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(() => pages.decode({ ...valid, size }), /pages[\s\S]*\["size"\]/)
    }
    assert.throws(() => pages.decode({ ...valid, pages: [{ id: "p1", height: Number.NEGATIVE_INFINITY }] }), /\["pages"\]\[0\]\["height"\]/)
  })

  it("makes a row that does not match a defect naming the table and the field, however deep", () => {
    const cases: ReadonlyArray<readonly [unknown, string]> = [
      [{ ...row, role: "owner" }, "[\"role\"]"],
      [{ ...row, size: "3" }, "[\"size\"]"],
      [{ ...row, done: "t" }, "[\"done\"]"],
      [{ ...row, created_at: "not a date" }, "[\"created_at\"]"],
      [{ ...row, deleted_at: new Date(Number.NaN) }, "[\"deleted_at\"]"],
      [{ ...row, tree: "{not json" }, "[\"tree\"]"],
      [{ ...row, tree: [{ ...tree[0]!, kind: "c" }] }, "[\"tree\"][0][\"kind\"]"],
      [{ ...row, tree: [{ ...tree[0]!, tags: { x: 1 } }] }, "[\"tree\"][0][\"tags\"][\"x\"]"],
      [{ ...row, tree: [{ ...tree[0]!, children: [{ id: "n2", kind: "b", target: {}, children: [] }] }] }, "[\"tree\"][0][\"children\"][0][\"target\"]"],
      [{ ...row, tree: [{ id: "n4", kind: "a" }] }, "[\"tree\"][0][\"children\"]"]
    ]
    for (const [value, path] of cases) {
      const message = defect(value)
      assert.include(message, "things")
      assert.include(message, path)
    }
    const { id: _, ...withoutId } = row
    assert.include(defect(withoutId), "[\"id\"]")
  })
})
