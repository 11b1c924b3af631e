/**
 * A live update is input like any other: tried on a copy of the shared document and checked against
 * the block schema before it is stored. Typing, new blocks and the editor's own changes pass; a value
 * out of its attribute's range, a value of the wrong type, a block where none may be, and any write
 * outside the one root the page reads are refused with words that say why.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import * as Y from "yjs"
import { Services } from "@quire/platform"
import { Backends } from "@quire/testkit"
import { CollabCodec } from "@quire/live/CollabCodec"
import * as CollabUpdateCheck from "@quire/live/CollabUpdateCheck"
import { call } from "./AuthCalls.ts"
import { spaceWith } from "./Harness.ts"
import { collabServerOn, collabUrl, connect, eventually, eventuallyEffect, settled, sharedPage } from "./CollabSupport.ts"

const codec = CollabCodec.editor()

const page = [
  "# Guide",
  "",
  "A paragraph.",
  "",
  "- one",
  "- two",
  "",
  "{% tabs %}",
  "{% tab title=\"A\" %}",
  "In A.",
  "{% endtab %}",
  "{% endtabs %}",
  ""
].join("\n")

/** The server's open document of `page`, the check over it, and an editor's copy whose edits become updates. */
const setup = () => {
  const live = new Y.Doc()
  Y.applyUpdate(live, codec.fromMarkdown(page))
  const mirrors = CollabUpdateCheck.makeMirrors(codec.check)
  const copyOfLive = () => {
    const doc = new Y.Doc()
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(live))
    return doc
  }
  let editor = copyOfLive()
  /** The update `edit` makes in the editor's copy, checked; applied to the open document when it passes. */
  const send = (edit: (fragment: Y.XmlFragment, doc: Y.Doc) => void) => {
    const before = Y.encodeStateVector(editor)
    edit(editor.getXmlFragment("default"), editor)
    const update = Y.encodeStateAsUpdate(editor, before)
    const problem = mirrors.tryUpdate("cr/page", live, update)
    if (problem === undefined) Y.applyUpdate(live, update)
    else {
      // A refused editor reloads from what the server has.
      editor.destroy()
      editor = copyOfLive()
    }
    return { problem, size: update.length }
  }
  return { live, mirrors, send, markdown: () => codec.toMarkdown(live) }
}

const element = (fragment: Y.XmlFragment, name: string): Y.XmlElement => {
  const found = fragment.createTreeWalker((node) => node instanceof Y.XmlElement && node.nodeName === name).next()
  if (found.done) throw new Error(`no ${name}`)
  return found.value as Y.XmlElement
}

