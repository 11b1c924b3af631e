/**
 * The Questions part's reads: GitBook's `listSiteQuestions` and `getSiteQuestionStats` (the
 * questions readers asked, newest or most asked first, answered or not), and for a question opened
 * its askings and the pages they drew on. Reactivity key: `site:<id>`.
 */
import { Effect } from "effect"
import { Atom } from "effect/reactivity"
import { QuireApi } from "../../../api/client.ts"
import { siteKey } from "../queries.ts"

export type QuestionOrder = "newest" | "most-asked"
export type QuestionShown = "all" | "answered" | "unanswered"

/** How many questions the part lists. */
export const questionsShown = 50

/** The key of a listing: the site, the order and the filter. */
export const questionsRef = (organizationId: string, siteId: string, order: QuestionOrder, shown: QuestionShown) =>
  [organizationId, siteId, order, shown].join("\n")

export const questionsAtom = Atom.family((ref: string) => {
  const [organizationId = "", siteId = "", order = "newest", shown = "all"] = ref.split("\n")
  const params = { organizationId, siteId }
  return QuireApi.runtime.atom(Effect.gen(function*() {
    const client = yield* QuireApi
    const answered = shown === "answered" ? (["yes", "partially"] as const) : shown === "unanswered" ? (["no"] as const) : undefined
    const [list, stats] = yield* Effect.all([
      client.siteQuestions.listSiteQuestions({
        params,
        query: { limit: questionsShown, ...(order === "most-asked" ? { sort: "stats.answers" as const } : { sort: "askedAt" as const }), ...(answered === undefined ? {} : { answered }) }
      }),
      client.siteQuestions.getSiteQuestionStats({ params, query: {} })
    ], { concurrency: 2 })
    return { questions: list.items, stats }
  })).pipe(Atom.withReactivity([siteKey(siteId)]))
})

/** A question's askings (newest first, the last 20) and the pages they drew on. */
export const questionDetailAtom = Atom.family((ref: string) => {
  const [organizationId = "", siteId = "", questionId = ""] = ref.split("\n")
  const params = { organizationId, siteId }
  return QuireApi.runtime.atom(Effect.gen(function*() {
    const client = yield* QuireApi
    const [answers, sources] = yield* Effect.all([
      client.siteQuestions.listSiteQuestionAnswers({ params, query: { question: questionId, limit: 20 } }),
      client.siteQuestions.listSiteQuestionSources({ params: { ...params, siteQuestionId: questionId }, query: { limit: 20 } })
    ], { concurrency: 2 })
    return { answers: answers.items, sources: sources.items }
  })).pipe(Atom.withReactivity([siteKey(siteId)]))
})
