/** The pure pieces of the writer's commands: a page as a file, titles in markdown, image links rewritten. */
import { assert, describe, it } from "@effect/vitest"
import { rewriteUrls } from "../src/Apply.ts"
import { hasTitle } from "../src/Content.ts"
import { pageText } from "../src/commands/PagesCommands.ts"

describe("pageText", () => {
  it("is # Title, a blank line and the body; a description comes first as frontmatter", () => {
    assert.strictEqual(pageText({ title: "Install", markdown: "Run it.\n" }), "# Install\n\nRun it.\n")
    assert.strictEqual(
      pageText({ title: "Install", description: "How \"to\" start", markdown: "Run it." }),
      "---\ndescription: \"How \\\"to\\\" start\"\n---\n\n# Install\n\nRun it."
    )
    assert.strictEqual(pageText({ title: "Empty" }), "# Empty\n\n")
  })

  it("escapes the title's markdown punctuation, so that it reads back as the same title", () => {
    assert.strictEqual(pageText({ title: "C# & *Tips* <b> [x]", markdown: "" }), "# C# \\& \\*Tips\\* \\<b\\> \\[x\\]\n\n")
    assert.strictEqual(pageText({ title: "Issue #", markdown: "" }), "# Issue \\#\n\n")
  })

  it("puts the page's own frontmatter (icon, cover, layout) before the title, with the description", () => {
    assert.strictEqual(
      pageText({ title: "Launch", description: "Go", markdown: "---\nicon: rocket\nlayout:\n  width: wide\n---\n\nLift off.\n" }),
      "---\ndescription: \"Go\"\nicon: rocket\nlayout:\n  width: wide\n---\n\n# Launch\n\nLift off.\n"
    )
    assert.strictEqual(pageText({ title: "Launch", markdown: "---\nicon: rocket\n...\n\nLift off.\n" }), "---\nicon: rocket\n---\n\n# Launch\n\nLift off.\n")
  })
})

describe("hasTitle", () => {
  it("is a leading # heading or a frontmatter title", () => {
    assert.isTrue(hasTitle("# Title\n\nBody"))
    assert.isTrue(hasTitle("\n\n#  Title"))
    assert.isTrue(hasTitle("---\ndescription: d\n---\n# Title\n"))
    assert.isTrue(hasTitle("---\ntitle: From front\n---\nBody"))
    // Frontmatter closed by YAML's `...`, or at the end of the file, as the server reads it.
    assert.isTrue(hasTitle("---\ntitle: From front\n...\nBody"))
    assert.isTrue(hasTitle("---\ndescription: d\n...\n# Title\n"))
    assert.isTrue(hasTitle("---\ntitle: Only\n---"))
  })

  it("is not a smaller heading, text first, or a title: line outside the frontmatter", () => {
    assert.isFalse(hasTitle("## Section\n"))
    assert.isFalse(hasTitle("Intro\n\n# Later"))
    assert.isFalse(hasTitle("#hashtag"))
    assert.isFalse(hasTitle("---\ndescription: d\n---\nBody\n\n---\ntitle: not frontmatter\n"))
  })
})

describe("rewriteUrls", () => {
  it("replaces an image URL as written in inline, angle-bracketed, definition and src forms, and nothing else", () => {
    const files = new Map([["img/a b.png", "/files/F1"], ["img/x.png", "/files/F2"]])
    const markdown = [
      "![A](<img/a b.png>) ![X](img/x.png \"title\")",
      "[ref]: img/x.png",
      "<img src=\"img/x.png\">",
      "Text mentioning img/x.png stays, as does ![Y](img/x.png.bak)."
    ].join("\n")
    assert.strictEqual(rewriteUrls(markdown, files), [
      "![A](</files/F1>) ![X](/files/F2 \"title\")",
      "[ref]: /files/F2",
      "<img src=\"/files/F2\">",
      "Text mentioning img/x.png stays, as does ![Y](img/x.png.bak)."
    ].join("\n"))
  })
})
