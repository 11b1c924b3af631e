/** The behaviour every CommentsRepo adapter must have. */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect, Option } from "effect"
import { allIds, assertNone, at, some } from "@quire/testkit"
import { CommentsRepo } from "../../src/CommentsRepo.ts"
import type { Comment, CommentReply } from "../../src/domain/Comment.ts"

const makeComment = (id: string, spaceId: string, overrides: Partial<Comment> = {}): Comment => ({
  id,
  spaceId,
  changeRequestId: null,
  revisionId: `${spaceId}-r1`,
  target: { pageId: null, nodeId: null, tableCell: null },
  authorId: "alice",
  markdown: `Comment ${id}`,
  postedAt: at(0),
  editedAt: null,
  status: "open",
  resolvedAt: null,
  resolvedBy: null,
  replies: 0,
  repliers: [],
  reactions: [],
  ...overrides
})

const makeReply = (id: string, comment: Comment, overrides: Partial<CommentReply> = {}): CommentReply => ({
  id,
  commentId: comment.id,
  spaceId: comment.spaceId,
  authorId: "bob",
  markdown: `Reply ${id}`,
  postedAt: at(10),
  editedAt: null,
  reactions: [],
  ...overrides
})

export const commentsRepoContract = (it: Vitest.MethodsNonLive<CommentsRepo>) =>
  describe("CommentsRepo", () => {
    it.effect("stores and finds every field of a comment, markdown byte for byte", () =>
      Effect.gen(function*() {
        const repo = yield* CommentsRepo
        const full = makeComment("cs-1", "cs-space", {
          changeRequestId: "cs-cr",
          target: { pageId: "page-1", nodeId: "node-1", tableCell: { record: "r1", definition: "d1" } },
          markdown: "<script>alert(1)</script>\n\n**bold** & `code`  \n",
          postedAt: at(5),
          editedAt: at(6),
          status: "resolved",
          resolvedAt: at(7),
          resolvedBy: "bob"
        })
        yield* repo.insert(full)
        assert.deepStrictEqual(some(yield* repo.find("cs-1")), full)
        assertNone(yield* repo.find("cs-missing"))
      }))

    it.effect("lists a scope's comments with filters, both orders, page by page", () =>
      Effect.gen(function*() {
        const repo = yield* CommentsRepo
        const space = "cl-space"
        yield* repo.insert(makeComment("cl-a", space, { postedAt: at(1), target: { pageId: "p1", nodeId: null, tableCell: null } }))
        yield* repo.insert(makeComment("cl-b", space, { postedAt: at(2), authorId: "bob", status: "resolved", resolvedAt: at(3), resolvedBy: "bob" }))
        yield* repo.insert(makeComment("cl-c", space, { postedAt: at(2), target: { pageId: "p1", nodeId: null, tableCell: null } }))
        yield* repo.insert(makeComment("cl-d", space, { postedAt: at(4), authorId: "carol" }))
        yield* repo.insert(makeComment("cl-cr", space, { postedAt: at(5), changeRequestId: "cr1" }))
        yield* repo.insert(makeComment("cl-other", "cl-other-space"))
        const base = { spaceId: space, changeRequestId: null } as const
        const list = (query: Partial<Parameters<typeof repo.list>[0]>, limit = 2) =>
          allIds((after) => repo.list({ ...base, order: "asc", ...query }, after, limit))
        assert.deepStrictEqual(yield* list({}), ["cl-a", "cl-b", "cl-c", "cl-d"])
        assert.deepStrictEqual(yield* list({ order: "desc" }), ["cl-d", "cl-c", "cl-b", "cl-a"])
        assert.deepStrictEqual(yield* list({ order: "desc" }, 1), ["cl-d", "cl-c", "cl-b", "cl-a"])
        assert.deepStrictEqual(yield* list({ status: "open" }), ["cl-a", "cl-c", "cl-d"])
        assert.deepStrictEqual(yield* list({ status: "resolved" }), ["cl-b"])
        assert.deepStrictEqual(yield* list({ pageId: "p1" }), ["cl-a", "cl-c"])
        assert.deepStrictEqual(yield* list({ authors: ["bob", "carol"] }), ["cl-b", "cl-d"])
        assert.deepStrictEqual(yield* list({ changeRequestId: "cr1" }), ["cl-cr"])
      }))

    it.effect("changes the status only when it differs", () =>
      Effect.gen(function*() {
        const repo = yield* CommentsRepo
        yield* repo.insert(makeComment("st-1", "st-space"))
        const resolve = { status: "resolved", resolvedAt: at(9), resolvedBy: "bob" } as const
        assert.isTrue(yield* repo.setStatus("st-1", resolve))
        assert.isFalse(yield* repo.setStatus("st-1", resolve))
        const resolved = some(yield* repo.find("st-1"))
        assert.deepStrictEqual([resolved.status, resolved.resolvedAt, resolved.resolvedBy], ["resolved", at(9), "bob"])
        assert.isTrue(yield* repo.setStatus("st-1", { status: "open", resolvedAt: null, resolvedBy: null }))
        assert.strictEqual(some(yield* repo.find("st-1")).status, "open")
        assert.isFalse(yield* repo.setStatus("st-missing", resolve))
      }))

    it.effect("edits bodies and keeps one reaction per user and emoji", () =>
      Effect.gen(function*() {
        const repo = yield* CommentsRepo
        yield* repo.insert(makeComment("re-1", "re-space"))
        const edited = some(yield* repo.updateBody("re-1", "new body", at(3)))
        assert.deepStrictEqual([edited.markdown, edited.editedAt], ["new body", at(3)])
        yield* repo.react("re-1", { emoji: "👍", userId: "bob", reactedAt: at(1) })
        yield* repo.react("re-1", { emoji: "👍", userId: "bob", reactedAt: at(2) })
        yield* repo.react("re-1", { emoji: "👍", userId: "carol", reactedAt: at(3) })
        yield* repo.react("re-1", { emoji: "🎉", userId: "bob", reactedAt: at(4) })
        yield* repo.unreact("re-1", "🎉", "carol")
        assert.deepStrictEqual(some(yield* repo.find("re-1")).reactions, [
          { emoji: "👍", userId: "bob", reactedAt: at(1) },
          { emoji: "👍", userId: "carol", reactedAt: at(3) },
          { emoji: "🎉", userId: "bob", reactedAt: at(4) }
        ])
        yield* repo.unreact("re-1", "👍", "bob")
        assert.deepStrictEqual(some(yield* repo.find("re-1")).reactions.map((r) => r.userId), ["carol", "bob"])
      }))

    it.effect("stores replies, counts them, and removes them with their comment", () =>
      Effect.gen(function*() {
        const repo = yield* CommentsRepo
        const comment = makeComment("rp-1", "rp-space")
        yield* repo.insert(comment)
        const first = makeReply("rp-r1", comment, { postedAt: at(1) })
        yield* repo.insertReply(first)
        yield* repo.insertReply(makeReply("rp-r2", comment, { postedAt: at(2) }))
        yield* repo.insertReply(makeReply("rp-r3", comment, { postedAt: at(3) }))
        yield* repo.react("rp-r1", { emoji: "👀", userId: "alice", reactedAt: at(4) })
        assert.strictEqual(some(yield* repo.find("rp-1")).replies, 3)
        assert.deepStrictEqual(some(yield* repo.findReply("rp-1", "rp-r1")), {
          ...first,
          reactions: [{ emoji: "👀", userId: "alice", reactedAt: at(4) }]
        })
        assertNone(yield* repo.findReply("other", "rp-r1"))
        assert.deepStrictEqual(yield* allIds((after) => repo.listReplies("rp-1", after, 2)), ["rp-r1", "rp-r2", "rp-r3"])
        const edited = some(yield* repo.updateReplyBody("rp-r2", "edited", at(5)))
        assert.deepStrictEqual([edited.markdown, edited.editedAt], ["edited", at(5)])
        assert.isTrue(yield* repo.removeReply("rp-1", "rp-r2"))
        assert.isFalse(yield* repo.removeReply("rp-1", "rp-r2"))
        assert.strictEqual(some(yield* repo.find("rp-1")).replies, 2)
        const removed = some(yield* repo.remove("rp-1"))
        assert.strictEqual(removed.id, "rp-1")
        assertNone(yield* repo.find("rp-1"))
        assertNone(yield* repo.findReply("rp-1", "rp-r1"))
        assertNone(yield* repo.remove("rp-1"))
      }))

    it.effect("counts who posted comments and replies in a scope, by user id", () =>
      Effect.gen(function*() {
        const repo = yield* CommentsRepo
        const space = "cm-space"
        const first = makeComment("cm-1", space, { authorId: "carol", postedAt: at(1) })
        yield* repo.insert(first)
        yield* repo.insert(makeComment("cm-2", space, { authorId: "bob", postedAt: at(3) }))
        yield* repo.insertReply(makeReply("cm-r1", first, { authorId: "carol", postedAt: at(5) }))
        yield* repo.insertReply(makeReply("cm-r2", first, { authorId: "dan", postedAt: at(4) }))
        const inChangeRequest = makeComment("cm-3", space, { authorId: "erin", changeRequestId: "cm-cr", postedAt: at(2) })
        yield* repo.insert(inChangeRequest)
        yield* repo.insertReply(makeReply("cm-r3", inChangeRequest, { authorId: "bob", postedAt: at(6) }))
        yield* repo.insert(makeComment("cm-other", "cm-other-space", { authorId: "zed" }))
        assert.deepStrictEqual(yield* repo.commenters(space, null), [
          { userId: "bob", count: 1, lastPostedAt: at(3) },
          { userId: "carol", count: 2, lastPostedAt: at(5) },
          { userId: "dan", count: 1, lastPostedAt: at(4) }
        ])
        assert.deepStrictEqual(yield* repo.commenters(space, "cm-cr"), [
          { userId: "bob", count: 1, lastPostedAt: at(6) },
          { userId: "erin", count: 1, lastPostedAt: at(2) }
        ])
        assert.deepStrictEqual(yield* repo.commenters("cm-nothing", null), [])
        // A comment names who replied to it (GitBook's `repliers`), in the order they first did.
        const found = yield* repo.find("cm-1")
        assert.deepStrictEqual(Option.getOrThrow(found).repliers, [
          { userId: "dan", count: 1, lastRepliedAt: at(4) },
          { userId: "carol", count: 1, lastRepliedAt: at(5) }
        ])
        assert.deepStrictEqual(Option.getOrThrow(yield* repo.find("cm-2")).repliers, [])
      }))
  })
