import { describe, expect, it } from "vitest"
import { extractToc, textOf } from "../../../src/features/space/toc.ts"
import { attributesWording, describeChange } from "../../../src/features/history/wording.ts"

describe("extractToc", () => {
  it("lists h2 and h3 headings with ids in order, with their text", () => {
    const html = `<h1 id="t">Title</h1><h2 id="install">Install <code>quire</code> <a class="anchor" href="#install">#</a></h2><p>x</p><h3 class="a" id='linux'>On Linux &amp; BSD</h3><h4 id="deep">Deep</h4><h2>No id</h2>`
    expect(extractToc(html)).toEqual([
      { id: "install", text: "Install quire", level: 2 },
      { id: "linux", text: "On Linux & BSD", level: 3 }
    ])
  })
  it("decodes numeric entities", () => {
    expect(textOf("a&#233;&#x41;")).toBe("aéA")
  })
})

describe("describeChange", () => {
  const page = { id: "p1", type: "document" as const, title: "Guide", path: "guide" }
  it("words each kind of page change", () => {
    expect(describeChange({ type: "page_created", page })).toBe("Added page “Guide”")
    expect(describeChange({ type: "page_deleted", page })).toBe("Removed page “Guide”")
    expect(describeChange({ type: "page_edited", page, attributes: { document: {}, title: {} } })).toBe("Edited page “Guide” (content and title)")
    expect(describeChange({ type: "page_moved", page, parent: { after: { id: "p2", type: "group", title: "Basics" } } })).toBe("Moved page “Guide” under “Basics”")
    expect(describeChange({ type: "page_moved", page, parent: {} })).toBe("Moved page “Guide” to the top level")
  })
  it("joins attribute names", () => {
    expect(attributesWording({ title: {}, slug: {}, emoji: {} })).toBe("title, address and emoji")
  })
})
