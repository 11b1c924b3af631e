/** GitBook's page frontmatter read into a page's fields and written back for its markdown. */
import { assert, describe, it } from "@effect/vitest"
import { coverRefOf, type FileNode, markdownWithFrontmatter, type PageNode, pageFrontmatterOf } from "@quire/content"
import { readFrontmatter, splitFrontmatter } from "@quire/markdown"

const file: FileNode = { id: "f1", name: "hero image.png", contentType: "image/png", size: 3, blob: "b" }

const written = `icon: rocket
cover: .gitbook/assets/hero image.png
coverY: -40
coverHeight: 320
layout:
  width: wide
  title:
    visible: true
  description:
    visible: false
  tableOfContents:
    visible: false
  outline:
    visible: true
  pagination:
    visible: false
tags:
  - launch
owner: docs-team
`

const data = (yaml: string) => {
  const read = readFrontmatter(yaml)
  if (!read.ok) throw new Error(read.reason)
  return read.data
}

describe("PageFrontmatter", () => {
  it("reads icon, cover with its offset and height, layout visibility and keeps the keys no field models", () => {
    const problems: Array<string> = []
    const front = pageFrontmatterOf(data(written), problems)
    assert.deepStrictEqual(problems, [])
    assert.deepStrictEqual(
      [front.icon, front.cover, front.coverY, front.coverHeight],
      ["rocket", ".gitbook/assets/hero image.png", -40, 320]
    )
    assert.deepStrictEqual(front.layout, { width: "wide", title: true, description: false, tableOfContents: false, outline: true, pagination: false })
    assert.deepStrictEqual(front.extra, { tags: ["launch"], owner: "docs-team" })
  })

  it("names each value of the wrong type", () => {
    const problems: Array<string> = []
    pageFrontmatterOf(data("icon: 3\ncoverY: high\nlayout:\n  width: huge\n  outline:\n    visible: maybe\n"), problems)
    assert.deepStrictEqual(problems.map((p) => p.split(" ")[0]), ["`icon`", "`coverY`", "layout.width", "layout.outline.visible"])
  })

  it("a cover naming a file of the revision points at it; anything else is a URL", () => {
    assert.deepStrictEqual(coverRefOf(".gitbook/assets/hero%20image.png", [file]), { kind: "file", file: "f1" })
    assert.deepStrictEqual(coverRefOf("https://example.com/a.png", [file]), { kind: "url", url: "https://example.com/a.png" })
  })

  it("writes the page's frontmatter back before its body, so what was written reads the same", () => {
    const page: PageNode = {
      id: "p",
      type: "document",
      title: "Launch",
      slug: "launch",
      icon: "rocket",
      cover: { ref: { kind: "file", file: "f1" }, yPos: -40, height: 320 },
      layout: { width: "wide", description: false, pagination: false },
      frontmatter: { tags: ["launch"], owner: "docs-team" },
      createdAt: "t",
      updatedAt: "t",
      pages: []
    }
    const markdown = markdownWithFrontmatter(page, [file], "Body.\n")
    const { yaml, body } = splitFrontmatter(markdown)
    assert.strictEqual(body, "\nBody.\n")
    const problems: Array<string> = []
    const front = pageFrontmatterOf(data(yaml!), problems)
    assert.deepStrictEqual(
      [front.icon, front.cover, front.coverY, front.coverHeight, front.layout, front.extra],
      ["rocket", ".gitbook/assets/hero image.png", -40, 320, { width: "wide", description: false, pagination: false }, { tags: ["launch"], owner: "docs-team" }]
    )
    assert.strictEqual(markdownWithFrontmatter({ ...page, icon: undefined, cover: undefined, layout: undefined, frontmatter: undefined }, [], "Body.\n"), "Body.\n")
  })
})
