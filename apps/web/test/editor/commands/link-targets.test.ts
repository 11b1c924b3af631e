/** The link picker's targets: the relative links GitBook's markdown writes between pages, anchors for headings. */
import { describe, expect, it } from "vitest"
import { isTypedLink, linkTargets, relativeTo, searchTargets, typedHref, type PageEntry } from "../../../src/editor/commands/link-targets.ts"
import { describeSize, uploadProblem } from "../../../src/editor/commands/upload.ts"

const page = (id: string, path: string, pages: ReadonlyArray<PageEntry> = [], extra: Partial<PageEntry> = {}): PageEntry =>
  ({ id, title: id[0]!.toUpperCase() + id.slice(1), path, type: "document", pages, ...extra })

/** Welcome (the root page, README.md), guides/ with install and setup/ (which has a child), and a group. */
const tree: ReadonlyArray<PageEntry> = [
  page("welcome", "welcome"),
  page("guides", "guides", [page("install", "guides/install"), page("setup", "guides/setup", [page("proxy", "guides/setup/proxy")])]),
  page("faq", "faq"),
  { id: "group", title: "Reference", path: "reference", type: "group", pages: [page("api", "reference/api")] }
]

const hrefs = (from: string) => Object.fromEntries(linkTargets(tree, from).map((t) => [t.title, t.href]))

describe("link targets", () => {
  it("writes the path from this page's file to the target's file, as Git Sync lays them out", () => {
    expect(hrefs("faq")).toEqual({
      Welcome: "README.md",
      Guides: "guides/README.md",
      Install: "guides/install.md",
      Setup: "guides/setup/README.md",
      Proxy: "guides/setup/proxy.md",
      Faq: "faq.md",
      Api: "reference/api.md"
    })
    expect(hrefs("install")).toMatchObject({ Welcome: "../README.md", Guides: "README.md", Setup: "setup/README.md", Faq: "../faq.md", Api: "../reference/api.md" })
    expect(hrefs("proxy")).toMatchObject({ Install: "../install.md", Setup: "README.md", Welcome: "../../README.md" })
  })
  it("leaves out groups and link pages", () => {
    expect(linkTargets(tree, "faq").map((t) => t.title)).not.toContain("Reference")
    expect(linkTargets([page("a", "a"), page("b", "b", [], { type: "link" })], "a").map((t) => t.title)).toEqual(["A"])
  })
  it("uses a Git-imported page's own file", () => {
    const imported = [page("intro", "intro", [], { git: { path: "docs/README.md" } }), page("usage", "usage", [], { git: { path: "docs/how to/use.md" } })]
    expect(Object.fromEntries(linkTargets(imported, "intro").map((t) => [t.title, t.href]))).toEqual({ Intro: "README.md", Usage: "how%20to/use.md" })
  })
  it("lists headings as anchors after their page, `#anchor` alone on this page", () => {
    const headings = new Map([["install", [{ title: "Requirements", id: "requirements" }]], ["faq", [{ title: "Why", id: "why" }]]])
    const targets = linkTargets(tree, "faq", headings)
    expect(targets.filter((t) => t.kind === "heading").map((t) => [t.title, t.href])).toEqual([["Requirements", "guides/install.md#requirements"], ["Why", "#why"]])
    expect(searchTargets(targets, "requ").map((t) => t.href)).toEqual(["guides/install.md#requirements"])
    expect(searchTargets(targets, "install").map((t) => t.title)).toEqual(["Install", "Requirements"])
  })
  it("relativeTo climbs only as far as it must", () => {
    expect(relativeTo(["a", "b"], "a/c.md")).toBe("../c.md")
    expect(relativeTo([], "a/b.md")).toBe("a/b.md")
  })
  it("tells a typed URL from a search", () => {
    expect(isTypedLink("https://example.com/x")).toBe(true)
    expect(isTypedLink("example.com")).toBe(true)
    expect(typedHref("example.com")).toBe("https://example.com")
    expect(isTypedLink("#usage")).toBe(true)
    expect(isTypedLink("install guide")).toBe(false)
  })
})

describe("image uploads", () => {
  it("takes an image of any size (the server's limit is the upload's to tell) and refuses in words what is no image", () => {
    expect(uploadProblem({ name: "a.png", size: 1_048_576, type: "image/png" })).toBeUndefined()
    expect(uploadProblem({ name: "big.png", size: 5_200_000, type: "image/png" })).toBeUndefined()
    expect(uploadProblem({ name: "notes.pdf", size: 10, type: "application/pdf" })).toBe("“notes.pdf” is not an image.")
    expect(describeSize(2048)).toBe("2 KB")
  })
})
