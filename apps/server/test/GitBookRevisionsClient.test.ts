/** GitBook's own client (`@gitbook/api`) on revisions, pages by path and semantic changes: the compatibility promise. */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { backends, baseUrl, mergeIntoMain, spaceWith } from "./Harness.ts"

interface Page {
  readonly id: string
  readonly title: string
  readonly path: string
  readonly markdown?: string
}

interface Changes {
  readonly changes: ReadonlyArray<{ readonly type: string; readonly page?: { readonly id: string; readonly path?: string } }>
  readonly more?: number
}

type Answer<A> = Promise<{ readonly status: number; readonly data: A }>

/** The part of GitBook's client this test uses (its published typings cannot be resolved under NodeNext). */
interface GitBookClient {
  readonly spaces: {
    getPageByPath(spaceId: string, pagePath: string, query?: { format?: "markdown" | "document" }): Answer<Page>
    getPageInChangeRequestByPath(spaceId: string, changeRequestId: string, pagePath: string, query?: { format?: "markdown" }): Answer<Page>
    getRevisionById(spaceId: string, revisionId: string, query?: { metadata?: boolean }): Answer<{ readonly object: string; readonly id: string; readonly pages: ReadonlyArray<Page> }>
    getPageInRevisionByPath(spaceId: string, revisionId: string, pagePath: string, query?: { format?: "markdown" }): Answer<Page>
    listPagesInRevisionById(spaceId: string, revisionId: string): Answer<{ readonly pages: ReadonlyArray<Page> }>
    getRevisionSemanticChanges(spaceId: string, revisionId: string, query?: { limit?: number }): Answer<Changes>
    getChangeRequestChanges(spaceId: string, changeRequestId: string, query?: { limit?: number }): Answer<Changes>
  }
}

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`@gitbook/api revisions on ${backend.name}`, (it) => {
    it.effect("reads pages by nested path, revisions by id and what a revision and a change request changed", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith()
        const api = setup.alice.api
        const spaceId = setup.space.id
        yield* mergeIntoMain(api, spaceId, [
          { operation: "insert_page", ref: "guides", title: "Guides", document: { markdown: "All guides." } },
          { operation: "insert_page", into: "guides", title: "Setup", document: { markdown: "Use apt." } }
        ])
        const merged = (yield* api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })).id
        const setupId = (yield* api.spaceContent.getPageByPath({ params: { spaceId, pagePath: "guides/setup" }, query: {} })).id
        const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Brew" } })
        yield* api.changeRequestContent.updateChangeRequestContent({
          params: { spaceId, changeRequestId: cr.id },
          payload: { changes: [{ operation: "update_page", page: setupId, document: { markdown: "Use brew." } }] }
        })

        const gitbook = new GitBookAPI({ endpoint: yield* baseUrl, authToken: setup.alice.token }) as unknown as GitBookClient
        const result = yield* Effect.promise(async () => ({
          byPath: await gitbook.spaces.getPageByPath(spaceId, "guides/setup", { format: "markdown" }),
          inCr: await gitbook.spaces.getPageInChangeRequestByPath(spaceId, cr.id, "guides/setup", { format: "markdown" }),
          revision: await gitbook.spaces.getRevisionById(spaceId, merged),
          initial: await gitbook.spaces.getRevisionById(spaceId, setup.space.revision),
          inRevision: await gitbook.spaces.getPageInRevisionByPath(spaceId, merged, "guides", { format: "markdown" }),
          pages: await gitbook.spaces.listPagesInRevisionById(spaceId, merged),
          revisionChanges: await gitbook.spaces.getRevisionSemanticChanges(spaceId, merged),
          crChanges: await gitbook.spaces.getChangeRequestChanges(spaceId, cr.id, { limit: 5 }),
          missing: await gitbook.spaces.getPageByPath(spaceId, "guides/nope").then(
            (answer) => answer.status,
            (error: { readonly code?: number }) => error.code
          )
        }))
        assert.deepStrictEqual([result.byPath.status, result.byPath.data.id, result.byPath.data.path, result.byPath.data.markdown], [
          200,
          setupId,
          "guides/setup",
          "Use apt."
        ])
        assert.strictEqual(result.inCr.data.markdown, "Use brew.")
        assert.deepStrictEqual([result.revision.data.object, result.revision.data.id], ["revision", merged])
        assert.deepStrictEqual(result.initial.data.pages, [])
        assert.strictEqual(result.inRevision.data.markdown, "All guides.")
        assert.deepStrictEqual(result.pages.data.pages.map((p) => p.title), ["Guides"])
        assert.deepStrictEqual(result.revisionChanges.data.changes.map((c) => [c.type, c.page?.path]), [["page_created", "guides"], ["page_created", "guides/setup"]])
        assert.deepStrictEqual(result.crChanges.data.changes.map((c) => [c.type, c.page?.id]), [["page_edited", setupId]])
        assert.strictEqual(result.missing, 404)
      }))
  })
}
