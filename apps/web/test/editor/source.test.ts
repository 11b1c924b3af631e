import type { Node as PMNode } from "@tiptap/pm/model"
import { EditorState } from "@tiptap/pm/state"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { blockText, closeSource, openSource, type Originals } from "../../src/editor/source/blocks.ts"
import { sameDocument } from "@quire/document"
import { document } from "../../../../packages/document/test/generate.ts"
import { codec, typesIn } from "../../../../packages/document/test/support.ts"

/** The position of top-level block `index`. */
const at = (doc: PMNode, index: number): number => {
  let pos = 0
  for (let k = 0; k < index; k++) pos += doc.child(k).nodeSize
  return pos
}

/** A page opened as the editor holds it: block `index` shown as source, then read back with `text` (or its own text). */
const roundTrip = (markdown: string, index: number, edit?: (text: string) => string) => {
  const originals: Originals = new Map()
  let state = EditorState.create({ schema: codec.schema, doc: codec.parse(markdown) })
  const pos = at(state.doc, index)
  const opened = openSource(state, codec, originals, pos)!
  expect(opened.getMeta("addToHistory")).toBe(false)
  state = state.apply(opened)
  const raw = state.doc.child(index)
  expect(raw.type.name).toBe("raw")
  // While open, the page still saves as it was.
  const whileOpen = codec.serialize(state.doc)
  const text = raw.attrs.text as string
  const closed = closeSource(state, codec, originals, pos, edit ? edit(text) : text)
  if (closed) state = state.apply(closed)
  return { text, whileOpen, doc: state.doc, out: codec.serialize(state.doc), originals }
}

const PAGE = "# Title\nIntro *text* here.\n\n| a | b |\n|---|:-:|\n| 1 | 2 |\n\n{% hint style=\"info\" %}\nA hint.\n{% endhint %}\n\nLast line\n"

describe("a block shown as its markdown source", () => {
  it("shows the block's markdown as written", () => {
    const doc = codec.parse(PAGE)
    expect(blockText(codec, doc.child(2))).toBe("| a | b |\n|---|:-:|\n| 1 | 2 |")
    expect(blockText(codec, doc.child(3))).toBe("{% hint style=\"info\" %}\nA hint.\n{% endhint %}")
  })

  it("closed without a change gives back the same block and the same bytes", () => {
    for (let index = 0; index < 5; index++) {
      const r = roundTrip(PAGE, index)
      expect(r.out).toBe(PAGE)
      expect(r.doc.eq(codec.parse(PAGE))).toBe(true)
      expect(r.originals.size).toBe(0)
    }
  })

  it("edited, becomes the blocks its text reads as, and only its lines change", () => {
    const r = roundTrip(PAGE, 2, (t) => t.replace("| 1 | 2 |", "| 1 | 2 |\n| 3 | 4 |"))
    expect(r.out).toBe(PAGE.replace("| 1 | 2 |\n", "| 1 | 2 |\n| 3 | 4 |\n"))
    expect(r.doc.child(2).type.name).toBe("table")
    expect(r.doc.child(2).childCount).toBe(3)
  })

  it("edited into other blocks, reads as them (a paragraph into a list)", () => {
    const r = roundTrip(PAGE, 4, () => "- one\n- two")
    expect(r.out).toBe(PAGE.replace("Last line\n", "- one\n- two\n"))
    expect(r.doc.child(4).type.name).toBe("bulletList")
  })

  it("markdown the editor cannot draw stays a raw block, never dropped", () => {
    const r = roundTrip(PAGE, 3, () => "<div align=\"center\">\nCentered\n</div>")
    expect(r.out).toBe(PAGE.replace("{% hint style=\"info\" %}\nA hint.\n{% endhint %}", "<div align=\"center\">\nCentered\n</div>"))
    expect(r.doc.child(3).type.name).toBe("raw")
    expect(r.doc.child(3).attrs.sourceOf).toBeNull()
  })

  it("a raw block edited in place into markdown the editor models becomes blocks", () => {
    const md = "Before\n\n<div>\nx\n</div>\n\nAfter\n"
    const originals: Originals = new Map()
    let state = EditorState.create({ schema: codec.schema, doc: codec.parse(md) })
    expect(state.doc.child(1).type.name).toBe("raw")
    const pos = state.doc.child(0).nodeSize
    state = state.apply(closeSource(state, codec, originals, pos, "## Now a heading")!)
    expect(codec.serialize(state.doc)).toBe("Before\n\n## Now a heading\n\nAfter\n")
    expect(state.doc.child(1).type.name).toBe("heading")
    expect(closeSource(state, codec, originals, pos, "x")).toBeUndefined()
  })

  it("a source undone back to after its block was read again is read again when left", () => {
    const originals: Originals = new Map()
    let state = EditorState.create({ schema: codec.schema, doc: codec.parse(PAGE) })
    const pos = at(state.doc, 1)
    state = state.apply(openSource(state, codec, originals, pos)!)
    const shown = state.doc.child(1)
    originals.clear()
    const closed = closeSource(state, codec, originals, pos, shown.attrs.text as string)!
    state = state.apply(closed)
    expect(state.doc.child(1).type.name).toBe("paragraph")
    expect(codec.serialize(state.doc)).toBe(PAGE)
  })

  it("a source that would run into the next block gets a blank line", () => {
    const md = "# Title\nNext paragraph\n"
    const r = roundTrip(md, 0, () => "Now a paragraph")
    expect(r.out).toBe("Now a paragraph\n\nNext paragraph\n")
    expect(r.doc.childCount).toBe(2)
  })

  it("keeps a page's CRLF line endings and its frontmatter", () => {
    const md = "---\r\ntitle: A\r\n---\r\n\r\nText\r\nmore\r\n\r\nEnd\r\n"
    expect(roundTrip(md, 0).out).toBe(md)
    const r = roundTrip(md, 1, (t) => t.replace("more", "more\nand more"))
    expect(r.out).toBe(md.replace("more\r\n", "more\r\nand more\r\n"))
    expect(typesIn(r.doc)).toContain("frontmatter")
  })

  it("frontmatter-like text typed below the first block is no frontmatter", () => {
    const r = roundTrip("Intro\n\nText\n", 1, () => "---\ntitle: x\n---")
    expect(typesIn(r.doc)).not.toContain("frontmatter")
    expect(codec.serialize(codec.parse(r.out)) === r.out).toBe(true)
  })
})

