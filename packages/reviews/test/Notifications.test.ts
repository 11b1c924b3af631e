/**
 * Notifications written by the comment use cases over the memory adapters: mentions reach members
 * who can view the space (not guests without access, not other organizations' users, not the
 * author); an edit notifies only whom it newly mentions; a refused reply notifies nobody; nobody
 * reads or marks another's notifications.
 */
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { as, errorTag } from "@quire/testkit"
import { Comments } from "../src/Comments.ts"
import { mentionsOf } from "../src/domain/Notification.ts"
import { Notifications } from "../src/Notifications.ts"
import { layer, spaceWithPage } from "./UseCases.ts"

const at = (userId: string) => `@[${userId} name](user:${userId})`

/** What `user` was notified of: [kind, actor] pairs, newest first. */
const kindsOf = (user: string) =>
  Effect.flatMap(Effect.service(Notifications), (n) => n.list({})).pipe(
    as(user),
    Effect.map((page) => page.items.map((v) => [v.notification.kind, v.notification.actorId]))
  )

it("mentionsOf reads the comment box's mentions only, each once", () => {
  assert.deepStrictEqual(mentionsOf(`${at("a")} ${at("b")} ${at("a")} @b [x](user:c) @[y](users:d) @[z](user:bad id)`), ["a", "b"])
})

it.layer(layer, { timeout: "60 seconds" })("Notifications of comments", (it) => {
  it.effect("mentions reach members who can view the space, once; edits notify only whom they add; refusals notify nobody", () =>
    Effect.gen(function*() {
      const comments = yield* Comments
      const { space, pageId } = yield* spaceWithPage()
      const scope = { spaceId: space.id, changeRequestId: null }
      const posted = yield* comments.post(scope, {
        markdown: `${at("rita")} ${at("rhea")} ${at("guest")} ${at("otto")} ${at("outsider")} ${at("carl")}`,
        page: pageId
      }).pipe(as("carl"))
      assert.deepStrictEqual(yield* kindsOf("rita"), [["mention", "carl"]])
      assert.deepStrictEqual(yield* kindsOf("rhea"), [["mention", "carl"]])
      for (const nobody of ["guest", "otto", "outsider", "carl", "erin"]) assert.deepStrictEqual(yield* kindsOf(nobody), [], nobody)

      const listed = (yield* Effect.flatMap(Effect.service(Notifications), (n) => n.list({})).pipe(as("rita"))).items[0]!
      assert.deepStrictEqual([listed.notification.commentId, listed.notification.pageId, listed.pagePath, listed.changeRequest], [posted.comment.id, pageId, "page", null])

      yield* comments.update(scope, posted.comment.id, { markdown: `${at("rita")} and now ${at("erin")}` }).pipe(as("carl"))
      assert.deepStrictEqual(yield* kindsOf("erin"), [["mention", "carl"]])
      assert.strictEqual((yield* kindsOf("rita")).length, 1)

      // A reader may not reply: the refused reply notifies nobody.
      assert.strictEqual(yield* errorTag(comments.postReply(scope, posted.comment.id, "me too").pipe(as("rhea"))), "Forbidden")
      assert.deepStrictEqual(yield* kindsOf("carl"), [])
      yield* comments.postReply(scope, posted.comment.id, `thanks ${at("carl")}`).pipe(as("rita"))
      assert.deepStrictEqual(yield* kindsOf("carl"), [["mention", "rita"]])

      // Nobody marks another's notification; its owner does.
      const notifications = yield* Notifications
      assert.strictEqual(yield* errorTag(notifications.markRead(listed.notification.id, true).pipe(as("erin"))), "NotFound")
      assert.strictEqual(yield* notifications.unreadCount.pipe(as("rita")), 1)
      yield* notifications.markRead(listed.notification.id, true).pipe(as("rita"))
      assert.strictEqual(yield* notifications.unreadCount.pipe(as("rita")), 0)
    }))
})
