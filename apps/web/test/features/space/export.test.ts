/** A page exported alone as markdown: its title becomes its first heading, after its frontmatter. */
import { describe, expect, it } from "vitest"
import { pageFile } from "../../../src/features/space/Export.tsx"

describe("a page's markdown file", () => {
  it("starts with the page's title as a heading", () => {
    expect(pageFile("Install", "Run it.\n")).toBe("# Install\n\nRun it.\n")
  })

  it("keeps the frontmatter first, and the title after it", () => {
    expect(pageFile("Install", "---\ndescription: How\n---\n\nRun it.\n")).toBe("---\ndescription: How\n---\n# Install\n\nRun it.\n")
  })
})
