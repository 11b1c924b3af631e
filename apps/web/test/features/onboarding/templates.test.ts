/** The pages an empty space starts from: markdown files become pages titled by their first heading or name; the templates fit the API; an organization name is checked in words. */
import { describe, expect, it } from "vitest"
import { titleProblem } from "../../../src/features/onboarding/CreateOrganization.tsx"
import { isMarkdown, pageOfFile, templates } from "../../../src/features/onboarding/templates.ts"

describe("markdown files as pages", () => {
  it("takes the first heading as the title and leaves it out of the body", () => {
    expect(pageOfFile("docs/intro.md", "# Welcome aboard\n\nHello.\n")).toEqual({ title: "Welcome aboard", markdown: "Hello.\n" })
  })

  it("keeps frontmatter, and the heading after it is still the title", () => {
    expect(pageOfFile("a.md", "---\ndescription: Hi\n---\n# Title\n\nBody\n")).toEqual({ title: "Title", markdown: "---\ndescription: Hi\n---\nBody\n" })
  })

  it("names a page without a heading after its file", () => {
    expect(pageOfFile("guides/getting-started.md", "Just text.\n")).toEqual({ title: "Getting started", markdown: "Just text.\n" })
  })

  it("knows markdown by its extension", () => {
    expect(["a.md", "b.MARKDOWN", "c.txt", "d.mdx"].map(isMarkdown)).toEqual([true, true, false, false])
  })
})

describe("templates", () => {
  it("each has pages with titles the API takes", () => {
    for (const template of templates) {
      expect(template.pages.length).toBeGreaterThan(0)
      for (const page of template.pages) expect(page.title.length).toBeLessThanOrEqual(200)
    }
  })
})

describe("an organization's name", () => {
  it("is refused empty, too short or too long, in words", () => {
    expect(titleProblem("   ")).toBe("Give your organization a name.")
    expect(titleProblem("A")).toBe("Use at least 2 characters.")
    expect(titleProblem("x".repeat(256))).toBe("Use at most 255 characters: this name has 256.")
    expect(titleProblem("Acme Docs")).toBeUndefined()
  })
})
