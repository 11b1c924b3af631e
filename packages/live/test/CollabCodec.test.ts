/**
 * The conversion the collaboration server makes: markdown to the Y.XmlFragment TipTap binds and
 * back, through the editor's own codec (every fixture page of @quire/document byte for byte, an
 * edit rewriting only its block), and through any ProseMirror codec (a small schema of paragraphs,
 * for the mechanics of two people's edits).
 */
import { assert, describe, it } from "@effect/vitest"
import { Schema } from "@tiptap/pm/model"
import { Effect } from "effect"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Y from "yjs"
import { CollabCodec, type ProsemirrorMarkdown } from "@quire/live/CollabCodec"

/** @quire/document's committed fixture pages (its blocks and real GitBook pages). */
const fixtureDir = fileURLToPath(new URL("../../document/test", import.meta.url))
const markdownFiles = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? markdownFiles(path) : name.endsWith(".md") ? [path] : []
  })

const editorCodec = Effect.runSync(Effect.service(CollabCodec).pipe(Effect.provide(CollabCodec.layer)))

/** The markdown a shared document made from `markdown` gives back, after a trip through another Y.Doc (as a client holds it). */
const throughSharedDocument = (markdown: string, edit?: (doc: Y.Doc) => void) => {
  const client = new Y.Doc()
  Y.applyUpdate(client, editorCodec.fromMarkdown(markdown))
  edit?.(client)
  const server = new Y.Doc()
  Y.applyUpdate(server, Y.encodeStateAsUpdate(client))
  return editorCodec.toMarkdown(server)
}

describe("CollabCodec.layer, the editor's codec", () => {
  const pages = markdownFiles(fixtureDir).toSorted()

  it("finds the fixture pages", () => {
    assert.isAtLeast(pages.length, 20)
  })

  for (const path of pages) {
    it(`gives back ${path.slice(fixtureDir.length + 1)} byte for byte`, () => {
      const markdown = readFileSync(path, "utf8")
      assert.strictEqual(throughSharedDocument(markdown), markdown)
    })
  }

  it("an edit in the shared document rewrites its block only", () => {
    const markdown = [
      "---",
      "description: Kept as written",
      "---",
      "",
      "# Guide",
      "",
      "{% hint style=\"info\" %}",
      "Spacing  kept   as   written.",
      "{% endhint %}",
      "",
      "Edit this paragraph.",
      "",
      "* a list",
      "* kept",
      ""
    ].join("\n")
    const edited = throughSharedDocument(markdown, (doc) => {
      const fragment = doc.getXmlFragment("default")
      for (let i = 0; i < fragment.length; i++) {
        const block = fragment.get(i)
        if (block instanceof Y.XmlElement && block.nodeName === "paragraph" && block.toString().includes("Edit this paragraph.")) {
          const text = block.get(0) as Y.XmlText
          text.insert(text.length, " Edited live.")
        }
      }
    })
    assert.strictEqual(edited, markdown.replace("Edit this paragraph.", "Edit this paragraph. Edited live."))
  })

  it("a write from elsewhere leaves the trailing spaces typed in blocks it did not change, in a paragraph and in a list", () => {
    const doc = new Y.Doc()
    Y.applyUpdate(doc, editorCodec.fromMarkdown("Read and see\n\n* one\n* two\n\nLast.\n"))
    const fragment = doc.getXmlFragment("default")
    const paragraph = (fragment.get(0) as Y.XmlElement).get(0) as Y.XmlText
    paragraph.insert(paragraph.length, " ")
    // The list's first item's paragraph.
    const item = (((fragment.get(1) as Y.XmlElement).get(0) as Y.XmlElement).get(0) as Y.XmlElement).get(0) as Y.XmlText
    item.insert(item.length, " ")
    const typed = editorCodec.toMarkdown(doc)
    assert.strictEqual(typed, "Read and see \n\n* one \n* two\n\nLast.\n")
    editorCodec.apply(doc, typed.replace("Last.", "Last, changed elsewhere."))
    assert.strictEqual(paragraph.toString(), "Read and see ")
    assert.strictEqual(item.toString(), "one ")
    assert.strictEqual(editorCodec.toMarkdown(doc), "Read and see \n\n* one \n* two\n\nLast, changed elsewhere.\n")
    // What the write did change is taken as written.
    editorCodec.apply(doc, "Read and see it.\n\n* one \n* two\n\nLast, changed elsewhere.\n")
    assert.strictEqual(editorCodec.toMarkdown(doc), "Read and see it.\n\n* one \n* two\n\nLast, changed elsewhere.\n")
  })
})

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
