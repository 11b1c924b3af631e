import fc from "fast-check"
import { PostCommentPayload } from "@quire/api"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { createMarkdownCodec, createSchema } from "@quire/document"
import {
  anchorAt,
  blockText,
  commentPayload,
  decodeAnchor,
  encodeAnchor,
  maxNodeLength,
  placeComments,
  positionsOf,
  reanchor
} from "../../../src/features/review/anchors.ts"
import { install } from "./pages.ts"

const codec = createMarkdownCodec(createSchema())
const doc = codec.parse(install)

/** The top-level block whose text contains `text`, and where. */
const at = (d = doc, text: string) => {
  for (let i = 0; i < d.childCount; i++) {
    const offset = blockText(d.child(i)).indexOf(text)
    if (offset >= 0) return { block: i, offset }
  }
  throw new Error(`no ${text}`)
}

const anchorOn = (text: string) => {
  const { block, offset } = at(doc, text)
  return anchorAt(doc, block, offset, text.length)
}

describe("comment anchors", () => {
  it("stores the anchor in the comment's node (GitBook's opaque node id) and reads it back", () => {
    const anchor = anchorOn("one process")
    expect(anchor).toMatchObject({ block: 2, offset: blockText(doc.child(2)).indexOf("one process"), length: 11, quote: "one process" })
    const payload = commentPayload("pg_1", anchor, "Two, with the worker?")
    expect(payload).toEqual({ body: { markdown: "Two, with the worker?" }, page: "pg_1", node: encodeAnchor(anchor) })
    expect(payload.node.length).toBeLessThanOrEqual(maxNodeLength)
    // The API's own payload schema (postCommentInChangeRequest) takes it as it is.
    expect(Schema.decodeUnknownSync(PostCommentPayload)({ ...payload, page: "pg_0123456789abcdef" })).toEqual({ ...payload, page: "pg_0123456789abcdef" })
    expect(decodeAnchor(payload.node)).toEqual(anchor)
  })

  it("cuts a long quote to fit 200 characters, keeping the selection's length", () => {
    const long = anchorAt(doc, 2, 0, 10_000)
    const node = encodeAnchor({ ...long, quote: "é ".repeat(300) })
    expect(node.length).toBeLessThanOrEqual(maxNodeLength)
    expect(() => Schema.decodeUnknownSync(PostCommentPayload)({ body: { markdown: "x" }, node })).not.toThrow()
    const back = decodeAnchor(node)!
    expect(back.length).toBe(long.length)
    expect("é ".repeat(300).startsWith(back.quote)).toBe(true)
  })

  it("reads GitBook's own node ids and garbage as no anchor", () => {
    expect(decodeAnchor(undefined)).toBeUndefined()
    expect(decodeAnchor("d8f7a6b5c4")).toBeUndefined()
    expect(decodeAnchor("qa1:x:y")).toBeUndefined()
    expect(decodeAnchor("qa1:1:abc:0:3:%E0%A4%A")).toBeUndefined()
  })

  it("stays where it was when the page did not change there", () => {
    const anchor = anchorOn("PostgreSQL 16")
    expect(reanchor(doc, anchor)).toEqual({ status: "anchored", block: anchor.block, from: anchor.offset, to: anchor.offset + 13, moved: false })
  })

  it("follows the quote when blocks were added above it and words before it", () => {
    const anchor = anchorOn("TRUST_PROXY=1")
    const edited = codec.parse(install.replace("# Installation\n", "# Installation\n\nA new paragraph.\n\n## And a heading\n").replace("Set `TRUST", "Please set `TRUST"))
    const placed = reanchor(edited, anchor)
    const expected = at(edited, "TRUST_PROXY=1")
    expect(placed).toEqual({ status: "anchored", block: expected.block, from: expected.offset, to: expected.offset + 13, moved: true })
    const range = positionsOf(edited, expected.block, placed.status === "anchored" ? placed.from : 0, placed.status === "anchored" ? placed.to : 0)
    expect(edited.textBetween(range.from, range.to)).toBe("TRUST_PROXY=1")
  })

  it("with the quote in several blocks, finds the block that moved, else the occurrence nearest the old place", () => {
    const page = "Run it.\n\nThen run it again.\n\nFinally run it.\n"
    const before = codec.parse(page)
    const anchor = anchorAt(before, 2, 8, 6)
    expect(anchor.quote).toBe("run it")
    const placed = reanchor(codec.parse(`Intro.\n\n${page}`), anchor)
    expect(placed).toMatchObject({ status: "anchored", block: 3, from: 8, to: 14 })
    // The block itself was edited: the occurrence in the block at its index wins over one further away.
    const edited = codec.parse(page.replace("Finally run it.", "At last run it now."))
    expect(reanchor(edited, anchor)).toMatchObject({ status: "anchored", block: 2, from: 8, to: 14, moved: false })
    const reworded = codec.parse(page.replace("Finally run it.", "Last, run it."))
    expect(reanchor(reworded, anchor)).toMatchObject({ status: "anchored", block: 2, from: 6, to: 12, moved: true })
  })

  it("reports a comment whose quote is gone as orphaned, and keeps it listed with page-level comments", () => {
    const anchor = anchorOn("1 GB of memory")
    const edited = codec.parse(install.replace("* 1 GB of memory\n", ""))
    expect(reanchor(edited, anchor)).toEqual({ status: "orphaned", anchor })
    const comments = [
      { id: "c1", target: { node: { id: encodeAnchor(anchor) } } },
      { id: "c2", target: { node: { id: encodeAnchor(anchorOn("PostgreSQL 16")) } } },
      { id: "c3", target: {} },
      { id: "c4", target: { node: { id: "gitbook-node-id" } } }
    ]
    const placed = placeComments(edited, comments)
    expect(placed.map((p) => [p.comment.id, p.status])).toEqual([["c1", "orphaned"], ["c2", "anchored"], ["c3", "page"], ["c4", "page"]])
    expect(placed[0]).toMatchObject({ quote: "1 GB of memory" })
  })

  it("anchors on an atom block (frontmatter) by its text, and on the whole block's positions", () => {
    const anchor = anchorOn("icon: download")
    expect(anchor.block).toBe(0)
    expect(reanchor(doc, anchor)).toMatchObject({ status: "anchored", block: 0 })
    expect(positionsOf(doc, 0, 0, 3)).toEqual({ from: 0, to: doc.child(0).nodeSize })
  })
})

