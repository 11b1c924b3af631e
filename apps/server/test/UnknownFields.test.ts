/**
 * A body field the contract does not name is a 400 naming it, as the OpenAPI document's
 * `additionalProperties: false` says, and the write changes nothing; on every backend.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, raw, spaceWith } from "./Harness.ts"

const messageOf = (body: unknown): string =>
  (body as { readonly error?: { readonly message?: string } } | undefined)?.error?.message ?? ""

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`unknown body fields on ${backend.name}`, (it) => {
    it.effect("PUT a comment with {status: resolved} is a 400 naming status, and the comment stays open", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const comment = yield* alice.api.comments.postCommentInSpace({
          params: { spaceId: space.id },
          payload: { body: { markdown: "Is this right?" } }
        })
        const answer = yield* raw("PUT", `/v1/spaces/${space.id}/comments/${comment.id}`, {
          token: alice.token,
          body: JSON.stringify({ status: "resolved" })
        })
        assert.strictEqual(answer.status, 400)
        assert.include(messageOf(answer.body), "status: unknown field")
        const after = yield* alice.api.comments.getCommentInSpace({ params: { spaceId: space.id, commentId: comment.id }, query: {} })
        assert.strictEqual(after.status, "open")

        // The field GitBook's spec names does what it says.
        const resolved = yield* raw("PUT", `/v1/spaces/${space.id}/comments/${comment.id}`, {
          token: alice.token,
          body: JSON.stringify({ resolved: true })
        })
        assert.strictEqual(resolved.status, 200)
        assert.strictEqual((resolved.body as { status: string }).status, "resolved")
      }))

    it.effect("an unknown field beside known ones, or nested, is refused and nothing is created or changed", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space } = yield* spaceWith()

        const created = yield* raw("POST", `/v1/orgs/${organizationId}/spaces`, {
          token: alice.token,
          body: JSON.stringify({ title: "Extra", colour: "red" })
        })
        assert.strictEqual(created.status, 400)
        assert.include(messageOf(created.body), "colour: unknown field")
        const spaces = yield* alice.api.spaces.listSpacesInOrganizationById({ params: { organizationId }, query: {} })
        assert.deepStrictEqual(spaces.items.map((item) => item.title), ["Docs"])

        const renamed = yield* raw("PATCH", `/v1/spaces/${space.id}`, {
          token: alice.token,
          body: JSON.stringify({ title: "Renamed", defaultRole: "admin" })
        })
        assert.strictEqual(renamed.status, 400)
        assert.include(messageOf(renamed.body), "defaultRole: unknown field")
        const unchanged = yield* alice.api.spaces.getSpaceById({ params: { spaceId: space.id }, query: {} })
        assert.strictEqual(unchanged.title, "Docs")

        // Every unknown field is named, not only the first.
        const two = yield* raw("POST", `/v1/orgs/${organizationId}/collections`, {
          token: alice.token,
          body: JSON.stringify({ title: "Guides", colour: "red", icon: "book" })
        })
        assert.strictEqual(two.status, 400)
        assert.include(messageOf(two.body), "colour: unknown field")
        assert.include(messageOf(two.body), "icon: unknown field")

        const nested = yield* raw("POST", `/v1/spaces/${space.id}/comments`, {
          token: alice.token,
          body: JSON.stringify({ body: { markdown: "Hi", html: "<b>Hi</b>" } })
        })
        assert.strictEqual(nested.status, 400)
        assert.include(messageOf(nested.body), "body.html: unknown field")
        const comments = yield* alice.api.comments.listCommentsInSpace({ params: { spaceId: space.id }, query: {} })
        assert.strictEqual(comments.items.length, 0)
      }))
  })
}
