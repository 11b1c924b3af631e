/** Comments on change requests and their replies through the real router and the typed client, on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, errorCode, errorMessage, newUser, spaceWith } from "./Harness.ts"

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`change request comments API on ${backend.name}`, (it) => {
    it.effect("comments on a change request by number and id; listings keep to it; its count follows open comments, the space's does not", () =>
      Effect.gen(function*() {
        const { alice, space, members } = yield* spaceWith(["comment"])
        const bob = members.comment!
        const spaceId = space.id
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "One" } })
        const other = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Two" } })
        const api = bob.api.changeRequestComments
        const byNumber = { spaceId, changeRequestId: String(cr.number) }
        const byId = { spaceId, changeRequestId: cr.id }
        const crCount = Effect.map(
          alice.api.changeRequests.getChangeRequestById({ params: byId }),
          (found) => found.comments
        )
        const spaceCount = Effect.map(alice.api.spaces.getSpaceById({ params: { spaceId }, query: {} }), (s) => s.comments)

        const first = yield* api.postCommentInChangeRequest({ params: byNumber, payload: { body: { markdown: "By number" } } })
        assert.strictEqual(first.object, "comment")
        assert.strictEqual(first.target.changeRequest, cr.id)
        assert.strictEqual(first.target.revision, cr.revision)
        assert.strictEqual(first.urls.location.endsWith(`/v1/spaces/${spaceId}/change-requests/${cr.id}/comments/${first.id}`), true)
        const second = yield* api.postCommentInChangeRequest({ params: byId, payload: { body: { markdown: "By id" } } })
        yield* bob.api.comments.postCommentInSpace({ params: { spaceId }, payload: { body: { markdown: "On the space" } } })
        const elsewhere = yield* api.postCommentInChangeRequest({
          params: { spaceId, changeRequestId: other.id },
          payload: { body: { markdown: "Other change request" } }
        })

        const listed = yield* api.listCommentsInChangeRequest({ params: byNumber, query: { order: "asc" } })
        assert.deepStrictEqual(listed.items.map((c) => c.id).toSorted(), [first.id, second.id].toSorted())
        const otherListed = yield* api.listCommentsInChangeRequest({ params: { spaceId, changeRequestId: String(other.number) }, query: {} })
        assert.deepStrictEqual(otherListed.items.map((c) => c.id), [elsewhere.id])
        const spaceListed = yield* bob.api.comments.listCommentsInSpace({ params: { spaceId }, query: {} })
        assert.deepStrictEqual(spaceListed.items.map((c) => c.body.markdown), ["On the space"])
        // A change request's comment is not reachable through the space or another change request.
        const throughSpace = yield* bob.api.comments.getCommentInSpace({ params: { spaceId, commentId: first.id }, query: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(throughSpace), 404)
        const throughOther = yield* api.getCommentInChangeRequest({
          params: { spaceId, changeRequestId: other.id, commentId: first.id },
          query: {}
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(throughOther), 404)

        assert.strictEqual(yield* crCount, 2)
        assert.strictEqual(yield* spaceCount, 1)
        const resolved = yield* api.updateCommentInChangeRequest({ params: { ...byId, commentId: first.id }, payload: { resolved: true } })
        assert.strictEqual(resolved.status, "resolved")
        assert.strictEqual(yield* crCount, 1)
        const open = yield* api.listCommentsInChangeRequest({ params: byId, query: { status: "open" } })
        assert.deepStrictEqual(open.items.map((c) => c.id), [second.id])
        yield* api.updateCommentInChangeRequest({ params: { ...byNumber, commentId: first.id }, payload: { resolved: false } })
        assert.strictEqual(yield* crCount, 2)
        yield* api.deleteCommentInChangeRequest({ params: { ...byNumber, commentId: second.id } })
        assert.strictEqual(yield* crCount, 1)
        // Deleting again is a no-op.
        yield* api.deleteCommentInChangeRequest({ params: { ...byNumber, commentId: second.id } })
        assert.strictEqual(yield* crCount, 1)
        yield* api.updateCommentInChangeRequest({ params: { ...byNumber, commentId: first.id }, payload: { resolved: true } })
        yield* api.deleteCommentInChangeRequest({ params: { ...byNumber, commentId: first.id } })
        assert.strictEqual(yield* crCount, 0)
        assert.strictEqual(yield* spaceCount, 1)
        const otherCount = yield* alice.api.changeRequests.getChangeRequestById({ params: { spaceId, changeRequestId: other.id } })
        assert.strictEqual(otherCount.comments, 1)
        const listedCrs = yield* alice.api.changeRequests.listChangeRequestsForSpace({ params: { spaceId }, query: { status: "draft" } })
        assert.deepStrictEqual(listedCrs.items.map((c) => [c.number, c.comments]), [[other.number, 1], [cr.number, 0]])
      }))

    it.effect("replies on a change request's comment; only the author edits; a reader views but does not post; an outsider sees nothing", () =>
      Effect.gen(function*() {
        const { alice, space, members } = yield* spaceWith(["comment", "read"])
        const bob = members.comment!
        const reader = members.read!
        const spaceId = space.id
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Replies" } })
        const params = { spaceId, changeRequestId: String(cr.number) }
        const comment = yield* alice.api.changeRequestComments.postCommentInChangeRequest({ params, payload: { body: { markdown: "Look" } } })
        const commentParams = { ...params, commentId: comment.id }

        const reply = yield* bob.api.changeRequestComments.postCommentReplyInChangeRequest({
          params: commentParams,
          query: {},
          payload: { body: { markdown: "Looked" } }
        })
        assert.strictEqual(reply.object, "comment-reply")
        assert.strictEqual(reply.urls.location.endsWith(`/change-requests/${cr.id}/comments/${comment.id}/replies/${reply.id}`), true)
        const got = yield* reader.api.changeRequestComments.getCommentReplyInChangeRequest({
          params: { ...commentParams, commentReplyId: reply.id },
          query: {}
        })
        assert.strictEqual(got.body.markdown, "Looked")
        assert.deepStrictEqual(got.permissions, { view: true, edit: false, reply: false, delete: false })
        const replies = yield* reader.api.changeRequestComments.listCommentRepliesInChangeRequest({ params: commentParams, query: {} })
        assert.deepStrictEqual(replies.items.map((r) => r.id), [reply.id])
        const withReply = yield* reader.api.changeRequestComments.getCommentInChangeRequest({ params: commentParams, query: {} })
        assert.strictEqual(withReply.replies, 1)

        const edited = yield* bob.api.changeRequestComments.updateCommentReplyInChangeRequest({
          params: { ...commentParams, commentReplyId: reply.id },
          payload: { body: { markdown: "Looked twice" } }
        })
        assert.strictEqual(edited.body.markdown, "Looked twice")
        const aliceEdit = yield* alice.api.changeRequestComments.updateCommentReplyInChangeRequest({
          params: { ...commentParams, commentReplyId: reply.id },
          payload: { body: { markdown: "Mine now" } }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(aliceEdit), 403)
        const bobEdit = yield* bob.api.changeRequestComments.updateCommentInChangeRequest({
          params: commentParams,
          payload: { body: { markdown: "Mine now" } }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(bobEdit), 403)

        const readerPost = yield* reader.api.changeRequestComments.postCommentInChangeRequest({
          params,
          payload: { body: { markdown: "Can I?" } }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(readerPost), 403)
        const readerReply = yield* reader.api.changeRequestComments.postCommentReplyInChangeRequest({
          params: commentParams,
          query: {},
          payload: { body: { markdown: "Can I?" } }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(readerReply), 403)
        const readerList = yield* reader.api.changeRequestComments.listCommentsInChangeRequest({ params, query: {} })
        assert.deepStrictEqual(readerList.items.map((c) => c.id), [comment.id])

        const outsider = yield* newUser("Mallory")
        const outsiderList = yield* outsider.api.changeRequestComments.listCommentsInChangeRequest({ params, query: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(outsiderList), 404)
        const outsiderPost = yield* outsider.api.changeRequestComments.postCommentInChangeRequest({
          params,
          payload: { body: { markdown: "Hi" } }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(outsiderPost), 404)
        const outsiderGet = yield* outsider.api.changeRequestComments.getCommentInChangeRequest({ params: commentParams, query: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(outsiderGet), 404)
        const missing = yield* alice.api.changeRequestComments.listCommentsInChangeRequest({
          params: { spaceId, changeRequestId: "999" },
          query: {}
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(missing), 404)

        yield* bob.api.changeRequestComments.deleteCommentReplyInChangeRequest({ params: { ...commentParams, commentReplyId: reply.id } })
        const afterDelete = yield* alice.api.changeRequestComments.getCommentInChangeRequest({ params: commentParams, query: {} })
        assert.strictEqual(afterDelete.replies, 0)
      }))

    it.effect("a page target comes from the change request's revision, not from main", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "New page" } })
        const params = { spaceId, changeRequestId: cr.id }
        yield* alice.api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: { changes: [{ operation: "insert_page", document: { markdown: "# Draft page\n\nNew." } }] }
        })
        const revision = yield* alice.api.changeRequestContent.getRevisionOfChangeRequestById({ params, query: {} })
        const page = revision.pages[0]!
        const main = yield* alice.api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
        assert.isFalse(main.pages.some((p) => p.id === page.id))

        const onMain = yield* alice.api.comments.postCommentInSpace({
          params: { spaceId },
          payload: { body: { markdown: "Here?" }, page: page.id }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(onMain), 400)

        const posted = yield* alice.api.changeRequestComments.postCommentInChangeRequest({
          params,
          payload: { body: { markdown: "About this page" }, page: page.id }
        })
        assert.strictEqual(posted.target.page?.id, page.id)
        assert.strictEqual(posted.target.page?.title, "Draft page")
        assert.strictEqual(posted.target.page?.outdated, false)
        assert.strictEqual(posted.target.revision, revision.id)
        const byPage = yield* alice.api.changeRequestComments.listCommentsInChangeRequest({ params, query: { targetPage: page.id } })
        assert.deepStrictEqual(byPage.items.map((c) => c.id), [posted.id])

        const unknown = yield* alice.api.changeRequestComments.postCommentInChangeRequest({
          params,
          payload: { body: { markdown: "Nowhere" }, page: "no-such-page" }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(unknown), 400)
        assert.include(errorMessage(unknown), "change request's current revision")
      }))

    it.effect("a member with the comment role comments on a change request but cannot edit its content", () =>
      Effect.gen(function*() {
        const { alice, space, members } = yield* spaceWith(["comment"])
        const bob = members.comment!
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Review me" } })
        const params = { spaceId: space.id, changeRequestId: cr.id }
        const posted = yield* bob.api.changeRequestComments.postCommentInChangeRequest({ params, payload: { body: { markdown: "Looks good" } } })
        assert.strictEqual(posted.body.markdown, "Looks good")
        const refused = yield* bob.api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: { changes: [{ operation: "insert_page", title: "Mine", document: { markdown: "Text." } }] }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(refused), 403)
        assert.strictEqual((yield* alice.api.changeRequests.getChangeRequestById({ params })).revision, cr.revision)
      }))
  })
}
