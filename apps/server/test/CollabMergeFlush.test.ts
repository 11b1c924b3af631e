/**
 * A merge takes what live editing acknowledged ("Saved"), even before the debounced write back
 * wrote it to the page, and even when the server holding the document stopped first: the stored
 * document ahead of its page is written before the merge reads the change request.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { Services } from "@quire/platform"
import { StoredLiveMarkdown } from "@quire/reviews"
import * as Y from "yjs"
import { CollabCodec } from "@quire/live/CollabCodec"
import * as CollabStoredMarkdown from "@quire/live/CollabStoredMarkdown"
import { Backends } from "@quire/testkit"
import { client as apiClient, spaceWith } from "./Harness.ts"
import { collabServerOn, collabUrl, connect, settled, sharedPage } from "./CollabSupport.ts"

const postgres = Backends.databasesMigrated(Services.migrations).find((database) => database.name === "postgres")!

/** The page's markdown on main. */
const mainMarkdown = (api: Effect.Success<ReturnType<typeof apiClient>>, spaceId: string, pageId: string) =>
  Effect.map(
    api.spaceContent.getPageById({ params: { spaceId, pageId }, query: { format: "markdown" } }),
    (page) => (page as { readonly markdown?: string }).markdown ?? ""
  )

/**
 * A fresh database, and servers on it whose write back would come only after a minute: every
 * merge below starts long before it.
 */
const servers = Effect.map(Layer.build(postgres.layer), (database) => () =>
  collabServerOn(Services.layerSql, "postgres", { writeDebounceMs: 60_000, writeMaxDebounceMs: 60_000 }).pipe(
    Layer.provide(Layer.succeedContext(database))
  ))

describe("a merge of a change request edited live", () => {

  it.live("merged right after an edit is saved, main has the edit", () =>
    Effect.gen(function*() {
      const server = yield* servers
      yield* Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const page = yield* sharedPage(alice.api, space.id)
        const client = yield* connect({ url: yield* collabUrl, name: page.name, token: alice.token })
        yield* settled(client)
        client.type(client.text().length, "Typed just before the merge.\n")
        yield* settled(client)
        assert.notInclude(yield* page.markdown, "Typed just before", "the markdown was written before the merge")
        const acknowledged = client.text()

        const merged = yield* alice.api.changeRequests.mergeChangeRequest({ params: page.params })
        assert.strictEqual(merged.result, "merge")
        assert.strictEqual(yield* mainMarkdown(alice.api, space.id, page.pageId), acknowledged)
        // The open document took the merge's write as its own: nothing brought in twice.
        yield* settled(client)
        assert.strictEqual(client.text(), acknowledged)
      }).pipe(Effect.provide(server()), Effect.scoped)
    }).pipe(Effect.scoped), { timeout: 120_000 })

  it.live("merged after the server stopped before writing, with no one connected, main has the edits", () =>
    Effect.gen(function*() {
      const server = yield* servers
      const before = yield* Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const page = yield* sharedPage(alice.api, space.id)
        const client = yield* connect({ url: yield* collabUrl, name: page.name, token: alice.token })
        yield* settled(client)
        for (let i = 0; i < 5; i++) client.type(client.text().length, `Line ${i} typed live.\n`)
        yield* settled(client)
        assert.notInclude(yield* page.markdown, "typed live", "the markdown was written before the stop")
        return { alice, space, page, acknowledged: client.text() }
      }).pipe(Effect.provide(server()), Effect.scoped)

      yield* Effect.gen(function*() {
        // The first server's API client is gone with it: merge through the second.
        const api = yield* apiClient(before.alice.token)
        const merged = yield* api.changeRequests.mergeChangeRequest({ params: before.page.params })
        assert.strictEqual(merged.result, "merge")
        assert.strictEqual(yield* mainMarkdown(api, before.space.id, before.page.pageId), before.acknowledged)
      }).pipe(Effect.provide(server()), Effect.scoped)
    }).pipe(Effect.scoped), { timeout: 120_000 })

  it.effect("the server's markdown of a stored document is the editor's, from its state and updates", () =>
    Effect.gen(function*() {
      const codec = CollabCodec.editor()
      const state = codec.fromMarkdown("# Guide\n\nHello **world**.\n")
      // An update typed on top of the state, as a stored document holds it.
      const doc = new Y.Doc()
      Y.applyUpdate(doc, state)
      const before = Y.encodeStateVector(doc)
      codec.apply(doc, "# Guide\n\nHello **world**.\n\nTyped later.\n")
      const update = Y.encodeStateAsUpdate(doc, before)
      const expected = codec.toMarkdown(doc)
      doc.destroy()
      const port = yield* StoredLiveMarkdown
      const markdown = yield* port.of([state, update])
      assert.deepStrictEqual(markdown, Option.some(expected))
      assert.include(expected, "Typed later.")
    }).pipe(Effect.provide(CollabStoredMarkdown.layer)))
})
