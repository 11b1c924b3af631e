/**
 * A stored shared document the editor's codec cannot read (stored before live updates were
 * checked, here through the repository, past the check) never takes a merge down: the merge is
 * refused with a 400 naming the page, the unreadable edits are set aside so the page opens live
 * again from its last saved markdown, and the next merge goes through; a page deleted meanwhile is
 * merged without a word. Attribute values out of range no longer make the codec throw at all: the
 * element is left out, as the editor leaves it out. On memory, PostgreSQL and PGlite.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import * as Y from "yjs"
import { Services } from "@quire/platform"
import { LiveDocuments } from "@quire/reviews"
import { Backends } from "@quire/testkit"
import { CollabCodec } from "@quire/live/CollabCodec"
import { errorCode, errorMessage, spaceWith } from "./Harness.ts"
import { collabServerOn, collabUrl, connect, settled, sharedPage } from "./CollabSupport.ts"

/** An update of the stored document `name` that `edit` makes, stored as it is: no check on the way. */
const storePast = (name: string, edit: (fragment: Y.XmlFragment) => void) =>
  Effect.gen(function*() {
    const live = yield* LiveDocuments
    const stored = Option.getOrThrow(yield* live.stored(name))
    const doc = new Y.Doc()
    Y.applyUpdate(doc, stored.state)
    for (const update of stored.updates) Y.applyUpdate(doc, update.update)
    const before = Y.encodeStateVector(doc)
    edit(doc.getXmlFragment("default"))
    yield* live.storeUpdate(name, Y.encodeStateAsUpdate(doc, before))
    doc.destroy()
  })

/** A page "Guide" edited live once (so its document is stored), and nobody connected any more. */
const editedPage = Effect.gen(function*() {
  const { alice, space } = yield* spaceWith()
  const page = yield* sharedPage(alice.api, space.id)
  yield* Effect.scoped(Effect.gen(function*() {
    const client = yield* connect({ url: yield* collabUrl, name: page.name, token: alice.token })
    yield* settled(client)
  }))
  return { alice, space, page }
})

const backends = [
  { name: "memory", server: collabServerOn(Services.layerMemory, "memory", {}, CollabCodec.layer) },
  ...Backends.databasesMigrated(Services.migrations).map((database) => ({
    name: database.name,
    server: collabServerOn(Services.layerSql, database.name === "pglite" ? "embedded" : "postgres", {}, CollabCodec.layer).pipe(Layer.provide(database.layer))
  }))
]

for (const backend of backends) {
  layer(backend.server, { timeout: 120_000, excludeTestServices: true })(`an unreadable live document at merge, on ${backend.name}`, (it) => {
    it.effect("the merge answers 400 naming the page, sets the edits aside, and the next merge takes the page as last saved", () =>
      Effect.gen(function*() {
        const { alice, space, page } = yield* editedPage
        const saved = yield* page.markdown
        // A list item where a block should be: no markdown for it.
        yield* storePast(page.name, (fragment) => {
          const item = new Y.XmlElement("listItem")
          const paragraph = new Y.XmlElement("paragraph")
          paragraph.insert(0, [new Y.XmlText("stray")])
          item.insert(0, [paragraph])
          fragment.insert(0, [item])
        })
        const refused = yield* alice.api.changeRequests.mergeChangeRequest({ params: page.params }).pipe(Effect.flip)
        assert.strictEqual(errorCode(refused), 400)
        assert.include(errorMessage(refused), "page \"Guide\"")
        assert.include(errorMessage(refused), "cannot be read")
        assert.include(errorMessage(refused), "last saved markdown")

        // Set aside: the page opens live from its markdown again, and merges as saved.
        const next = yield* connect({ url: yield* collabUrl, name: page.name, token: alice.token })
        yield* settled(next)
        assert.notInclude(next.doc.getXmlFragment("default").toString(), "stray")
        const merged = yield* alice.api.changeRequests.mergeChangeRequest({ params: page.params })
        assert.strictEqual(merged.result, "merge")
        const main = yield* alice.api.spaceContent.getPageById({ params: { spaceId: space.id, pageId: page.pageId }, query: { format: "markdown" } })
        assert.strictEqual((main as { readonly markdown?: string }).markdown, saved)
      }))

    it.effect("an unreadable document of a page deleted since does not stop the merge", () =>
      Effect.gen(function*() {
        const { alice, page } = yield* editedPage
        yield* storePast(page.name, (fragment) => fragment.insert(0, [new Y.XmlText("text outside any block")]))
        yield* alice.api.changeRequestContent.updateChangeRequestContent({
          params: page.params,
          payload: { changes: [{ operation: "insert_page", title: "Another", document: { markdown: "Kept.\n" } }, { operation: "delete_page", page: page.pageId }] }
        })
        const merged = yield* alice.api.changeRequests.mergeChangeRequest({ params: page.params })
        assert.strictEqual(merged.result, "merge")
      }))

    it.effect("a paragraph whose source is 42, stored past the check, is left out and the edits around it are merged", () =>
      Effect.gen(function*() {
        const { alice, space, page } = yield* editedPage
        yield* storePast(page.name, (fragment) => {
          const poisoned = new Y.XmlElement("paragraph")
          poisoned.setAttribute("source", 42 as unknown as string)
          poisoned.insert(0, [new Y.XmlText("poisoned")])
          const fine = new Y.XmlElement("paragraph")
          fine.insert(0, [new Y.XmlText("Typed live.")])
          fragment.insert(fragment.length, [poisoned, fine])
        })
        const merged = yield* alice.api.changeRequests.mergeChangeRequest({ params: page.params })
        assert.strictEqual(merged.result, "merge")
        const main = yield* alice.api.spaceContent.getPageById({ params: { spaceId: space.id, pageId: page.pageId }, query: { format: "markdown" } })
        const markdown = (main as { readonly markdown?: string }).markdown ?? ""
        assert.include(markdown, "Typed live.")
        assert.notInclude(markdown, "poisoned")
      }))
  })
}
