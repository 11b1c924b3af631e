/**
 * Live editing with the editor's own codec, as the server runs it: the shared document a client
 * receives is the page's ProseMirror document, and an edit typed in it reaches the change
 * request's markdown with every other block's bytes as they were.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Y from "yjs"
import { Services } from "@quire/platform"
import { Backends } from "@quire/testkit"
import { CollabCodec } from "@quire/live/CollabCodec"
import { spaceWith } from "./Harness.ts"
import { collabServerOn, collabUrl, connect, eventuallyEffect, settled } from "./CollabSupport.ts"

const postgres = Backends.databasesMigrated(Services.migrations).find((database) => database.name === "postgres")!
const server = collabServerOn(Services.layerSql, "postgres", {}, CollabCodec.layer).pipe(Layer.provide(postgres.layer))

const page = [
  "{% hint style=\"warning\" %}",
  "Spacing  kept   as   written.",
  "{% endhint %}",
  "",
  "Edit this paragraph.",
  "",
  "```js title=\"index.js\"",
  "const  kept = true",
  "```",
  ""
].join("\n")

layer(server, { timeout: 120_000, excludeTestServices: true })("live editing with the editor's codec", (it) => {
  it.effect("an edit typed in the shared document reaches the page's markdown, the other blocks byte for byte", () =>
    Effect.gen(function*() {
      const { alice, space } = yield* spaceWith()
      const api = alice.api
      const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Live" } })
      const params = { spaceId: space.id, changeRequestId: cr.id }
      yield* api.changeRequestContent.updateChangeRequestContent({
        params,
        payload: { changes: [{ operation: "insert_page", title: "Guide", document: { markdown: page } }] }
      })
      const pageId = (yield* api.changeRequestContent.listPagesInChangeRequest({ params, query: {} })).pages[0]!.id
      const markdown = Effect.map(
        api.changeRequestContent.getPageInChangeRequestById({ params: { ...params, pageId }, query: { format: "markdown" } }),
        (found) => (found as { readonly markdown?: string }).markdown ?? ""
      )
      const before = yield* markdown
      const client = yield* connect({ url: yield* collabUrl, name: `${cr.id}/${pageId}`, token: alice.token })
      yield* settled(client)
      const fragment = client.doc.getXmlFragment("default")
      assert.deepInclude(fragment.toArray().map((node) => (node as Y.XmlElement).nodeName), "paragraph")
      for (const node of fragment.toArray()) {
        if (node instanceof Y.XmlElement && node.nodeName === "paragraph" && node.toString().includes("Edit this paragraph.")) {
          const text = node.get(0) as Y.XmlText
          text.insert(text.length, " Edited live.")
        }
      }
      yield* settled(client)
      const expected = before.replace("Edit this paragraph.", "Edit this paragraph. Edited live.")
      assert.notStrictEqual(expected, before)
      assert.strictEqual(yield* eventuallyEffect(markdown, (now) => now === expected), expected)
    }))
})
