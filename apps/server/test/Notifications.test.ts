/**
 * The signed-in user's notifications (Quire's extension) through HTTP, on every backend: each kind
 * reaches the right people and never the actor, mentions only reach members who can view the
 * space, and nobody sees or marks another's notifications.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, type Client, errorCode, errorMessage, newUser, raw, spaceWith } from "./Harness.ts"

const mention = (user: { readonly id: string; readonly displayName: string }) => `@[${user.displayName}](user:${user.id})`

/** The caller's notifications as [kind, actor id] pairs, newest first. */
const kinds = (api: Client, query: { unread?: boolean } = {}) =>
  Effect.map(api.notifications.listNotificationsForAuthenticatedUser({ query }), (list) => list.items.map((n) => [n.kind, n.actor.id]))

const unread = (api: Client) => Effect.map(api.notifications.countNotificationsForAuthenticatedUser(), (count) => count.unread)

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`notifications API on ${backend.name}`, (it) => {
    it.effect("review requests, mentions, replies and merges reach the right people, never the actor", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith(["edit", "review", "comment", "read"])
        const spaceId = setup.space.id
        const [alice, editor, reviewer, commenter] = [setup.alice, setup.members.edit!, setup.members.review!, setup.members.comment!]
        const outsider = yield* newUser("Otto")
        const params = (changeRequestId: string) => ({ spaceId, changeRequestId })

        const cr = yield* editor.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Reword beta" } })
        yield* editor.api.changeRequestContent.updateChangeRequestContent({
          params: params(cr.id),
          payload: { changes: [{ operation: "insert_page", title: "Beta", document: { markdown: "Beta is open." } }] }
        })
        yield* editor.api.changeRequestReviews.requestReviewersForChangeRequest({ params: params(cr.id), payload: { users: [reviewer.user.id] } })

        // (a) The reviewer hears of the request; the editor who asked does not.
        const requested = yield* reviewer.api.notifications.listNotificationsForAuthenticatedUser({ query: {} })
        assert.strictEqual(requested.count, 1)
        const first = requested.items[0]!
        assert.strictEqual(first.object, "notification")
        assert.strictEqual(first.kind, "review_requested")
        assert.strictEqual(first.actor.id, editor.user.id)
        assert.strictEqual(first.actor.displayName, "edit")
        assert.strictEqual(first.read, false)
        assert.strictEqual(first.space, spaceId)
        assert.deepStrictEqual(first.changeRequest, { id: cr.id, number: cr.number, subject: "Reword beta" })
        assert.isUndefined(first.comment)
        assert.strictEqual(first.urls.app, `http://quire.test/s/${spaceId}/~/changes/${cr.number}/~/review`)
        assert.strictEqual(first.urls.location, `http://quire.test/v1/user/notifications/${first.id}`)
        assert.deepStrictEqual(yield* kinds(editor.api), [])

        // (c) A comment mentions the editor, the reader, an outsider and its own author: the two members hear of it.
        const comment = yield* reviewer.api.changeRequestComments.postCommentInChangeRequest({
          params: params(cr.id),
          payload: {
            body: {
              markdown: `${mention(editor.user)} and ${mention(setup.members.read!.user)}: is "open" right? ` +
                `${mention(outsider.user)} ${mention(reviewer.user)}`
            }
          }
        })
        const mentioned = (yield* editor.api.notifications.listNotificationsForAuthenticatedUser({ query: {} })).items
        assert.deepStrictEqual(mentioned.map((n) => [n.kind, n.actor.id, n.comment]), [["mention", reviewer.user.id, comment.id]])
        assert.strictEqual(mentioned[0]!.urls.app, `http://quire.test/s/${spaceId}/~/changes/${cr.number}/~/review`)
        assert.deepStrictEqual(yield* kinds(setup.members.read!.api), [["mention", reviewer.user.id]])
        assert.deepStrictEqual(yield* kinds(outsider.api), [])
        assert.deepStrictEqual(yield* kinds(reviewer.api), [["review_requested", editor.user.id]])

        // (b) Replies reach the comment's author and earlier repliers, not the replier; a mention wins over a reply.
        yield* commenter.api.changeRequestComments.postCommentReplyInChangeRequest({
          params: { ...params(cr.id), commentId: comment.id },
          query: {},
          payload: { body: { markdown: "Yes." } }
        })
        assert.deepStrictEqual(yield* kinds(reviewer.api), [["comment_reply", commenter.user.id], ["review_requested", editor.user.id]])
        assert.deepStrictEqual(yield* kinds(commenter.api), [])
        const reply = yield* editor.api.changeRequestComments.postCommentReplyInChangeRequest({
          params: { ...params(cr.id), commentId: comment.id },
          query: {},
          payload: { body: { markdown: `Thanks ${mention(commenter.user)}` } }
        })
        assert.deepStrictEqual((yield* kinds(reviewer.api))[0], ["comment_reply", editor.user.id])
        const toCommenter = (yield* commenter.api.notifications.listNotificationsForAuthenticatedUser({ query: {} })).items
        assert.deepStrictEqual(toCommenter.map((n) => [n.kind, n.actor.id, n.comment, n.reply]), [["mention", editor.user.id, comment.id, reply.id]])
        assert.deepStrictEqual((yield* kinds(editor.api)).length, 1)

        // (d) The merge reaches the author (and editor), not the admin who merged.
        yield* alice.api.changeRequests.mergeChangeRequest({ params: params(cr.id) })
        assert.deepStrictEqual((yield* kinds(editor.api))[0], ["change_request_merged", alice.user.id])
        assert.deepStrictEqual(yield* kinds(alice.api), [])

        // A comment on the space's page links to the page.
        const main = yield* alice.api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
        const page = main.pages[0]!
        const onPage = yield* alice.api.comments.postCommentInSpace({
          params: { spaceId },
          payload: { body: { markdown: `${mention(reviewer.user)} have a look` }, page: page.id }
        })
        const pageMention = (yield* reviewer.api.notifications.listNotificationsForAuthenticatedUser({ query: {} })).items[0]!
        assert.strictEqual(pageMention.kind, "mention")
        assert.strictEqual(pageMention.comment, onPage.id)
        assert.isUndefined(pageMention.changeRequest)
        assert.strictEqual(pageMention.urls.app, `http://quire.test/s/${spaceId}/beta`)
      }))

    it.effect("the unread count, reading one, reading all, filters, and nobody else's", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith(["edit", "review"])
        const spaceId = setup.space.id
        const [editor, reviewer] = [setup.members.edit!, setup.members.review!]
        const params = (changeRequestId: string) => ({ spaceId, changeRequestId })
        for (const subject of ["One", "Two", "Three"]) {
          const cr = yield* editor.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject } })
          yield* editor.api.changeRequestReviews.requestReviewersForChangeRequest({ params: params(cr.id), payload: { users: [reviewer.user.id] } })
        }
        assert.strictEqual(yield* unread(reviewer.api), 3)
        assert.strictEqual(yield* unread(editor.api), 0)
        const list = yield* reviewer.api.notifications.listNotificationsForAuthenticatedUser({ query: { limit: 2 } })
        assert.deepStrictEqual(list.items.map((n) => n.changeRequest?.subject), ["Three", "Two"])
        const rest = yield* reviewer.api.notifications.listNotificationsForAuthenticatedUser({ query: { limit: 2, page: list.next!.page } })
        assert.deepStrictEqual(rest.items.map((n) => n.changeRequest?.subject), ["One"])
        assert.isUndefined(rest.next)

        const newest = list.items[0]!
        const read = yield* reviewer.api.notifications.updateNotificationForAuthenticatedUser({
          params: { notificationId: newest.id },
          payload: { read: true }
        })
        assert.strictEqual(read.read, true)
        assert.strictEqual(yield* unread(reviewer.api), 2)
        assert.deepStrictEqual((yield* reviewer.api.notifications.listNotificationsForAuthenticatedUser({ query: { unread: true } })).items.map((n) => n.changeRequest?.subject), ["Two", "One"])
        assert.deepStrictEqual((yield* reviewer.api.notifications.listNotificationsForAuthenticatedUser({ query: { unread: false } })).items.map((n) => n.id), [newest.id])

        // Someone else's notification does not exist for the caller.
        const foreign = yield* Effect.flip(editor.api.notifications.updateNotificationForAuthenticatedUser({
          params: { notificationId: newest.id },
          payload: { read: false }
        }))
        assert.strictEqual(errorCode(foreign), 404)
        assert.deepStrictEqual(yield* kinds(editor.api), [])
        assert.strictEqual(errorCode(yield* Effect.flip(reviewer.api.notifications.updateNotificationForAuthenticatedUser({
          params: { notificationId: "nope" },
          payload: { read: true }
        }))), 404)

        const unreadAgain = yield* reviewer.api.notifications.updateNotificationForAuthenticatedUser({ params: { notificationId: newest.id }, payload: { read: false } })
        assert.strictEqual(unreadAgain.read, false)
        assert.deepStrictEqual(yield* reviewer.api.notifications.markAllNotificationsReadForAuthenticatedUser(), { unread: 0 })
        assert.strictEqual(yield* unread(reviewer.api), 0)
        assert.isTrue((yield* reviewer.api.notifications.listNotificationsForAuthenticatedUser({ query: {} })).items.every((n) => n.read))

        // A space the reviewer can no longer open (in the trash) leaves the list and the count.
        const other = yield* setup.alice.api.spaces.createSpace({ params: { organizationId: setup.organizationId }, payload: { title: "Other" } })
        const elsewhere = yield* editor.api.changeRequests.createChangeRequest({ params: { spaceId: other.id }, payload: { subject: "Elsewhere" } })
        yield* editor.api.changeRequestReviews.requestReviewersForChangeRequest({
          params: { spaceId: other.id, changeRequestId: elsewhere.id },
          payload: { users: [reviewer.user.id] }
        })
        assert.strictEqual(yield* unread(reviewer.api), 1)
        yield* setup.alice.api.spaces.deleteSpaceById({ params: { spaceId: other.id } })
        assert.strictEqual(yield* unread(reviewer.api), 0)
        assert.strictEqual((yield* reviewer.api.notifications.listNotificationsForAuthenticatedUser({ query: {} })).count, 3)
      }))

    it.effect("the OpenAPI document has the six operations, each saying it is Quire's extension", () =>
      Effect.gen(function*() {
        const document = (yield* raw("GET", "/openapi.json")).body as {
          readonly paths: Record<string, Record<string, { readonly operationId: string; readonly description: string }>>
        }
        const operations = [
          ["/v1/user/notifications", "get", "listNotificationsForAuthenticatedUser"],
          ["/v1/user/notifications/count", "get", "countNotificationsForAuthenticatedUser"],
          ["/v1/user/notifications/{notificationId}", "patch", "updateNotificationForAuthenticatedUser"],
          ["/v1/user/notifications/read", "post", "markAllNotificationsReadForAuthenticatedUser"],
          ["/v1/user/notification-settings", "get", "getNotificationSettingsForAuthenticatedUser"],
          ["/v1/user/notification-settings", "patch", "updateNotificationSettingsForAuthenticatedUser"]
        ] as const
        for (const [path, method, operationId] of operations) {
          const operation = document.paths[path]?.[method]
          // As every group's: `<group>.<endpoint name>`.
          assert.strictEqual(operation?.operationId, operationId)
          assert.include(operation?.description, "Quire's extension")
        }
      }))

    it.effect("bad input is a 400 naming the field; no token is a 401", () =>
      Effect.gen(function*() {
        const user = yield* newUser("Val")
        const badRead = yield* raw("PATCH", "/v1/user/notifications/n1", { token: user.token, body: JSON.stringify({ read: "yes" }) })
        assert.strictEqual(badRead.status, 400)
        assert.include(errorMessage(badRead.body), "read")
        const missing = yield* raw("PATCH", "/v1/user/notifications/n1", { token: user.token, body: "{}" })
        assert.strictEqual(missing.status, 400)
        assert.include(errorMessage(missing.body), "read")
        const badUnread = yield* raw("GET", "/v1/user/notifications?unread=maybe", { token: user.token })
        assert.strictEqual(badUnread.status, 400)
        assert.include(errorMessage(badUnread.body), "unread")
        const badLimit = yield* raw("GET", "/v1/user/notifications?limit=0", { token: user.token })
        assert.strictEqual(badLimit.status, 400)
        assert.include(errorMessage(badLimit.body), "limit")
        const badPage = yield* raw("GET", "/v1/user/notifications?page=garbage", { token: user.token })
        assert.strictEqual(badPage.status, 400)
        assert.strictEqual((yield* raw("GET", "/v1/user/notifications/count")).status, 401)
      }))
  })
}
