/** Checking a writer's resolutions against a change request's conflicts, before anything is merged. */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import { checkChoices, type ConflictChoice } from "../src/ConflictResolution.ts"
import type { MergeConflict } from "../src/domain/MergeConflict.ts"
import { conflictKey } from "../src/ThreeWayMerge.ts"

const conflicts: ReadonlyArray<MergeConflict> = [
  { id: "c1", pageId: "p1", path: "guide", kind: "content", field: "document", hunk: 0, hunks: [{ base: "a", ours: "b", theirs: "c" }] },
  { id: "c2", pageId: "p2", path: "intro", kind: "metadata", field: "title", ours: "\"Main\"", theirs: "\"Mine\"" }
]

const check = (choices: ReadonlyArray<ConflictChoice>, against: ReadonlyArray<MergeConflict> = conflicts) =>
  Effect.runSync(Effect.result(checkChoices(against, choices)))

/** The message of a refused check ("field: reason"). */
const refusal = (choices: ReadonlyArray<ConflictChoice>, against?: ReadonlyArray<MergeConflict>) => {
  const result = check(choices, against)
  if (Result.isSuccess(result)) return assert.fail("expected a refusal")
  return result.failure.message
}

describe("checkChoices", () => {
  it("turns one choice per conflict into resolutions keyed by the conflicts", () => {
    const result = check([{ conflict: "c2", take: "change-request" }, { conflict: "c1", take: "markdown", markdown: "b and c" }])
    if (Result.isFailure(result)) return assert.fail(result.failure.message)
    assert.deepStrictEqual(result.success.get(conflictKey(conflicts[0]!)), { markdown: "b and c" })
    assert.deepStrictEqual(result.success.get(conflictKey(conflicts[1]!)), { side: "theirs" })
    const main = check([{ conflict: "c1", take: "main" }, { conflict: "c2", take: "main" }])
    assert.deepStrictEqual(Result.isSuccess(main) ? Array.from(main.success.values()) : [], [{ side: "ours" }, { side: "ours" }])
  })

  it("names the field of each mistake", () => {
    assert.match(refusal([{ conflict: "c9", take: "main" }]), /^resolutions\[0\]\.conflict: no conflict "c9" on this change request \(its conflicts: c1, c2\)/)
    assert.match(refusal([{ conflict: "c1", take: "main" }, { conflict: "c1", take: "change-request" }]), /^resolutions\[1\]\.conflict: c1 is resolved twice/)
    assert.match(refusal([{ conflict: "c1", take: "markdown" }]), /^resolutions\[0\]\.markdown: is required/)
    assert.match(refusal([{ conflict: "c1", take: "main", markdown: "x" }]), /^resolutions\[0\]\.markdown: is only given with take "markdown"/)
    assert.match(refusal([{ conflict: "c2", take: "markdown", markdown: "x" }]), /^resolutions\[0\]\.take: markdown resolves only content conflicts; c2 \(intro: metadata title\)/)
  })

  it("refuses a call that leaves a conflict without a resolution, naming it", () => {
    assert.strictEqual(
      refusal([{ conflict: "c1", take: "main" }]),
      "resolutions: every conflict is resolved in one call; without a resolution: c2 (intro: metadata title)"
    )
    assert.match(refusal([]), /^resolutions: every conflict is resolved in one call; without a resolution: c1 .*, c2 /)
  })

  it("sends a slug clash back to the change request: only renaming its page settles it", () => {
    const slug: ReadonlyArray<MergeConflict> = [{ id: "c1", pageId: "p3", path: "faq", kind: "structure", field: "slug", ours: "p4", theirs: "p3" }]
    assert.match(refusal([{ conflict: "c1", take: "main" }], slug), /^resolutions\[0\]\.take: c1 \(faq: structure slug\): two sibling pages have the same slug/)
  })
})
