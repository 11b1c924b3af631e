/** Three-way merge of reusable contents by id: each side's changes kept, the change request's winning where both changed one. */
import { assert, describe, it } from "@effect/vitest"
import { mergeReusableContents } from "../src/ReusableContentMerge.ts"

const rc = (id: string, title: string, document?: string) => ({ id, title, ...(document === undefined ? {} : { document }) })

describe("mergeReusableContents", () => {
  it("keeps main's changes and the change request's, in main's order then the change request's new ones", () => {
    const base = [rc("a", "A", "1"), rc("b", "B", "2"), rc("c", "C", "3")]
    const ours = [rc("a", "A main", "1"), rc("b", "B", "2"), rc("d", "D", "4")] // renamed a, deleted c, created d
    const theirs = [rc("a", "A", "1"), rc("b", "B", "2x"), rc("c", "C", "3"), rc("e", "E")] // rewrote b, created e
    assert.deepStrictEqual(mergeReusableContents(base, ours, theirs), [rc("a", "A main", "1"), rc("b", "B", "2x"), rc("d", "D", "4"), rc("e", "E")])
  })
  it("the change request wins where both changed one; its deletion deletes; its edit brings back one main deleted", () => {
    const base = [rc("a", "A", "1"), rc("b", "B", "2"), rc("c", "C", "3")]
    const ours = [rc("a", "A main", "1"), rc("b", "B", "2")]
    const theirs = [rc("a", "A theirs", "1"), rc("c", "C", "3y")]
    assert.deepStrictEqual(mergeReusableContents(base, ours, theirs), [rc("a", "A theirs", "1"), rc("c", "C", "3y")])
    assert.deepStrictEqual(mergeReusableContents(undefined, undefined, undefined), [])
  })
})
