/**
 * Quire's reusable content writes in a change request (GitBook's API has none): create, list,
 * rename and rewrite, delete, each checked for role, organization and input; merging brings them
 * to main, where a page that includes one shows its words.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, type Client, errorCode, errorMessage, newUser, raw, spaceWith } from "./Harness.ts"

const fieldOf = (body: unknown) => (body as { readonly error: { readonly field?: unknown } }).error.field

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`reusable content writes on ${backend.name}`, (it) => {
    it.effect("a writer creates, renames and rewrites a reusable content in a change request; the merge brings it to main's pages", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith(["read", "edit"])
        const api = setup.alice.api
        const spaceId = setup.space.id
        const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Reuse" } })
        const params = { spaceId, changeRequestId: cr.id }
        const created = yield* api.reusableContents.createReusableContentInChangeRequest({
          params,
          payload: { title: "Support", markdown: "Write to the narwhal desk.\n" }
        })
        assert.deepStrictEqual([created.title, created.markdown], ["Support", "Write to the narwhal desk.\n"])
        assert.isString(created.document)
        yield* api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: {
            changes: [{ operation: "insert_page", title: "Help", document: { markdown: `# Help\n\n{% include "/reusable-content/${created.id}" %}\n` } }]
          }
        })

        // An editor renames it and rewrites its words; the list shows them.
        const editor = setup.members.edit!.api
        const updated = yield* editor.reusableContents.updateReusableContentInChangeRequest({
          params: { ...params, reusableContentId: created.id },
          payload: { title: "Support desk", markdown: "Write to the walrus desk.\n" }
        })
        assert.deepStrictEqual([updated.id, updated.title, updated.markdown], [created.id, "Support desk", "Write to the walrus desk.\n"])
        const renamed = yield* editor.reusableContents.updateReusableContentInChangeRequest({ params: { ...params, reusableContentId: created.id }, payload: { title: "Desk" } })
        assert.strictEqual(renamed.markdown, "Write to the walrus desk.\n")
        const listed = yield* api.reusableContents.listReusableContentsInChangeRequest({ params })
        assert.deepStrictEqual(listed.items.map((r) => [r.id, r.title, r.markdown]), [[created.id, "Desk", "Write to the walrus desk.\n"]])

        // Main has none until the merge.
        const before = yield* Effect.flip(api.reusableContents.getReusableContentById({ params: { spaceId, reusableContentId: created.id }, query: {} }))
        assert.strictEqual(errorCode(before), 404)
        assert.deepStrictEqual((yield* api.reusableContents.listReusableContents({ params: { spaceId } })).items, [])
        yield* api.changeRequests.mergeChangeRequest({ params })
        const mainList = yield* editor.reusableContents.listReusableContents({ params: { spaceId } })
        assert.deepStrictEqual(mainList.items.map((r) => [r.id, r.title, r.markdown]), [[created.id, "Desk", "Write to the walrus desk.\n"]])
        const onMain = yield* api.reusableContents.getReusableContentById({ params: { spaceId, reusableContentId: created.id }, query: { format: "markdown" } })
        assert.deepStrictEqual([onMain.title, onMain.markdown], ["Desk", "Write to the walrus desk.\n"])
        const main = yield* api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
        const pageId = main.pages.find((p) => p.title === "Help")!.id
        const page = yield* api.spaceContent.getPageById({ params: { spaceId, pageId }, query: { format: "html" } })
        assert.include(page.html, "Write to the walrus desk.")

        // A second change request deletes it; main keeps it until that one merges, and another change request's edit of main survives.
        const next = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Remove" } })
        const other = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Add" } })
        yield* api.reusableContents.deleteReusableContentInChangeRequest({ params: { spaceId, changeRequestId: next.id, reusableContentId: created.id } })
        const added = yield* api.reusableContents.createReusableContentInChangeRequest({ params: { spaceId, changeRequestId: other.id }, payload: { title: "Legal" } })
        assert.isUndefined(added.document)
        assert.strictEqual(added.markdown, "")
        yield* api.changeRequests.mergeChangeRequest({ params: { spaceId, changeRequestId: other.id } })
        assert.deepStrictEqual((yield* api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })).reusableContents.map((r) => r.title), ["Desk", "Legal"])
        // The space's list, in order, with an empty one's markdown empty.
        assert.deepStrictEqual((yield* api.reusableContents.listReusableContents({ params: { spaceId } })).items.map((r) => [r.title, r.markdown]), [["Desk", "Write to the walrus desk.\n"], ["Legal", ""]])
        yield* api.changeRequests.mergeChangeRequest({ params: { spaceId, changeRequestId: next.id } })
        assert.deepStrictEqual((yield* api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })).reusableContents.map((r) => r.title), ["Legal"])
        const gone = yield* Effect.flip(api.reusableContents.getReusableContentById({ params: { spaceId, reusableContentId: created.id }, query: {} }))
        assert.strictEqual(errorCode(gone), 404)
      }))

    it.effect("a reader is refused, an outsider sees nothing, a merged change request and bad input are 400s naming the field", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith(["read"])
        const api = setup.alice.api
        const spaceId = setup.space.id
        const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Reuse" } })
        const params = { spaceId, changeRequestId: cr.id }
        const created = yield* api.reusableContents.createReusableContentInChangeRequest({ params, payload: { title: "Support", markdown: "Narwhal.\n" } })

        const reader = setup.members.read!.api
        // A reader lists them, but may not write.
        assert.strictEqual((yield* reader.reusableContents.listReusableContentsInChangeRequest({ params })).items.length, 1)
        assert.deepStrictEqual((yield* reader.reusableContents.listReusableContents({ params: { spaceId } })).items, [])
        const refused = yield* Effect.flip(reader.reusableContents.createReusableContentInChangeRequest({ params, payload: { title: "Mine" } }))
        assert.strictEqual(errorCode(refused), 403)
        const renameRefused = yield* Effect.flip(reader.reusableContents.updateReusableContentInChangeRequest({ params: { ...params, reusableContentId: created.id }, payload: { title: "Mine" } }))
        assert.strictEqual(errorCode(renameRefused), 403)

        const mallory = yield* newUser("Mallory")
        yield* mallory.api.organizations.createOrganization({ payload: { title: "Elsewhere" } })
        const outsider: Client = mallory.api
        const attempts: ReadonlyArray<Effect.Effect<unknown, unknown>> = [
          outsider.reusableContents.listReusableContents({ params: { spaceId } }),
          outsider.reusableContents.listReusableContentsInChangeRequest({ params }),
          outsider.reusableContents.createReusableContentInChangeRequest({ params, payload: { title: "Mine" } }),
          outsider.reusableContents.updateReusableContentInChangeRequest({ params: { ...params, reusableContentId: created.id }, payload: { title: "Mine" } }),
          outsider.reusableContents.deleteReusableContentInChangeRequest({ params: { ...params, reusableContentId: created.id } })
        ]
        for (const attempt of attempts) {
          const answer = yield* Effect.flip(attempt)
          assert.strictEqual(errorCode(answer), 404)
          assert.notInclude(errorMessage(answer), "Narwhal")
        }
        assert.strictEqual((yield* api.reusableContents.listReusableContentsInChangeRequest({ params })).items[0]!.title, "Support")

        const missing = yield* Effect.flip(api.reusableContents.deleteReusableContentInChangeRequest({ params: { ...params, reusableContentId: "nothere" } }))
        assert.strictEqual(errorCode(missing), 404)
        const path = `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/reusable-contents`
        for (const [body, field] of [[{ title: "" }, "title"], [{}, "title"], [{ title: "x".repeat(501) }, "title"], [{ title: "A", markdown: 5 }, "markdown"]] as const) {
          const bad = yield* raw("POST", path, { body: JSON.stringify(body), token: setup.alice.token })
          assert.strictEqual(bad.status, 400, JSON.stringify(body))
          assert.strictEqual(fieldOf(bad.body), field)
        }
        const badPatch = yield* raw("PATCH", `${path}/${created.id}`, { body: JSON.stringify({ title: "" }), token: setup.alice.token })
        assert.strictEqual(badPatch.status, 400)
        assert.strictEqual(fieldOf(badPatch.body), "title")

        yield* api.changeRequests.mergeChangeRequest({ params })
        const merged = yield* Effect.flip(api.reusableContents.createReusableContentInChangeRequest({ params, payload: { title: "Late" } }))
        assert.strictEqual(errorCode(merged), 400)
        assert.include(errorMessage(merged), "merged")
      }))
  })
}
