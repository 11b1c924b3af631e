/** Markdown to GitBook's JSON document. */
import { assert, describe, it } from "@effect/vitest"
import { headingIds, parseMarkdown } from "@quire/markdown"
import { documentMarkdown } from "../../src/markdown/DocumentMarkdown.ts"
import type { JsonBlock } from "../../src/markdown/JsonDocument.ts"
import { jsonDocumentBuilder, toJsonDocument } from "../../src/markdown/JsonDocument.ts"

describe("toJsonDocument", () => {
  it("turns headings, paragraphs with marks and links, lists, code, quotes, dividers and images into GitBook blocks", () => {
    const document = toJsonDocument([
      "## Install it",
      "",
      "Run **fast** and _well_ with `npm` or ~~not~~, see [the guide](guide.md).",
      "",
      "- [ ] one",
      "- [x] two",
      "",
      "3. three",
      "",
      "> quoted",
      "",
      "```bash",
      "npm i",
      "npm t",
      "```",
      "",
      "***",
      "",
      "![Logo](/files/abc123)"
    ].join("\n"), (url, kind) => kind === "link" && url === "guide.md" ? { kind: "page", page: "p-guide" } : url.startsWith("/files/") ? { kind: "file", file: url.slice(7) } : { kind: "url", url })

    assert.strictEqual(document.object, "document")
    assert.deepStrictEqual(document.nodes.map((n) => n.type), [
      "heading-1", "paragraph", "list-tasks", "list-ordered", "blockquote", "code", "divider", "images"
    ])
    const [heading, paragraph, tasks, ordered, quote, code, , images] = document.nodes
    assert.deepStrictEqual([heading?.data, heading?.meta], [{}, { id: "install-it" }])
    const inlines = paragraph?.nodes ?? []
    assert.deepStrictEqual(inlines.map((n) => n.object === "text" ? n.leaves.map((l) => [l.text, l.marks.map((m) => m.type)]) : ["link"]), [
      [["Run ", []], ["fast", ["bold"]], [" and ", []], ["well", ["italic"]], [" with ", []], ["npm", ["code"]], [" or ", []], ["not", ["strikethrough"]], [", see ", []]],
      ["link"],
      [[".", []]]
    ])
    const link = inlines.find((n) => n.object === "inline")
    assert.deepStrictEqual(link?.object === "inline" ? link.data.ref : undefined, { kind: "page", page: "p-guide" })
    assert.deepStrictEqual(tasks?.nodes?.map((n) => n.object === "block" ? n.data : undefined), [{ checked: false }, { checked: true }])
    assert.deepStrictEqual(ordered?.data, { start: 3 })
    assert.strictEqual(quote?.nodes?.[0]?.object, "block")
    assert.deepStrictEqual(code?.data, { syntax: "bash" })
    assert.strictEqual(code?.nodes?.length, 2)
    assert.deepStrictEqual(images?.nodes?.[0], { object: "block", type: "image", isVoid: true, data: { ref: { kind: "file", file: "abc123" }, alt: "Logo" }, fragments: [] })
  })

  it("names headings as the page's anchors do: top-level ones first, then those in lists and quotes, without tags", () => {
    const markdown = "> # Setup\n\n# Setup\n\n- ## Install `it`   {% badge %}\n\n## Install `it`\n"
    const ids = (nodes: ReadonlyArray<unknown>): Array<unknown> =>
      (nodes as ReadonlyArray<JsonBlock>).flatMap((node) => node.object !== "block" ? [] : [
        ...(node.type.startsWith("heading-") ? [node.meta?.id] : []),
        ...(node.nodes === undefined ? [] : ids(node.nodes))
      ])
    const anchors = headingIds(parseMarkdown(markdown))
    assert.deepStrictEqual(ids(toJsonDocument(markdown).nodes), ["setup-1", "setup", "install-it-1", "install-it"])
    assert.deepStrictEqual(ids(toJsonDocument(markdown).nodes).toSorted(), [...anchors.values()].toSorted())
  })

  it("names headings with GitBook's ids, as GitBook's links to them expect", () => {
    const markdown = "## Math & TeX\n\n### 1. Create an app <picture><img src=\"badge.png\" alt=\"\"></picture>\n"
    const [math, create] = toJsonDocument(markdown).nodes as ReadonlyArray<JsonBlock>
    assert.deepStrictEqual([math?.meta?.id, create?.meta?.id], ["math-and-tex", "id-1.-create-an-app"])
  })

  it("reads headings at GitBook's levels: `##`, `###` and `####` are its heading-1, 2 and 3, and are written back so", () => {
    const markdown = "## Install\n\n### From npm\n\n#### On Linux\n"
    assert.deepStrictEqual(toJsonDocument(markdown).nodes.map((n) => n.type), ["heading-1", "heading-2", "heading-3"])
    // A page whose sections are all `###` keeps its outline: each is a heading-2, not a heading-3.
    assert.deepStrictEqual(toJsonDocument("### A\n\nText.\n\n### B\n").nodes.map((n) => n.type), ["heading-2", "paragraph", "heading-2"])
    // GitBook has no other: `#` (its page title) is heading-1 too, and below `####` heading-3.
    assert.deepStrictEqual(toJsonDocument("# Top\n\n##### Deep\n\n###### Deeper\n").nodes.map((n) => n.type), ["heading-1", "heading-3", "heading-3"])
    // A document without its markdown (a GitBook client's) is written with GitBook's levels.
    const { nodes } = toJsonDocument(markdown)
    assert.strictEqual(documentMarkdown({ nodes }), markdown)
    assert.strictEqual(documentMarkdown({ nodes: toJsonDocument("# Top\n\n###### Deeper\n").nodes }), "## Top\n\n#### Deeper\n")
  })

  it("gives each annotation its footnote's definition from wherever on the page, as a large page is read a piece at a time", () => {
    const builder = jsonDocumentBuilder()
    builder.add("A [word](#user-content-fn-1)[^1] here.\n\n")
    builder.add("More.\n\n[^1]: Its note.\n")
    const document = builder.done()
    assert.deepStrictEqual(document.nodes.map((n) => n.type), ["paragraph", "paragraph"])
    const note = document.nodes[0]!.nodes?.find((n) => n.object === "inline")
    assert.deepStrictEqual(note?.object === "inline" ? note.fragments?.[0]?.nodes : undefined, [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text: "Its note.", marks: [] }] }] }])
    // The definitions' text rides in the slices: the document alone is written back byte for byte.
    assert.strictEqual(documentMarkdown(JSON.parse(JSON.stringify(document))), "A [word](#user-content-fn-1)[^1] here.\n\nMore.\n\n[^1]: Its note.\n")
  })

  it("gives an empty page one empty paragraph", () => {
    assert.deepStrictEqual(toJsonDocument("").nodes, [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text: "", marks: [] }] }] }])
  })
})

describe("toJsonDocument of includes", () => {
  it("makes an include alone on its line GitBook's reusable-content block, in lists too; one naming nothing is left out, one inside text stays text", () => {
    const ids: Record<string, string> = { ".gitbook/includes/warning.md": "rc-warning" }
    const document = toJsonDocument([
      "Before.",
      "",
      "{% include \".gitbook/includes/warning.md\" %}",
      "",
      "- step",
      "",
      "  {% include '.gitbook/includes/warning.md' %}",
      "",
      "{% include \".gitbook/includes/gone.md\" %}",
      "",
      "See `{% include \"x.md\" %}` written as code."
    ].join("\n"), undefined, (ref) => ids[ref])
    const include: JsonBlock = { object: "block", type: "reusable-content", isVoid: true, data: { ref: { kind: "reusable-content", reusableContent: "rc-warning" } } }
    assert.deepStrictEqual(document.nodes.map((node) => node.type), ["paragraph", "reusable-content", "list-unordered", "paragraph"])
    assert.deepStrictEqual(document.nodes[1], include)
    const item = document.nodes[2]!.nodes![0] as JsonBlock
    assert.deepStrictEqual(item.nodes![1], include)
  })
})
