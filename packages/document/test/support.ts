/** Shared helpers for the editor's markdown tests: one codec, edits as the editor makes them, line diffs. */
import { Fragment, type Node as PMNode } from "@tiptap/pm/model"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { checkFresh, createMarkdownCodec, createSchema, sameDocument } from "../src/index.ts"

export const codec = createMarkdownCodec(createSchema())

/** Node type names anywhere in the document. */
export const typesIn = (doc: PMNode): Set<string> => {
  const names = new Set<string>()
  doc.descendants((n) => {
    names.add(n.type.name)
    for (const m of n.marks) names.add(m.type.name)
  })
  return names
}

/** Rebuilds the path to every node `edit` changes, keeping every other node (and its kept source) as it was, as ProseMirror does. */
export const mapNodes = (node: PMNode, edit: (n: PMNode) => PMNode | undefined): PMNode => {
  const replaced = edit(node)
  if (replaced) return replaced
  if (node.isLeaf) return node
  let changed = false
  const children: Array<PMNode> = []
  node.forEach((c) => {
    const m = mapNodes(c, edit)
    if (m !== c) changed = true
    children.push(m)
  })
  return changed ? node.copy(Fragment.fromArray(children)) : node
}

/** Replaces the first occurrence of `from` in a text node inside top-level block `index`. */
export const replaceText = (doc: PMNode, index: number, from: string, to: string): PMNode => {
  let done = false
  return mapBlock(doc, index, (block) =>
    mapNodes(block, (n) => {
      if (done || !n.isText || !n.text!.includes(from)) return undefined
      done = true
      return n.type.schema.text(n.text!.replace(from, to), n.marks)
    })
  )
}

export const mapBlock = (doc: PMNode, index: number, edit: (block: PMNode) => PMNode): PMNode => {
  const children: Array<PMNode> = []
  doc.forEach((c, _o, i) => void children.push(i === index ? edit(c) : c))
  return doc.type.create(doc.attrs, children)
}

/** Sets attributes on the first node (inside top-level block `index`, or the block itself) of type `type`. */
export const setAttrs = (doc: PMNode, index: number, type: string, attrs: (old: Record<string, unknown>) => Record<string, unknown>): PMNode => {
  let done = false
  return mapBlock(doc, index, (block) =>
    mapNodes(block, (n) => {
      if (done || n.type.name !== type) return undefined
      done = true
      return n.type.create({ ...n.attrs, ...attrs(n.attrs) }, n.content, n.marks)
    })
  )
}

/** The line range [start, end) of top-level block `index` in the original text. */
export const blockLines = (doc: PMNode, index: number): [number, number] => {
  let before = ""
  doc.forEach((c, _o, i) => {
    if (i < index) before += c.attrs.source as string
  })
  const own = doc.child(index).attrs.source as string
  const start = before.split("\n").length - 1
  return [start, start + own.replace(/\n$/, "").split("\n").length]
}

/**
 * Serializes an edited document and checks what a reviewer would see: only lines of block `index` differ from
 * `original`, and the output reads back as the edited document. Returns the changed lines of the output.
 */
export const expectEditConfined = (original: string, doc: PMNode, edited: PMNode, index: number): Array<string> => {
  const out = codec.serialize(edited)
  const [start, end] = blockLines(doc, index)
  const a = original.split("\n")
  const b = out.split("\n")
  expect(b.slice(0, start)).toEqual(a.slice(0, start))
  const tail = a.length - end
  expect(b.slice(b.length - tail)).toEqual(a.slice(end))
  expect(sameDocument(codec.parse(out), edited)).toBe(true)
  const changed = b.slice(start, b.length - tail)
  expect(changed).not.toEqual(a.slice(start, end))
  return changed.filter((l, k) => l !== a[start + k])
}

export const expectExact = (markdown: string): void => {
  expect(codec.serialize(codec.parse(markdown))).toBe(markdown)
  expect(checkFresh(codec, markdown).fidelity).not.toBe("lossy")
}

/** A block folder's fixtures: every file in `fixtures/` is listed with the nodes it must produce, is exact, and falls back to raw only where expected. */
export const fixtureSuite = (block: string, dir: string, expected: Readonly<Record<string, ReadonlyArray<string>>>): void =>
  void describe(`${block} fixtures round-trip byte for byte`, () => {
    it("lists every fixture file", () => {
      expect(readdirSync(join(dir, "fixtures")).toSorted()).toEqual(Object.keys(expected).toSorted())
    })
    for (const [name, types] of Object.entries(expected)) {
      it(name, () => {
        const text = readFileSync(join(dir, "fixtures", name), "utf8")
        expectExact(text)
        const found = typesIn(codec.parse(text))
        for (const t of types) expect(found, `${name} has a ${t}`).toContain(t)
        if (!types.includes("raw")) expect(found, `${name} falls back to raw`).not.toContain("raw")
      })
    }
  })
