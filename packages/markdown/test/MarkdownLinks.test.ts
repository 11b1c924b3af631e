import { assert, describe, it } from "@effect/vitest"
import { parseMarkdown } from "../src/Markdown.ts"
import { eachLinkPiece, type HtmlLinks, linesFrom, linkCollector, links, pieceLinks } from "../src/MarkdownLinks.ts"

/** The `href` and `src` attributes of raw HTML (the server reads them with a DOM parser). */
const attributes: HtmlLinks = (html) =>
  Array.from(html.matchAll(/(href|src)="([^"]*)"/g), (match) => ({ url: match[2]!, kind: match[1] === "src" ? "image" as const : "link" as const }))

/** The links of `markdown` parsed whole, in one piece. */
const wholeParse = (markdown: string) => {
  const tree = parseMarkdown(markdown)
  const collector = linkCollector()
  collector.addLinks(pieceLinks({ text: markdown, children: tree.children, tree }, linesFrom(0), attributes))
  return collector.done()
}

// Blocks with and without links, and those whose neighbours decide whether their text is a link.
const blocks = [
  "Plain words, with: punctuation (and brackets) and nothing to follow.",
  "See [the guide][guide] and [the reference] too.",
  "An ![image](/files/f1 \"title\") and a [link](./other.md#part).",
  "Bare https://example.com/bare, www.example.org and ada@example.com.",
  "<div>\n<a href=\"https://example.com/html\">html</a>\n</div>",
  "<!-- a comment\n\n[not a link](https://example.com/commented)\n\n-->",
  "<?php\n\n[not a link](https://example.com/php)\n\n?>",
  "```md\n[not a link](https://example.com/fenced)\n\nstill code\n```",
  "    [indented](https://example.com/code)",
  "- item [one](https://example.com/one)\n\n  continued, [two](https://example.com/two)\n\n- item three",
  "> quoted [link](https://example.com/quoted)\n>\n> more",
  "| a | b |\n| - | - |\n| [cell](https://example.com/cell) | www.example.net |",
  "Words\r\nwith [CRLF](https://example.com/crlf)\r\n",
  "A footnote[^1] and *emphasis* about topic.",
  "[^1]: The footnote, with a [link](https://example.com/footnote).",
  "Setext heading with [a link](https://example.com/setext)\n===",
  "Ordinary words about a topic, as a real page has them, repeated.",
  "Ordinary words about another topic, and a little more text."
]

const page = [
  "---\ntitle: Links\n---",
  ...Array.from({ length: 600 }, (_, i) => blocks[i % blocks.length]!),
  "[guide]: https://example.com/guide\n[the reference]: https://example.com/reference\n[unused]: https://example.com/unused"
].join("\n\n")

describe("the links of a page", () => {
  it("are those of a parse of the whole, positions included, though only the blocks that may hold one are parsed", () => {
    assert.isAbove(page.length, 20_000)
    const expected = wholeParse(page)
    assert.isAbove(expected.length, 400)
    assert.deepStrictEqual(links(page, attributes), expected)
    const urls = new Set(expected.map((link) => link.url))
    for (const url of ["https://example.com/guide", "https://example.com/html", "http://www.example.org", "mailto:ada@example.com", "https://example.com/unused"]) {
      assert.isTrue(urls.has(url), url)
    }
    for (const url of ["https://example.com/commented", "https://example.com/php", "https://example.com/fenced", "https://example.com/code"]) {
      assert.isFalse(urls.has(url), url)
    }
  })

  it("of a long page of plain paragraphs cost no parse, and one link is read from its block alone", () => {
    const plain = Array.from({ length: 2_000 }, (_, i) => `Paragraph ${i}: ordinary words about topic ${i % 37}.`)
    assert.deepStrictEqual(Array.from(eachLinkPiece(plain.join("\n\n"))), [])
    plain[1_500] = "One [link](https://example.com/one) here."
    const withOne = plain.join("\n\n")
    const pieces = Array.from(eachLinkPiece(withOne))
    assert.deepStrictEqual(pieces.map((piece) => piece.text), ["One [link](https://example.com/one) here.\n\n"])
    assert.deepStrictEqual(links(withOne, attributes), [{ url: "https://example.com/one", kind: "link", position: { line: 3_001, column: 5 } }])
  })
})
