/** Bounds on what one request may ask of the server: body size, field sizes, batch totals. */
import { assert, layer } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { LocalServer } from "@quire/testkit"
import { defaultMaxBodyBytes } from "../src/BodyLimit.ts"
import { backends, baseUrl, errorCode, errorMessage, raw, spaceWith, withSettings } from "./Harness.ts"

const problem = (response: { readonly status: number; readonly body: unknown }) => ({
  status: response.status,
  message: (response.body as { readonly error: { readonly message: string } }).error.message
})

/** The size of the files the quota suite stores: the quota is sixteen of them. */
const unit = 256 * 1024

/** The organizations' storage quota of the quota suite: small, so that reaching it takes 4 MiB, not the test servers' 16. */
const quota = 16 * unit

/** `n` routes `/part-<i>.bin` of `unit` bytes each, all different. */
const parts = (n: number, seed: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => {
    const body = new Uint8Array(unit).fill(seed)
    body[0] = i
    return [`/part-${i}.bin`, { type: "application/octet-stream", body }]
  }))

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`request limits on ${backend.name}`, (it) => {
    it.effect("answers 413 to a body over QUIRE_MAX_BODY_BYTES, declared or streamed, and stores nothing", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Big" } })
        const path = `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`
        const huge = JSON.stringify({ changes: [{ operation: "insert_page", document: { markdown: "x".repeat(defaultMaxBodyBytes) } }] })
        const declared = yield* raw("POST", path, { body: huge, token: alice.token })
        assert.strictEqual(declared.status, 413)
        assert.deepStrictEqual(Object.keys((declared.body as { error: object }).error), ["code", "message"])

        // Without a content-length, the body is cut off once it passes the bound.
        const base = yield* baseUrl
        const streamed = yield* Effect.promise(async () => {
          const bytes = new TextEncoder().encode(huge)
          let sent = 0
          const body = new ReadableStream<Uint8Array>({
            pull(controller) {
              if (sent >= bytes.length) return controller.close()
              controller.enqueue(bytes.subarray(sent, sent + (1 << 20)))
              sent += 1 << 20
            }
          })
          try {
            const response = await fetch(`${base}${path}`, {
              method: "POST",
              headers: { "content-type": "application/json", authorization: `Bearer ${alice.token}` },
              body,
              duplex: "half"
            } as RequestInit)
            return { status: response.status, body: await response.json() as unknown }
          } catch {
            return { status: 0, body: undefined }
          }
        })
        // The server may close the connection before the client has sent everything; it never accepts the body.
        assert.include([413, 0], streamed.status, JSON.stringify(streamed.body))
        const pages = yield* alice.api.changeRequestContent.listPagesInChangeRequest({ params: { spaceId, changeRequestId: cr.id }, query: {} })
        assert.deepStrictEqual(pages.pages, [])
      }))

    it.effect("caps page markdown, batch totals, comment bodies and nodes with a 400 naming the field, storing nothing", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Caps" } })
        const content = `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`
        const insert = (markdown: string) => ({ operation: "insert_page", title: "Page", document: { markdown } })
        const post = (path: string, body: unknown) => Effect.map(raw("POST", path, { body: JSON.stringify(body), token: alice.token }), problem)

        const page = yield* post(content, { changes: [insert("x".repeat(5_000_001))] })
        assert.strictEqual(page.status, 400)
        assert.include(page.message, "changes[0].document.markdown")
        const batch = yield* post(content, { changes: [insert("x".repeat(4_000_000)), insert("y".repeat(4_000_000)), insert("z".repeat(4_000_000))] })
        assert.strictEqual(batch.status, 400)
        assert.include(batch.message, "changes")
        assert.include(batch.message, "at most 10000000")
        const files = yield* post(content, { changes: [{ operation: "insert_files", files: [{ name: "a.bin", base64: "A".repeat(1_400_000) }] }] })
        assert.strictEqual(files.status, 400)
        assert.include(files.message, "changes[0].files[0].base64")
        const pages = yield* alice.api.changeRequestContent.listPagesInChangeRequest({ params: { spaceId, changeRequestId: cr.id }, query: {} })
        assert.deepStrictEqual(pages.pages, [])

        const comments = `/v1/spaces/${spaceId}/comments`
        const longBody = yield* post(comments, { body: { markdown: "w".repeat(100_001) } })
        assert.strictEqual(longBody.status, 400)
        assert.include(longBody.message, "body.markdown")
        const longNode = yield* post(comments, { body: { markdown: "Hi" }, node: "n".repeat(10_000) })
        assert.strictEqual(longNode.status, 400)
        assert.include(longNode.message, "node")
        const inChangeRequest = yield* post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/comments`, { body: { markdown: "w".repeat(100_001) } })
        assert.strictEqual(inChangeRequest.status, 400)
        assert.include(inChangeRequest.message, "body.markdown")
        const listed = yield* alice.api.comments.listCommentsInSpace({ params: { spaceId }, query: {} })
        assert.deepStrictEqual(listed.items, [])
        const refs = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`ref${i}`, { kind: "page" }]))
        const template = yield* post(`/v1/spaces/${spaceId}/content/template`, { id: "product-docs", params: { contentRefs: refs } })
        assert.strictEqual(template.status, 400)
        assert.include(template.message, "contentRefs")
        // At the bounds, they are accepted.
        const accepted = yield* alice.api.comments.postCommentInSpace({ params: { spaceId }, payload: { body: { markdown: "w".repeat(100_000) } } })
        assert.strictEqual(accepted.body.markdown.length, 100_000)
      }))

    it.effect("refuses a page whose markdown is over the page-markdown limit in bytes with a 400 naming it, and keeps answering", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Wide characters" } })
        const params = { spaceId, changeRequestId: cr.id }
        // 4.5 million characters pass the API's 5,000,000; as UTF-8 they are 9 MB, over the 8 MiB a stored page may take.
        const markdown = "é".repeat(4_500_000)
        const refused = problem(yield* raw("POST", `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
          body: JSON.stringify({ changes: [{ operation: "insert_page", title: "Wide", document: { markdown } }] }),
          token: alice.token
        }))
        assert.strictEqual(refused.status, 400)
        assert.include(refused.message, "page-markdown limit")
        assert.include(refused.message, "8 MiB")
        // Nothing was stored, and every later call answers.
        const pages = yield* alice.api.changeRequestContent.listPagesInChangeRequest({ params, query: {} })
        assert.deepStrictEqual(pages.pages, [])
        assert.strictEqual((yield* alice.api.spaces.getSpaceById({ params: { spaceId }, query: {} })).id, spaceId)
        yield* alice.api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: { changes: [{ operation: "insert_page", title: "Narrow", document: { markdown: "é".repeat(1_000) } }] }
        })
        const after = yield* alice.api.changeRequestContent.listPagesInChangeRequest({ params, query: {} })
        assert.deepStrictEqual(after.pages.map((p) => p.title), ["Narrow"])
      }))

    it.effect("bounds the files of a batch: at most 20, and 8 MiB in total, inline or fetched by URL", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        const megabyte = new Uint8Array(1024 * 1024).fill(7)
        const site = yield* LocalServer.serveRoutes({ "/big.bin": { type: "application/octet-stream", body: megabyte } })
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Files" } })
        const params = { spaceId, changeRequestId: cr.id }
        const byUrl = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `big-${i}.bin`, url: `${site.origin}/big.bin` }))
        const edit = (changes: Parameters<typeof alice.api.changeRequestContent.updateChangeRequestContent>[0]["payload"]["changes"]) =>
          Effect.flip(alice.api.changeRequestContent.updateChangeRequestContent({ params, payload: { changes } }))

        // 10 files of 1 MiB by URL: a small request that would have the server fetch and store 10 MiB.
        const heavy = yield* edit([{ operation: "insert_files", files: byUrl(5) }, { operation: "insert_files", files: byUrl(5) }])
        assert.strictEqual(errorCode(heavy), 400)
        assert.include(errorMessage(heavy), `${8 * 1024 * 1024} bytes in total`)
        const many = yield* edit([
          { operation: "insert_files", files: Array.from({ length: 20 }, (_, i) => ({ name: `f${i}.txt`, contentType: "text/plain", base64: "aGk=" })) },
          { operation: "insert_files", files: [{ name: "one-more.txt", contentType: "text/plain", base64: "aGk=" }] }
        ])
        assert.strictEqual(errorCode(many), 400)
        assert.include(errorMessage(many), "at most 20 files")
        const files = yield* alice.api.changeRequestContent.listFilesInChangeRequestById({ params, query: {} })
        assert.deepStrictEqual(files.items, [])
        // Within the bounds, the batch lands.
        yield* alice.api.changeRequestContent.updateChangeRequestContent({ params, payload: { changes: [{ operation: "insert_files", files: byUrl(3) }] } })
        assert.strictEqual((yield* alice.api.changeRequestContent.listFilesInChangeRequestById({ params, query: {} })).items.length, 3)
      }))
  })

  layer(withSettings(backend.layer, { QUIRE_ORG_STORAGE_BYTES: quota }), { timeout: 120_000, excludeTestServices: true })(`storage quota on ${backend.name}`, (it) => {
    it.effect("refuses files past the organization's storage quota with a 403, other organizations unaffected", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const other = yield* spaceWith()
        // Each file distinct bytes: a blob counts once however many files point to it.
        const site = yield* LocalServer.serveRoutes(parts(30, 9))
        let served = 0
        const files = (n: number) => Array.from({ length: n }, () => ({ name: `part-${served}.bin`, url: `${site.origin}/part-${served++}.bin` }))
        const upload = (api: typeof alice.api, spaceId: string, n: number) =>
          Effect.gen(function*() {
            const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Upload" } })
            const params = { spaceId, changeRequestId: cr.id }
            const result = yield* Effect.exit(api.changeRequestContent.updateChangeRequestContent({ params, payload: { changes: [{ operation: "insert_files", files: files(n) }] } }))
            const stored = (yield* api.changeRequestContent.listFilesInChangeRequestById({ params, query: {} })).items.length
            return { result, stored }
          })
        const units = quota / unit
        assert.strictEqual((yield* upload(alice.api, space.id, 8)).stored, 8)
        assert.strictEqual((yield* upload(alice.api, space.id, units - 12)).stored, units - 12)
        // Each file fits alone, the batch does not: its write is refused and counts nothing.
        const together = yield* upload(alice.api, space.id, 8)
        assert.strictEqual(together.stored, 0)
        assert.isTrue(Exit.isFailure(together.result))
        const refused = yield* Effect.flip(together.result)
        assert.strictEqual(errorCode(refused), 403)
        assert.include(errorMessage(refused), "storage quota")
        assert.strictEqual((yield* upload(alice.api, space.id, 4)).stored, 4)
        const over = yield* upload(alice.api, space.id, 1)
        assert.strictEqual(over.stored, 0)
        assert.isTrue(over.result._tag === "Failure")
        const error = yield* Effect.flip(alice.api.changeRequestContent.updateChangeRequestContent({
          params: { spaceId: space.id, changeRequestId: (yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "More" } })).id },
          payload: { changes: [{ operation: "insert_files", files: [{ name: "tiny.txt", contentType: "text/plain", base64: "aGk=" }] }] }
        }))
        assert.strictEqual(errorCode(error), 403)
        assert.include(errorMessage(error), "storage quota")
        // Another organization still stores files, the same bytes included.
        served = 0
        assert.strictEqual((yield* upload(other.alice.api, other.space.id, 1)).stored, 1)
      }))

    it.effect("a refused batch counts nothing against the quota, though it stored its files", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        const site = yield* LocalServer.serveRoutes(parts(40, 3))
        let served = 0
        const files = (n: number) => Array.from({ length: n }, () => ({ name: `part-${served}.bin`, url: `${site.origin}/part-${served++}.bin` }))
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Refused" } })
        const params = { spaceId, changeRequestId: cr.id }
        for (let n = 0; n < 3; n++) {
          const refused = yield* Effect.flip(alice.api.changeRequestContent.updateChangeRequestContent({
            params,
            payload: { changes: [{ operation: "insert_files", files: files(8) }, { operation: "delete_page", page: "no-such-page" }] }
          }))
          assert.strictEqual(errorCode(refused), 400)
        }
        // One and a half times the quota was stored and refused; the organization still has its whole quota.
        for (let n = 0; n < quota / (8 * unit); n++) {
          yield* alice.api.changeRequestContent.updateChangeRequestContent({ params, payload: { changes: [{ operation: "insert_files", files: files(8) }] } })
        }
        const stored = yield* alice.api.changeRequestContent.listFilesInChangeRequestById({ params, query: { limit: 100 } })
        assert.strictEqual(stored.items.length, quota / unit)
      }))
  })
}