describe("source view over generated GitBook markdown (seeded fast-check)", () => {
  it("any block opened and closed unchanged gives back the same bytes", () => {
    fc.assert(
      fc.property(document, fc.nat(), (md, pick) => {
        const doc = codec.parse(md)
        const index = pick % doc.childCount
        if (doc.child(index).type.name === "raw") return true
        const originals: Originals = new Map()
        let state = EditorState.create({ schema: codec.schema, doc })
        state = state.apply(openSource(state, codec, originals, at(doc, index))!)
        const text = state.doc.child(index).attrs.text as string
        state = state.apply(closeSource(state, codec, originals, at(doc, index), text)!)
        return codec.serialize(state.doc) === md && state.doc.eq(doc)
      }),
      { seed: 2122, numRuns: 1500 }
    )
  })
  it("any block's source edited leaves every other block's lines alone and reads back as what was saved", () => {
    fc.assert(
      fc.property(document, fc.nat(), fc.constantFrom("Added words", "- item", "## Heading", "<div>\nraw\n</div>", ""), (md, pick, added) => {
        const doc = codec.parse(md)
        const index = pick % doc.childCount
        const originals: Originals = new Map()
        let state = EditorState.create({ schema: codec.schema, doc })
        const pos = at(doc, index)
        if (doc.child(index).type.name !== "raw") state = state.apply(openSource(state, codec, originals, pos)!)
        const text = state.doc.child(index).attrs.text as string
        const closed = closeSource(state, codec, originals, pos, `${text}\n\n${added}`)
        if (closed) state = state.apply(closed)
        const out = codec.serialize(state.doc)
        let before = ""
        let after = ""
        doc.forEach((c, _o, k) => {
          if (k < index) before += c.attrs.source as string
          else if (k > index) after += c.attrs.source as string
        })
        return out.startsWith(before) && out.endsWith(after) && sameDocument(codec.parse(out), state.doc)
      }),
      { seed: 2123, numRuns: 1500 }
    )
  })
})