describe("comment anchors, properties", () => {
  const words = fc.constantFrom("alpha", "beta", "gamma", "delta", "install", "Quire", "node", "page")
  const para = fc.array(words, { minLength: 1, maxLength: 8 }).map((w) => w.join(" "))
  const page = fc.array(para, { minLength: 1, maxLength: 8 }).map((ps) => ps.map((p) => `${p}\n`).join("\n"))

  it("an anchor survives its own round trip through the API's node, and re-anchors onto the same text in any edited page or is orphaned", () => {
    fc.assert(
      fc.property(page, page, fc.nat(), fc.nat(), fc.nat({ max: 20 }), (base, extra, b, o, len) => {
        const before = codec.parse(base)
        const block = b % before.childCount
        const text = blockText(before.child(block))
        // A comment on a whole block quotes the block (len 0 here: all of it).
        const anchor = len === 0 ? anchorAt(before, block, 0, Infinity) : anchorAt(before, block, o % (text.length + 1), len)
        expect(decodeAnchor(encodeAnchor(anchor))).toEqual(anchor)
        expect(reanchor(before, anchor)).toMatchObject({ status: "anchored", block, from: anchor.offset, moved: false })
        const after = codec.parse(`${extra}\n${base.replace(/alpha/g, "ALPHA")}`)
        const placed = reanchor(after, anchor)
        if (placed.status === "anchored") {
          expect(blockText(after.child(placed.block)).slice(placed.from, placed.from + anchor.quote.length)).toBe(anchor.quote)
          const range = positionsOf(after, placed.block, placed.from, placed.from + anchor.quote.length)
          expect(after.textBetween(range.from, range.to)).toBe(anchor.quote)
        } else {
          // Orphaned only when the quote is nowhere in the page.
          const all: Array<string> = []
          after.forEach((n) => void all.push(blockText(n)))
          expect(anchor.quote !== "" && all.every((t) => !t.includes(anchor.quote))).toBe(true)
        }
      }),
      { numRuns: 300, seed: 11 }
    )
  })
})