describe("the check of a live update", () => {
  it("lets typing, a new paragraph and the editor's own attribute changes through, and the page's markdown follows", () => {
    const { send, markdown } = setup()
    assert.isUndefined(send((fragment) => (element(fragment, "paragraph").get(0) as Y.XmlText).insert(0, "Typed. ")).problem)
    assert.isUndefined(send((fragment) => {
      const paragraph = new Y.XmlElement("paragraph")
      paragraph.insert(0, [new Y.XmlText("A new one.")])
      fragment.insert(1, [paragraph])
    }).problem)
    assert.isUndefined(send((fragment) => element(fragment, "heading").setAttribute("level", 2 as unknown as string)).problem)
    assert.isUndefined(send((fragment) => (element(fragment, "paragraph").get(0) as Y.XmlText).format(0, 5, { bold: { delim: "**" } })).problem)
    const written = markdown()
    assert.include(written, "## Guide")
    assert.include(written, "**A new** one.")
    assert.include(written, "Typed. A paragraph.")
  })

  it("lets every page of the document package's corpus through, written into a page as the editor's binding writes it", () => {
    const root = join(import.meta.dirname, "../../../packages/document/test")
    const pages = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((path) => path.includes("fixtures") && path.endsWith(".md"))
    assert.isAbove(pages.length, 20)
    for (const path of pages) {
      const markdown = readFileSync(join(root, path), "utf8")
      const { live, mirrors } = setup()
      const editor = new Y.Doc()
      Y.applyUpdate(editor, Y.encodeStateAsUpdate(live))
      const before = Y.encodeStateVector(editor)
      // updateYFragment: what y-prosemirror writes of the editor's document.
      codec.apply(editor, markdown)
      const update = Y.encodeStateAsUpdate(editor, before)
      assert.isUndefined(mirrors.tryUpdate("cr/page", live, update), path)
      Y.applyUpdate(live, update)
      assert.strictEqual(codec.toMarkdown(live), codec.toMarkdown(editor), path)
    }
  })

  it("refuses the 68-byte heading of level 200,000,000, and a list indented 500,000,000", () => {
    const { send, markdown } = setup()
    const before = markdown()
    const heading = send((fragment) => {
      const giant = new Y.XmlElement("heading")
      giant.setAttribute("level", 200_000_000 as unknown as string)
      fragment.insert(0, [giant])
    })
    assert.isAtMost(heading.size, 80)
    assert.strictEqual(heading.problem, "heading's level must be an integer from 1 to 6, not 200000000")
    const list = send((fragment) => element(fragment, "bulletList").setAttribute("indent", 500_000_000 as unknown as string))
    assert.match(list.problem ?? "", /^bulletList's indent must be an integer from 0 to 3/)
    const tabs = send((fragment) => element(fragment, "tab").setAttribute("lead", 500_000_000 as unknown as string))
    assert.match(tabs.problem ?? "", /^tab's lead must be an integer from 0 to 1000/)
    assert.strictEqual(markdown(), before)
  })

  it("refuses a paragraph whose source is the integer 42, and an attribute the block does not have", () => {
    const { send, markdown } = setup()
    const before = markdown()
    const poisoned = send((fragment) => {
      const paragraph = new Y.XmlElement("paragraph")
      paragraph.setAttribute("source", 42 as unknown as string)
      fragment.insert(0, [paragraph])
    })
    assert.match(poisoned.problem ?? "", /^paragraph's source must be a string of at most \d+ characters, not 42$/)
    assert.strictEqual(send((fragment) => element(fragment, "paragraph").setAttribute("junk", "x".repeat(1000))).problem, "paragraph has no attribute \"junk\"")
    assert.strictEqual(markdown(), before)
  })

  it("refuses blocks where none may be, blocks that do not exist and marks that do not", () => {
    const { send } = setup()
    assert.strictEqual(send((fragment) => fragment.insert(0, [new Y.XmlElement("listItem")])).problem, "there is no top-level block \"listItem\"")
    assert.strictEqual(send((fragment) => fragment.insert(0, [new Y.XmlElement("marquee")])).problem, "there is no top-level block \"marquee\"")
    assert.strictEqual(send((fragment) => fragment.insert(0, [new Y.XmlText("loose")])).problem, "the page holds text outside a block")
    assert.match(send((fragment) => element(fragment, "bulletList").insert(0, [new Y.XmlElement("paragraph")])).problem ?? "", /^bulletList cannot hold paragraph, listItem/)
    assert.strictEqual(send((fragment) => (element(fragment, "paragraph").get(0) as Y.XmlText).format(0, 2, { blink: {} })).problem, "there is no mark \"blink\"")
    assert.match(send((fragment) => (element(fragment, "paragraph").get(0) as Y.XmlText).format(0, 2, { code: { ticks: 1e9 } })).problem ?? "", /^code's ticks must be/)
    // Deleting is never refused: a block (or the page) emptied reads as the editor reads it, without it.
    assert.isUndefined(send((fragment) => {
      const list = element(fragment, "bulletList")
      list.delete(0, list.length)
    }).problem)
    assert.isUndefined(send((fragment) => {
      while (fragment.length > 0) fragment.delete(0)
    }).problem)
  })

  it("refuses a block past a page's markdown limits, which the page could never be written with", () => {
    const { send, markdown } = setup()
    const before = markdown()
    const nested = (depth: number): Y.XmlElement => {
      if (depth === 0) {
        const paragraph = new Y.XmlElement("paragraph")
        paragraph.insert(0, [new Y.XmlText("deep")])
        return paragraph
      }
      const quote = new Y.XmlElement("blockquote")
      quote.insert(0, [nested(depth - 1)])
      return quote
    }
    assert.match(send((fragment) => fragment.insert(0, [nested(40)])).problem ?? "", /^a block would be over the markdown list-and-quote-nesting limit \(at most 32, found \d+\)$/)
    assert.isUndefined(send((fragment) => fragment.insert(0, [nested(8)])).problem)
    assert.include(markdown(), "> > > > > > > > deep")
    assert.include(markdown(), before.slice(0, 20))
  })

  it("refuses an update that writes any root but the page's document", () => {
    const { send, live } = setup()
    const problem = send((_fragment, doc) => doc.getMap("quota").set("junk", "x".repeat(10_000))).problem
    assert.strictEqual(problem, "an edit may change only the page's document (default)")
    assert.isUndefined(live.share.get("quota"))
    // A root known already is no better.
    const text = send((_fragment, doc) => doc.getText("markdown").insert(0, "x")).problem
    assert.strictEqual(text, "an edit may change only the page's document (default)")
  })

  it("after refusing what an update added, reads the page as the server holds it without making its copy again; one building on the refused is refused", () => {
    const { live, mirrors } = setup()
    const typist = new Y.Doc()
    Y.applyUpdate(typist, Y.encodeStateAsUpdate(live))
    const sendAs = (doc: Y.Doc, edit: (fragment: Y.XmlFragment) => void) => {
      const before = Y.encodeStateVector(doc)
      edit(doc.getXmlFragment("default"))
      const update = Y.encodeStateAsUpdate(doc, before)
      const problem = mirrors.tryUpdate("cr/page", live, update)
      if (problem === undefined) Y.applyUpdate(live, update)
      return problem
    }
    const text = () => ((typist.getXmlFragment("default").get(1) as Y.XmlElement).get(0) as Y.XmlText)
    assert.isUndefined(sendAs(typist, () => text().insert(0, "abc ")))
    const copies = mirrors.made()
    // Typed on from there, with a block that does not fit: Yjs may merge the new characters into "abc ".
    assert.match(sendAs(typist, (fragment) => {
      text().insert(4, "d")
      fragment.insert(0, [new Y.XmlElement("marquee")])
    }) ?? "", /marquee/)
    assert.strictEqual(mirrors.made(), copies, "the copy was taken back, not made again")
    assert.strictEqual(mirrors.copyOf("cr/page")!.getXmlFragment("default").toString(), live.getXmlFragment("default").toString())
    // The same editor going on from what was refused builds on what the server never took.
    assert.strictEqual(sendAs(typist, () => text().insert(0, "e")), "the edit builds on edits the server does not have")
    // Another editor's edits go on being checked against the page as it is.
    const other = new Y.Doc()
    Y.applyUpdate(other, Y.encodeStateAsUpdate(live))
    assert.isUndefined(sendAs(other, (fragment) => ((fragment.get(1) as Y.XmlElement).get(0) as Y.XmlText).insert(0, "Other. ")))
    assert.strictEqual(mirrors.made(), copies)
    assert.include(codec.toMarkdown(live), "Other. abc A paragraph.")
    // An update that replaced a value the page held cannot be taken back: the copy is made again.
    assert.isDefined(sendAs(other, (fragment) => (fragment.get(0) as Y.XmlElement).setAttribute("level", 0 as unknown as string)))
    assert.strictEqual(mirrors.made(), copies)
    assert.isUndefined(mirrors.copyOf("cr/page"))
  })

  it("lets through two people's deletions that only together empty a block or the page, as the editor reads such a block", () => {
    const { live, mirrors } = setup()
    const editorOf = () => {
      const doc = new Y.Doc()
      Y.applyUpdate(doc, Y.encodeStateAsUpdate(live))
      return doc
    }
    const sendAs = (doc: Y.Doc, edit: (fragment: Y.XmlFragment) => void) => {
      const before = Y.encodeStateVector(doc)
      edit(doc.getXmlFragment("default"))
      const update = Y.encodeStateAsUpdate(doc, before)
      const problem = mirrors.tryUpdate("cr/page", live, update)
      if (problem === undefined) Y.applyUpdate(live, update)
      return problem
    }
    // Ada deletes "one" and Bea "two" at the same moment: each alone leaves a list of one item.
    const ada = editorOf()
    const bea = editorOf()
    assert.isUndefined(sendAs(ada, (fragment) => element(fragment, "bulletList").delete(0, 1)))
    assert.isUndefined(sendAs(bea, (fragment) => element(fragment, "bulletList").delete(1, 1)))
    assert.notInclude(codec.toMarkdown(live), "- one")
    assert.notInclude(codec.toMarkdown(live), "- two")
    assert.include(codec.toMarkdown(live), "A paragraph.")
    // Each deletes half the page's blocks at once: together, none.
    const cy = editorOf()
    const dee = editorOf()
    const blocks = live.getXmlFragment("default").length
    assert.isUndefined(sendAs(cy, (fragment) => fragment.delete(0, 2)))
    assert.isUndefined(sendAs(dee, (fragment) => fragment.delete(2, blocks - 2)))
    assert.strictEqual(codec.toMarkdown(live).trim(), "")
    // An empty block the update itself makes is still refused.
    const eve = editorOf()
    assert.match(sendAs(eve, (fragment) => fragment.insert(0, [new Y.XmlElement("bulletList")])) ?? "", /bulletList cannot be empty/)
  })

  it("refuses an update that builds on edits the server does not have, and one it cannot apply", () => {
    const { mirrors, live } = setup()
    const other = new Y.Doc()
    Y.applyUpdate(other, Y.encodeStateAsUpdate(live))
    const first = Y.encodeStateVector(other)
    const paragraph = new Y.XmlElement("paragraph")
    other.getXmlFragment("default").insert(0, [paragraph])
    const between = Y.encodeStateVector(other)
    paragraph.setAttribute("source", 42 as unknown as string)
    // The second half alone: its items wait for the first, which never comes.
    const second = Y.encodeStateAsUpdate(other, between)
    assert.strictEqual(mirrors.tryUpdate("cr/page", live, second), "the edit builds on edits the server does not have")
    assert.isDefined(first)
  })
})

for (const database of Backends.databasesMigrated(Services.migrations)) {
  const server = collabServerOn(Services.layerSql, database.name === "pglite" ? "embedded" : "postgres", {}, CollabCodec.layer).pipe(Layer.provide(database.layer))

  layer(server, { timeout: 120_000, excludeTestServices: true })(`live updates checked by the server, on ${database.name}`, (it) => {
    it.effect("the 68-byte heading of level 200,000,000 is refused with its reason, the server keeps answering, and the page is as it was", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const page = yield* sharedPage(alice.api, space.id)
        const url = yield* collabUrl
        const before = yield* page.markdown
        const attacker = yield* connect({ url, name: page.name, token: alice.token })
        yield* settled(attacker)
        const giant = new Y.XmlElement("heading")
        giant.setAttribute("level", 200_000_000 as unknown as string)
        attacker.doc.getXmlFragment("default").insert(0, [giant])
        yield* eventually("the edit is refused", () => attacker.closed.some((reason) => reason.startsWith("invalid-update: ")), 30_000)
        assert.include(attacker.closed.find((reason) => reason.startsWith("invalid-update: ")), "heading's level must be an integer from 1 to 6")

        // The server answers at once, and a merge goes through with the page as it was.
        const started = Date.now()
        const health = yield* call("GET", "/health")
        assert.strictEqual(health.status, 200)
        assert.isBelow(Date.now() - started, 5_000)
        const next = yield* connect({ url, name: page.name, token: alice.token })
        yield* settled(next)
        const names = next.doc.getXmlFragment("default").toArray().map((node) => (node as Y.XmlElement).nodeName)
        assert.deepStrictEqual(names, ["paragraph"])
        yield* Effect.sleep("300 millis")
        assert.strictEqual(yield* page.markdown, before)
        const merged = yield* alice.api.changeRequests.mergeChangeRequest({ params: page.params })
        assert.strictEqual(merged.result, "merge")
      }))

    it.effect("a paragraph whose source is 42, and a write to another root, are refused; typing goes on", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const page = yield* sharedPage(alice.api, space.id)
        const url = yield* collabUrl
        const poisoner = yield* connect({ url, name: page.name, token: alice.token })
        yield* settled(poisoner)
        const paragraph = new Y.XmlElement("paragraph")
        paragraph.setAttribute("source", 42 as unknown as string)
        poisoner.doc.getXmlFragment("default").insert(0, [paragraph])
        yield* eventually("the poisoned paragraph is refused", () => poisoner.closed.some((reason) => reason.startsWith("invalid-update: ")), 30_000)
        assert.include(poisoner.closed.find((reason) => reason.startsWith("invalid-update: ")), "paragraph's source must be a string")

        const hoarder = yield* connect({ url, name: page.name, token: alice.token })
        yield* settled(hoarder)
        hoarder.doc.getMap("hoard").set("junk", "x".repeat(4_000))
        yield* eventually("the other root is refused", () => hoarder.closed.some((reason) => reason.startsWith("invalid-update: ")), 30_000)
        assert.include(hoarder.closed.find((reason) => reason.startsWith("invalid-update: ")), "only the page's document")

        const typist = yield* connect({ url, name: page.name, token: alice.token })
        yield* settled(typist)
        assert.isUndefined(typist.doc.share.get("hoard"))
        const text = (typist.doc.getXmlFragment("default").get(0) as Y.XmlElement).get(0) as Y.XmlText
        text.insert(0, "Typed. ")
        yield* settled(typist)
        assert.strictEqual(yield* eventuallyEffect(page.markdown, (markdown) => markdown.includes("Typed. Hello.")), "Typed. Hello.\n")
      }))
  })
}
