/** A folder of markdown files as a tree of pages, and that tree in batches the API takes, parents first. */
import { describe, expect, it } from "vitest"
import { batches, countPages, type ImportedPage, insertionOrder, pagesOfFolder } from "../../../src/features/onboarding/folder-import.ts"

const shape = (pages: ReadonlyArray<ImportedPage>): Array<unknown> =>
  pages.map((page) => page.children.length === 0 ? page.title : [page.title, shape(page.children)])

describe("a folder of markdown files", () => {
  it("keeps the folder's structure: the root readme first, a folder's readme as its page, names sorted as people sort them", () => {
    const pages = pagesOfFolder([
      { path: "handbook/guides/step-10.md", text: "# Step ten\n" },
      { path: "handbook/guides/step-2.md", text: "Two.\n" },
      { path: "handbook/guides/README.md", text: "# All the guides\n\nPick one.\n" },
      { path: "handbook/README.md", text: "# Welcome\n\nHello.\n" },
      { path: "handbook/about.md", text: "# About us\n" },
      { path: "handbook/api/reference/users.md", text: "# Users\n" }
    ])
    expect(shape(pages)).toEqual(["Welcome", "About us", ["Api", [["Reference", ["Users"]]]], ["All the guides", ["Step 2", "Step ten"]]])
    expect(pages[3]!.markdown).toBe("Pick one.\n")
    expect(pages[2]!.markdown).toBe("")
    expect(countPages(pages)).toBe(8)
  })

  it("loose files keep their own names; a readme without a heading takes its folder's name", () => {
    expect(shape(pagesOfFolder([{ path: "b.md", text: "B" }, { path: "a.md", text: "A" }]))).toEqual(["A", "B"])
    expect(shape(pagesOfFolder([{ path: "docs/setup-notes/readme.md", text: "Text only.\n" }, { path: "docs/x.md", text: "# X\n" }]))).toEqual(["Setup notes", "X"])
  })

  it("inserts parents before their children, each child naming its parent", () => {
    const order = insertionOrder(pagesOfFolder([{ path: "a/README.md", text: "# A\n" }, { path: "a/b.md", text: "# B\n" }, { path: "c.md", text: "# C\n" }]))
    expect(order.map((page) => [page.title, page.parent])).toEqual([["A", undefined], ["B", 0], ["C", undefined]])
  })
})

describe("batches", () => {
  it("holds at most the count and the markdown a batch may, in order, and never an empty batch", () => {
    const pages = Array.from({ length: 7 }, (_, i) => ({ title: `P${i}`, markdown: "x".repeat(i === 3 ? 50 : 10), parent: undefined }))
    expect(batches(pages, 3, 60)).toEqual([{ from: 0, to: 3 }, { from: 3, to: 5 }, { from: 5, to: 7 }])
    expect(batches([], 3, 60)).toEqual([])
    // A page larger than a batch's markdown still goes, alone.
    expect(batches([{ title: "Big", markdown: "x".repeat(100), parent: undefined }], 3, 60)).toEqual([{ from: 0, to: 1 }])
  })
})
