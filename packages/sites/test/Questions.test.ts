/**
 * The questions' own rules: which askings are one question, GitBook's stats and source weights over
 * stored askings, and a recording that fails never reaching the asker.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { Ids } from "@quire/kernel"
import { at } from "@quire/testkit"
import { SiteQuestionRecorder } from "../src/questions/QuestionRecorder.ts"
import { questionKey } from "../src/questions/QuestionKey.ts"
import { answerSources, matches, questionSources, statsOf } from "../src/questions/QuestionViews.ts"
import { SiteQuestionsRepo } from "../src/questions/SiteQuestionsRepo.ts"
import { storedAnswer } from "./contract/SiteQuestionsRepoContract.ts"

const asked = (id: string, ms: number, overrides: Parameters<typeof storedAnswer>[3] = {}) => ({ ...storedAnswer(id, "s", ms, overrides), questionId: "q" })

describe("questionKey", () => {
  it("groups askings that differ only in case, stop words, punctuation and endings", () => {
    assert.strictEqual(questionKey("How do I install Docker?"), questionKey("how to install docker"))
    assert.strictEqual(questionKey("Installing the plugins"), questionKey("install plugin?"))
    assert.notStrictEqual(questionKey("How do I install Docker?"), questionKey("How do I remove Docker?"))
    // A question of stop words only is still a question of its own.
    assert.strictEqual(questionKey("What is it?"), "what is it")
  })
})

describe("views", () => {
  it("counts answered and unanswered askings, channels and the weeks they fell in", () => {
    const week = 7 * 24 * 60 * 60 * 1000
    const now = at(20 * week).getTime()
    const answers = [
      asked("a1", 20 * week - 1000),
      asked("a2", 19 * week - 1000, { outcome: "not-in-pages", channel: "mcp" }),
      asked("a3", 18 * week - 1000, { outcome: "failed", channel: "api" }),
      asked("a4", 0)
    ]
    const stats = statsOf(answers, 1, now)
    assert.deepStrictEqual(stats.answered, { yes: 2, partially: 0, no: 2 })
    assert.deepStrictEqual(stats.channelTypes, { site: 2, api: 2 })
    assert.deepStrictEqual(stats.weeklyPulse, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1])
    assert.deepStrictEqual(stats.feedback, { positive: 0, negative: 0, unrated: 4 })
    assert.isTrue(matches(answers[1]!, { answered: ["no"], channelType: ["api"] }))
    assert.isFalse(matches(answers[0]!, { answered: ["no"] }))
    // Quire keeps no topics: a topic filter keeps nothing.
    assert.isFalse(matches(answers[0]!, { topic: ["t1"] }))
  })

  it("weighs an asking's cited pages, and a question's pages by the share of askings that drew on them", () => {
    const page = (n: number, pageId: string, cited: boolean) => ({ n, title: pageId, spaceId: "sp", pageId, revisionId: "r", sections: [], cited })
    const one = asked("a1", 20, { sources: [page(1, "install", true), page(2, "docker", false)] })
    const two = asked("a2", 10, { sources: [page(1, "install", false), page(2, "faq", false)], outcome: "not-in-pages" })
    assert.deepStrictEqual(answerSources(one).map((s) => [s.page, s.weight]), [["install", 1], ["docker", 0]])
    assert.deepStrictEqual(answerSources(two).map((s) => [s.page, s.weight]), [["install", 0.5], ["faq", 0.5]])
    assert.deepStrictEqual(questionSources([one, two]).map((s) => [s.page, s.weight, s.answer]), [["install", 1, "a1"], ["docker", 0.5, "a1"], ["faq", 0.5, "a2"]])
  })
})

describe("SiteQuestionRecorder", () => {
  const question = { organizationId: "o", siteId: "rec", question: " Where  is it? ", channel: "site", language: null, siteSpaces: [], outcome: "no-model", answer: "No model", sources: [] } as const

  it.effect("returns at once and stores the asking in the background", () =>
    Effect.gen(function*() {
      const recorder = yield* SiteQuestionRecorder
      const repo = yield* SiteQuestionsRepo
      yield* recorder.record(question)
      yield* recorder.flush
      const [stored] = yield* repo.answers("rec", new Date(-1), new Date(8.64e15), 10)
      assert.deepStrictEqual([stored?.raw, stored?.text, stored?.outcome], ["Where  is it?", "Where is it?", "no-model"])
      assert.isTrue(Option.isSome(yield* repo.question("rec", stored!.questionId)))
    }).pipe(Effect.provide(SiteQuestionRecorder.layer.pipe(Layer.provideMerge(Layer.mergeAll(SiteQuestionsRepo.layerMemory, Ids.Ids.layer))))))

  it.effect("a write that fails is logged, not surfaced", () =>
    Effect.gen(function*() {
      const recorder = yield* SiteQuestionRecorder
      yield* recorder.record(question)
      yield* recorder.flush
    }).pipe(Effect.provide(SiteQuestionRecorder.layer.pipe(
      Layer.provide(Ids.Ids.layer),
      Layer.provide(Layer.succeed(SiteQuestionsRepo, SiteQuestionsRepo.of({
        record: () => Effect.die(new Error("the database is away")),
        questions: () => Effect.succeed([]),
        question: () => Effect.succeed(Option.none()),
        answers: () => Effect.succeed([]),
        answer: () => Effect.succeed(Option.none()),
        removeSite: () => Effect.void,
        purgeBefore: () => Effect.succeed(0)
      })))
    ))))
})
