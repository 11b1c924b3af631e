/** The behaviour every AgentConversationsRepo adapter must have. */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect, Option } from "effect"
import { at } from "@quire/testkit"
import type { Transactor } from "@quire/kernel"
import type { AgentConversation } from "../../src/agent/AgentConversation.ts"
import { AgentConversationsRepo } from "../../src/agent/AgentConversationsRepo.ts"

const conversation = (changeRequestId: string, id: string, overrides: Partial<AgentConversation> = {}): AgentConversation => ({
  spaceId: `${changeRequestId}-space`,
  changeRequestId,
  id,
  title: undefined,
  shared: true,
  createdBy: "bob",
  createdAt: at(1),
  updatedAt: at(1),
  messages: [],
  ...overrides
})

export const agentConversationsRepoContract = (it: Vitest.MethodsNonLive<AgentConversationsRepo | Transactor.Transactor>) =>
  describe("AgentConversationsRepo", () => {
    it.effect("stores a conversation with its messages and edits, and replaces it when put again", () =>
      Effect.gen(function*() {
        const repo = yield* AgentConversationsRepo
        const first = conversation("ac-put", "default", {
          title: "Add a page on backups",
          messages: [
            { role: "user", text: "Add a page on backups", userId: "bob", at: "2026-01-01T00:00:00.000Z" },
            { role: "agent", text: "Added it.", userId: "bob", at: "2026-01-01T00:00:01.000Z", edits: [{ kind: "created", pageId: "p1", title: "Backups" }] }
          ]
        })
        yield* repo.put(first)
        assert.deepStrictEqual(yield* repo.get("ac-put", "default"), Option.some(first))
        const renamed = { ...first, title: "Backups", updatedAt: at(2) }
        yield* repo.put(renamed)
        assert.deepStrictEqual(yield* repo.get("ac-put", "default"), Option.some(renamed))
        assert.isTrue(Option.isNone(yield* repo.get("ac-put", "other")))
        assert.isTrue(Option.isNone(yield* repo.get("ac-other-cr", "default")))
      }))

    it.effect("lists the shared ones and the viewer's own private ones, most recently updated first", () =>
      Effect.gen(function*() {
        const repo = yield* AgentConversationsRepo
        const cr = "ac-list"
        yield* repo.put(conversation(cr, "a", { updatedAt: at(1) }))
        yield* repo.put(conversation(cr, "b", { updatedAt: at(3) }))
        yield* repo.put(conversation(cr, "mine", { shared: false, createdBy: "carol", updatedAt: at(2) }))
        yield* repo.put(conversation("ac-list-other", "c"))
        assert.deepStrictEqual((yield* repo.list(cr, "bob")).map((c) => c.id), ["b", "a"])
        assert.deepStrictEqual((yield* repo.list(cr, "carol")).map((c) => c.id), ["b", "mine", "a"])
      }))

    it.effect("removes one (false when there was none), and every one of a space", () =>
      Effect.gen(function*() {
        const repo = yield* AgentConversationsRepo
        yield* repo.put(conversation("ac-rm", "a", { spaceId: "ac-rm-space" }))
        yield* repo.put(conversation("ac-rm", "b", { spaceId: "ac-rm-space" }))
        yield* repo.put(conversation("ac-keep", "a", { spaceId: "ac-keep-space" }))
        assert.isTrue(yield* repo.remove("ac-rm", "a"))
        assert.isFalse(yield* repo.remove("ac-rm", "a"))
        yield* repo.removeForSpace("ac-rm-space")
        assert.deepStrictEqual(yield* repo.list("ac-rm", "bob"), [])
        assert.strictEqual((yield* repo.list("ac-keep", "bob")).length, 1)
      }))
  })
