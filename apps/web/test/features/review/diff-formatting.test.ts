import { describe, expect, it } from "vitest"
import { createMarkdownCodec, createSchema } from "@quire/document"
import { pageDiff, type RenderedDiff } from "../../../src/features/review/diff.ts"

const codec = createMarkdownCodec(createSchema())

const changed = (base: string, head: string) => {
  const d = pageDiff(codec, base, head) as RenderedDiff
  expect(d.kind).toBe("rendered")
  const rows = d.rows.filter((r) => r.kind !== "same")
  return {
    kinds: rows.map((r) => r.kind),
    formatted: rows.flatMap((r) => (r.formatted ?? []).map((x) => d.head.textBetween(x.from, x.to))),
    inserted: rows.flatMap((r) => (r.inserted ?? []).map((x) => d.head.textBetween(x.from, x.to))),
    deleted: rows.flatMap((r) => (r.deleted ?? []).map((x) => d.base.textBetween(x.from, x.to))),
    stops: d.changes.length,
    markdownOnly: d.markdownOnly
  }
}

describe("a block whose only change is its formatting", () => {
  it("is a changed block with the reformatted words marked, for bold, italic, code and links", () => {
    for (const [base, head, words] of [
      ["Alpha bold text.\n", "Alpha **bold** text.\n", "bold"],
      ["Alpha *soft* text.\n", "Alpha soft text.\n", "soft"],
      ["See docs here.\n", "See [docs](https://docs.test) here.\n", "docs"],
      ["See [docs](https://a.test) here.\n", "See [docs](https://b.test) here.\n", "docs"],
      ["Run the tool now.\n", "Run the `tool` now.\n", "tool"],
      ["- one\n- two words\n", "- one\n- two **words**\n", "words"]
    ] as const) {
      const out = changed(base, head)
      expect(out.kinds, base).toEqual(["changed"])
      expect(out.formatted, base).toEqual([words])
      expect(out.inserted, base).toEqual([])
      expect(out.deleted, base).toEqual([])
      expect(out.stops).toBe(1)
    }
  })

  it("keeps text and formatting changes apart, and how the markdown is written is no change", () => {
    const both = changed("Alpha bold text.\n", "Alpha **bold** texts.\n")
    expect(both.formatted).toEqual(["bold"])
    expect(both.inserted).toEqual(["s"])
    expect(changed("A *b* c.\n", "A _b_ c.\n")).toMatchObject({ kinds: [], stops: 0, markdownOnly: true })
  })
})
