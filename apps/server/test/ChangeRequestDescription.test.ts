/**
 * A change request's description and links (GitBook's `description`, a JSON document, and `links`)
 * through the real router and the typed client: stored, read back, refused when malformed, and
 * what the merge rule `require_change_request_description` reads.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { schemas, violations } from "@quire/testkit/GitbookSchemas"
import { backends, errorCode, errorMessage, raw, spaceWith } from "./Harness.ts"

const leaf = (text: string, marks: ReadonlyArray<string> = []) => ({ object: "leaf", text, marks: marks.map((type) => ({ object: "mark", type })) })
const paragraph = (...leaves: ReadonlyArray<ReturnType<typeof leaf>>) => ({ object: "block", type: "paragraph", data: {}, nodes: [{ object: "text", leaves }] })
const document = (...nodes: ReadonlyArray<unknown>) => ({ object: "document", data: {}, nodes })

const link = (url: string) => ({ ref: { kind: "url", url } })

/** Every text of a document, one line per top-level block. */
const textOf = (doc: unknown): string => {
  const walk = (node: unknown): string => {
    const n = node as { leaves?: ReadonlyArray<{ text: string }>; nodes?: ReadonlyArray<unknown> }
    return n.leaves !== undefined ? n.leaves.map((l) => l.text).join("") : (n.nodes ?? []).map(walk).join("")
  }
  return ((doc as { nodes: ReadonlyArray<unknown> }).nodes).map(walk).join("\n")
}

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`change request description on ${backend.name}`, (it) => {
    it.effect("a description sent as GitBook's document is read back as one (absent until set), and a blank one clears it", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        const api = alice.api.changeRequests
        const cr = yield* api.createChangeRequest({ params: { spaceId }, payload: { subject: "Export options" } })
        assert.isUndefined(cr.description)
        assert.isUndefined(cr.links)
        const params = { spaceId, changeRequestId: String(cr.number) }
        const sent = document(
          paragraph(leaf("Why: the "), leaf("export", ["bold"]), leaf(" page listed options that no longer exist.")),
          { object: "block", type: "list-unordered", data: {}, nodes: [{ object: "block", type: "list-item", data: {}, nodes: [paragraph(leaf("Drops --legacy"))] }] }
        )
        const patched = yield* api.updateChangeRequestById({ params, payload: { description: sent as never } })
        assert.strictEqual(textOf(patched.description), "Why: the export page listed options that no longer exist.\nDrops --legacy")
        const read = yield* api.getChangeRequestById({ params })
        assert.deepStrictEqual(read.description, patched.description)
        // What is answered is GitBook's document, as GitBook's schema has it.
        assert.deepStrictEqual(violations(read.description, schemas["JSONDocument"]!, "description"), [])
        const bold = (read.description!.nodes[0] as { nodes: ReadonlyArray<{ leaves: ReadonlyArray<{ text: string; marks: ReadonlyArray<{ type: string }> }> }> }).nodes[0]!.leaves
        assert.deepStrictEqual(bold.find((l) => l.text === "export")?.marks.map((m) => m.type), ["bold"])
        // The list shows it too.
        const listed = yield* api.listChangeRequestsForSpace({ params: { spaceId }, query: { status: "draft" } })
        assert.deepStrictEqual(listed.items.find((item) => item.id === cr.id)?.description, read.description)
        // Another field's PATCH leaves it alone; a document without text clears it.
        yield* api.updateChangeRequestById({ params, payload: { subject: "Export options, again" } })
        assert.deepStrictEqual((yield* api.getChangeRequestById({ params })).description, read.description)
        const cleared = yield* api.updateChangeRequestById({ params, payload: { description: document(paragraph(leaf("   "))) as never } })
        assert.isUndefined(cleared.description)
        assert.isUndefined((yield* api.getChangeRequestById({ params })).description)
      }))

    it.effect("a malformed or oversized description answers 400 naming the field, and changes nothing", () =>
      Effect.gen(function*() {
        const { alice, space, members } = yield* spaceWith(["read"])
        const spaceId = space.id
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Bounds" } })
        const path = `/v1/spaces/${spaceId}/change-requests/${cr.id}`
        const kept = document(paragraph(leaf("Kept.")))
        assert.strictEqual((yield* raw("PATCH", path, { token: alice.token, body: JSON.stringify({ description: kept }) })).status, 200)
        let deep: unknown = paragraph(leaf("deep"))
        for (let i = 0; i < 40; i++) deep = { object: "block", type: "blockquote", data: {}, nodes: [deep] }
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          ["Just text", "description"],
          [{ object: "page", data: {}, nodes: [] }, "description"],
          [{ object: "document", data: {}, nodes: "no" }, "description"],
          [document({ object: "text", leaves: [] }), "description.nodes[0].object"],
          [document({ object: "block", type: "", nodes: [] }), "description.nodes[0].type"],
          [document({ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text: 7 }] }] }), "description.nodes[0].nodes[0].leaves[0].text"],
          [document({ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text: "x", marks: "bold" }] }] }), "description.nodes[0].nodes[0].leaves[0].marks"],
          [document(deep), "description.nodes[0]"],
          // Past 20,000 characters of markdown; past 200,000 of JSON.
          [document(paragraph(leaf("word ".repeat(4_500)))), "description"],
          [document(...Array.from({ length: 3_000 }, () => paragraph(leaf("x", ["bold", "italic"])))), "description"]
        ]
        for (const [description, field] of cases) {
          const refused = yield* raw("PATCH", path, { token: alice.token, body: JSON.stringify({ description }) })
          assert.strictEqual(refused.status, 400, `${JSON.stringify(description).slice(0, 120)}: ${JSON.stringify(refused.body).slice(0, 300)}`)
          assert.strictEqual(errorCode(refused.body), 400)
          assert.include(errorMessage(refused.body), field)
        }
        // Nothing moved, and one who may only read cannot write it.
        const reader = yield* Effect.flip(members.read!.api.changeRequests.updateChangeRequestById({
          params: { spaceId, changeRequestId: cr.id },
          payload: { description: document(paragraph(leaf("Mine."))) as never }
        }))
        assert.strictEqual(errorCode(reader), 403)
        const read = yield* alice.api.changeRequests.getChangeRequestById({ params: { spaceId, changeRequestId: cr.id } })
        assert.strictEqual(textOf(read.description), "Kept.")
      }))

    it.effect("links: added with ids, kept by id, bounded and refused when not web URLs", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        const api = alice.api.changeRequests
        const cr = yield* api.createChangeRequest({ params: { spaceId }, payload: { subject: "Links" } })
        const params = { spaceId, changeRequestId: cr.id }
        const added = yield* api.updateChangeRequestById({
          params,
          payload: { links: [{ ref: { kind: "url", url: "https://tracker.example/issues/59" }, title: "Issue 59" }, { ref: { kind: "url", url: "https://example.com/spec" } }] }
        })
        const [issue, spec] = added.links ?? []
        assert.deepStrictEqual([issue?.ref.url, issue?.title, spec?.ref.url, spec?.title], ["https://tracker.example/issues/59", "Issue 59", "https://example.com/spec", undefined])
        assert.notStrictEqual(issue!.id, spec!.id)
        // Sending one back by id keeps it (retitled); leaving one out removes it.
        const kept = yield* api.updateChangeRequestById({ params, payload: { links: [{ id: issue!.id, ref: { kind: "url", url: issue!.ref.url }, title: "The issue" }] } })
        assert.deepStrictEqual(kept.links, [{ id: issue!.id, ref: { kind: "url", url: "https://tracker.example/issues/59" }, title: "The issue" }])
        const path = `/v1/spaces/${spaceId}/change-requests/${cr.id}`
        for (const [links, field] of [
          [[link("javascript:alert(1)")], "links[0].ref.url"],
          [[link("https://ok.example"), link("/relative")], "links[1].ref.url"],
          [[{ id: "no-such-link", ...link("https://ok.example") }], "links[0].id"],
          [Array.from({ length: 11 }, (_, i) => link(`https://ok.example/${i}`)), "links"],
          [[{ ...link("https://ok.example"), title: "t".repeat(129) }], "links"]
        ] as const) {
          const refused = yield* raw("PATCH", path, { token: alice.token, body: JSON.stringify({ links }) })
          assert.strictEqual(refused.status, 400, JSON.stringify(refused.body))
          assert.include(errorMessage(refused.body), field)
        }
        const cleared = yield* api.updateChangeRequestById({ params, payload: { links: [] } })
        assert.isUndefined(cleared.links)
      }))

    it.effect("require_change_request_description refuses the merge until the description says something", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        const api = alice.api
        yield* api.spaces.updateSpaceById({ params: { spaceId }, payload: { mergeRules: { type: "rules", rules: [{ rule: "require_change_request_description" }] } } })
        const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Needs words" } })
        const params = { spaceId, changeRequestId: cr.id }
        yield* api.changeRequestContent.updateChangeRequestContent({ params, payload: { changes: [{ operation: "insert_page", title: "New", document: { markdown: "# New\n" } }] } })
        yield* api.changeRequests.updateChangeRequestById({ params, payload: { status: "open" } })
        const refused = yield* Effect.flip(api.changeRequests.mergeChangeRequest({ params }))
        assert.strictEqual(errorCode(refused), 400)
        assert.include(errorMessage(refused), "require_change_request_description")
        assert.include(errorMessage(refused), "needs a description")
        yield* api.changeRequests.updateChangeRequestById({ params, payload: { description: document(paragraph(leaf("Adds the New page."))) as never } })
        const merged = yield* api.changeRequests.mergeChangeRequest({ params })
        assert.strictEqual(merged.result, "merge")
      }))
  })
}
