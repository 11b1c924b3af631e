/**
 * Writes from elsewhere to a page open for live editing, on PostgreSQL and on PGlite, with the
 * editor's codec: an API batch and an update from main reach the people editing as a change of
 * the shared document, what they type survives, and the markdown written back has all of it; a
 * write to another page of the change request leaves the document alone; and across two servers
 * (one PostgreSQL, Redis) an API write on one reaches a person on the other.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import * as Y from "yjs"
import { Database } from "@quire/db"
import { Services } from "@quire/platform"
import { Backends } from "@quire/testkit"
import { CollabCodec } from "@quire/live/CollabCodec"
import { type Client as ApiClient, changeRequestsOn, mergeIntoMain, organizationWith } from "./Harness.ts"
import { type Client, collabServerOn, collabUrl, connect, eventually, eventuallyEffect, redisUrl, settled } from "./CollabSupport.ts"

/** Long enough that what the test types is not yet written back when the write from elsewhere comes. */
const options = { writeDebounceMs: 1_500, writeMaxDebounceMs: 4_000 }

const page = "First paragraph.\n\nSecond paragraph.\n"

/** The text of each block of the client's shared document. */
const blocks = (client: Client): Array<string> =>
  client.doc.getXmlFragment("default").toArray().map((node) =>
    node instanceof Y.XmlElement ? node.toArray().map((child) => (child instanceof Y.XmlText ? child.toString() : "")).join("") : "")

/** Types `value` at the end of the client's block `index`. */
const typeAtEnd = (client: Client, index: number, value: string) => {
  const block = client.doc.getXmlFragment("default").get(index) as Y.XmlElement
  const text = block.get(0) as Y.XmlText
  text.insert(text.length, value)
}

/**
 * A space whose main holds the page "Guide" (and "Notes"), and a change request "Live" on it, as
 * Alice: the shared document's name, the page ids, and steps on the space's change requests.
 */
const setup = Effect.fnUntraced(function*(api: ApiClient, organizationId: string) {
  const space = yield* api.spaces.createSpace({ params: { organizationId }, payload: { title: "Docs" } })
  yield* mergeIntoMain(api, space.id, [
    { operation: "insert_page", title: "Guide", document: { markdown: page } },
    { operation: "insert_page", title: "Notes", document: { markdown: "Notes.\n" } }
  ])
  const steps = changeRequestsOn(api, space.id)
  const cr = yield* steps.open("Live")
  const { pages } = yield* api.changeRequestContent.listPagesInChangeRequest({ params: { spaceId: space.id, changeRequestId: cr.id }, query: {} })
  const guide = pages.find((p) => p.title === "Guide")!.id
  const notes = pages.find((p) => p.title === "Notes")!.id
  const markdown = Effect.map(steps.crMarkdown(cr.id, guide), (text) => text ?? "")
  return { space, cr, guide, notes, name: `${cr.id}/${guide}`, steps, markdown }
})

/** Asserts the markdown has each of `parts` exactly once. */
/** Two people connected to the page `name`, each having typed at the end of a paragraph of their own, both acknowledged. */
const bothTyping = Effect.fnUntraced(function*(name: string, tokenA: string, tokenB: string) {
  const url = yield* collabUrl
  const a = yield* connect({ url, name, token: tokenA })
  const b = yield* connect({ url, name, token: tokenB })
  yield* settled(a)
  yield* settled(b)
  typeAtEnd(a, 0, " Typed by A.")
  typeAtEnd(b, 1, " Typed by B.")
  yield* settled(a)
  yield* settled(b)
  return { a, b }
})

/** Alice alone on the page "Guide" of a new organization's change request, having typed `value` at the end of block `index`, acknowledged. */
const aloneTyping = Effect.fnUntraced(function*(index: number, value: string) {
  const { alice, organizationId } = yield* organizationWith()
  const live = yield* setup(alice.api, organizationId)
  const a = yield* connect({ url: yield* collabUrl, name: live.name, token: alice.token })
  yield* settled(a)
  typeAtEnd(a, index, value)
  yield* settled(a)
  return { live, a }
})

