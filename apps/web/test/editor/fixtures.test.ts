import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { codec, expectExact, typesIn } from "./support.ts"

const dir = join(import.meta.dirname, "fixtures")

/** Each fixture written from GitBook's documented syntax, and the nodes it must produce (so nothing falls back to raw unseen). */
const expected: Record<string, ReadonlyArray<string>> = {
  "paragraph.md": ["paragraph", "bold", "italic", "strike", "code", "link", "highlight", "hardBreak", "inlineMath", "image", "rawInline"],
  "heading.md": ["frontmatter", "heading"],
  "list.md": ["bulletList", "orderedList", "taskList", "taskItem", "listItem"],
  "blockquote.md": ["blockquote", "bulletList"],
  "table.md": ["table", "tableHeader", "tableCell"],
  "code.md": ["codeBlock"],
  "math.md": ["mathBlock"],
  "figure.md": ["figure", "image"],
  "rule.md": ["horizontalRule"],
  "hint.md": ["hint"],
  "tabs.md": ["tabs", "tab", "codeBlock"],
  "expandable.md": ["expandable", "hint"],
  "stepper.md": ["stepper", "step", "heading"],
  "columns.md": ["columns", "column", "figure"],
  "cards.md": ["cards"],
  "embed.md": ["embed"],
  "content-ref.md": ["contentRef"],
  "file.md": ["file"],
  "openapi.md": ["openapiOperation", "raw"],
  "include.md": ["include"],
  "raw.md": ["raw"],
  "crlf.md": ["bulletList", "hint"],
  "whitespace.md": ["heading", "paragraph"],
  "empty.md": ["paragraph"]
}

describe("block fixtures round-trip byte for byte", () => {
  it("covers every fixture file", () => {
    expect(readdirSync(join(dir, "blocks")).toSorted()).toEqual(Object.keys(expected).toSorted())
  })
  for (const [name, types] of Object.entries(expected)) {
    it(name, () => {
      const text = readFileSync(join(dir, "blocks", name), "utf8")
      expectExact(text)
      const found = typesIn(codec.parse(text))
      for (const t of types) expect(found, `${name} has a ${t}`).toContain(t)
      if (!types.includes("raw")) expect(found, `${name} falls back to raw`).not.toContain("raw")
    })
  }
})

describe("Beefree SDK pages (Apache-2.0) round-trip byte for byte", () => {
  const pages = readdirSync(join(dir, "beefree")).filter((f) => f.endsWith(".md"))
  it("has the committed selection", () => expect(pages.length).toBeGreaterThanOrEqual(8))
  for (const page of pages) it(page, () => expectExact(readFileSync(join(dir, "beefree", page), "utf8")))
})
