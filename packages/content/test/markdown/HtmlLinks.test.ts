import { assert, describe, it } from "@effect/vitest"
import { links } from "@quire/markdown"
import { htmlLinks } from "../../src/markdown/Dom.ts"

describe("links", () => {
  it("finds links, images, references and raw HTML links with their positions", () => {
    const markdown = [
      "# Title",
      "",
      "See [install](install.md#setup) and ![diagram](/files/f1).",
      "Also [the spec][spec] and <https://example.com/auto>.",
      "",
      "<figure><img src=\"/files/f2\" alt=\"\"><figcaption></figcaption></figure>",
      "",
      "`[not](a-link.md)`",
      "",
      "[spec]: https://spec.example.com",
      "[unused]: ./unused.md"
    ].join("\n")
    assert.deepStrictEqual(links(markdown, htmlLinks), [
      { url: "install.md#setup", kind: "link", position: { line: 3, column: 5 } },
      { url: "/files/f1", kind: "image", position: { line: 3, column: 37 } },
      { url: "https://spec.example.com", kind: "link", position: { line: 4, column: 6 } },
      { url: "https://example.com/auto", kind: "link", position: { line: 4, column: 27 } },
      { url: "/files/f2", kind: "image", position: { line: 6, column: 1 } },
      { url: "./unused.md", kind: "link", position: { line: 11, column: 1 } }
    ])
  })
})
