/**
 * The comment use cases over the memory adapters: who may post, edit, resolve, react and delete;
 * bodies kept exactly; page targets from the scope's current revision; replies; the open-comment
 * counters of the space and of a change request; reactions one per user and emoji; listings.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { as, errorMessage, errorTag } from "@quire/testkit"
import { ChangeRequests } from "../src/ChangeRequests.ts"
import { Comments, type CommentScope } from "../src/Comments.ts"
import { counters, insert, layer, mergeIntoMain, newChangeRequest, newSpace, spaceWithPage } from "./UseCases.ts"

const spaceScope = (spaceId: string): CommentScope => ({ spaceId, changeRequestId: null })

/** The bodies of a listing's comments, in its order. */
const bodies = (page: { readonly items: ReadonlyArray<{ readonly comment: { readonly markdown: string } }> }) => page.items.map((c) => c.comment.markdown)

it.layer(layer, { timeout: "60 seconds" })("Comments", (it) => {
  describe("comments and replies", () => {
    it.effect("a commenter comments and replies; bodies come back exactly; only the author edits, the author or an admin deletes", () =>
      Effect.gen(function*() {
        const comments = yield* Comments
        const { space, pageId } = yield* spaceWithPage()
        const scope = spaceScope(space.id)
        const markdown = "<script>alert('x')</script>\n\n**Bold** & <b>tags</b> `code`  \n"
        const posted = yield* comments.post(scope, { markdown, page: pageId, node: "node-1" }).pipe(as("carl"))
        assert.deepStrictEqual(
          [posted.comment.markdown, posted.comment.authorId, posted.comment.status, posted.comment.replies, posted.comment.editedAt],
          [markdown, "carl", "open", 0, null]
        )
        assert.deepStrictEqual(posted.comment.target, { pageId, nodeId: "node-1", tableCell: null })
        assert.deepStrictEqual([posted.page?.page?.title, posted.page?.path, posted.page?.outdated], ["Page", "page", false])
        assert.deepStrictEqual(posted.permissions, { view: true, edit: true, reply: true, delete: true })

        // The admin deletes carl's comment but does not edit it.
        const seenByAlice = yield* comments.get(scope, posted.comment.id).pipe(as("alice"))
        assert.deepStrictEqual(seenByAlice.permissions, { view: true, edit: false, reply: true, delete: true })
        assert.strictEqual(yield* errorTag(comments.update(scope, posted.comment.id, { markdown: "hijacked" }).pipe(as("alice"))), "Forbidden")
        const alices = yield* comments.post(scope, { markdown: "Alice's" }).pipe(as("alice"))
        assert.strictEqual(yield* errorTag(comments.update(scope, alices.comment.id, { markdown: "changed" }).pipe(as("carl"))), "Forbidden")
        assert.strictEqual(yield* errorTag(comments.remove(scope, alices.comment.id).pipe(as("carl"))), "Forbidden")
        assert.deepStrictEqual((yield* comments.get(scope, alices.comment.id).pipe(as("carl"))).permissions, {
          view: true,
          edit: false,
          reply: true,
          delete: false
        })
        yield* TestClock.adjust("1 minute")
        const edited = yield* comments.update(scope, posted.comment.id, { markdown: "Edited <img src=x onerror=alert(1)>" }).pipe(as("carl"))
        assert.strictEqual(edited.comment.markdown, "Edited <img src=x onerror=alert(1)>")
        assert.isNotNull(edited.comment.editedAt)

        const reply = yield* comments.postReply(scope, alices.comment.id, "A reply <script>").pipe(as("carl"))
        assert.deepStrictEqual([reply.reply.markdown, reply.comment.replies], ["A reply <script>", 1])
        assert.deepStrictEqual(reply.permissions, { view: true, edit: true, reply: true, delete: true })
        yield* TestClock.adjust("1 second")
        const thanks = yield* comments.postReply(scope, alices.comment.id, "Thanks").pipe(as("alice"))
        assert.strictEqual(yield* errorTag(comments.updateReply(scope, alices.comment.id, thanks.reply.id, { markdown: "no" }).pipe(as("carl"))), "Forbidden")
        const better = yield* comments.updateReply(scope, alices.comment.id, reply.reply.id, { markdown: "A better reply", addedReactions: ["👍"] }).pipe(
          as("carl")
        )
        assert.strictEqual(better.reply.markdown, "A better reply")
        assert.isNotNull(better.reply.editedAt)
        assert.deepStrictEqual(better.reply.reactions.map((r) => [r.emoji, r.userId]), [["👍", "carl"]])

        assert.strictEqual((yield* comments.get(scope, alices.comment.id).pipe(as("alice"))).comment.replies, 2)
        const first = yield* comments.listReplies(scope, alices.comment.id, { limit: 1 }).pipe(as("alice"))
        assert.deepStrictEqual(first.items.map((r) => r.reply.id), [reply.reply.id])
        const rest = yield* comments.listReplies(scope, alices.comment.id, { page: first.next! }).pipe(as("alice"))
        assert.deepStrictEqual(rest.items.map((r) => r.reply.id), [thanks.reply.id])
        assert.strictEqual((yield* comments.getReply(scope, alices.comment.id, reply.reply.id).pipe(as("rhea"))).reply.markdown, "A better reply")

        yield* comments.removeReply(scope, alices.comment.id, reply.reply.id).pipe(as("carl"))
        assert.strictEqual((yield* comments.get(scope, alices.comment.id).pipe(as("alice"))).comment.replies, 1)
        assert.strictEqual(yield* errorTag(comments.getReply(scope, alices.comment.id, reply.reply.id).pipe(as("alice"))), "NotFound")
        // Deleting what is gone is quiet.
        yield* comments.removeReply(scope, alices.comment.id, reply.reply.id).pipe(as("carl"))
      }))

    it.effect("a reader reads but cannot comment, reply, react or resolve; an outsider sees nothing", () =>
      Effect.gen(function*() {
        const comments = yield* Comments
        const space = yield* newSpace()
        const scope = spaceScope(space.id)
        const posted = yield* comments.post(scope, { markdown: "Hello" }).pipe(as("alice"))
        const id = posted.comment.id
        assert.deepStrictEqual((yield* comments.get(scope, id).pipe(as("rhea"))).permissions, { view: true, edit: false, reply: false, delete: false })
        assert.strictEqual(yield* errorTag(comments.post(scope, { markdown: "Me too" }).pipe(as("rhea"))), "Forbidden")
        assert.strictEqual(yield* errorTag(comments.postReply(scope, id, "Me too").pipe(as("rhea"))), "Forbidden")
        assert.strictEqual(yield* errorTag(comments.update(scope, id, { addedReactions: ["👍"] }).pipe(as("rhea"))), "Forbidden")
        assert.strictEqual(yield* errorTag(comments.update(scope, id, { resolved: true }).pipe(as("rhea"))), "Forbidden")
        for (const user of ["outsider", "otto"]) {
          assert.strictEqual(yield* errorTag(comments.get(scope, id).pipe(as(user))), "NotFound")
          assert.strictEqual(yield* errorTag(comments.list(scope, {}).pipe(as(user))), "NotFound")
          // Deleting what one cannot see answers as if it were not there.
          yield* comments.remove(scope, id).pipe(as(user))
        }
        assert.strictEqual((yield* comments.get(scope, id).pipe(as("alice"))).comment.markdown, "Hello")
        // A comment is found only in its own scope.
        const other = yield* newSpace("Other")
        assert.strictEqual(yield* errorTag(comments.get(spaceScope(other.id), id).pipe(as("alice"))), "NotFound")
      }))

    it.effect("refuses a page that is not in the current revision, an empty or too long body and bad reactions, naming the field", () =>
      Effect.gen(function*() {
        const comments = yield* Comments
        const space = yield* newSpace()
        const scope = spaceScope(space.id)
        assert.strictEqual(
          yield* errorMessage(comments.post(scope, { markdown: "On nothing", page: "nope" }).pipe(as("alice"))),
          "page: is not a page of the space's current revision"
        )
        assert.strictEqual(yield* errorMessage(comments.post(scope, { markdown: " \n" }).pipe(as("alice"))), "body: must not be empty")
        assert.strictEqual(yield* errorMessage(comments.post(scope, { markdown: "x".repeat(100_001) }).pipe(as("alice"))), "body: must be at most 100000 characters")
        const posted = yield* comments.post(scope, { markdown: "Fine" }).pipe(as("alice"))
        assert.strictEqual(
          yield* errorMessage(comments.update(scope, posted.comment.id, { addedReactions: ["x".repeat(51)] }).pipe(as("alice"))),
          "addedReactions: each reaction must be an emoji of 1 to 50 characters"
        )
        assert.strictEqual(yield* errorMessage(comments.postReply(scope, posted.comment.id, "").pipe(as("alice"))), "body: must not be empty")
        assert.deepStrictEqual((yield* comments.list(scope, {}).pipe(as("alice"))).items.map((c) => c.comment.markdown), ["Fine"])
      }))
  })

  describe("counters, reactions and listings", () => {
    it.effect("resolving and reopening move the space's open comments counter; deleting an open one lowers it and takes its replies", () =>
      Effect.gen(function*() {
        const comments = yield* Comments
        const space = yield* newSpace()
        const scope = spaceScope(space.id)
        const open = () => Effect.map(counters(space.id), (c) => c[3])
        const a = yield* comments.post(scope, { markdown: "A" }).pipe(as("carl"))
        const b = yield* comments.post(scope, { markdown: "B" }).pipe(as("carl"))
        assert.strictEqual(yield* open(), 2)
        const resolved = yield* comments.update(scope, a.comment.id, { resolved: true }).pipe(as("carl"))
        assert.deepStrictEqual([resolved.comment.status, resolved.comment.resolvedBy], ["resolved", "carl"])
        assert.strictEqual(yield* open(), 1)
        // Resolving again changes nothing.
        yield* comments.update(scope, a.comment.id, { resolved: true }).pipe(as("alice"))
        assert.strictEqual(yield* open(), 1)
        yield* comments.update(scope, a.comment.id, { resolved: false }).pipe(as("alice"))
        assert.strictEqual(yield* open(), 2)
        yield* comments.update(scope, b.comment.id, { resolved: true }).pipe(as("alice"))
        assert.strictEqual(yield* open(), 1)
        // A resolved comment deleted leaves the count as it is.
        yield* comments.remove(scope, b.comment.id).pipe(as("alice"))
        assert.strictEqual(yield* open(), 1)
        yield* comments.postReply(scope, a.comment.id, "Reply").pipe(as("carl"))
        yield* comments.remove(scope, a.comment.id).pipe(as("carl"))
        assert.strictEqual(yield* open(), 0)
        assert.strictEqual(yield* errorTag(comments.listReplies(scope, a.comment.id, {}).pipe(as("alice"))), "NotFound")
      }))

    it.effect("keeps one reaction per user and emoji", () =>
      Effect.gen(function*() {
        const comments = yield* Comments
        const space = yield* newSpace()
        const scope = spaceScope(space.id)
        const posted = yield* comments.post(scope, { markdown: "React" }).pipe(as("alice"))
        const id = posted.comment.id
        yield* comments.update(scope, id, { addedReactions: ["👍", "👍", "🎉"] }).pipe(as("carl"))
        yield* comments.update(scope, id, { addedReactions: ["👍"] }).pipe(as("carl"))
        const both = yield* comments.update(scope, id, { addedReactions: ["👍"] }).pipe(as("alice"))
        const reactions = (view: typeof both) => view.comment.reactions.map((r) => `${r.emoji} ${r.userId}`).toSorted()
        assert.deepStrictEqual(reactions(both), ["🎉 carl", "👍 alice", "👍 carl"])
        const removed = yield* comments.update(scope, id, { removedReactions: ["👍", "🎉"] }).pipe(as("carl"))
        assert.deepStrictEqual(reactions(removed), ["👍 alice"])
      }))

    it.effect("lists with filters by status, page and author, in both orders, page by page", () =>
      Effect.gen(function*() {
        const comments = yield* Comments
        const { space, pageId } = yield* spaceWithPage()
        const scope = spaceScope(space.id)
        const post = (markdown: string, user: string, page?: string) =>
          Effect.tap(comments.post(scope, { markdown, page }).pipe(as(user)), () => TestClock.adjust("1 second"))
        const one = yield* post("one", "carl", pageId)
        yield* post("two", "alice")
        yield* post("three", "carl")
        yield* comments.update(scope, one.comment.id, { resolved: true }).pipe(as("alice"))
        assert.deepStrictEqual(bodies(yield* comments.list(scope, { status: "all" }).pipe(as("rhea"))), ["three", "two", "one"])
        assert.deepStrictEqual(bodies(yield* comments.list(scope, { status: "all", order: "asc" }).pipe(as("rhea"))), ["one", "two", "three"])
        assert.deepStrictEqual(bodies(yield* comments.list(scope, { status: "open" }).pipe(as("rhea"))), ["three", "two"])
        assert.deepStrictEqual(bodies(yield* comments.list(scope, { status: "resolved" }).pipe(as("rhea"))), ["one"])
        assert.deepStrictEqual(bodies(yield* comments.list(scope, { status: "all", targetPage: pageId }).pipe(as("rhea"))), ["one"])
        assert.deepStrictEqual(bodies(yield* comments.list(scope, { status: "all", authors: ["carl"] }).pipe(as("rhea"))), ["three", "one"])
        const first = yield* comments.list(scope, { status: "all", limit: 2 }).pipe(as("rhea"))
        assert.deepStrictEqual(bodies(first), ["three", "two"])
        assert.deepStrictEqual(bodies(yield* comments.list(scope, { status: "all", page: first.next! }).pipe(as("rhea"))), ["one"])
      }))
  })

  describe("on a change request", () => {
    it.effect("comments on a change request by number or id; listings keep to it; its count follows open comments, the space's does not", () =>
      Effect.gen(function*() {
        const comments = yield* Comments
        const changeRequests = yield* ChangeRequests
        const space = yield* newSpace()
        const cr = yield* newChangeRequest(space.id, "Discussed")
        const byNumber: CommentScope = { spaceId: space.id, changeRequestId: String(cr.number) }
        const byId: CommentScope = { spaceId: space.id, changeRequestId: cr.id }
        const posted = yield* comments.post(byNumber, { markdown: "On the CR" }).pipe(as("carl"))
        assert.strictEqual(posted.comment.changeRequestId, cr.id)
        yield* comments.post(spaceScope(space.id), { markdown: "On the space" }).pipe(as("carl"))
        assert.deepStrictEqual((yield* comments.list(byId, {}).pipe(as("alice"))).items.map((c) => c.comment.markdown), ["On the CR"])
        assert.deepStrictEqual((yield* comments.list(spaceScope(space.id), {}).pipe(as("alice"))).items.map((c) => c.comment.markdown), ["On the space"])
        assert.strictEqual(yield* errorTag(comments.get(spaceScope(space.id), posted.comment.id).pipe(as("alice"))), "NotFound")
        const crComments = () => Effect.map(changeRequests.get(space.id, cr.id).pipe(as("alice")), (v) => v.changeRequest.comments)
        assert.deepStrictEqual([yield* crComments(), (yield* counters(space.id))[3]], [1, 1])
        yield* comments.update(byId, posted.comment.id, { resolved: true }).pipe(as("alice"))
        assert.deepStrictEqual([yield* crComments(), (yield* counters(space.id))[3]], [0, 1])
        yield* comments.update(byNumber, posted.comment.id, { resolved: false }).pipe(as("alice"))
        yield* comments.remove(byId, posted.comment.id).pipe(as("carl"))
        assert.deepStrictEqual([yield* crComments(), (yield* counters(space.id))[3]], [0, 1])
        assert.strictEqual(yield* errorTag(comments.post({ spaceId: space.id, changeRequestId: "99" }, { markdown: "x" }).pipe(as("alice"))), "NotFound")
      }))

    it.effect("a page target comes from the change request's revision, not from main; a page gone from main shows as outdated", () =>
      Effect.gen(function*() {
        const comments = yield* Comments
        const changeRequests = yield* ChangeRequests
        const { space, pageId } = yield* spaceWithPage()
        const cr = yield* newChangeRequest(space.id, "New page")
        const added = yield* changeRequests.updateContent(space.id, cr.id, [insert("Only here.", "Draft page")]).pipe(as("alice"))
        const draftPage = added.outcomes[0]!.pageId
        const scope: CommentScope = { spaceId: space.id, changeRequestId: cr.id }
        const onDraft = yield* comments.post(scope, { markdown: "Nice", page: draftPage }).pipe(as("carl"))
        assert.deepStrictEqual([onDraft.page?.page?.title, onDraft.page?.outdated], ["Draft page", false])
        assert.strictEqual(
          yield* errorMessage(comments.post(spaceScope(space.id), { markdown: "Nice", page: draftPage }).pipe(as("carl"))),
          "page: is not a page of the space's current revision"
        )
        const onMain = yield* comments.post(spaceScope(space.id), { markdown: "About the page", page: pageId }).pipe(as("carl"))
        yield* mergeIntoMain(space.id, [{ operation: "delete_page", page: pageId }])
        const later = yield* comments.get(spaceScope(space.id), onMain.comment.id).pipe(as("carl"))
        assert.deepStrictEqual(later.page, { id: pageId, page: null, path: null, outdated: true })
      }))

    it.effect("a member with the comment role comments on a change request but cannot edit its content", () =>
      Effect.gen(function*() {
        const comments = yield* Comments
        const changeRequests = yield* ChangeRequests
        const space = yield* newSpace()
        const cr = yield* newChangeRequest(space.id, "Review me")
        const posted = yield* comments.post({ spaceId: space.id, changeRequestId: cr.id }, { markdown: "Looks good" }).pipe(as("carl"))
        assert.strictEqual(posted.comment.authorId, "carl")
        assert.strictEqual(yield* errorTag(changeRequests.updateContent(space.id, cr.id, [insert("x", "X")]).pipe(as("carl"))), "Forbidden")
      }))
  })
})
