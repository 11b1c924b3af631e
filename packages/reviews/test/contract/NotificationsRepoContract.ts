/** The behaviour every NotificationsRepo adapter must have. */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect } from "effect"
import { allIds, allPages, assertNone, at, some } from "@quire/testkit"
import type { Transactor } from "@quire/kernel"
import type { Notification } from "../../src/domain/Notification.ts"
import { NotificationsRepo } from "../../src/NotificationsRepo.ts"

const make = (id: string, userId: string, overrides: Partial<Notification> = {}): Notification => ({
  id,
  userId,
  kind: "review_requested",
  actorId: "alice",
  spaceId: `${userId}-space`,
  changeRequestId: "cr-1",
  commentId: null,
  replyId: null,
  pageId: null,
  createdAt: at(0),
  readAt: null,
  ...overrides
})

/** The user's unread counts per space, sorted by space. */
const unread = (userId: string) =>
  Effect.map(Effect.flatMap(Effect.service(NotificationsRepo), (repo) => repo.unreadBySpace(userId)), (counts) =>
    [...counts].toSorted(([a], [b]) => (a < b ? -1 : 1)))
const total = (userId: string) => Effect.map(unread(userId), (counts) => counts.reduce((sum, [, n]) => sum + n, 0))

export const notificationsRepoContract = (it: Vitest.MethodsNonLive<NotificationsRepo | Transactor.Transactor>) =>
  describe("NotificationsRepo", () => {
    it.effect("stores and finds every field of a notification", () =>
      Effect.gen(function*() {
        const repo = yield* NotificationsRepo
        const full = make("nt-store-1", "nt-store-user", {
          kind: "comment_reply",
          actorId: "bob",
          changeRequestId: null,
          commentId: "c-1",
          replyId: "r-1",
          pageId: "p-1",
          createdAt: at(5),
          readAt: at(6)
        })
        yield* repo.insert([full, make("nt-store-2", "nt-store-user")])
        yield* repo.insert([])
        assert.deepStrictEqual(some(yield* repo.find("nt-store-1")), full)
        assertNone(yield* repo.find("nt-store-missing"))
      }))

    it.effect("lists a user's notifications newest first, page by page, all, unread or read", () =>
      Effect.gen(function*() {
        const repo = yield* NotificationsRepo
        const user = "nt-list-user"
        yield* repo.insert([
          make("nt-list-a", user, { createdAt: at(1) }),
          make("nt-list-c", user, { createdAt: at(3), readAt: at(4) }),
          make("nt-list-b", user, { createdAt: at(1) }),
          make("nt-list-other", "nt-list-other-user", { createdAt: at(2) })
        ])
        for (const limit of [1, 2, 10]) {
          assert.deepStrictEqual(
            yield* allIds((after) => repo.list({ userId: user }, after, limit)),
            ["nt-list-c", "nt-list-b", "nt-list-a"],
            `pages of ${limit}`
          )
        }
        const pages = yield* allPages((after) => repo.list({ userId: user }, after, 2))
        assert.deepStrictEqual(pages.map((items) => items.length), [2, 1])
        assert.deepStrictEqual(yield* allIds((after) => repo.list({ userId: user, unread: true }, after, 1)), ["nt-list-b", "nt-list-a"])
        assert.deepStrictEqual(yield* allIds((after) => repo.list({ userId: user, unread: false }, after, 1)), ["nt-list-c"])
        yield* repo.insert([make("nt-list-d", user, { spaceId: "nt-list-elsewhere", createdAt: at(0) })])
        assert.deepStrictEqual(yield* unread(user), [["nt-list-elsewhere", 1], [`${user}-space`, 2]])
        assert.deepStrictEqual(yield* unread("nt-list-nobody"), [])
      }))

    it.effect("marks one read (keeping the first instant) or unread, and all of a user's read", () =>
      Effect.gen(function*() {
        const repo = yield* NotificationsRepo
        const user = "nt-read-user"
        yield* repo.insert([make("nt-read-1", user), make("nt-read-2", user), make("nt-read-3", user), make("nt-read-x", "nt-read-other")])
        assert.deepStrictEqual(some(yield* repo.setRead("nt-read-1", at(10))).readAt, at(10))
        assert.deepStrictEqual(some(yield* repo.setRead("nt-read-1", at(20))).readAt, at(10))
        assert.strictEqual(yield* total(user), 2)
        assert.strictEqual(some(yield* repo.setRead("nt-read-1", null)).readAt, null)
        assertNone(yield* repo.setRead("nt-read-missing", at(1)))
        assert.strictEqual(yield* repo.markAllRead(user, at(30)), 3)
        assert.strictEqual(yield* repo.markAllRead(user, at(40)), 0)
        assert.strictEqual(yield* total(user), 0)
        assert.deepStrictEqual(some(yield* repo.find("nt-read-2")).readAt, at(30))
        assert.strictEqual(yield* total("nt-read-other"), 1)
      }))

    it.effect("removes a space's notifications and nothing of other spaces", () =>
      Effect.gen(function*() {
        const repo = yield* NotificationsRepo
        yield* repo.insert([
          make("nt-purge-1", "nt-purge-user", { spaceId: "nt-purge-space" }),
          make("nt-purge-2", "nt-purge-user", { spaceId: "nt-keep-space" })
        ])
        yield* repo.removeForSpace("nt-purge-space")
        assertNone(yield* repo.find("nt-purge-1"))
        assert.strictEqual(some(yield* repo.find("nt-purge-2")).spaceId, "nt-keep-space")
      }))
  })
