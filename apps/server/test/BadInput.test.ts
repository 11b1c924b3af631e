/**
 * Every bad input is a 400 naming its field, never a 500: crafted list cursors, NUL characters in
 * any text, content types that are not media types; and what the database refuses is a 400 too.
 * Through the real router, on every backend.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { SpaceContent } from "@quire/content"
import { Actor } from "@quire/kernel"
import { Backends } from "@quire/testkit"
import { badInputOfDatabase } from "../src/ErrorEnvelope.ts"
import { backends, download, errorCode, errorMessage, raw, spaceWith, spaceWithContent } from "./Harness.ts"

const base64url = (text: string) => Buffer.from(text).toString("base64url")

/** Cursors nobody issued: the base64 of `[]`, of keys of the wrong shape, with and without a made-up signature. */
const craftedCursors = [
  "W10",
  base64url(JSON.stringify(["x"])),
  base64url(JSON.stringify([1, "2026-01-01T00:00:00.000Z", "id"])),
  `${base64url(JSON.stringify(["not-a-date", "id"]))}.AAAAAAAAAAAAAAAAAAAAAA`,
  "..",
  "%FF%FE"
]

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`bad input on ${backend.name}`, (it) => {
    it.effect("a 400 about one field names it in the envelope's `field`, whoever refused it: the contract or the domain", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* spaceWith()
        const fieldOf = (body: unknown) => (body as { readonly error: { readonly field?: unknown } }).error.field
        // The contract's schema: a title too long, a member's role that is not one, a query parameter.
        const long = yield* raw("POST", `/v1/orgs/${organizationId}/spaces`, { body: JSON.stringify({ title: "x".repeat(200) }), token: alice.token })
        assert.strictEqual(long.status, 400)
        assert.strictEqual(fieldOf(long.body), "title")
        const invite = yield* raw("POST", `/v1/orgs/${organizationId}/invites`, { body: JSON.stringify({ emails: ["a@example.com", 7] }), token: alice.token })
        assert.strictEqual(invite.status, 400)
        assert.strictEqual(fieldOf(invite.body), "emails[1]")
        const limit = yield* raw("GET", `/v1/orgs/${organizationId}/spaces?limit=-4`, { token: alice.token })
        assert.strictEqual(limit.status, 400)
        assert.strictEqual(fieldOf(limit.body), "limit")
        // The domain's rule: an invitation to an address that is not one.
        const notEmail = yield* raw("POST", `/v1/orgs/${organizationId}/invites`, { body: JSON.stringify({ emails: ["not an address"] }), token: alice.token })
        assert.strictEqual(notEmail.status, 400)
        assert.match(String(fieldOf(notEmail.body)), /^emails/)
        // A refusal about no one field has none.
        const notJson = yield* raw("POST", `/v1/orgs/${organizationId}/spaces`, { body: "{", token: alice.token })
        assert.strictEqual(notJson.status, 400)
        assert.isUndefined(fieldOf(notJson.body))
      }))

    it.effect("a crafted page cursor is a 400 naming `page` on every list operation", () =>
      Effect.gen(function*() {
        const { alice, collection, cr, organizationId, space } = yield* spaceWithContent()
        const spaceId = space.id
        const api = alice.api
        yield* api.changeRequests.mergeChangeRequest({ params: { spaceId, changeRequestId: cr.id } })
        const draft = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Draft" } })
        const main = yield* api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
        const pageId = main.pages[0]!.id
        const fileId = main.files[0]!.id
        const comment = yield* api.comments.postCommentInSpace({ params: { spaceId }, payload: { body: { markdown: "Hi" } } })
        const crComment = yield* api.changeRequestComments.postCommentInChangeRequest({
          params: { spaceId, changeRequestId: draft.id },
          payload: { body: { markdown: "Hi" } }
        })
        const me = yield* api.users.getAuthenticatedUser()
        const crPath = `/v1/spaces/${spaceId}/change-requests/${draft.id}`
        const lists = [
          "/v1/orgs",
          `/v1/orgs/${organizationId}/members`,
          `/v1/orgs/${organizationId}/members/${me.id}/teams`,
          `/v1/orgs/${organizationId}/teams`,
          `/v1/orgs/${organizationId}/saml`,
          `/v1/orgs/${organizationId}/spaces`,
          `/v1/orgs/${organizationId}/members/${me.id}/spaces`,
          `/v1/orgs/${organizationId}/collections`,
          `/v1/collections/${collection.id}/spaces`,
          `/v1/spaces/${spaceId}/content/files`,
          `/v1/spaces/${spaceId}/search?query=install`,
          `/v1/orgs/${organizationId}/search?query=install`,
          `/v1/spaces/${spaceId}/links`,
          `/v1/spaces/${spaceId}/content/page/${pageId}/links`,
          `/v1/spaces/${spaceId}/content/page/${pageId}/backlinks`,
          `/v1/spaces/${spaceId}/content/files/${fileId}/backlinks`,
          `/v1/spaces/${spaceId}/change-requests`,
          `${crPath}/content/files`,
          `${crPath}/content/files/${fileId}/backlinks`,
          `${crPath}/content/page/${pageId}/links`,
          `/v1/spaces/${spaceId}/comments`,
          `/v1/spaces/${spaceId}/comments/${comment.id}/replies`,
          `${crPath}/comments`,
          `${crPath}/comments/${crComment.id}/replies`
        ]
        for (const list of lists) {
          const fine = yield* raw("GET", list, { token: alice.token })
          assert.strictEqual(fine.status, 200, `${list}: ${JSON.stringify(fine.body)}`)
          for (const cursor of craftedCursors) {
            const path = `${list}${list.includes("?") ? "&" : "?"}page=${cursor}`
            const answer = yield* raw("GET", path, { token: alice.token })
            assert.strictEqual(answer.status, 400, `${path}: ${JSON.stringify(answer.body)}`)
            assert.include(errorMessage(answer.body), "page", path)
          }
        }
      }))

    it.effect("a cursor a page returned reads the next page; the same cursor altered is refused", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        for (const markdown of ["One", "Two", "Three"]) {
          yield* alice.api.comments.postCommentInSpace({ params: { spaceId }, payload: { body: { markdown } } })
        }
        const list = (page?: string) =>
          alice.api.comments.listCommentsInSpace({ params: { spaceId }, query: { limit: 2, format: "markdown", ...(page === undefined ? {} : { page }) } })
        const first = yield* list()
        const next = first.next!.page
        const second = yield* list(next)
        assert.deepStrictEqual(second.items.length, 1)
        const [payload, signature] = next.split(".") as [string, string]
        const altered = [
          `${base64url(JSON.stringify(["2000-01-01T00:00:00.000Z", "x"]))}.${signature}`,
          `${payload}.${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`,
          payload
        ]
        for (const page of altered) {
          const error = yield* list(page).pipe(Effect.flip)
          assert.strictEqual(errorCode(error), 400, page)
          assert.include(errorMessage(error), "page")
        }
      }))

    it.effect("a cursor one listing issued, given to another, is never a 500, and a 400 naming `page` when its key differs", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space } = yield* spaceWith()
        const spaceId = space.id
        const api = alice.api
        for (const title of ["A", "B"]) {
          yield* api.spaces.createSpace({ params: { organizationId }, payload: { title } })
          yield* api.collections.createCollection({ params: { organizationId }, payload: { title } })
          yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: title } })
          yield* api.comments.postCommentInSpace({ params: { spaceId }, payload: { body: { markdown: title } } })
          yield* api.teams.createOrganizationTeam({ params: { organizationId }, payload: { title } })
          yield* api.organizations.createOrganization({ payload: { title: `Org ${title}` } })
        }
        // Each listing with the shape of its sort key: a cursor of another shape is refused.
        const lists: ReadonlyArray<readonly [string, string]> = [
          ["/v1/orgs?", "instant, id"],
          [`/v1/orgs/${organizationId}/teams?`, "instant, id"],
          [`/v1/orgs/${organizationId}/members?`, "instant, id"],
          [`/v1/orgs/${organizationId}/members?sort=name&`, "name, id"],
          [`/v1/orgs/${organizationId}/spaces?`, "position, instant, id"],
          [`/v1/orgs/${organizationId}/collections?`, "position, instant, id"],
          [`/v1/spaces/${spaceId}/change-requests?status=draft&`, "number"],
          [`/v1/spaces/${spaceId}/comments?`, "instant, id"]
        ]
        const cursors: Array<readonly [string, string]> = []
        for (const [list, shape] of lists) {
          const first = yield* raw("GET", `${list}limit=1`, { token: alice.token })
          const next = (first.body as { readonly next?: { readonly page: string } }).next?.page
          if (next !== undefined) cursors.push([next, shape])
        }
        assert.isAtLeast(cursors.length, 6)
        for (const [list, shape] of lists) {
          for (const [page, cursorShape] of cursors) {
            const answer = yield* raw("GET", `${list}page=${page}`, { token: alice.token })
            assert.isBelow(answer.status, 500, `${list}page=${page}: ${JSON.stringify(answer.body)}`)
            // A name is a string like an instant, so only the instant's side can tell them apart.
            if (shape !== cursorShape && !(shape === "name, id" && cursorShape === "instant, id")) {
              assert.strictEqual(answer.status, 400, `${list}page=${page}: ${JSON.stringify(answer.body)}`)
              assert.include(errorMessage(answer.body), "page", `${list}page=${page}`)
            }
          }
        }
      }))

    it.effect("a NUL character in any text is a 400 naming the field, and nothing is written", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space } = yield* spaceWith()
        const spaceId = space.id
        const token = alice.token
        const cases: ReadonlyArray<readonly [string, string, string | undefined, string]> = [
          ["POST", `/v1/orgs/${organizationId}/spaces`, JSON.stringify({ title: "A\u0000B" }), "title"],
          ["PATCH", `/v1/spaces/${spaceId}`, JSON.stringify({ title: "A\u0000B" }), "title"],
          ["POST", `/v1/orgs/${organizationId}/collections`, JSON.stringify({ title: "\u0000" }), "title"],
          ["POST", `/v1/spaces/${spaceId}/comments`, JSON.stringify({ body: { markdown: "Hello \u0000 world" } }), "body.markdown"],
          ["POST", `/v1/spaces/${spaceId}/change-requests`, JSON.stringify({ subject: "Fix\u0000" }), "subject"],
          ["GET", `/v1/spaces/${spaceId}/search?query=a%00b`, undefined, "query"],
          ["GET", `/v1/orgs/${organizationId}/search?query=%00`, undefined, "query"],
          ["GET", `/v1/orgs/${organizationId}/members?search=%00`, undefined, "search"],
          ["GET", `/v1/users/a%00b`, undefined, "userId"],
          ["PATCH", `/v1/users/${alice.user.id}`, JSON.stringify({ photoURL: "https://example.com/a\u0000.png" }), "photoURL"],
          ["POST", `/v1/orgs/${organizationId}/invites`, JSON.stringify({ emails: ["bob\u0000@example.com"] }), "emails"]
        ]
        for (const [method, path, body, field] of cases) {
          const answer = yield* raw(method, path, body === undefined ? { token } : { token, body })
          assert.strictEqual(answer.status, 400, `${method} ${path}: ${JSON.stringify(answer.body)}`)
          assert.include(errorMessage(answer.body), field, `${method} ${path}`)
          assert.include(errorMessage(answer.body), "NUL", `${method} ${path}`)
        }
        const spaces = yield* alice.api.spaces.listSpacesInOrganizationById({ params: { organizationId }, query: {} })
        assert.deepStrictEqual(spaces.items.map((s) => s.title), ["Docs"])
        const comments = yield* alice.api.comments.listCommentsInSpace({ params: { spaceId }, query: {} })
        assert.strictEqual(comments.count, 0)
        const crs = yield* alice.api.changeRequests.listChangeRequestsForSpace({ params: { spaceId }, query: {} })
        assert.strictEqual(crs.count, 0)
      }))

    it.effect("a content type that is not a media type is a 400 naming `contentType`; the batch writes nothing", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Files" } })
        const params = { spaceId, changeRequestId: cr.id }
        const path = `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`
        for (const contentType of ["text/html\r\nX-Injected: 1", "text/plain\n", "plain", "text/plain; charset=\"a\r\nb\"", "a/b\u0000"]) {
          const body = JSON.stringify({
            changes: [
              { operation: "insert_page", title: "Guide", document: { markdown: "Hi" } },
              { operation: "insert_files", files: [{ name: "x.html", contentType, base64: Buffer.from("<b>x</b>").toString("base64") }] }
            ]
          })
          const answer = yield* raw("POST", path, { token: alice.token, body })
          assert.strictEqual(answer.status, 400, JSON.stringify(contentType))
          assert.include(errorMessage(answer.body), "contentType", JSON.stringify(contentType))
        }
        const files = yield* alice.api.changeRequestContent.listFilesInChangeRequestById({ params, query: {} })
        assert.strictEqual(files.count, 0)
        const pages = yield* alice.api.changeRequestContent.listPagesInChangeRequest({ params, query: {} })
        assert.deepStrictEqual(pages.pages, [])
        const fine = yield* alice.api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: {
            changes: [{
              operation: "insert_files",
              files: [{ name: "a.txt", contentType: "text/plain; charset=\"utf-8\"", base64: Buffer.from("a").toString("base64") }]
            }]
          }
        })
        assert.isString(fine.revision)
      }))

    it.effect("a file stored with a content type no header may hold downloads as application/octet-stream", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const content = yield* SpaceContent
        const node = yield* content.storeFile(space.organization, { name: "evil.html", contentType: "text/html\r\nSet-Cookie: a=b", bytes: Buffer.from("<script>x</script>") })
        yield* content.commit(space.id, (current) => Effect.succeed({ pages: current.pages, files: [...current.files, node] })).pipe(
          Effect.provideService(Actor.Actor, { userId: alice.user.id, instanceAdmin: false })
        )
        const file = yield* alice.api.spaceContent.getFileById({ params: { spaceId: space.id, fileId: node.id }, query: {} })
        const got = yield* download(file.downloadURL)
        assert.strictEqual(got.status, 200)
        assert.strictEqual(got.headers.get("content-type"), "application/octet-stream")
        assert.isNull(got.headers.get("set-cookie"))
        assert.strictEqual(Buffer.from(got.bytes).toString(), "<script>x</script>")
      }))
  })
}

for (const database of Backends.databases) {
  layer(database.layer, { timeout: 120_000 })(`database refusals on ${database.name}`, (it) => {
    it.effect("a value PostgreSQL refuses (NUL, malformed number or timestamp, out of range) is recognised as bad input", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const refusals = [
          sql`SELECT ${"a\u0000b"}::text`,
          sql`SELECT ${"abc"}::int`,
          sql`SELECT ${"not a date"}::timestamptz`,
          sql`SELECT ${"99999999999"}::int`,
          sql`SELECT ${"abc"}::uuid`
        ]
        for (const query of refusals) {
          const defect = yield* Effect.flip(query)
          const message = badInputOfDatabase(defect)
          assert.isString(message, String(defect))
          assert.include(message!, "refuses")
        }
        const other = yield* Effect.flip(sql`SELECT * FROM no_such_table`)
        assert.isUndefined(badInputOfDatabase(other))
      }))
  })
}
