import { assert, describe, it } from "@effect/vitest"
import * as Segments from "../src/Segments.ts"

const page = [
  "---",
  "description: Front matter stays",
  "---",
  "",
  "# Install the tool",
  "",
  "Run the [installer](https://example.com/install \"Title\") then `npm i`.",
  "",
  "```bash",
  "echo hello world",
  "```",
  "",
  "{% hint style=\"info\" %}",
  "Read the guide first.",
  "{% endhint %}",
  "",
  "| Name | Value |",
  "| --- | --- |",
  "| Color | Blue |",
  "",
  "- First item",
  "- Second **bold** item",
  "",
  "<div class=\"x\">raw html</div>",
  "",
  "## Next",
  "",
  "Done 42."
].join("\n")

describe("Segments", () => {
  it("finds only text nodes, with exact offsets, and keeps everything else byte-identical", () => {
    const found = Segments.segments(page)
    const texts = found.map((s) => s.text)
    assert.deepStrictEqual(texts, [
      "Install the tool", "Run the", "installer", "then", "Read the guide first.", "Name", "Value", "Color", "Blue",
      "First item", "Second", "bold", "item", "Next", "Done 42."
    ])
    for (const s of found) assert.strictEqual(page.slice(s.start, s.end), s.text)
    const upper = Segments.apply(page, found, found.map((s) => s.text.toUpperCase()))
    assert.include(upper, "# INSTALL THE TOOL")
    assert.include(upper, "RUN THE [INSTALLER](https://example.com/install \"Title\") THEN `npm i`.")
    assert.include(upper, "```bash\necho hello world\n```")
    assert.include(upper, "{% hint style=\"info\" %}\nREAD THE GUIDE FIRST.\n{% endhint %}")
    assert.include(upper, "description: Front matter stays")
    assert.include(upper, "<div class=\"x\">raw html</div>")
    assert.include(upper, "| COLOR | BLUE |")
    assert.include(upper, "- SECOND **BOLD** ITEM")
    assert.deepStrictEqual(Segments.apply(page, found, texts), page)
  })

  it("chunks by section and size", () => {
    const found = Segments.segments(page)
    const chunks = Segments.chunks(found, 1000)
    assert.deepStrictEqual(chunks.map((c) => c[0]!.section), [1, 2])
    assert.isTrue(Segments.chunks(found, 10).length > 2)
    assert.strictEqual(Segments.words("Done 42. now"), 3)
  })
})
