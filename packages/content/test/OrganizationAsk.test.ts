/**
 * The organization's Ask over the memory adapters: it reads only the spaces the asker may view;
 * with a model, the model gets the numbered passages and the answer keeps the sources it cites;
 * without one, the answer is the best passages with their pages; a model's failure is said;
 * recommended questions come from the pages, the model's or the pages' own.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Ids, Transactor } from "@quire/kernel"
import type { ChatMessage } from "@quire/outbound"
import { as, memberRoles } from "@quire/testkit"
import { questionsOf, questionsOfPages } from "../src/ask/OrganizationAsk.ts"
import { AskModel, AskModelError, ContentLayers, MainObservers, Memberships, OrganizationAsk, ParsePool, SearchIndex, SpaceDependents, Spaces } from "../src/index.ts"

const org = "org-1"
const roles = memberRoles({ [org]: { admin: "admin", reader: "read" }, "org-2": { stranger: "admin" } })

const layerWith = (model: Layer.Layer<AskModel>) =>
  OrganizationAsk.layer().pipe(
    Layer.provideMerge(ContentLayers.layerServices),
    Layer.provideMerge(ContentLayers.layerReposMemory),
    Layer.provideMerge(model),
    Layer.provide([Memberships.layerTest(roles), SpaceDependents.layerNone, MainObservers.layerNone, Ids.Ids.layerTest, Transactor.Transactor.layerMemory, ParsePool.layerMainThread])
  )

/** Two spaces: a public handbook, and a secret one its readers cannot see; their pages as the index holds them. */
const seed = Effect.gen(function*() {
  const spaces = yield* Spaces
  const index = yield* SearchIndex
  const { space: handbook } = yield* spaces.create(org, { title: "Handbook" }).pipe(as("admin"))
  const { space: secret } = yield* spaces.create(org, { title: "Board" }).pipe(as("admin"))
  yield* spaces.update(secret.id, { defaultLevel: null }).pipe(as("admin"))
  yield* index.update(handbook.id, [
    { pageId: "p-vpn", title: "Remote access", path: "remote-access", sections: [
      { id: "", title: "", body: "Work from anywhere through the company network." },
      { id: "vpn", title: "Connect to the VPN", body: "Install the VPN client, then sign in with your badge number and the code from the authenticator." }
    ] },
    { pageId: "p-lunch", title: "Lunch", path: "lunch", sections: [{ id: "", title: "", body: "The canteen opens at noon on the ground floor." }] }
  ], [])
  yield* index.update(secret.id, [
    { pageId: "p-salaries", title: "VPN budget", path: "vpn-budget", sections: [{ id: "", title: "", body: "The VPN contract costs 40,000 a year and is renewed in March." }] }
  ], [])
  return { handbook, secret }
})

describe("OrganizationAsk", () => {
  it.effect("answers from the spaces the asker may read, citing the passages the model used", () => {
    const seen: Array<ReadonlyArray<ChatMessage>> = []
    const model = AskModel.layerTest((messages) => {
      seen.push(messages)
      return "Install the VPN client and sign in with your badge number [1]."
    })
    return Effect.gen(function*() {
      const { handbook } = yield* seed
      const asker = yield* OrganizationAsk
      const reply = yield* asker.ask(org, "How do I connect to the VPN?").pipe(as("reader"))
      assert.isTrue(reply.byModel)
      assert.strictEqual(reply.answer, "Install the VPN client and sign in with your badge number [1].")
      assert.deepStrictEqual(reply.sources.map((s) => [s.n, s.spaceId, s.pageId, s.title, s.path]), [[1, handbook.id, "p-vpn", "Remote access", `/s/${handbook.id}/remote-access#vpn`]])
      // The model read the handbook's passage, and nothing of the space the reader cannot see.
      const system = seen[0]![0]!.content
      assert.include(system, "badge number")
      assert.notInclude(system, "40,000")
      assert.strictEqual(seen[0]![1]!.content, "How do I connect to the VPN?")
      // The admin may read the board's space: its page is among what the model is given.
      seen.length = 0
      yield* asker.ask(org, "How do I connect to the VPN?").pipe(as("admin"))
      assert.include(seen[0]![0]!.content, "40,000")
    }).pipe(Effect.provide(layerWith(model)))
  })

  it.effect("without a model, answers with the best passages and their pages", () =>
    Effect.gen(function*() {
      const { handbook } = yield* seed
      const reply = yield* (yield* OrganizationAsk).ask(org, "vpn client badge").pipe(as("reader"))
      assert.isFalse(reply.byModel)
      assert.include(reply.answer, "No language model is set up on this server")
      assert.include(reply.answer, "[1] **Remote access**, Connect to the VPN: Install the VPN client")
      assert.deepStrictEqual(reply.sources.map((s) => [s.spaceId, s.pageId]), [[handbook.id, "p-vpn"]])
      const none = yield* (yield* OrganizationAsk).ask(org, "zeppelin maintenance").pipe(as("reader"))
      assert.deepStrictEqual([none.answer, none.sources], ["No page you can read answers this question.", []])
    }).pipe(Effect.provide(layerWith(AskModel.layerNone))))

  it.effect("refuses an empty or overlong question, says the model failed, and knows no outsider", () =>
    Effect.gen(function*() {
      yield* seed
      const asker = yield* OrganizationAsk
      assert.deepStrictEqual(yield* Effect.flip(asker.ask(org, "  ").pipe(as("reader"))), { kind: "BadQuestion", message: "Ask a question" })
      assert.deepStrictEqual(yield* Effect.flip(asker.ask(org, "x".repeat(513)).pipe(as("reader"))), { kind: "BadQuestion", message: "A question has at most 512 characters" })
      const failed = yield* Effect.flip(asker.ask(org, "How do I connect to the VPN?").pipe(as("reader")))
      assert.deepStrictEqual(failed, { kind: "ModelFailed", message: "The answer could not be written: the provider is down" })
      const outsider = yield* Effect.flip(asker.ask(org, "vpn").pipe(as("stranger")))
      assert.strictEqual((outsider as { readonly _tag?: string })._tag, "NotFound")
    }).pipe(Effect.provide(layerWith(Layer.succeed(AskModel)({
      configured: true,
      complete: () => Effect.fail(new AskModelError({ reason: "the provider is down" }))
    })))))

  it("recommends questions: the model's lines that ask, or, without a model, questions of the pages' titles", () => {
    assert.deepStrictEqual(questionsOf("Here are five:\n1. How do I connect to the VPN?\n- Where is the canteen?\n* Who approves leave?\nThanks."), [
      "How do I connect to the VPN?", "Where is the canteen?", "Who approves leave?"
    ])
    assert.deepStrictEqual(questionsOfPages(["Remote access", "Why a VPN?", "Remote access", " "]), ["What does “Remote access” explain?", "Why a VPN?"])
  })
})
