/**
 * A page's freshness from its frontmatter's `quire` key: intervals in days, weeks, months or years,
 * days that exist, the state on a given day, values of the wrong shape reported and ignored, and
 * the frontmatter written back with a new verification keeping every other key.
 */
import { assert, describe, it } from "@effect/vitest"
import { dayOf, intervalDaysOf, pageFreshness, withFreshness } from "../src/freshness/PageFreshness.ts"

describe("page freshness", () => {
  it("reads intervals as a person writes them, within ten years", () => {
    assert.deepStrictEqual(
      [90, "90", "90d", "12w", "6m", "1y", " 2 W ", 0, -5, 1.5, "often", "11y", 3651].map(intervalDaysOf),
      [90, 90, 90, 84, 180, 365, 14, undefined, undefined, undefined, undefined, undefined, undefined]
    )
  })

  it("takes only days that exist", () => {
    assert.deepStrictEqual(
      ["2026-02-28", "2026-02-30", "2026-13-01", "26-01-01", "yesterday", new Date("2026-05-04T10:00:00Z"), 20260101].map(dayOf),
      ["2026-02-28", undefined, undefined, undefined, undefined, "2026-05-04", undefined]
    )
  })

  it("is stale the day after it is due, fresh on the day", () => {
    const frontmatter = { quire: { owners: ["ada@example.com", "ada@example.com"], verified: "2026-01-01", "verify-every": "30d" } }
    const onDue = pageFreshness(frontmatter, "2026-01-31")
    assert.deepStrictEqual([onDue.state, onDue.due, onDue.owners], ["fresh", "2026-01-31", ["ada@example.com"]])
    assert.strictEqual(pageFreshness(frontmatter, "2026-02-01").state, "stale")
    assert.strictEqual(pageFreshness({ quire: { verified: "2020-01-01" } }, "2026-01-01").state, "fresh")
    assert.strictEqual(pageFreshness({ quire: { "verify-every": 7 } }, "2026-01-01").state, "unverified")
    assert.strictEqual(pageFreshness({ tags: ["a"] }, "2026-01-01").state, "untracked")
  })

  it("reports what is wrong, naming the key, and ignores it", () => {
    const wrong = pageFreshness({ quire: { owners: [3], verified: "soon", "verify-every": "often" } }, "2026-01-01")
    assert.deepStrictEqual([wrong.state, wrong.owners, wrong.problems.length], ["untracked", [], 3])
    assert.match(wrong.problems.join("\n"), /quire\.owners[\s\S]*quire\.verified[\s\S]*quire\.verify-every/)
    assert.deepStrictEqual(pageFreshness({ quire: "yes" }, "2026-01-01").problems, ["`quire` is not a mapping; ignored"])
  })

  it("writes a verification back, keeping every other key", () => {
    const before = { tags: ["a"], quire: { owners: ["ada@example.com"], note: "kept" } }
    const after = withFreshness(before, { verified: "2026-03-01", intervalDays: 60 })
    assert.deepStrictEqual(after, { tags: ["a"], quire: { owners: ["ada@example.com"], note: "kept", verified: "2026-03-01", "verify-every": "60d" } })
    assert.deepStrictEqual(withFreshness({ quire: { owners: ["x"] } }, { owners: [] }), {})
  })
})
