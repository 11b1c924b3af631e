/** The behaviour every OrganizationConversationsRepo adapter must have. */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect, Option } from "effect"
import { at } from "@quire/testkit"
import type { Transactor } from "@quire/kernel"
import type { OrganizationConversation } from "../../src/agent/OrganizationConversation.ts"
import { OrganizationConversationsRepo } from "../../src/agent/OrganizationConversationsRepo.ts"

const conversation = (organizationId: string, userId: string, id: string, overrides: Partial<OrganizationConversation> = {}): OrganizationConversation => ({
  organizationId,
  userId,
  id,
  title: undefined,
  createdAt: at(1),
  updatedAt: at(1),
  messages: [],
  ...overrides
})

export const organizationConversationsRepoContract = (it: Vitest.MethodsNonLive<OrganizationConversationsRepo | Transactor.Transactor>) =>
  describe("OrganizationConversationsRepo", () => {
    it.effect("stores a conversation with its messages and sources, and replaces it when put again", () =>
      Effect.gen(function*() {
        const repo = yield* OrganizationConversationsRepo
        const first = conversation("oc-org", "bob", "c1", {
          title: "VPN",
          messages: [
            { role: "user", text: "How do I connect to the VPN?", at: "2026-01-01T00:00:00.000Z" },
            { role: "agent", text: "Install the client [1].", at: "2026-01-01T00:00:01.000Z", byModel: true, sources: [{ spaceId: "s1", pageId: "p1", title: "Remote access", path: "/s/s1/remote-access" }] },
            { role: "user", text: "Fix the typo in Remote access", at: "2026-01-01T00:00:02.000Z" },
            { role: "agent", text: "Done.", at: "2026-01-01T00:00:03.000Z", byModel: true, sources: [], changeRequest: { spaceId: "s1", changeRequestId: "cr1", number: 3, subject: "Fix a typo" } }
          ]
        })
        yield* repo.put(first)
        assert.deepStrictEqual(yield* repo.get("oc-org", "bob", "c1"), Option.some(first))
        const renamed = { ...first, title: "Remote", updatedAt: at(2) }
        yield* repo.put(renamed)
        assert.deepStrictEqual(yield* repo.get("oc-org", "bob", "c1"), Option.some(renamed))
        // Another member's conversation of the same id is another conversation.
        assert.isTrue(Option.isNone(yield* repo.get("oc-org", "carol", "c1")))
        assert.isTrue(Option.isNone(yield* repo.get("oc-other", "bob", "c1")))
      }))

    it.effect("lists a member's own conversations in the organization, most recently updated first", () =>
      Effect.gen(function*() {
        const repo = yield* OrganizationConversationsRepo
        yield* repo.put(conversation("oc-list", "bob", "a", { updatedAt: at(1) }))
        yield* repo.put(conversation("oc-list", "bob", "b", { updatedAt: at(3) }))
        yield* repo.put(conversation("oc-list", "carol", "c", { updatedAt: at(2) }))
        yield* repo.put(conversation("oc-list-other", "bob", "d"))
        assert.deepStrictEqual((yield* repo.list("oc-list", "bob")).map((c) => c.id), ["b", "a"])
        assert.deepStrictEqual((yield* repo.list("oc-list", "carol")).map((c) => c.id), ["c"])
      }))

    it.effect("removes only the member's conversation, saying whether there was one", () =>
      Effect.gen(function*() {
        const repo = yield* OrganizationConversationsRepo
        yield* repo.put(conversation("oc-remove", "bob", "a"))
        yield* repo.put(conversation("oc-remove", "carol", "a"))
        assert.isTrue(yield* repo.remove("oc-remove", "bob", "a"))
        assert.isFalse(yield* repo.remove("oc-remove", "bob", "a"))
        assert.deepStrictEqual((yield* repo.list("oc-remove", "carol")).map((c) => c.id), ["a"])
      }))

    it.effect("removes a member's conversations in one organization when they leave it", () =>
      Effect.gen(function*() {
        const repo = yield* OrganizationConversationsRepo
        yield* repo.put(conversation("oc-leave", "bob", "a"))
        yield* repo.put(conversation("oc-leave", "bob", "b"))
        yield* repo.put(conversation("oc-leave", "carol", "a"))
        yield* repo.put(conversation("oc-leave-other", "bob", "a"))
        yield* repo.removeMember("oc-leave", "bob")
        assert.deepStrictEqual(yield* repo.list("oc-leave", "bob"), [])
        assert.deepStrictEqual((yield* repo.list("oc-leave", "carol")).map((c) => c.id), ["a"])
        assert.deepStrictEqual((yield* repo.list("oc-leave-other", "bob")).map((c) => c.id), ["a"])
      }))
  })