const hasEachOnce = (markdown: string, parts: ReadonlyArray<string>) => {
  for (const part of parts) assert.strictEqual(markdown.split(part).length - 1, 1, `${JSON.stringify(part)} once in ${JSON.stringify(markdown)}`)
}

for (const database of Backends.databasesMigrated(Services.migrations)) {
  const server = collabServerOn(Services.layerSql, database.name === "pglite" ? "embedded" : "postgres", options, CollabCodec.layer).pipe(
    Layer.provide(database.layer)
  )

  layer(server, { timeout: 120_000, excludeTestServices: true })(`writes from elsewhere to an open page on ${database.name}`, (it) => {
    it.effect("an API write of the page reaches both people typing as a new block; their text survives and the markdown has all three", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["edit"])
        const live = yield* setup(alice.api, organizationId)
        const before = yield* live.markdown
        const { a, b } = yield* bothTyping(live.name, alice.token, members.edit!.token)

        // A script's whole-page write, from the page as it read it before anything typed was written.
        yield* live.steps.edit(live.cr.id, [{ operation: "update_page", page: live.guide, document: { markdown: `${before}\nAdded by the API.\n` } }])

        for (const client of [a, b]) {
          yield* eventually("the API's paragraph reaches the client", () => blocks(client).includes("Added by the API."))
        }
        yield* eventually("both converge", () => a.doc.getXmlFragment("default").toString() === b.doc.getXmlFragment("default").toString())
        assert.deepStrictEqual(blocks(a), ["First paragraph. Typed by A.", "Second paragraph. Typed by B.", "Added by the API."])
        const written = yield* eventuallyEffect(live.markdown, (markdown) => markdown.includes("Typed by A.") && markdown.includes("Typed by B."))
        hasEachOnce(written, ["First paragraph. Typed by A.", "Second paragraph. Typed by B.", "Added by the API."])
        // Typing goes on after the write from elsewhere, and is written too.
        typeAtEnd(a, 2, " And more.")
        yield* settled(a)
        const after = yield* eventuallyEffect(live.markdown, (markdown) => markdown.includes("Added by the API. And more."))
        hasEachOnce(after, ["First paragraph. Typed by A.", "Second paragraph. Typed by B.", "Added by the API. And more."])
      }).pipe(Effect.scoped))

    it.effect("an update from main brings main's change of the page into the open document, what was typed kept", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["edit"])
        const live = yield* setup(alice.api, organizationId)
        const { a, b } = yield* bothTyping(live.name, alice.token, members.edit!.token)

        // Another change request adds a paragraph to the page on main; "Live" is updated from main.
        const other = yield* live.steps.open("Other")
        const mainPage = yield* live.steps.crMarkdown(other.id, live.guide)
        yield* live.steps.edit(other.id, [{ operation: "update_page", page: live.guide, document: { markdown: `${mainPage}\nAdded on main.\n` } }])
        yield* live.steps.merge(other.id)
        yield* live.steps.update(live.cr.id)

        for (const client of [a, b]) {
          yield* eventually("main's paragraph reaches the client", () => blocks(client).includes("Added on main."))
        }
        yield* eventually("both converge", () => a.doc.getXmlFragment("default").toString() === b.doc.getXmlFragment("default").toString())
        assert.deepStrictEqual(blocks(b), ["First paragraph. Typed by A.", "Second paragraph. Typed by B.", "Added on main."])
        const written = yield* eventuallyEffect(live.markdown, (markdown) => markdown.includes("Typed by A.") && markdown.includes("Typed by B."))
        hasEachOnce(written, ["First paragraph. Typed by A.", "Second paragraph. Typed by B.", "Added on main."])
      }).pipe(Effect.scoped))

    it.effect("a write to another page of the change request leaves the open document as it is", () =>
      Effect.gen(function*() {
        const { live, a } = yield* aloneTyping(0, " Typed.")
        // The document after each change the client receives from here on.
        const received: Array<Array<string>> = []
        a.doc.on("update", () => void received.push(blocks(a)))
        const notes = yield* live.steps.crMarkdown(live.cr.id, live.notes)
        yield* live.steps.edit(live.cr.id, [{ operation: "update_page", page: live.notes, document: { markdown: `${notes}\nMore notes.\n` } }])
        // Then a write to this page itself. The server brings committed writes in one at a time, in
        // order, each as one change: had the write to "Notes" (or the document's own write back)
        // changed the document, the client would have received that before the page's write.
        const written = yield* eventuallyEffect(live.markdown, (markdown) => markdown.includes("Typed."))
        yield* live.steps.edit(live.cr.id, [{ operation: "update_page", page: live.guide, document: { markdown: `${written}\nLast.\n` } }])
        yield* eventually("the write to this page reaches it", () => blocks(a).includes("Last."))
        assert.deepStrictEqual(received, [["First paragraph. Typed.", "Second paragraph.", "Last."]])
        assert.include(yield* live.steps.crMarkdown(live.cr.id, live.notes), "More notes.")
      }).pipe(Effect.scoped))

    it.effect("a write from elsewhere takes nothing typed away that reading markdown drops (a trailing space)", () =>
      Effect.gen(function*() {
        // The space before the word (or link) typed next: markdown read back has no paragraph's trailing space.
        const { live, a } = yield* aloneTyping(1, " See ")
        const written = yield* eventuallyEffect(live.markdown, (markdown) => markdown.includes("Second paragraph. See"))
        yield* live.steps.edit(live.cr.id, [{ operation: "update_page", page: live.guide, document: { markdown: `${written}\nAdded by the API.\n` } }])
        yield* eventually("the API's paragraph reaches the client", () => blocks(a).includes("Added by the API."))
        assert.deepStrictEqual(blocks(a), ["First paragraph.", "Second paragraph. See ", "Added by the API."])
        typeAtEnd(a, 1, "more.")
        yield* settled(a)
        const after = yield* eventuallyEffect(live.markdown, (markdown) => markdown.includes("more."))
        hasEachOnce(after, ["Second paragraph. See more.", "Added by the API."])
      }).pipe(Effect.scoped))
  })
}

