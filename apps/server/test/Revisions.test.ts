/** Revisions by id (main's history, change request branches), pages by path, through the typed client and raw HTTP, on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, errorCode, errorMessage, newUser, raw, spaceWith } from "./Harness.ts"

type Setup = Effect.Success<ReturnType<typeof spaceWith>>

/**
 * A space whose main content went through two merges: the first adds "Guides" with "Setup" under
 * it and a file, the second rewrites Setup's markdown. Answers the revision ids along the way.
 */
const history = Effect.fnUntraced(function*(setup: Setup) {
  const api = setup.alice.api
  const spaceId = setup.space.id
  const initial = setup.space.revision
  const first = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Guides" } })
  const firstParams = { spaceId, changeRequestId: first.id }
  yield* api.changeRequestContent.updateChangeRequestContent({
    params: firstParams,
    payload: {
      changes: [
        { operation: "insert_page", ref: "guides", title: "Guides", document: { markdown: "All the guides." } },
        { operation: "insert_page", into: "guides", title: "Setup", document: { markdown: "Install with apt.\n" } },
        { operation: "insert_files", files: [{ name: "notes.txt", contentType: "text/plain", base64: Buffer.from("notes").toString("base64") }] }
      ]
    }
  })
  yield* api.changeRequests.mergeChangeRequest({ params: firstParams })
  const afterFirst = yield* api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
  const guides = afterFirst.pages[0]!
  const setupPage = guides.pages![0]!

  const second = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Setup" } })
  const secondParams = { spaceId, changeRequestId: second.id }
  const edited = yield* api.changeRequestContent.updateChangeRequestContent({
    params: secondParams,
    payload: { changes: [{ operation: "update_page", page: setupPage.id, document: { markdown: "Install with brew.\n" } }] }
  })
  return { initial, afterFirst, guides, setupPage, second, secondParams, secondHead: edited.revision }
})

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`revisions API on ${backend.name}`, (it) => {
    it.effect("reads any revision of the space's history and of a change request's branch, each as it was", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith()
        const api = setup.alice.api
        const spaceId = setup.space.id
        const h = yield* history(setup)

        const empty = yield* api.revisions.getRevisionById({ params: { spaceId, revisionId: h.initial }, query: {} })
        assert.deepStrictEqual([empty.object, empty.id, empty.pages, empty.files], ["revision", h.initial, [], []])
        const first = yield* api.revisions.getRevisionById({ params: { spaceId, revisionId: h.afterFirst.id }, query: { metadata: false } })
        assert.deepStrictEqual(first, h.afterFirst)

        // The change request's head is a revision of the space too, with its edit.
        const head = yield* api.revisions.getPageInRevisionById({
          params: { spaceId, revisionId: h.secondHead, pageId: h.setupPage.id },
          query: { format: "markdown" }
        })
        assert.strictEqual(head.markdown, "Install with brew.\n")
        const before = yield* api.revisions.getPageInRevisionById({
          params: { spaceId, revisionId: h.afterFirst.id, pageId: h.setupPage.id },
          query: { format: "markdown" }
        })
        assert.deepStrictEqual([before.title, before.path, before.markdown], ["Setup", "guides/setup", "Install with apt.\n"])
        const document = yield* api.revisions.getPageInRevisionById({ params: { spaceId, revisionId: h.afterFirst.id, pageId: h.setupPage.id }, query: {} })
        assert.strictEqual(document.document?.object, "document")
        assert.isUndefined(document.markdown)

        const { pages } = yield* api.revisions.listPagesInRevisionById({ params: { spaceId, revisionId: h.afterFirst.id }, query: {} })
        assert.deepStrictEqual(pages.map((p) => [p.title, p.pages?.map((c) => c.path)]), [["Guides", ["guides/setup"]]])

        const files = yield* api.revisions.listFilesInRevisionById({ params: { spaceId, revisionId: h.afterFirst.id }, query: {} })
        assert.deepStrictEqual(files.items.map((f) => [f.name, f.contentType, f.size]), [["notes.txt", "text/plain", 5]])
        const file = yield* api.revisions.getFileInRevisionById({ params: { spaceId, revisionId: h.afterFirst.id, fileId: files.items[0]!.id }, query: {} })
        assert.strictEqual(file.name, "notes.txt")
        const noFiles = yield* api.revisions.listFilesInRevisionById({ params: { spaceId, revisionId: h.initial }, query: {} })
        assert.deepStrictEqual(noFiles.items, [])
        assert.strictEqual(
          errorCode(yield* Effect.flip(api.revisions.getFileInRevisionById({ params: { spaceId, revisionId: h.initial, fileId: files.items[0]!.id }, query: {} }))),
          404
        )
        assert.strictEqual(
          errorCode(yield* Effect.flip(api.revisions.getPageInRevisionById({ params: { spaceId, revisionId: h.initial, pageId: h.setupPage.id }, query: {} }))),
          404
        )
      }))

    it.effect("reads pages by path, nested paths with their slashes encoded or as they are, in a revision, main and a change request", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith()
        const api = setup.alice.api
        const spaceId = setup.space.id
        const h = yield* history(setup)

        const inRevision = yield* api.revisions.getPageInRevisionByPath({
          params: { spaceId, revisionId: h.afterFirst.id, pagePath: "guides/setup" },
          query: { format: "markdown" }
        })
        assert.deepStrictEqual([inRevision.id, inRevision.markdown], [h.setupPage.id, "Install with apt.\n"])
        const top = yield* api.spaceContent.getPageByPath({ params: { spaceId, pagePath: "guides" }, query: { format: "markdown" } })
        assert.deepStrictEqual([top.id, top.markdown], [h.guides.id, "All the guides."])
        const nested = yield* api.spaceContent.getPageByPath({ params: { spaceId, pagePath: "guides/setup" }, query: { format: "markdown" } })
        assert.strictEqual(nested.markdown, "Install with apt.\n")
        const inChangeRequest = yield* api.changeRequestContent.getPageInChangeRequestByPath({
          params: { ...h.secondParams, pagePath: "guides/setup" },
          query: { format: "markdown" }
        })
        assert.strictEqual(inChangeRequest.markdown, "Install with brew.\n")

        // GitBook's client sends the path's slashes as they are.
        const plain = yield* raw("GET", `/v1/spaces/${spaceId}/content/path/guides/setup?format=markdown`, { token: setup.alice.token })
        assert.strictEqual(plain.status, 200)
        assert.strictEqual((plain.body as { markdown: string }).markdown, "Install with apt.\n")
        const plainCr = yield* raw("GET", `/v1/spaces/${spaceId}/change-requests/${h.second.number}/content/path/guides/setup?format=markdown`, {
          token: setup.alice.token
        })
        assert.strictEqual((plainCr.body as { markdown: string }).markdown, "Install with brew.\n")
        const plainRevision = yield* raw("GET", `/v1/spaces/${spaceId}/revisions/${h.secondHead}/path/guides/setup/`, { token: setup.alice.token })
        assert.deepStrictEqual([plainRevision.status, (plainRevision.body as { id: string }).id], [200, h.setupPage.id])

        // A path longer than the router's default bound on a parameter (100 characters).
        const deep = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Deep" } })
        const slug = "a-rather-long-slug-for-a-page-deep-in-the-tree"
        yield* api.changeRequestContent.updateChangeRequestContent({
          params: { spaceId, changeRequestId: deep.id },
          payload: {
            changes: [
              { operation: "insert_page", ref: "one", title: "One", slug, document: { markdown: "1" } },
              { operation: "insert_page", ref: "two", into: "one", title: "Two", slug, document: { markdown: "2" } },
              { operation: "insert_page", into: "two", title: "Three", slug, document: { markdown: "3" } }
            ]
          }
        })
        const longPath = [slug, slug, slug].join("/")
        assert.isAbove(longPath.length, 100)
        const deepPage = yield* raw("GET", `/v1/spaces/${spaceId}/change-requests/${deep.id}/content/path/${longPath}?format=markdown`, { token: setup.alice.token })
        assert.deepStrictEqual([deepPage.status, (deepPage.body as { markdown: string }).markdown], [200, "3"])

        for (const path of ["setup", "guides/nope", "guides/setup/deeper"]) {
          const missing = yield* Effect.flip(api.spaceContent.getPageByPath({ params: { spaceId, pagePath: path }, query: {} }))
          assert.strictEqual(errorCode(missing), 404, path)
        }
        const missingRaw = yield* raw("GET", `/v1/spaces/${spaceId}/content/path/guides/nope`, { token: setup.alice.token })
        assert.strictEqual(missingRaw.status, 404)
        const nul = yield* raw("GET", `/v1/spaces/${spaceId}/content/path/guides%00x`, { token: setup.alice.token })
        assert.strictEqual(nul.status, 400)
        assert.include(errorMessage(nul.body), "pagePath")
        assert.strictEqual(
          errorCode(yield* Effect.flip(api.revisions.getPageInRevisionByPath({ params: { spaceId, revisionId: h.initial, pagePath: "guides" }, query: {} }))),
          404
        )
      }))

    it.effect("answers 404 for a revision of another space, an unknown one, and to outsiders; readers may read", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith(["read"])
        const spaceId = setup.space.id
        const h = yield* history(setup)
        const other = yield* setup.alice.api.spaces.createSpace({ params: { organizationId: setup.organizationId }, payload: { title: "Other" } })

        const reader = setup.members.read!.api
        const read = yield* reader.revisions.getRevisionById({ params: { spaceId, revisionId: h.secondHead }, query: {} })
        assert.strictEqual(read.id, h.secondHead)
        const readPath = yield* reader.spaceContent.getPageByPath({ params: { spaceId, pagePath: "guides/setup" }, query: {} })
        assert.strictEqual(readPath.id, h.setupPage.id)

        const foreign = yield* Effect.flip(setup.alice.api.revisions.getRevisionById({ params: { spaceId: other.id, revisionId: h.afterFirst.id }, query: {} }))
        assert.strictEqual(errorCode(foreign), 404)
        assert.include(errorMessage(foreign), h.afterFirst.id)
        const unknown = yield* Effect.flip(setup.alice.api.revisions.listPagesInRevisionById({ params: { spaceId, revisionId: "nope" }, query: {} }))
        assert.strictEqual(errorCode(unknown), 404)

        const outsider = yield* newUser("Mallory")
        const attempts: ReadonlyArray<Effect.Effect<unknown, unknown>> = [
          outsider.api.revisions.getRevisionById({ params: { spaceId, revisionId: h.afterFirst.id }, query: {} }),
          outsider.api.spaceContent.getPageByPath({ params: { spaceId, pagePath: "guides" }, query: {} }),
          outsider.api.changeRequestContent.getPageInChangeRequestByPath({ params: { ...h.secondParams, pagePath: "guides" }, query: {} })
        ]
        for (const attempt of attempts) assert.strictEqual(errorCode(yield* Effect.flip(attempt)), 404)
        const badPage = yield* raw("GET", `/v1/spaces/${spaceId}/revisions/${h.afterFirst.id}/files?page=forged`, { token: setup.alice.token })
        assert.strictEqual(badPage.status, 400)
      }))
  })
}
