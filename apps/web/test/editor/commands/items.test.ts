/** The slash menu's items: what a query shows, and that every inserted block is GitBook markdown that reads back as itself. */
import { describe, expect, it } from "vitest"
import { buildBlock, filterItems, insertItems } from "../../../src/editor/commands/items.ts"
import type { Node as PMNode } from "@tiptap/pm/model"
import { createMarkdownCodec, createSchema } from "@quire/document"

const schema = createSchema()
const codec = createMarkdownCodec(schema)
/**
 * The parsed block is the inserted one: same nodes and text, and every attribute the inserted block has is read
 * back (the parser also keeps what it read, e.g. the end tag's line, where the new block has null).
 */
const expectSameBlock = (parsed: PMNode, built: PMNode, markdown: string): void => {
  expect(parsed.type.name, markdown).toBe(built.type.name)
  expect(parsed.text, markdown).toBe(built.text)
  for (const [key, value] of Object.entries(built.attrs)) if (value !== null && key !== "source") expect(parsed.attrs[key], `${built.type.name}.${key}`).toEqual(value)
  expect(parsed.childCount, markdown).toBe(built.childCount)
  built.forEach((child, _offset, i) => expectSameBlock(parsed.child(i), child, markdown))
}

const titles = (query: string) => filterItems(query).map((i) => i.title)

describe("filtering the insert menu", () => {
  it("shows every item for an empty query", () => {
    expect(filterItems("")).toEqual(insertItems)
  })
  it("matches the start of a word, titles starting with the query first", () => {
    expect(titles("head")).toEqual(["Heading 1", "Heading 2", "Heading 3"])
    expect(titles("hint")).toEqual(["Hint: Info", "Hint: Success", "Hint: Warning", "Hint: Danger"])
    expect(titles("warn")).toEqual(["Hint: Warning"])
    expect(titles("code")[0]).toBe("Code block")
    expect(titles("tab")).toEqual(["Table", "Tabs"])
  })
  it("matches keywords and markdown shortcuts", () => {
    expect(titles("todo")).toEqual(["Task list"])
    expect(titles("details")).toEqual(["Expandable"])
    expect(titles("h2")).toEqual(["Heading 2"])
    expect(titles("latex")).toEqual(["Math block"])
    expect(titles("swagger")).toEqual(["OpenAPI operation"])
  })
  it("needs every word to match", () => {
    expect(titles("hint danger")).toEqual(["Hint: Danger"])
    expect(titles("zebra")).toEqual([])
  })
})

describe("every block the menu inserts", () => {
  const blockNames = new Set(insertItems.flatMap((i) => (i.template ? [i.template.type] : [])))
  it("covers the schema's blocks (but the ones only import makes)", () => {
    const offered = new Set([...blockNames, "figure"])
    const notOffered = ["frontmatter", "raw", "include"]
    for (const [name, type] of Object.entries(schema.nodes)) {
      if (type.spec.group === "block" && !notOffered.includes(name)) expect(offered, name).toContain(name)
    }
  })
  for (const item of insertItems.filter((i) => i.template !== undefined)) {
    it(`${item.title}: serializes to markdown that parses back to the same block`, () => {
      const block = buildBlock(schema, item)!
      const doc = schema.nodes.doc!.create(null, [schema.nodes.paragraph!.create(null, schema.text("Before.")), block])
      const markdown = codec.serialize(doc)
      const back = codec.parse(markdown)
      expect(back.childCount, markdown).toBe(item.id === "paragraph" ? 1 : 2)
      if (item.id !== "paragraph") expectSameBlock(back.child(1), block, markdown)
      expect(codec.serialize(back)).toBe(markdown)
    })
  }
})
