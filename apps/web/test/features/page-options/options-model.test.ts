import { describe, expect, it } from "vitest"
import type { RevisionPage } from "@quire/api"
// The server's own batch semantics: what the options' change does to the page.
import { applyChanges, type Change } from "../../../../../packages/reviews/src/ChangeSet.ts"
import { iconFields, optionsChange, optionsOf, problemsOf, withFrontmatterKeys } from "../../../src/features/page-options/options-model.ts"

/** The layout as the API answers it: every key, defaults filled in. */
const layout = (patch: Partial<NonNullable<RevisionPage["layout"]>>): NonNullable<RevisionPage["layout"]> => ({
  width: "default", cover: true, coverSize: "hero", title: true, description: true, tableOfContents: true, outline: true, pagination: true, metadata: true, ...patch
})

const page = (extra: Partial<RevisionPage> = {}): RevisionPage => ({
  id: "pg1", title: "Install", kind: "sheet", type: "document", slug: "install", path: "install", hidden: false, ...extra
})

/** The page node the server makes of `change` applied to a page whose body is `body`. */
const applied = (change: NonNullable<ReturnType<typeof optionsChange>>) => {
  const { document, ...rest } = change as Extract<typeof change, { operation: "update_page" }>
  const serverChange = { ...rest, ...(document?.markdown === undefined ? {} : { markdown: document.markdown }) } as Change
  const base = { pages: [{ id: "pg1", type: "document" as const, title: "Install", slug: "install", createdAt: "t", updatedAt: "t", pages: [] }], files: [] }
  const out = applyChanges(base, [serverChange], { makeId: () => "x", now: "2026-01-01T00:00:00.000Z" })
  if (out.kind !== "applied") throw new Error(out.value.reason)
  return { node: out.value.pages[0]!, body: [...out.value.documents.values()][0] }
}

describe("page options", () => {
  it("reads a page's icon, cover and layout, every part shown by default", () => {
    const options = optionsOf(page({ emoji: "📘", cover: { ref: { kind: "url", url: "https://example.com/c.png" }, height: 300, yPos: 0 }, layout: layout({ width: "wide", outline: false }) }))
    expect(options).toMatchObject({ icon: "📘", cover: "https://example.com/c.png", coverHeight: "300", coverY: "0", width: "wide" })
    expect(options.visible).toEqual({ title: true, description: true, tableOfContents: true, outline: false, pagination: true })
  })

  it("writes the layout and cover into the frontmatter, keeping other keys and the body; the server reads them back", () => {
    const before = page({ icon: "gear", layout: layout({ metadata: false, coverSize: "full" }) })
    const markdown = "---\nicon: gear\ntags:\n  - setup\n---\n\n# Steps\n\nRun it.\n"
    const options = { ...optionsOf(before), cover: "https://example.com/c.png", coverHeight: "320", width: "wide" as const, visible: { ...optionsOf(before).visible, pagination: false, tableOfContents: false } }
    const change = optionsChange(before, markdown, options)!
    expect(change).toMatchObject({ operation: "update_page", page: "pg1", title: "Install" })
    const { node, body } = applied(change)
    expect(node.layout).toEqual({ width: "wide", coverSize: "full", tableOfContents: false, pagination: false, metadata: false })
    expect(node.cover).toEqual({ ref: { kind: "url", url: "https://example.com/c.png" }, height: 320 })
    expect(node.icon).toBe("gear")
    expect(node.title).toBe("Install")
    expect(node.frontmatter).toEqual({ tags: ["setup"] })
    expect(body).toBe("# Steps\n\nRun it.\n")
  })

  it("sends only the icon when only the icon changed; an icon name or an emoji, the other removed", () => {
    expect(optionsChange(page({ emoji: "📘" }), "Body\n", { ...optionsOf(page({ emoji: "📘" })), icon: "book-open" })).toEqual({ operation: "update_page", page: "pg1", emoji: "", icon: "book-open" })
    expect(iconFields("🚀")).toEqual({ emoji: "🚀", icon: "" })
    expect(iconFields(" ")).toEqual({ emoji: "", icon: "" })
    expect(optionsChange(page(), "Body\n", optionsOf(page()))).toBeNull()
  })

  it("saved one after another, a later change of the height does not write the position the server answered for the cover", () => {
    const before = page({ cover: { ref: { kind: "url", url: "https://example.com/c.png" }, yPos: 0 } })
    const markdown = "---\ncover: https://example.com/c.png\n---\n\nBody\n"
    const change = optionsChange(before, markdown, { ...optionsOf(before), coverHeight: "300" }) as { readonly document: { readonly markdown: string } }
    expect(change.document.markdown).toBe("---\ncover: https://example.com/c.png\ncoverHeight: 300\n---\n\nBody\n")
    const moved = optionsChange(before, markdown, { ...optionsOf(before), coverY: "-40" }) as { readonly document: { readonly markdown: string } }
    expect(moved.document.markdown).toContain("coverY: -40")
  })

  it("removes a cover and resets the layout", () => {
    const before = page({ cover: { ref: { kind: "file", file: "f1" }, yPos: 0 }, layout: layout({ title: false }) })
    const markdown = "---\ncover: .gitbook/assets/c.png\ncoverHeight: 200\nlayout:\n  title:\n    visible: false\n---\n\nBody\n"
    const options = { ...optionsOf(before), coverRemoved: true, coverHeight: "", visible: { ...optionsOf(before).visible, title: true } }
    const change = optionsChange(before, markdown, options)!
    const { node } = applied(change)
    expect(node.cover).toBeUndefined()
    expect(node.layout).toBeUndefined()
  })

  it("names what is wrong, by field, in words", () => {
    const ok = optionsOf(page())
    expect(problemsOf(ok)).toEqual({})
    expect(problemsOf({ ...ok, cover: "example.com/c.png" }).cover).toMatch(/web address/)
    expect(problemsOf({ ...ok, cover: "javascript:alert(1)" }).cover).toMatch(/https/)
    expect(problemsOf({ ...ok, coverHeight: "tall" }).coverHeight).toMatch(/whole number/)
    expect(problemsOf({ ...ok, coverY: "1.5" }).coverY).toMatch(/whole number/)
    expect(problemsOf({ ...ok, icon: "Book Open!" }).icon).toMatch(/lowercase/)
    expect(problemsOf({ ...ok, icon: "📘" }).icon).toBeUndefined()
    expect(problemsOf({ ...ok, icon: "BookOpen" }).icon).toMatch(/lowercase/)
  })

  it("replaces top-level keys with their nested lines, and drops an emptied frontmatter", () => {
    expect(withFrontmatterKeys("---\nlayout:\n  width: wide\n---\nBody\n", { layout: null })).toBe("Body\n")
    expect(withFrontmatterKeys("Body\n", { cover: ' "https://x.test/a.png"' })).toBe('---\ncover: "https://x.test/a.png"\n---\n\nBody\n')
  })
})
