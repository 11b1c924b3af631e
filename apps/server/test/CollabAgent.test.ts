/**
 * The change request's agent in a page open live (CollabAgent), with the editor's codec and the
 * test kit's scripted model: asked to rewrite a paragraph someone is typing in, it reads the shared
 * document and writes its change into it as a participant. What was typed after it read is kept
 * (merged as Yjs merges, never reset), the people there see it in the document's awareness with its
 * name and a caret until its answer is done, and the page's markdown has both.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Y from "yjs"
import { Services } from "@quire/platform"
import { Backends } from "@quire/testkit"
import { lastOf, type ModelReply, type ModelRequest, startModelServer } from "@quire/testkit/ModelServer"
import { CollabCodec } from "@quire/live/CollabCodec"
import { changeRequestsOn, mergeIntoMain, organizationWith, raw, withSettings } from "./Harness.ts"
import { type Client, collabServerOn, collabUrl, connect, eventually, eventuallyEffect, settled } from "./CollabSupport.ts"

/** Types `value` at the end of the client's block `index`. */
const typeAtEnd = (client: Client, index: number, value: string) => {
  const block = client.doc.getXmlFragment("default").get(index) as Y.XmlElement
  const text = block.get(0) as Y.XmlText
  text.insert(text.length, value)
}

/** Bea, typing in the page the agent is about to write: set once she is connected. */
let typist: Client | undefined

/** The agent lists the pages, reads the first, and rewrites its first paragraph; Bea types in that paragraph once it has read. */
const script = (request: ModelRequest): ModelReply => {
  const last = request.messages.at(-1)!
  if (last.role !== "tool") return lastOf(request, "user").includes("rewrite") ? { toolCalls: [{ name: "listPages", arguments: {} }] } : { text: "Nothing to do." }
  if (last.content?.startsWith("Wrote the page") === true) return { text: "I rewrote the first paragraph." }
  const listing = request.messages.find((m) => m.role === "tool" && m.content?.includes("\t") === true)
  const pageId = listing?.content?.split("\t")[0] ?? ""
  if (last.content?.includes("\t") === true) return { toolCalls: [{ name: "readPage", arguments: { pageId } }] }
  // The agent has read the page: Bea types at the end of the paragraph it is about to rewrite.
  if (typist !== undefined) typeAtEnd(typist, 0, " Typed by Bea.")
  const read = last.content ?? ""
  return { toolCalls: [{ name: "writePage", arguments: { pageId, markdown: read.replace("First paragraph.", "First paragraph, rewritten by the agent.") } }] }
}
const model = await startModelServer(script)

const postgres = Backends.databasesMigrated(Services.migrations).find((database) => database.name === "postgres")!
const server = withSettings(
  collabServerOn(Services.layerSql, "postgres", { writeDebounceMs: 300, writeMaxDebounceMs: 1_000 }, CollabCodec.layer).pipe(Layer.provide(postgres.layer)),
  { QUIRE_AI_URL: model.url, QUIRE_AI_MODEL: "test-model" }
)

layer(server, { timeout: 120_000, excludeTestServices: true })("the agent in a page open live", (it) => {
  it.effect("rewrites the paragraph Bea types in: her keys are kept, she sees the agent's name and caret until it is done, and the page has both", () =>
    Effect.gen(function*() {
      const { alice, members, organizationId } = yield* organizationWith(["edit"])
      const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Docs" } })
      yield* mergeIntoMain(alice.api, space.id, [{ operation: "insert_page", title: "Guide", document: { markdown: "First paragraph.\n\nSecond paragraph.\n" } }])
      const steps = changeRequestsOn(alice.api, space.id)
      const cr = yield* steps.open("Agent")
      const { pages } = yield* alice.api.changeRequestContent.listPagesInChangeRequest({ params: { spaceId: space.id, changeRequestId: cr.id }, query: {} })
      const guide = pages[0]!.id
      const bea = yield* connect({ url: yield* collabUrl, name: `${cr.id}/${guide}`, token: members.edit!.token })
      yield* settled(bea)
      typist = bea
      // Everyone Bea sees in the document's awareness, with a caret or not.
      const seen: Array<{ readonly name: unknown; readonly cursor: boolean }> = []
      bea.provider.awareness!.on("change", () => {
        for (const [id, state] of bea.provider.awareness!.getStates()) {
          if (id === bea.doc.clientID) continue
          seen.push({ name: (state["user"] as { readonly name?: unknown } | undefined)?.name, cursor: state["cursor"] !== undefined })
        }
      })

      const sent = yield* raw("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/conversations/default/messages`, {
        body: JSON.stringify({ message: "Please rewrite the first paragraph of Guide" }),
        token: alice.token
      })
      assert.strictEqual(sent.status, 200, JSON.stringify(sent.body))
      assert.deepStrictEqual((sent.body as { reply: { edits: ReadonlyArray<{ title: string }> } }).reply.edits.map((e) => e.title), ["Guide"])

      // The agent was there, by its name, with a caret over what it wrote; then it left.
      yield* eventually("Bea saw the agent's caret", () => seen.some((s) => typeof s.name === "string" && s.name.startsWith("Agent (for ") && s.cursor))
      yield* eventually("the agent left", () => Array.from(bea.provider.awareness!.getStates().keys()).every((id) => id === bea.doc.clientID), 15_000)

      const paragraph = () => (bea.doc.getXmlFragment("default").get(0) as Y.XmlElement).toArray().map(String).join("")
      yield* eventually("Bea's paragraph has the agent's words and hers", () => paragraph().includes("rewritten by the agent") && paragraph().includes("Typed by Bea."))
      assert.strictEqual(paragraph(), "First paragraph, rewritten by the agent. Typed by Bea.")
      yield* settled(bea)
      const written = yield* eventuallyEffect(Effect.map(steps.crMarkdown(cr.id, guide), (text) => text ?? ""), (markdown) => markdown.includes("Typed by Bea.") && markdown.includes("rewritten"))
      assert.strictEqual(written, "First paragraph, rewritten by the agent. Typed by Bea.\n\nSecond paragraph.\n")
      // Written by the person who asked: the agent's change is Alice's in the change request.
      typist = undefined
    }))
})
