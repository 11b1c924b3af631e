import { assert, describe, it } from "@effect/vitest"
import { parseBody } from "@quire/markdown"
import { visit } from "unist-util-visit"
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

/** The nodes markdown makes of a document, but text and paragraphs: links and images with their URL. */
const structureOf = (markdown: string) => {
  const nodes: Array<string> = []
  visit(parseBody(markdown), (node) => {
    if (node.type !== "text" && node.type !== "paragraph" && node.type !== "root") nodes.push("url" in node ? `${node.type}:${String(node.url)}` : node.type)
  })
  return nodes
}

describe("Segments", () => {
  it("makes each paragraph, heading and cell one segment, its inline markup as tags, and keeps everything else byte-identical", () => {
    const found = Segments.segments(page)
    const texts = found.map((s) => s.text)
    assert.deepStrictEqual(texts, [
      "Install the tool", "Run the <1>installer</1> then <2/>.", "Read the guide first.", "Name", "Value", "Color", "Blue",
      "First item", "Second <1>bold</1> item", "Next", "Done 42."
    ])
    assert.deepStrictEqual(found[1]!.marks, [{ open: "[", close: "](https://example.com/install \"Title\")" }, { open: "`npm i`" }])
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

  it("a sentence with formatting is one segment, and the translated markup is put back where the provider moved it", () => {
    const markdown = "Welcome to the **Acme** handbook. Read [the *quick* start](quickstart.md) first, {{ product.name }} users!\n\n" +
      "## Setup <a href=\"#setup\" id=\"setup\"></a>\n\n| Step | What |\n| --- | --- |\n| 1 | Open ~~the~~ `quire` app |\n"
    const found = Segments.segments(markdown)
    assert.deepStrictEqual(found.map((s) => s.text), [
      "Welcome to the <1>Acme</1> handbook. Read <2>the <3>quick</3> start</2> first, <4/> users!",
      "Setup", "Step", "What", "Open <1>the</1> <2/> app"
    ])
    const french = [
      "Bienvenue dans le manuel <1>Acme</1>. Lisez d'abord <2>le démarrage <3>rapide</3></2>, utilisateurs de <4/> !",
      "Installation", "Étape", "Quoi", "Ouvrir l'app <2/> <1>la</1>"
    ]
    assert.strictEqual(
      Segments.apply(markdown, found, french),
      "Bienvenue dans le manuel **Acme**. Lisez d'abord [le démarrage *rapide*](quickstart.md), utilisateurs de {{ product.name }} !\n\n" +
        "## Installation <a href=\"#setup\" id=\"setup\"></a>\n\n| Étape | Quoi |\n| --- | --- |\n| 1 | Ouvrir l'app `quire` ~~la~~ |\n"
    )
    // Tags lost or crossed: the segment stays as written (never a link without its URL); the others are translated.
    const lost = Segments.apply(markdown, found, ["Bienvenue dans le manuel Acme.", "Installation", "Étape", "Quoi", "<1>Ouvrir <2/></1> app </1>"])
    assert.include(lost, "Welcome to the **Acme** handbook. Read [the *quick* start](quickstart.md) first")
    assert.include(lost, "## Installation <a")
    assert.include(lost, "| Open ~~the~~ `quire` app |")
    assert.strictEqual(Segments.words(found[0]!.text), 11)
  })

  it("inserts what a provider answers as text: a link, an image, HTML, a block, a table cell or a tag it adds is escaped", () => {
    const found = Segments.segments(page)
    const injections = [
      "Click [here](https://evil.example/phish)",
      "![tracker](https://evil.example/pixel.png)",
      "<img src=x onerror=alert(1)>",
      "Hello\n\n# Owned\n\n> quoted",
      "cell | extra cell",
      "{% embed url=\"https://evil.example\" %}",
      "Visit https://evil.example or www.evil.example or mail a@evil.example",
      // Closes the link the segment sits in and opens one of its own.
      "text](https://evil.example) [more"
    ]
    for (const injected of injections) {
      // Each segment's tags are kept, so the injection sits beside the source's own markup.
      const out = Segments.apply(page, found, found.map((s) => `${injected} ${s.text}`))
      assert.deepStrictEqual(structureOf(out), structureOf(page), injected)
      assert.notInclude(out, "](https://evil.example", injected)
      assert.notMatch(out, /(?<!\\)<img/, injected)
      assert.notInclude(out, "{% embed", injected)
      // The words are still there, as text.
      assert.include(out.replace(/[\\\u2060]/g, ""), injected.replace(/\s*\n\s*/g, " "), injected)
    }
    // A translation that only changes words keeps its characters, brackets included, unescaped.
    const tagged = Segments.apply(page, found, found.map((s) => `[fr] ${s.text}`))
    assert.include(tagged, "# [fr] Install the tool")
    assert.include(tagged, "[fr] Run the [installer](https://example.com/install \"Title\")")
    assert.deepStrictEqual(structureOf(tagged), structureOf(page))
    // A segment that had the syntax keeps it when the translation keeps it at that place.
    assert.strictEqual(Segments.asText("a \\[b\\] c", "ein \\[b\\] c"), "ein \\[b\\] c")
    assert.strictEqual(Segments.asText("Hello", "Hallo [x](https://evil.example)"), "Hallo \\[x\\]\\(https:\u2060//evil\\.example\\)")
  })

  it("chunks by section and size", () => {
    const found = Segments.segments(page)
    const chunks = Segments.chunks(found, 1000)
    assert.deepStrictEqual(chunks.map((c) => c[0]!.section), [1, 2])
    assert.isTrue(Segments.chunks(found, 10).length > 2)
    assert.strictEqual(Segments.words("Done 42. now"), 3)
  })
})
