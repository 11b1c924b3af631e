/**
 * The conversion the collaboration server makes through a ProseMirror codec (the editor's, once
 * wired): markdown to the Y.XmlFragment TipTap binds and back, here over a small schema of
 * paragraphs (a stand-in for the editor's schema, for this test only).
 */
import { assert, describe, it } from "@effect/vitest"
import { Schema } from "@tiptap/pm/model"
import * as Y from "yjs"
import { CollabCodec, type ProsemirrorMarkdown } from "../src/collab/CollabCodec.ts"

const schema = new Schema({
  nodes: { doc: { content: "paragraph+" }, paragraph: { content: "text*", toDOM: () => ["p", 0] }, text: {} }
})

const paragraphs: ProsemirrorMarkdown = {
  schema,
  parse: (markdown) =>
    schema.node("doc", null, markdown.split("\n\n").map((text) => schema.node("paragraph", null, text === "" ? [] : [schema.text(text)]))),
  serialize: (doc) => {
    const texts: Array<string> = []
    doc.forEach((paragraph) => void texts.push(paragraph.textContent))
    return texts.join("\n\n")
  }
}

/** The text of the `index`th paragraph of the fragment `body`. */
const textOf = (doc: Y.Doc, index: number) => (doc.getXmlFragment("body").get(index) as Y.XmlElement).get(0) as Y.XmlText

describe("CollabCodec.fromProsemirror", () => {
  it("gives back the markdown it was given, from the fragment TipTap binds", () => {
    const codec = CollabCodec.fromProsemirror(paragraphs)
    const doc = new Y.Doc()
    Y.applyUpdate(doc, codec.fromMarkdown("One.\n\nTwo."))
    assert.strictEqual(doc.getXmlFragment("default").length, 2)
    assert.strictEqual(codec.toMarkdown(doc), "One.\n\nTwo.")
  })

  it("reads the edits two people made in the shared document", () => {
    const codec = CollabCodec.fromProsemirror(paragraphs, "body")
    const initial = codec.fromMarkdown("First.\n\nSecond.")
    const [alice, bob] = [new Y.Doc(), new Y.Doc()]
    Y.applyUpdate(alice, initial)
    Y.applyUpdate(bob, initial)
    textOf(alice, 0).insert(0, "Alice's ")
    textOf(bob, 1).insert("Second".length, " and Bob's")
    Y.applyUpdate(alice, Y.encodeStateAsUpdate(bob))
    Y.applyUpdate(bob, Y.encodeStateAsUpdate(alice))
    assert.strictEqual(codec.toMarkdown(alice), "Alice's First.\n\nSecond and Bob's.")
    assert.strictEqual(codec.toMarkdown(bob), codec.toMarkdown(alice))
  })
})
