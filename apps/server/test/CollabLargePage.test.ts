/**
 * A page too large to edit live, its shared document over what live editing holds: it opens
 * read-only to everyone, with the reason, and is never stored, so the database client (which reads
 * at most 1 MiB a message here) never meets a row it cannot read. On PostgreSQL and on PGlite, whose
 * one connection such a row took down, and every call with it. The server runs the editor's codec:
 * a table's shared document is about 27 times its markdown (docs/web.md, "Live editing").
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Fiber, Layer, Option } from "effect"
import * as Y from "yjs"
import { Services } from "@quire/platform"
import { LiveDocuments } from "@quire/reviews"
import { Backends } from "@quire/testkit"
import { CollabCodec } from "@quire/live/CollabCodec"
import { organizationWith, raw, spaceWith } from "./Harness.ts"
import { collabServerOn, collabUrl, connect, eventually, eventuallyEffect, settled, sharedPage } from "./CollabSupport.ts"

const maxMessageBytes = 1024 * 1024

for (const database of Backends.databasesMigrated(Services.migrations, { maxMessageBytes })) {
  const server = collabServerOn(Services.layerSql, database.name === "pglite" ? "embedded" : "postgres", {}, CollabCodec.layer).pipe(Layer.provide(database.layer))

  layer(server, { timeout: 120_000, excludeTestServices: true })(`a page too large to edit live, on ${database.name}`, (it) => {
    it.effect("opens read-only with the reason, to whoever opens it and again, stores nothing, and the server goes on serving", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["read"])
        const api = alice.api
        const space = yield* api.spaces.createSpace({ params: { organizationId }, payload: { title: "Docs" } })
        const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Large" } })
        const params = { spaceId: space.id, changeRequestId: cr.id }
        // 60 KB of table, about 1.6 MB live: over the 256 KiB the test server holds live, and over what its database client reads at once.
        const markdown = "| a | b |\n| - | - |\n" + "| x | y |\n".repeat(6_000)
        yield* api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: { changes: [{ operation: "insert_page", title: "Large", document: { markdown } }] }
        })
        const { pages } = yield* api.changeRequestContent.listPagesInChangeRequest({ params, query: {} })
        const name = `${cr.id}/${pages[0]!.id}`
        const url = yield* collabUrl
        // One after the other: the second opens the page again once the first left.
        for (const token of [alice.token, members.read!.token, alice.token]) yield* Effect.scoped(Effect.gen(function*() {
          const client = yield* connect({ url, name, token })
          yield* eventually("the page is told why it is read-only", () => client.told.length > 0)
          assert.match(client.told[0]!, /^document-too-large: this page would take \d+ KiB live, over the 256 KiB limit: read-only/)
          const page = client.doc.getXmlFragment("default")
          yield* eventually("the page arrives", () => client.provider.synced && page.length > 0)
          assert.include(page.toString(), "<table")
          page.insert(0, [new Y.XmlElement("paragraph")])
          yield* Effect.sleep("500 millis")
          assert.isTrue(client.provider.hasUnsyncedChanges, "an edit of a read-only page was acknowledged")
        }))
        assert.isTrue(Option.isNone(yield* (yield* LiveDocuments).stored(name)), "the page's shared document was stored")
        const health = yield* raw("GET", "/health")
        assert.strictEqual(health.status, 200)
        const again = yield* api.changeRequests.getChangeRequestById({ params })
        assert.strictEqual(again.id, cr.id)
      }).pipe(Effect.scoped))
  })
}

/** The editor's codec, counting the bytes of each markdown it makes a state from. */
const countingCodec = () => {
  const made: Array<number> = []
  const editor = CollabCodec.editor()
  const layer = Layer.succeed(CollabCodec, CollabCodec.of({ ...editor, fromMarkdown: (markdown) => (made.push(markdown.length), editor.fromMarkdown(markdown)) }))
  return { made, layer }
}

