/** The behaviour every SiteQuestionsRepo adapter must have. */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect, Option } from "effect"
import { at } from "@quire/testkit"
import type { StoredAnswer, StoredQuestion } from "../../src/domain/SiteQuestion.ts"
import { SiteQuestionsRepo } from "../../src/questions/SiteQuestionsRepo.ts"

export const storedQuestion = (id: string, siteId: string, key: string, ms: number): StoredQuestion => ({
  id,
  organizationId: "org-q",
  siteId,
  key,
  text: `How do I ${key}?`,
  createdAt: at(ms)
})

export const storedAnswer = (id: string, siteId: string, ms: number, overrides: Partial<Omit<StoredAnswer, "questionId">> = {}): Omit<StoredAnswer, "questionId"> => ({
  id,
  organizationId: "org-q",
  siteId,
  at: at(ms),
  raw: "How do I  install?",
  text: "How do I install?",
  channel: "site",
  outcome: "answered",
  language: "en",
  answer: "Run the installer [1].",
  siteSpaces: ["ss-1"],
  sources: [{ n: 1, title: "Install", spaceId: "sp-1", pageId: "pg-1", revisionId: "rev-1", sections: [{ id: "steps", title: "Steps" }], cited: true }],
  ...overrides
})

export const siteQuestionsRepoContract = (it: Vitest.MethodsNonLive<SiteQuestionsRepo>) =>
  describe("SiteQuestionsRepo", () => {
    it.effect("groups askings of the same key under the first question and keeps every field", () =>
      Effect.gen(function*() {
        const repo = yield* SiteQuestionsRepo
        const first = yield* repo.record(storedQuestion("q-1", "q-site", "install", 10), storedAnswer("a-1", "q-site", 10))
        const again = yield* repo.record(storedQuestion("q-2", "q-site", "install", 20), storedAnswer("a-2", "q-site", 20, { channel: "mcp", outcome: "not-in-pages", language: null }))
        const other = yield* repo.record(storedQuestion("q-3", "q-site", "upgrade", 30), storedAnswer("a-3", "q-site", 30, { sources: [], outcome: "no-pages" }))
        yield* repo.record(storedQuestion("q-4", "q-elsewhere", "install", 15), storedAnswer("a-4", "q-elsewhere", 15))
        assert.deepStrictEqual([first, again, other], ["q-1", "q-1", "q-3"])
        assert.deepStrictEqual((yield* repo.questions("q-site")).map((q) => q.id), ["q-1", "q-3"])
        assert.deepStrictEqual(yield* repo.question("q-site", "q-1"), Option.some(storedQuestion("q-1", "q-site", "install", 10)))
        // Another site's question is not found through this one.
        assert.isTrue(Option.isNone(yield* repo.question("q-site", "q-4")))
        assert.deepStrictEqual(yield* repo.answer("q-site", "a-2"), Option.some({ ...storedAnswer("a-2", "q-site", 20, { channel: "mcp", outcome: "not-in-pages", language: null }), questionId: "q-1" }))
        assert.isTrue(Option.isNone(yield* repo.answer("q-site", "a-4")))
        // Newest first, `from` included, `to` not, at most `limit`.
        assert.deepStrictEqual((yield* repo.answers("q-site", at(0), at(100), 10)).map((a) => a.id), ["a-3", "a-2", "a-1"])
        assert.deepStrictEqual((yield* repo.answers("q-site", at(10), at(30), 10)).map((a) => a.id), ["a-2", "a-1"])
        assert.deepStrictEqual((yield* repo.answers("q-site", at(0), at(100), 1)).map((a) => a.id), ["a-3"])
      }))

    it.effect("forgets a deleted site's questions, and askings past the retention with the questions left without one", () =>
      Effect.gen(function*() {
        const repo = yield* SiteQuestionsRepo
        yield* repo.record(storedQuestion("r-1", "r-site", "old", 10), storedAnswer("ra-1", "r-site", 10))
        yield* repo.record(storedQuestion("r-2", "r-site", "kept", 10), storedAnswer("ra-2", "r-site", 10))
        yield* repo.record(storedQuestion("r-3", "r-site", "kept", 50), storedAnswer("ra-3", "r-site", 50))
        yield* repo.record(storedQuestion("r-4", "r-gone", "old", 50), storedAnswer("ra-4", "r-gone", 50))
        yield* repo.removeSite("r-gone")
        assert.deepStrictEqual(yield* repo.questions("r-gone"), [])
        assert.isTrue(Option.isNone(yield* repo.answer("r-gone", "ra-4")))
        assert.isAtLeast(yield* repo.purgeBefore(at(20)), 2)
        assert.deepStrictEqual((yield* repo.questions("r-site")).map((q) => q.id), ["r-2"])
        assert.deepStrictEqual((yield* repo.answers("r-site", at(0), at(100), 10)).map((a) => a.id), ["ra-3"])
      }))
  })