const postgres = Backends.databasesMigrated(Services.migrations).find((database) => database.name === "postgres")!

/** A server with live editing relayed through Redis, on the database `pool` reaches. */
const replica = (pool: Layer.Layer<Database.Services, unknown>) =>
  Layer.build(collabServerOn(Services.layerSql, "postgres", { ...options, redisUrl: Option.some(redisUrl) }, CollabCodec.layer).pipe(Layer.provide(pool), Layer.orDie))

describe("writes from elsewhere across two servers", () => {
  it.live("an API write on one server reaches a person editing the page on the other", () =>
    Effect.gen(function*() {
      const database = yield* Layer.build(postgres.layer)
      // Each server with a pool of its own on the one database, as two processes would have.
      const url = Context.get(database, Database.DatabaseInfo).url
      const first = yield* replica(Layer.succeedContext(database))
      const second = yield* replica(Database.layerUrl(url))
      const onFirst = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, first as Context.Context<any>) as Effect.Effect<A, E, never>
      const onSecond = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, second as Context.Context<any>) as Effect.Effect<A, E, never>
      const { alice, live } = yield* onFirst(Effect.gen(function*() {
        const organization = yield* organizationWith()
        return { ...organization, live: yield* setup(organization.alice.api, organization.organizationId) }
      }))
      const before = yield* onFirst(live.markdown)
      const b = yield* connect({ url: yield* onSecond(collabUrl), name: live.name, token: alice.token })
      yield* settled(b)
      typeAtEnd(b, 1, " Typed on the second server.")
      yield* settled(b)
      yield* onFirst(live.steps.edit(live.cr.id, [{ operation: "update_page", page: live.guide, document: { markdown: `${before}\nWritten on the first server.\n` } }]))
      yield* eventually("the first server's write reaches the client on the second", () => blocks(b).includes("Written on the first server."))
      assert.deepStrictEqual(blocks(b), ["First paragraph.", "Second paragraph. Typed on the second server.", "Written on the first server."])
      const written = yield* onFirst(eventuallyEffect(live.markdown, (markdown) => markdown.includes("Typed on the second server.")))
      hasEachOnce(written, ["Second paragraph. Typed on the second server.", "Written on the first server."])
    }).pipe(Effect.scoped), { timeout: 120_000 })
})
