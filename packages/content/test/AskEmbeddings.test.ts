/**
 * Ask with an embedding model (the test kit's model server answering `/v1/embeddings` with vectors
 * the test decides): a question in other words than its page's finds that page above one that
 * merely shares its words; each passage is embedded once, later questions send only themselves; an
 * endpoint without embeddings leaves the ranking to words, and the question is still answered.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Ids, Transactor } from "@quire/kernel"
import { OpenAiCompatible } from "@quire/outbound"
import { as, memberRoles } from "@quire/testkit"
import { startModelServer } from "@quire/testkit/ModelServer"
import { AskEmbeddings, AskModel, ContentLayers, cosine, MainObservers, Memberships, OrganizationAsk, ParsePool, type PassageVectors, SearchIndex, SpaceDependents, Spaces } from "../src/index.ts"

const org = "org-embed"
const roles = memberRoles({ [org]: { reader: "read", admin: "admin" } })

const layerWith = (embeddings: Layer.Layer<AskEmbeddings, never, PassageVectors>) =>
  OrganizationAsk.layer().pipe(
    Layer.provideMerge(embeddings),
    Layer.provideMerge(ContentLayers.layerServices),
    Layer.provideMerge(ContentLayers.layerReposMemory),
    Layer.provide([AskModel.layerNone, Memberships.layerTest(roles), SpaceDependents.layerNone, MainObservers.layerNone, Ids.Ids.layerTest, Transactor.Transactor.layerMemory, ParsePool.layerMainThread])
  )

/** What the test's embedding model means: working away from the office, or the intranet's news. */
const meaning = (text: string): ReadonlyArray<number> =>
  /vpn|remote|from home/i.test(text) ? [1, 0, 0.1] : /intranet|news/i.test(text) ? [0, 1, 0.1] : [0.3, 0.3, 1]

/** Two pages sharing the question's words, "Home page" more (in its title), "Remote access" its meaning. */
const seed = Effect.gen(function*() {
  const spaces = yield* Spaces
  const index = yield* SearchIndex
  const { space } = yield* spaces.create(org, { title: "Handbook" }).pipe(as("admin"))
  yield* index.update(space.id, [
    { pageId: "p-home", title: "Home page", path: "home", sections: [{ id: "", title: "", body: "The home page of the intranet lists the news. Connect your calendar to see the week." }] },
    { pageId: "p-vpn", title: "Remote access", path: "remote-access", sections: [{ id: "", title: "", body: "Install the VPN client on your laptop at home, then connect with your badge number." }] }
  ], [])
  return space
})

const question = "How do I connect from home?"

describe("AskEmbeddings", () => {
  it("measures nearness as the cosine of two vectors", () => {
    assert.strictEqual(cosine([1, 0], [1, 0]), 1)
    assert.strictEqual(cosine([1, 0], [0, 2]), 0)
    assert.closeTo(cosine([1, 1], [1, 0]), Math.SQRT1_2, 1e-12)
    assert.strictEqual(cosine([], [1]), 0)
  })

  it.live("finds the page that means what was asked above the one that only shares its words, embedding each passage once", () =>
    Effect.gen(function*() {
      const server = yield* Effect.acquireRelease(Effect.promise(() => startModelServer(() => ({ text: "unused" }), { embed: meaning })), (s) => Effect.promise(s.close))
      const embeddings = AskEmbeddings.layer("test-embed").pipe(Layer.provide(OpenAiCompatible.embeddingLayer({ url: server.url, model: "test-embed", retries: 0 })))
      const ranked = yield* Effect.gen(function*() {
        yield* seed
        const asker = yield* OrganizationAsk
        const first = yield* asker.ask(org, question).pipe(as("reader"))
        const again = yield* asker.ask(org, question).pipe(as("reader"))
        return [first, again] as const
      }).pipe(Effect.provide(layerWith(embeddings)))
      const [first, again] = ranked
      assert.deepStrictEqual(first.sources.map((s) => s.pageId)[0], "p-vpn")
      assert.deepStrictEqual(again.sources.map((s) => s.pageId)[0], "p-vpn")
      // The model named was asked; the first question embedded the passages, the second only itself.
      assert.isTrue(server.embeddings.every((e) => e.model === "test-embed"))
      assert.isAbove(server.embeddings[0]!.input.length, 1)
      assert.deepStrictEqual(server.embeddings.at(-1)!.input, [question])
    }).pipe(Effect.scoped))

  it.live("ranks by words alone, as without a model of meaning, when the endpoint has no embeddings", () =>
    Effect.gen(function*() {
      const server = yield* Effect.acquireRelease(Effect.promise(() => startModelServer(() => ({ text: "unused" }))), (s) => Effect.promise(s.close))
      const embeddings = AskEmbeddings.layer("absent").pipe(Layer.provide(OpenAiCompatible.embeddingLayer({ url: server.url, model: "absent", retries: 0 })))
      const ask = Effect.gen(function*() {
        yield* seed
        return yield* (yield* OrganizationAsk).ask(org, question).pipe(as("reader"))
      })
      const failing = yield* ask.pipe(Effect.provide(layerWith(embeddings)))
      const words = yield* ask.pipe(Effect.provide(layerWith(AskEmbeddings.layerNone)))
      assert.strictEqual(words.sources[0]?.pageId, "p-home")
      assert.deepStrictEqual(failing.sources.map((s) => s.pageId), words.sources.map((s) => s.pageId))
      assert.notStrictEqual(failing.answer, "")
    }).pipe(Effect.scoped))
})
