/** What a revision and a change request changed (GitBook's semantic changes, with line diffs), on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, errorCode, errorMessage, newUser, raw, spaceWith } from "./Harness.ts"

type Setup = Effect.Success<ReturnType<typeof spaceWith>>
type Client = Setup["alice"]["api"]
type Changes = Parameters<Client["changeRequestContent"]["updateChangeRequestContent"]>[0]["payload"]["changes"]

/** Opens a change request, applies `changes`, merges it when asked; answers its params and head. */
const changeRequest = Effect.fnUntraced(function*(api: Client, spaceId: string, subject: string, changes: Changes, merge: boolean) {
  const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject } })
  const params = { spaceId, changeRequestId: cr.id }
  const edited = yield* api.changeRequestContent.updateChangeRequestContent({ params, payload: { changes } })
  if (merge) yield* api.changeRequests.mergeChangeRequest({ params })
  return { params, head: edited.revision }
})

const summary = (changes: ReadonlyArray<{ readonly type: string; readonly page?: { readonly path?: string }; readonly file?: { readonly name: string } }>) =>
  changes.map((c) => [c.type, c.page?.path ?? c.file?.name])

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`semantic changes on ${backend.name}`, (it) => {
    it.effect("a merge revision's changes are those of the change request it merged; limit leaves the rest to more", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith()
        const api = setup.alice.api
        const spaceId = setup.space.id
        const docs = yield* changeRequest(api, spaceId, "Docs", [
          { operation: "insert_page", ref: "guides", title: "Guides", document: { markdown: "All guides." } },
          { operation: "insert_page", into: "guides", title: "Setup", document: { markdown: "Install." } },
          { operation: "insert_page", title: "FAQ", document: { markdown: "Questions." } },
          { operation: "insert_files", files: [{ name: "logo.txt", contentType: "text/plain", base64: Buffer.from("logo").toString("base64") }] }
        ], true)
        const main = yield* api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })

        const all = yield* api.revisions.getRevisionSemanticChanges({ params: { spaceId, revisionId: main.id }, query: {} })
        assert.deepStrictEqual(summary(all.changes), [
          ["page_created", "guides"],
          ["page_created", "guides/setup"],
          ["page_created", "faq"],
          ["file_created", "logo.txt"]
        ])
        assert.isUndefined(all.more)
        // A merge revision names the change request it merged, as GitBook's mergedFrom.
        assert.deepStrictEqual([all.mergedFrom?.id, all.mergedFrom?.subject, all.mergedFrom?.status], [docs.params.changeRequestId, "Docs", "merged"])
        const created = all.changes[0]!
        assert.deepStrictEqual(created.type === "page_created" ? created.page : undefined, { id: main.pages[0]!.id, type: "document", title: "Guides", path: "guides" })
        const file = all.changes[3]!
        assert.isTrue(file.type === "file_created" && file.file.downloadURL.includes("/files/"))

        const limited = yield* api.revisions.getRevisionSemanticChanges({ params: { spaceId, revisionId: main.id }, query: { limit: 2 } })
        assert.deepStrictEqual([limited.changes.length, limited.more], [2, 2])

        // The first revision of the space changed nothing.
        const initial = yield* api.revisions.getRevisionSemanticChanges({ params: { spaceId, revisionId: setup.space.revision }, query: {} })
        assert.deepStrictEqual(initial.changes, [])
        assert.isUndefined(initial.mergedFrom)
      }))

    it.effect("a change request's changes: edits with their attributes and a line diff, moves, deletions; main's own changes since do not show", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith(["read"])
        const api = setup.alice.api
        const spaceId = setup.space.id
        yield* changeRequest(api, spaceId, "Docs", [
          { operation: "insert_page", ref: "guides", title: "Guides", document: { markdown: "All guides." } },
          { operation: "insert_page", into: "guides", title: "Setup", document: { markdown: "Intro.\n\nInstall with apt.\nThen run it.\n" } },
          { operation: "insert_page", title: "FAQ", document: { markdown: "Questions." } },
          { operation: "insert_page", title: "Old", document: { markdown: "Outdated." } },
          { operation: "insert_page", title: "News", document: { markdown: "Nothing yet." } }
        ], true)
        const main = yield* api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
        const [guides, faq, old, news] = main.pages
        const setupPage = guides!.pages![0]!

        const review = yield* changeRequest(api, spaceId, "Rework", [
          { operation: "update_page", page: setupPage.id, title: "Installation", document: { markdown: "Intro.\n\nInstall with brew.\nThen run it.\n" } },
          { operation: "update_page", page: faq!.id, into: guides!.id },
          { operation: "delete_page", page: old!.id }
        ], false)
        // Main moves on meanwhile: the change request does not claim that edit.
        yield* changeRequest(api, spaceId, "News", [{ operation: "update_page", page: news!.id, document: { markdown: "Released." } }], true)

        const answer = yield* setup.members.read!.api.changeRequestChanges.getChangeRequestChanges({ params: review.params, query: { diff: true } })
        assert.deepStrictEqual(summary(answer.changes), [
          ["page_edited", "guides/setup"],
          ["page_moved", "guides/faq"],
          ["page_deleted", "old"]
        ])
        const [edited, moved] = answer.changes
        assert.strictEqual(edited?.type, "page_edited")
        if (edited?.type === "page_edited") {
          assert.deepStrictEqual(edited.attributes.title, { before: "Setup", after: "Installation" })
          assert.isDefined(edited.attributes.document?.before)
          assert.notStrictEqual(edited.attributes.document?.before, edited.attributes.document?.after)
          assert.strictEqual(
            edited.diff,
            [
              "--- a/guides/setup.md",
              "+++ b/guides/setup.md",
              "@@ -1,4 +1,4 @@",
              " Intro.",
              " ",
              "-Install with apt.",
              "+Install with brew.",
              " Then run it.",
              ""
            ].join("\n")
          )
        }
        assert.deepStrictEqual(moved?.type === "page_moved" ? [moved.parent.before, moved.parent.after?.id] : undefined, [undefined, guides!.id])

        // Without diff=true, GitBook's shape alone.
        const plain = yield* api.changeRequestChanges.getChangeRequestChanges({ params: review.params, query: {} })
        assert.isTrue(plain.changes.every((c) => !("diff" in c)))

        // The change request's head revision changed against its first parent (the change request's start).
        const head = yield* api.revisions.getRevisionSemanticChanges({ params: { spaceId, revisionId: review.head }, query: { diff: true } })
        assert.deepStrictEqual(summary(head.changes), summary(answer.changes))

        // By number too, as every change request operation.
        const number = (yield* api.changeRequests.getChangeRequestById({ params: review.params })).number
        const byNumber = yield* raw("GET", `/v1/spaces/${spaceId}/change-requests/${number}/changes`, { token: setup.alice.token })
        assert.strictEqual((byNumber.body as { changes: ReadonlyArray<unknown> }).changes.length, 3)
      }))

    it.effect("bad limits are 400s naming the field; outsiders and other spaces' revisions get 404", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith()
        const spaceId = setup.space.id
        const cr = yield* changeRequest(setup.alice.api, spaceId, "Docs", [{ operation: "insert_page", title: "A", document: { markdown: "a" } }], false)
        for (const limit of ["0", "5000", "ten"]) {
          const refused = yield* raw("GET", `/v1/spaces/${spaceId}/change-requests/${cr.params.changeRequestId}/changes?limit=${limit}`, { token: setup.alice.token })
          assert.strictEqual(refused.status, 400, limit)
          assert.include(errorMessage(refused.body), "limit")
        }
        const badDiff = yield* raw("GET", `/v1/spaces/${spaceId}/revisions/${cr.head}/changes?diff=maybe`, { token: setup.alice.token })
        assert.strictEqual(badDiff.status, 400)

        const outsider = yield* newUser("Mallory")
        assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.changeRequestChanges.getChangeRequestChanges({ params: cr.params, query: {} }))), 404)
        assert.strictEqual(
          errorCode(yield* Effect.flip(outsider.api.revisions.getRevisionSemanticChanges({ params: { spaceId, revisionId: cr.head }, query: {} }))),
          404
        )
        const other = yield* setup.alice.api.spaces.createSpace({ params: { organizationId: setup.organizationId }, payload: { title: "Other" } })
        assert.strictEqual(
          errorCode(yield* Effect.flip(setup.alice.api.revisions.getRevisionSemanticChanges({ params: { spaceId: other.id, revisionId: cr.head }, query: {} }))),
          404
        )
      }))
  })
}
