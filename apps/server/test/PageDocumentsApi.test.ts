/**
 * Pages read as GitBook's JSON document (`format=document`) carry GitBook's blocks (hints, tabs,
 * code with titles, tables), and a document written back through a change request is stored as
 * GitBook markdown: the blocks it did not change keep their bytes; JSON that is no document is a
 * 400 naming the field.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, raw, spaceWith } from "./Harness.ts"
import { write } from "./SiteFixtures.ts"

const markdown = [
  "Intro  with  the author's   spacing.",
  "",
  "{% hint style=\"warning\" %}",
  "Back up first.",
  "{% endhint %}",
  "",
  "{% tabs %}",
  "{% tab title=\"npm\" %}",
  "```bash",
  "npm i quire",
  "```",
  "{% endtab %}",
  "{% endtabs %}",
  "",
  "| Name | Age |",
  "|------|----:|",
  "| Ann  |   3 |",
  ""
].join("\n")

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`pages as GitBook documents on ${backend.name}`, (it) => {
    it.effect("a page reads as GitBook's blocks, and its document written back with one block changed changes only that block's lines", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const api = alice.api
        yield* write(api, space.id, [{ operation: "insert_page", title: "Setup", document: { markdown } }])
        const pageId = (yield* api.spaceContent.getCurrentRevision({ params: { spaceId: space.id }, query: {} })).pages[0]!.id
        const read = yield* api.spaceContent.getPageById({ params: { spaceId: space.id, pageId }, query: { format: "document" } })
        const nodes = read.document!.nodes as ReadonlyArray<{ type: string; data?: Record<string, unknown>; nodes?: ReadonlyArray<{ type: string; data?: unknown }> }>
        assert.deepStrictEqual(nodes.map((n) => n.type), ["paragraph", "hint", "tabs", "table"])
        assert.deepStrictEqual(nodes[1]!.data, { style: "warning" })
        assert.deepStrictEqual(nodes[2]!.nodes?.map((n) => [n.type, n.data]), [["tabs-item", { title: "npm" }]])

        // The hint becomes a danger hint; everything else is sent back as it was read.
        const edited = { ...read.document!, nodes: nodes.map((n, i) => (i === 1 ? { ...n, data: { style: "danger" } } : n)) }
        yield* write(api, space.id, [{ operation: "update_page", page: pageId, document: { document: edited } }])
        const stored = yield* api.spaceContent.getPageById({ params: { spaceId: space.id, pageId }, query: { format: "markdown" } })
        assert.strictEqual(stored.markdown, markdown.replace("{% hint style=\"warning\" %}", "{% hint style=\"danger\" %}"))

        const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Bad" } })
        const bad = yield* raw("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
          token: alice.token,
          body: JSON.stringify({ changes: [{ operation: "update_page", page: pageId, document: { document: { object: "page", nodes: [] } } }] })
        })
        assert.strictEqual(bad.status, 400)
        assert.include(JSON.stringify(bad.body), "changes[0].document.document")
      }))
  })
}
