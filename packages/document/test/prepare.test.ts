/** The codec's `prepare`: the checks `serialize` makes, done ahead in slices, change nothing it writes. */
import { describe, expect, it } from "vitest"
import { codec, replaceText } from "./support.ts"

const page = Array.from({ length: 40 }, (_, i) =>
  i % 10 === 0 ? `## Part ${i}\n` : `Paragraph ${i} with *emphasis*\nand a second line.\n`).join("\n") + "\n- a list\n- of two\n"

describe("prepare", () => {
  it("stops where its time runs out and goes on from there", () => {
    const doc = codec.parse(page)
    let calls = 0
    const stopped = codec.prepare(doc, 0, () => calls++ < 5)
    expect(stopped).toBe(6)
    expect(codec.prepare(doc, stopped, () => true)).toBe(doc.childCount)
  })

  it("leaves what serialize writes unchanged, untouched and after an edit", () => {
    const doc = codec.parse(page)
    codec.prepare(doc, 0, () => true)
    expect(codec.serialize(doc)).toBe(page)
    const edited = replaceText(doc, 3, "Paragraph 3", "Paragraph three")
    expect(codec.serialize(edited)).toBe(page.replace("Paragraph 3 ", "Paragraph three "))
  })
})
