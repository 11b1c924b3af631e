/** A page link card's body follows its URL while it is GitBook's plain link; words written otherwise stay. */
import { assert, describe, it } from "vitest"
import { followingBody } from "../../../../src/editor/blocks/content-ref/view.ts"

describe("a page link card's body", () => {
  it("follows the URL from the inserted card's link", () => {
    assert.strictEqual(followingBody("writing.md", "[page.md](page.md)"), "[writing.md](writing.md)")
  })
  it("follows it from a titled link and from no body", () => {
    assert.strictEqual(followingBody("guide/start.md", "[Getting started](old.md)\n"), "[guide/start.md](guide/start.md)")
    assert.strictEqual(followingBody("a.md", null), "[a.md](a.md)")
    assert.strictEqual(followingBody("a.md", ""), "[a.md](a.md)")
  })
  it("leaves a body that is more than one link", () => {
    assert.strictEqual(followingBody("a.md", "[One](one.md) and more words"), undefined)
    assert.strictEqual(followingBody("a.md", "[One](one.md)\n[Two](two.md)"), undefined)
  })
})
