/**
 * Notifications by email, through a real SMTP server this test starts (smtp-server) and the
 * server's nodemailer: each kind reaches the person it concerns (never the actor), with a link to
 * where the app shows it and names escaped in the HTML; a kind a person turned off in their
 * notification settings is not mailed to them, while the in-app notification is still written.
 */
import { assert, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { AccountMail } from "@quire/identity"
import { Services } from "@quire/platform"
import * as SmtpInbox from "@quire/testkit/SmtpInbox"
import { type Client, publicUrl, serverOn, spaceWith, withSettings } from "./Harness.ts"

class Inbox extends Context.Service<Inbox, SmtpInbox.SmtpInbox>()("test/Inbox") {}

/** The server in memory, mailing through the inbox's SMTP server (as main.ts provides its mail: to the use cases and the jobs). */
const server = Layer.unwrap(Effect.map(SmtpInbox.scoped, (inbox) =>
  withSettings(
    serverOn(Services.layerMemory, "memory").pipe(Layer.provide(AccountMail.layerConfig(publicUrl))),
    { QUIRE_SMTP_URL: inbox.url, QUIRE_SMTP_FROM: "Quire <quire@quire.test>" }
  ).pipe(Layer.merge(Layer.succeed(Inbox, inbox)))))

const mention = (user: { readonly id: string; readonly displayName: string }) => `@[${user.displayName}](user:${user.id})`

/** The messages to `to` so far, as their decoded raw text. */
const mailTo = (inbox: SmtpInbox.SmtpInbox, to: string) =>
  inbox.received.filter((message) => message.to.includes(to)).map((message) => SmtpInbox.textOf(message.raw))

/** Waits for a message to `to` whose text says `words`; answers its decoded text. */
const waitForMail = (inbox: SmtpInbox.SmtpInbox, to: string, words: string) =>
  Effect.promise(() =>
    inbox.waitFor((message) => message.to.includes(to) && SmtpInbox.textOf(message.raw).includes(words), {
      describe: () => `a message to ${to} saying ${words}; got ${JSON.stringify(mailTo(inbox, to))}`
    })
  ).pipe(Effect.map((message) => SmtpInbox.textOf(message.raw)))

const kindsOf = (api: Client) =>
  Effect.map(api.notifications.listNotificationsForAuthenticatedUser({ query: {} }), (list) => list.items.map((n) => n.kind))

layer(server, { timeout: 120_000, excludeTestServices: true })("notification emails", (it) => {
  it.effect("mail each kind to the person it concerns, with the link the app opens", () =>
    Effect.gen(function*() {
      const inbox = yield* Inbox
      const setup = yield* spaceWith(["edit", "review", "comment"])
      const spaceId = setup.space.id
      const [alice, editor, reviewer, commenter] = [setup.alice, setup.members.edit!, setup.members.review!, setup.members.comment!]
      const params = (changeRequestId: string) => ({ spaceId, changeRequestId })
      const cr = yield* editor.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Fix <b>bold</b> & more" } })
      yield* editor.api.changeRequestContent.updateChangeRequestContent({
        params: params(cr.id),
        payload: { changes: [{ operation: "insert_page", title: "Beta", document: { markdown: "Beta is open." } }] }
      })

      // Review requested: to the reviewer, linking to the review; the name is escaped in the HTML.
      yield* editor.api.changeRequestReviews.requestReviewersForChangeRequest({ params: params(cr.id), payload: { users: [reviewer.user.id] } })
      const review = yield* waitForMail(inbox, reviewer.email, "asked you to review")
      const reviewPath = `${publicUrl}/s/${spaceId}/~/changes/${cr.number}/~/review`
      assert.include(review, `edit asked you to review change request #${cr.number} “Fix <b>bold</b> & more” in the space “Docs”.`)
      assert.include(review, reviewPath)
      assert.include(review, "Fix &lt;b&gt;bold&lt;/b&gt; &amp; more")
      assert.notInclude(review.slice(review.indexOf("<html")), "<b>bold</b>")
      assert.include(review, `${publicUrl}/settings/notifications`)

      // A mention: to the one mentioned.
      const comment = yield* reviewer.api.changeRequestComments.postCommentInChangeRequest({
        params: params(cr.id),
        payload: { body: { markdown: `${mention(editor.user)}: is "open" right?` } }
      })
      assert.include(yield* waitForMail(inbox, editor.email, "mentioned you in a comment"), reviewPath)

      // A reply: to the comment's author.
      yield* commenter.api.changeRequestComments.postCommentReplyInChangeRequest({
        params: { ...params(cr.id), commentId: comment.id },
        query: {},
        payload: { body: { markdown: "Yes." } }
      })
      yield* waitForMail(inbox, reviewer.email, "comment replied in a comment thread you took part in")

      // The merge: to the change request's author, not to the admin who merged.
      yield* alice.api.changeRequests.mergeChangeRequest({ params: params(cr.id) })
      yield* waitForMail(inbox, editor.email, "merged change request")
      // Nobody is mailed about what they did themselves (the commenter had only their invitation).
      assert.deepStrictEqual(mailTo(inbox, alice.email), [])
      assert.deepStrictEqual(mailTo(inbox, commenter.email).filter((text) => !text.includes("Subject: You are invited")), [])
    }))

  it.effect("a kind turned off in the settings is not mailed, and stays in the app", () =>
    Effect.gen(function*() {
      const inbox = yield* Inbox
      const setup = yield* spaceWith(["edit", "review"])
      const spaceId = setup.space.id
      const [editor, reviewer] = [setup.members.edit!, setup.members.review!]
      const everything = { review_requested: true, comment_reply: true, mention: true, change_request_merged: true }
      assert.deepStrictEqual(yield* reviewer.api.notifications.getNotificationSettingsForAuthenticatedUser(), { object: "notification-settings", email: everything })
      const changed = yield* reviewer.api.notifications.updateNotificationSettingsForAuthenticatedUser({ payload: { email: { review_requested: false } } })
      assert.deepStrictEqual(changed.email, { ...everything, review_requested: false })
      // Another person's settings are their own.
      assert.deepStrictEqual((yield* editor.api.notifications.getNotificationSettingsForAuthenticatedUser()).email, everything)

      const cr = yield* editor.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Quiet" } })
      yield* editor.api.changeRequestReviews.requestReviewersForChangeRequest({
        params: { spaceId, changeRequestId: cr.id },
        payload: { users: [reviewer.user.id] }
      })
      // A mention after it is mailed: once it arrives, the review request's job has run too.
      yield* editor.api.changeRequestComments.postCommentInChangeRequest({
        params: { spaceId, changeRequestId: cr.id },
        payload: { body: { markdown: `${mention(reviewer.user)} when you can` } }
      })
      yield* waitForMail(inbox, reviewer.email, "mentioned you")
      assert.deepStrictEqual(mailTo(inbox, reviewer.email).filter((text) => text.includes("asked you to review")), [])
      assert.deepStrictEqual(yield* kindsOf(reviewer.api), ["mention", "review_requested"])
    }))
})
