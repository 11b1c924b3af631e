/** Space comments and their replies through the real router and the typed client, on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Roles } from "@quire/kernel"
import { backends, errorCode, errorMessage, newUser, raw, spaceWith as harnessSpaceWith } from "./Harness.ts"

/** `spaceWith` from the harness, with the pages of the product-docs template in the space. */
const spaceWithPages = Effect.fnUntraced(function*(roles: ReadonlyArray<Roles.MemberRole> = []) {
  const { alice, members, space } = yield* harnessSpaceWith(roles)
  const applied = yield* raw("POST", `/v1/spaces/${space.id}/content/template`, {
    token: alice.token,
    body: JSON.stringify({ id: "product-docs" })
  })
  assert.strictEqual(applied.status, 204)
  const revision = yield* alice.api.spaceContent.getCurrentRevision({ params: { spaceId: space.id }, query: {} })
  return { alice, spaceId: space.id, pages: revision.pages, members }
})

/** Items posted in one millisecond are ordered by id; a pause makes the posting order the listing order. */
const tick = Effect.sleep("3 millis")

const member = <A>(value: A | undefined): A => {
  assert.isDefined(value)
  return value as A
}

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`comments API on ${backend.name}`, (it) => {
    it.effect("a commenter comments and replies; the body comes back byte for byte; nobody edits another's comment", () =>
      Effect.gen(function*() {
        const { alice, spaceId, pages, members } = yield* spaceWithPages(["comment"])
        const bob = member(members.comment)
        const page = pages[0]!
        const markdown = "<script>alert('x')</script>\n\n**Bold** & <b>tags</b> `code`  \n"
        const posted = yield* bob.api.comments.postCommentInSpace({
          params: { spaceId },
          payload: { body: { markdown }, page: page.id, node: "node-1" }
        })
        assert.strictEqual(posted.object, "comment")
        assert.strictEqual(posted.body.markdown, markdown)
        assert.strictEqual(posted.postedBy.id, bob.user.id)
        assert.strictEqual(posted.status, "open")
        assert.strictEqual(posted.replies, 0)
        assert.isUndefined(posted.editedAt)
        assert.deepStrictEqual(posted.permissions, { view: true, edit: true, reply: true, delete: true })
        assert.strictEqual(posted.target.space, spaceId)
        assert.deepStrictEqual(posted.target.node, { id: "node-1" })
        assert.strictEqual(posted.target.page?.id, page.id)
        assert.strictEqual(posted.target.page?.title, page.title)
        assert.strictEqual(posted.target.page?.path, page.path)

        const rawGet = yield* raw("GET", `/v1/spaces/${spaceId}/comments/${posted.id}`, { token: alice.token })
        assert.strictEqual((rawGet.body as { body: { markdown: string } }).body.markdown, markdown)

        // Alice (admin) may delete Bob's comment but not edit it.
        const seenByAlice = yield* alice.api.comments.getCommentInSpace({ params: { spaceId, commentId: posted.id }, query: {} })
        assert.deepStrictEqual(seenByAlice.permissions, { view: true, edit: false, reply: true, delete: true })
        const aliceEdit = yield* alice.api.comments.updateCommentInSpace({
          params: { spaceId, commentId: posted.id },
          payload: { body: { markdown: "hijacked" } }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(aliceEdit), 403)

        const aliceComment = yield* alice.api.comments.postCommentInSpace({ params: { spaceId }, payload: { body: { markdown: "Alice's" } } })
        const bobEdit = yield* bob.api.comments.updateCommentInSpace({
          params: { spaceId, commentId: aliceComment.id },
          payload: { body: { markdown: "changed" } }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(bobEdit), 403)
        const bobDelete = yield* bob.api.comments.deleteCommentInSpace({ params: { spaceId, commentId: aliceComment.id } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(bobDelete), 403)
        const bobView = yield* bob.api.comments.getCommentInSpace({ params: { spaceId, commentId: aliceComment.id }, query: {} })
        assert.deepStrictEqual(bobView.permissions, { view: true, edit: false, reply: true, delete: false })

        const edited = yield* bob.api.comments.updateCommentInSpace({
          params: { spaceId, commentId: posted.id },
          payload: { body: { markdown: "Edited <img src=x onerror=alert(1)>" } }
        })
        assert.strictEqual(edited.body.markdown, "Edited <img src=x onerror=alert(1)>")
        assert.isDefined(edited.editedAt)

        const reply = yield* bob.api.comments.postCommentReplyInSpace({
          params: { spaceId, commentId: aliceComment.id },
          payload: { body: { markdown: "A reply <script>" } }
        })
        assert.strictEqual(reply.object, "comment-reply")
        assert.strictEqual(reply.body.markdown, "A reply <script>")
        assert.deepStrictEqual(reply.permissions, { view: true, edit: true, reply: true, delete: true })
        yield* tick
        const replyByAlice = yield* alice.api.comments.postCommentReplyInSpace({
          params: { spaceId, commentId: aliceComment.id },
          payload: { body: { markdown: "Thanks" } }
        })
        const editReply = yield* bob.api.comments.updateCommentReplyInSpace({
          params: { spaceId, commentId: aliceComment.id, commentReplyId: replyByAlice.id },
          payload: { body: { markdown: "no" } }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(editReply), 403)
        const editedReply = yield* bob.api.comments.updateCommentReplyInSpace({
          params: { spaceId, commentId: aliceComment.id, commentReplyId: reply.id },
          payload: { body: { markdown: "A better reply" }, addedReactions: ["👍"] }
        })
        assert.strictEqual(editedReply.body.markdown, "A better reply")
        assert.isDefined(editedReply.editedAt)
        assert.deepStrictEqual(editedReply.reactions.map((r) => [r.emoji, r.count]), [["👍", 1]])

        const withReplies = yield* alice.api.comments.getCommentInSpace({ params: { spaceId, commentId: aliceComment.id }, query: {} })
        assert.strictEqual(withReplies.replies, 2)
        const replies = yield* alice.api.comments.listCommentRepliesInSpace({ params: { spaceId, commentId: aliceComment.id }, query: { limit: 1 } })
        assert.deepStrictEqual(replies.items.map((r) => r.id), [reply.id])
        assert.isDefined(replies.next)
        const rest = yield* alice.api.comments.listCommentRepliesInSpace({
          params: { spaceId, commentId: aliceComment.id },
          query: { page: replies.next!.page }
        })
        assert.deepStrictEqual(rest.items.map((r) => r.id), [replyByAlice.id])
        const got = yield* alice.api.comments.getCommentReplyInSpace({
          params: { spaceId, commentId: aliceComment.id, commentReplyId: reply.id },
          query: {}
        })
        assert.strictEqual(got.body.markdown, "A better reply")

        yield* bob.api.comments.deleteCommentReplyInSpace({ params: { spaceId, commentId: aliceComment.id, commentReplyId: reply.id } })
        const afterReplyDelete = yield* alice.api.comments.getCommentInSpace({ params: { spaceId, commentId: aliceComment.id }, query: {} })
        assert.strictEqual(afterReplyDelete.replies, 1)
      }))

    it.effect("a reader cannot comment, react or resolve; an outsider sees nothing", () =>
      Effect.gen(function*() {
        const { alice, spaceId, members } = yield* spaceWithPages(["read"])
        const reader = member(members.read)
        const outsider = yield* newUser("Outsider")
        const comment = yield* alice.api.comments.postCommentInSpace({ params: { spaceId }, payload: { body: { markdown: "Hi" } } })

        const post = yield* reader.api.comments.postCommentInSpace({ params: { spaceId }, payload: { body: { markdown: "x" } } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(post), 403)
        const replyError = yield* reader.api.comments.postCommentReplyInSpace({
          params: { spaceId, commentId: comment.id },
          payload: { body: { markdown: "x" } }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(replyError), 403)
        const reactError = yield* reader.api.comments.updateCommentInSpace({
          params: { spaceId, commentId: comment.id },
          payload: { addedReactions: ["👍"] }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(reactError), 403)
        const resolveError = yield* reader.api.comments.updateCommentInSpace({
          params: { spaceId, commentId: comment.id },
          payload: { resolved: true }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(resolveError), 403)
        const seen = yield* reader.api.comments.getCommentInSpace({ params: { spaceId, commentId: comment.id }, query: {} })
        assert.deepStrictEqual(seen.permissions, { view: true, edit: false, reply: false, delete: false })

        const listed = yield* outsider.api.comments.listCommentsInSpace({ params: { spaceId }, query: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(listed), 404)
        const got = yield* outsider.api.comments.getCommentInSpace({ params: { spaceId, commentId: comment.id }, query: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(got), 404)
        const posted = yield* outsider.api.comments.postCommentInSpace({ params: { spaceId }, payload: { body: { markdown: "x" } } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(posted), 404)
        // Deleting what the caller cannot see answers 204 and changes nothing.
        yield* outsider.api.comments.deleteCommentInSpace({ params: { spaceId, commentId: comment.id } })
        const still = yield* alice.api.comments.getCommentInSpace({ params: { spaceId, commentId: comment.id }, query: {} })
        assert.strictEqual(still.id, comment.id)
      }))

    it.effect("rejects a page that is not in the space and an empty body, naming the field", () =>
      Effect.gen(function*() {
        const { alice, spaceId } = yield* spaceWithPages()
        const badPage = yield* alice.api.comments.postCommentInSpace({
          params: { spaceId },
          payload: { body: { markdown: "x" }, page: "no-such-page" }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(badPage), 400)
        assert.include(errorMessage(badPage), "page")
        const empty = yield* alice.api.comments.postCommentInSpace({ params: { spaceId }, payload: { body: { markdown: "  " } } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(empty), 400)
        assert.include(errorMessage(empty), "body")
        const missing = yield* raw("POST", `/v1/spaces/${spaceId}/comments`, { token: alice.token, body: JSON.stringify({ page: "x" }) })
        assert.strictEqual(missing.status, 400)
      }))

    it.effect("resolving and reopening move the space's open comments counter; deleting removes replies", () =>
      Effect.gen(function*() {
        const { alice, spaceId, members } = yield* spaceWithPages(["comment"])
        const bob = member(members.comment)
        const counter = alice.api.spaces.getSpaceById({ params: { spaceId }, query: {} }).pipe(Effect.map((space) => space.comments))
        assert.strictEqual(yield* counter, 0)
        const first = yield* bob.api.comments.postCommentInSpace({ params: { spaceId }, payload: { body: { markdown: "one" } } })
        const second = yield* alice.api.comments.postCommentInSpace({ params: { spaceId }, payload: { body: { markdown: "two" } } })
        assert.strictEqual(yield* counter, 2)

        const resolved = yield* bob.api.comments.updateCommentInSpace({ params: { spaceId, commentId: second.id }, payload: { resolved: true } })
        assert.strictEqual(resolved.status, "resolved")
        assert.strictEqual(resolved.resolvedBy?.id, bob.user.id)
        assert.isDefined(resolved.resolvedAt)
        assert.strictEqual(yield* counter, 1)
        // Resolving again changes nothing.
        yield* alice.api.comments.updateCommentInSpace({ params: { spaceId, commentId: second.id }, payload: { resolved: true } })
        assert.strictEqual(yield* counter, 1)
        const reopened = yield* alice.api.comments.updateCommentInSpace({ params: { spaceId, commentId: second.id }, payload: { resolved: false } })
        assert.strictEqual(reopened.status, "open")
        assert.isUndefined(reopened.resolvedBy)
        assert.isUndefined(reopened.resolvedAt)
        assert.strictEqual(yield* counter, 2)

        yield* alice.api.comments.updateCommentInSpace({ params: { spaceId, commentId: second.id }, payload: { resolved: true } })
        assert.strictEqual(yield* counter, 1)
        // Deleting a resolved comment leaves the counter; deleting an open one lowers it.
        yield* alice.api.comments.deleteCommentInSpace({ params: { spaceId, commentId: second.id } })
        assert.strictEqual(yield* counter, 1)

        const reply = yield* alice.api.comments.postCommentReplyInSpace({ params: { spaceId, commentId: first.id }, payload: { body: { markdown: "r" } } })
        assert.strictEqual(yield* counter, 1)
        yield* bob.api.comments.deleteCommentInSpace({ params: { spaceId, commentId: first.id } })
        assert.strictEqual(yield* counter, 0)
        const gone = yield* alice.api.comments.getCommentInSpace({ params: { spaceId, commentId: first.id }, query: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(gone), 404)
        const replyGone = yield* alice.api.comments.getCommentReplyInSpace({
          params: { spaceId, commentId: first.id, commentReplyId: reply.id },
          query: {}
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(replyGone), 404)
        // Deleting again answers 204.
        yield* alice.api.comments.deleteCommentInSpace({ params: { spaceId, commentId: first.id } })
        assert.strictEqual(yield* counter, 0)
      }))

    it.effect("keeps one reaction per user and emoji, with counts and users", () =>
      Effect.gen(function*() {
        const { alice, spaceId, members } = yield* spaceWithPages(["comment"])
        const bob = member(members.comment)
        const comment = yield* alice.api.comments.postCommentInSpace({ params: { spaceId }, payload: { body: { markdown: "React" } } })
        const params = { spaceId, commentId: comment.id }
        yield* bob.api.comments.updateCommentInSpace({ params, payload: { addedReactions: ["👍", "👍"] } })
        yield* tick
        yield* bob.api.comments.updateCommentInSpace({ params, payload: { addedReactions: ["👍", "🎉"] } })
        yield* tick
        const both = yield* alice.api.comments.updateCommentInSpace({ params, payload: { addedReactions: ["👍"] } })
        assert.deepStrictEqual(both.reactions.map((r) => [r.emoji, r.count]), [["👍", 2], ["🎉", 1]])
        assert.deepStrictEqual(both.reactions[0]!.users.map((u) => u.user.id), [bob.user.id, alice.user.id])
        assert.isString(both.reactions[0]!.users[0]!.reactedAt)
        // Removing only removes the caller's own reaction.
        const removed = yield* bob.api.comments.updateCommentInSpace({ params, payload: { removedReactions: ["👍", "🎉"] } })
        assert.deepStrictEqual(removed.reactions.map((r) => [r.emoji, r.count, r.users.map((u) => u.user.id)]), [["👍", 1, [alice.user.id]]])
        assert.isUndefined(removed.editedAt)
      }))

    it.effect("lists with filters and both orders, page by page", () =>
      Effect.gen(function*() {
        const { alice, spaceId, pages, members } = yield* spaceWithPages(["comment"])
        const bob = member(members.comment)
        const page = pages[0]!.id
        const post = (who: typeof alice, markdown: string, target?: string) =>
          Effect.andThen(tick, who.api.comments.postCommentInSpace({
            params: { spaceId },
            payload: target === undefined ? { body: { markdown } } : { body: { markdown }, page: target }
          }))
        const a = yield* post(alice, "a", page)
        const b = yield* post(bob, "b")
        const c = yield* post(bob, "c", page)
        const d = yield* post(alice, "d")
        yield* alice.api.comments.updateCommentInSpace({ params: { spaceId, commentId: b.id }, payload: { resolved: true } })
        const list = (query: Parameters<typeof alice.api.comments.listCommentsInSpace>[0]["query"]) =>
          alice.api.comments.listCommentsInSpace({ params: { spaceId }, query }).pipe(Effect.map((l) => l.items.map((i) => i.body.markdown)))
        assert.deepStrictEqual(yield* list({}), ["d", "c", "b", "a"])
        assert.deepStrictEqual(yield* list({ order: "asc" }), ["a", "b", "c", "d"])
        assert.deepStrictEqual(yield* list({ status: "open" }), ["d", "c", "a"])
        assert.deepStrictEqual(yield* list({ status: "resolved" }), ["b"])
        assert.deepStrictEqual(yield* list({ status: "all", order: "asc", targetPage: page }), ["a", "c"])
        assert.deepStrictEqual(yield* list({ authors: [bob.user.id] }), ["c", "b"])
        assert.deepStrictEqual(yield* list({ authors: bob.user.id, status: "open" }), ["c"])
        const raw2 = yield* raw("GET", `/v1/spaces/${spaceId}/comments?authors=${bob.user.id}&authors=${alice.user.id}&order=asc`, { token: alice.token })
        assert.deepStrictEqual((raw2.body as { items: Array<{ id: string }> }).items.map((i) => i.id), [a.id, b.id, c.id, d.id])

        const first = yield* alice.api.comments.listCommentsInSpace({ params: { spaceId }, query: { limit: 3 } })
        assert.strictEqual(first.count, 3)
        assert.isDefined(first.next)
        const second = yield* alice.api.comments.listCommentsInSpace({ params: { spaceId }, query: { limit: 3, page: first.next!.page } })
        assert.deepStrictEqual(second.items.map((i) => i.id), [a.id])
        assert.isUndefined(second.next)
      }))
  })
}
