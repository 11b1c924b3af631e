import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { checkFresh, sameDocument } from "../src/index.ts"
import { document } from "./generate.ts"
import { codec } from "./support.ts"

const RUNS = 3000

describe("generated GitBook markdown (seeded fast-check)", () => {
  it("parses and serializes byte for byte", () => {
    fc.assert(
      fc.property(document, (md) => codec.serialize(codec.parse(md)) === md),
      { seed: 21, numRuns: RUNS }
    )
  })
  it("re-serialized from scratch, never loses anything (normalizing at worst)", () => {
    fc.assert(
      fc.property(document, (md) => checkFresh(codec, md).fidelity !== "lossy"),
      { seed: 2121, numRuns: RUNS }
    )
  })
  it("one block re-serialized, as after an edit, leaves the others' lines alone", () => {
    fc.assert(
      fc.property(document, fc.nat(), (md, pick) => {
        const doc = codec.parse(md)
        const target = doc.child(pick % doc.childCount)
        const out = codec.serialize(doc, (b) => b === target)
        let before = ""
        let after = ""
        let seen = false
        doc.forEach((c) => {
          if (c === target) seen = true
          else if (seen) after += c.attrs.source as string
          else before += c.attrs.source as string
        })
        return out.startsWith(before) && out.endsWith(after) && sameDocument(codec.parse(out), doc)
      }),
      { seed: 212121, numRuns: RUNS }
    )
  })
  it("covers the edge cases by name", () => {
    for (const md of ["", "\n", "\r\n", "a", "a\r\n", "  trailing  ", "\t\ttabs", "- a\n  - b\n    - c", "$$\n$$", "```", "{% endtabs %}"]) {
      expect(codec.serialize(codec.parse(md))).toBe(md)
      expect(checkFresh(codec, md).fidelity).not.toBe("lossy")
    }
  })
})