for (const database of Backends.databasesMigrated(Services.migrations)) {
  const codec = countingCodec()
  const server = collabServerOn(Services.layerSql, database.name === "pglite" ? "embedded" : "postgres", { maxDocumentBytes: 8 * 1024 * 1024 }, codec.layer).pipe(
    Layer.provide(database.layer)
  )

  layer(server, { timeout: 300_000, excludeTestServices: true })(`a page far too large to edit live, on ${database.name}`, (it) => {
    it.effect("opens read-only with the reason without making its state, /health answering meanwhile", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Huge" } })
        const params = { spaceId: space.id, changeRequestId: cr.id }
        // 300,000 one-letter paragraphs: 900 KB of markdown, about 19 MB live, seconds of CPU to make.
        const markdown = Array.from({ length: 300_000 }, () => "a").join("\n\n") + "\n"
        yield* alice.api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: { changes: [{ operation: "insert_page", title: "Huge", document: { markdown } }] }
        })
        const { pages } = yield* alice.api.changeRequestContent.listPagesInChangeRequest({ params, query: {} })
        const name = `${cr.id}/${pages[0]!.id}`
        const before = codec.made.length
        // /health, asked again and again while the page opens: when each answer came (the event loop stalled, none comes).
        const answered: Array<number> = [performance.now()]
        const asking = yield* Effect.forkChild(Effect.forever(Effect.gen(function*() {
          const health = yield* raw("GET", "/health")
          answered.push(performance.now())
          assert.strictEqual(health.status, 200)
          yield* Effect.sleep("50 millis")
        })))
        yield* Effect.scoped(Effect.gen(function*() {
          const client = yield* connect({ url: yield* collabUrl, name, token: alice.token })
          yield* eventually("the page is told why it is read-only", () => client.told.length > 0)
          assert.match(client.told[0]!, /^document-too-large: this page would take at least \d+ KiB live, over the 8192 KiB limit: read-only/)
          yield* eventually("the page's document arrives", () => client.provider.synced)
        }))
        yield* Effect.sleep("200 millis")
        yield* Fiber.interrupt(asking)
        const gap = Math.max(...answered.slice(1).map((at, i) => at - answered[i]!))
        assert.deepStrictEqual(codec.made.slice(before), [], "the page's state was made")
        assert.isTrue(Option.isNone(yield* (yield* LiveDocuments).stored(name)), "the page's shared document was stored")
        assert.isAbove(answered.length, 2)
        // Generous for a loaded machine: making the state held every request 5 to 20 s.
        assert.isBelow(gap, 3_000, `/health answered nothing for ${Math.round(gap)} ms`)
      }).pipe(Effect.scoped))
  })
}

for (const database of Backends.databasesMigrated(Services.migrations)) {
  const server = collabServerOn(Services.layerSql, database.name === "pglite" ? "embedded" : "postgres", { compactEveryUpdates: 5 }).pipe(
    Layer.provide(database.layer)
  )

  layer(server, { timeout: 120_000, excludeTestServices: true })(`compaction of a page edited live, on ${database.name}`, (it) => {
    it.effect("merges the updates written to the page into one state, and the page reads the same after", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const page = yield* sharedPage(alice.api, space.id)
        const live = yield* LiveDocuments
        const a = yield* connect({ url: yield* collabUrl, name: page.name, token: alice.token })
        yield* settled(a)
        for (let i = 0; i < 12; i++) {
          a.type(a.text().length, `Line ${i}.\n`)
          yield* settled(a)
        }
        const written = yield* eventuallyEffect(page.markdown, (markdown) => markdown.includes("Line 11."))
        const stored = yield* eventuallyEffect(live.stored(page.name), (doc) => Option.isSome(doc) && doc.value.version > 1)
        const doc = Option.getOrThrow(stored)
        assert.isAbove(doc.version, 1, "never compacted")
        assert.isBelow(doc.updates.length, 12)
        const reread = new Y.Doc()
        for (const update of [doc.state, ...doc.updates.map((u) => u.update)]) Y.applyUpdate(reread, update)
        assert.strictEqual(reread.getText("markdown").toString(), written)
      }).pipe(Effect.scoped))
  })
}
