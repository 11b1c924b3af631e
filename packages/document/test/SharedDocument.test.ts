/**
 * The collaboration server's path, in plain Node: the editor parses markdown, the document travels as JSON
 * (what y-prosemirror reads out of a shared Y.XmlFragment), the server reads it back with `Node.fromJSON`
 * against a schema of its own and writes markdown with its own codec. The bytes must be the editor's, with
 * every untouched block written from the source slice it carries in its `source` attribute.
 */
import { Node, type Node as PMNode } from "@tiptap/pm/model"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { blocks, checkFresh, createMarkdownCodec, createSchema, getParam, type LiquidParam, withoutSources } from "../src/index.ts"
import { document } from "./generate.ts"
import { corpusPages, fixturePages } from "./pages.ts"
import { codec as editor } from "./support.ts"

/** The server's codec, on a schema built apart from the editor's, as in another process. */
const server = createMarkdownCodec(createSchema())

interface NodeJson {
  readonly type: string
  readonly attrs?: Readonly<Record<string, unknown>>
  readonly content?: ReadonlyArray<NodeJson>
  readonly marks?: ReadonlyArray<unknown>
  readonly text?: string
}

/** y-prosemirror stores no node attribute whose value is null; reading the element back gives the schema's default. */
const withoutNullAttrs = (node: NodeJson): NodeJson => ({
  ...node,
  ...(node.attrs && { attrs: Object.fromEntries(Object.entries(node.attrs).filter(([, v]) => v !== null)) }),
  ...(node.content && { content: node.content.map(withoutNullAttrs) })
})

/** The document as a shared document holds it: JSON values only, null node attributes left out. */
const shared = (doc: PMNode): NodeJson => withoutNullAttrs(JSON.parse(JSON.stringify(doc.toJSON())) as NodeJson)

/** What the server writes for the markdown the editor opened. */
const throughJson = (markdown: string): string => server.serialize(Node.fromJSON(server.schema, shared(editor.parse(markdown))))

const fixtures = fixturePages()

describe("a document's JSON, read back on the server, writes the editor's bytes", () => {
  it("the fixtures hold every node and mark of the schema, and a code block with a title", () => {
    const seen = new Set<string>()
    const titles: Array<string> = []
    for (const [, md] of fixtures) {
      editor.parse(md).descendants((n) => {
        seen.add(n.type.name)
        for (const m of n.marks) seen.add(m.type.name)
        const title = n.type.name === "codeBlock" && n.attrs.wrapper ? getParam(n.attrs.wrapper as ReadonlyArray<LiquidParam>, "title") : undefined
        if (title !== undefined) titles.push(title)
      })
    }
    for (const name of Object.keys(blocks)) expect(seen, name).toContain(name)
    for (const name of [...Object.keys(server.schema.nodes), ...Object.keys(server.schema.marks)]) if (name !== "doc") expect(seen, name).toContain(name)
    expect(titles).toContain("index.js")
  })

  for (const [name, md] of fixtures) {
    it(name, () => {
      const doc = editor.parse(md)
      const back = Node.fromJSON(server.schema, shared(doc))
      expect(server.serialize(back)).toBe(md)
      expect(back.toJSON()).toEqual(doc.toJSON())
    })
  }

  it("every block's source slice survives the JSON, and the top-level slices make up the page", () => {
    for (const [name, md] of fixtures) {
      const json = shared(editor.parse(md))
      expect((json.content ?? []).map((b) => b.attrs?.source).join(""), name).toBe(md)
      const sources: Array<unknown> = []
      const collect = (n: NodeJson): void => {
        if (typeof n.attrs?.source === "string") sources.push(n.attrs.source)
        n.content?.forEach(collect)
      }
      collect(json)
      const kept: Array<unknown> = []
      Node.fromJSON(server.schema, json).descendants((n) => void (typeof n.attrs.source === "string" && kept.push(n.attrs.source)))
      expect(kept, name).toEqual(sources)
    }
  })

  it("untouched blocks are written from their slices, not from their attributes", () => {
    // Pages whose blocks, written from their attributes alone, give other (equivalent) bytes.
    const normalized = fixtures.filter(([, md]) => checkFresh(server, md).output !== md)
    expect(normalized.length).toBeGreaterThan(5)
    for (const [name, md] of normalized) {
      const back = Node.fromJSON(server.schema, shared(editor.parse(md)))
      expect(server.serialize(back), name).toBe(md)
      expect(server.serialize(withoutSources(back)), name).not.toBe(md)
    }
  })

  it("a word changed in the shared document changes only the lines of its block", () => {
    let edited = 0
    for (const [name, md] of fixtures) {
      const json = shared(editor.parse(md))
      const top = json.content ?? []
      const index = top.findIndex((b, i) => i > 0 && i < top.length - 1 && firstText(b) !== undefined)
      if (index < 0) continue
      const out = server.serialize(Node.fromJSON(server.schema, { ...json, content: top.map((b, i) => (i === index ? appendWord(b) : b)) }))
      const before = top.slice(0, index).map((b) => b.attrs?.source).join("")
      const after = top.slice(index + 1).map((b) => b.attrs?.source).join("")
      expect(out.startsWith(before), name).toBe(true)
      expect(out.endsWith(after), name).toBe(true)
      expect(out.slice(before.length, out.length - after.length), name).toContain("edited")
      edited++
    }
    expect(edited).toBeGreaterThan(10)
  })

  it("generated GitBook markdown (seeded fast-check) comes back byte for byte", () => {
    fc.assert(fc.property(document, (md) => throughJson(md) === md), { seed: 3636, numRuns: 2000 })
  })

  it("keeps the edge cases by name, an unclosed fence among them", () => {
    for (const md of ["", "\n", "\r\n", "Intro\n\n```js\ncode\n", "> ```\n> x\n\nafter\n", "- ```\n  x\n- y\n", "$$\nx", "{% hint %}\nx\n"]) {
      expect(throughJson(md)).toBe(md)
    }
  })

  const corpus = corpusPages()
  it.skipIf(corpus.pages.length === 0)(`every page of the real GitBook repositories on this machine (${corpus.found.join(", ") || "none"})`, () => {
    const failed = corpus.pages.filter(([, md]) => throughJson(md) !== md).map(([name]) => name)
    expect(failed).toEqual([])
  }, 300_000)
})

/** The first text node in `node`, depth first. */
const firstText = (node: NodeJson): string | undefined =>
  node.text ?? node.content?.reduce<string | undefined>((found, c) => found ?? firstText(c), undefined)

/** `node` with " edited" added to its first text node. */
const appendWord = (node: NodeJson): NodeJson => {
  let done = false
  const walk = (n: NodeJson): NodeJson => {
    if (done) return n
    if (n.text !== undefined) {
      done = true
      return { ...n, text: `${n.text} edited` }
    }
    return n.content ? { ...n, content: n.content.map(walk) } : n
  }
  return walk(node)
}
