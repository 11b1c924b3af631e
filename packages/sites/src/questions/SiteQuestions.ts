/**
 * GitBook's reading of a site's questions (AI insights) for the members who read its insights:
 * questions with their stats, their askings and the pages those drew on, each listing paginated
 * by cursor; and their retention, as the insights events'.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { Actor, Errors, Pagination } from "@quire/kernel"
import type { QuestionSort, StoredAnswer } from "../domain/SiteQuestion.ts"
import { insightsReader, InsightsRetentionDays } from "../insights/SiteInsights.ts"
import * as SiteGuard from "../SiteGuard.ts"
import { SiteQuestionRecorder } from "./QuestionRecorder.ts"
import {
  type AnswerFilter,
  answerSources,
  type AnswerView,
  answerView,
  matches,
  type QuestionStats,
  questionSources,
  type QuestionView,
  questionView,
  type SourceView,
  statsOf
} from "./QuestionViews.ts"
import { SiteQuestionsRepo } from "./SiteQuestionsRepo.ts"

/** The most askings a reading takes, newest first. */
export const maxAnswersRead = 50_000

/** A time range (`from`, `to`: date-times, both included) and the filters. */
export interface RangeFilter extends AnswerFilter {
  readonly from?: string | undefined
  readonly to?: string | undefined
}

export interface QuestionsQuery extends RangeFilter, Pagination.PageRequest {
  readonly order?: Pagination.Order | undefined
  readonly sort?: QuestionSort | undefined
}

type Read<A> = Effect.Effect<A, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor>

export interface SiteQuestionsShape {
  /** GitBook's `listSiteQuestions`: the questions with an asking the filters keep, and their stats over those. */
  readonly list: (organizationId: string, siteId: string, query: QuestionsQuery) => Read<Pagination.Page<QuestionView>>
  /** GitBook's `getSiteQuestionById`. */
  readonly get: (organizationId: string, siteId: string, questionId: string, filter: RangeFilter) => Read<QuestionView>
  /** GitBook's `listSiteQuestionSources`: the pages the question's askings drew on. */
  readonly sources: (organizationId: string, siteId: string, questionId: string, query: RangeFilter & Pagination.PageRequest) => Read<Pagination.Page<SourceView>>
  /** GitBook's `getSiteQuestionStats`: over every asking the filters keep. */
  readonly stats: (organizationId: string, siteId: string, filter: RangeFilter) => Read<QuestionStats>
  /** GitBook's `listSiteQuestionAnswers`, newest first. */
  readonly answers: (organizationId: string, siteId: string, query: RangeFilter & Pagination.PageRequest) => Read<Pagination.Page<AnswerView>>
  /** GitBook's `getSiteQuestionAnswerById`. */
  readonly answer: (organizationId: string, siteId: string, answerId: string) => Read<AnswerView>
  /** GitBook's `listSiteQuestionAnswerSources`, in the order they were given to the model. */
  readonly answerSources: (organizationId: string, siteId: string, answerId: string, page: Pagination.PageRequest) => Read<Pagination.Page<SourceView>>
  /** Forgets askings older than the insights' retention (`QUIRE_INSIGHTS_RETENTION_DAYS`; none when 0); answers how many. */
  readonly purgeExpired: Effect.Effect<number>
}

const dayMillis = 24 * 60 * 60 * 1000

const dateOf = (value: string | undefined, field: string) =>
  Effect.gen(function*() {
    if (value === undefined) return undefined
    const parsed = /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN
    if (Number.isNaN(parsed)) return yield* new Errors.InvalidInput({ field, reason: "must be a date-time" })
    return parsed
  })

/** Askings by question, each newest first as given. */
const byQuestion = (answers: ReadonlyArray<StoredAnswer>) => {
  const grouped = new Map<string, Array<StoredAnswer>>()
  for (const a of answers) {
    const list = grouped.get(a.questionId)
    if (list === undefined) grouped.set(a.questionId, [a])
    else list.push(a)
  }
  return grouped
}

const timeKey = (iso: string, id: string): Pagination.CursorKey => [iso, id]

export class SiteQuestions extends Context.Service<SiteQuestions, SiteQuestionsShape>()("@quire/sites/SiteQuestions") {
  static readonly layer = Layer.effect(
    SiteQuestions,
    Effect.gen(function*() {
      const repo = yield* SiteQuestionsRepo
      const recorder = yield* SiteQuestionRecorder
      const readable = insightsReader(yield* SiteGuard.make)

      /** The site's askings in the filter's range that it keeps, newest first. */
      const askings = (organizationId: string, siteId: string, filter: RangeFilter) =>
        Effect.gen(function*() {
          yield* readable(organizationId, siteId)
          const from = yield* dateOf(filter.from, "from")
          const to = yield* dateOf(filter.to, "to")
          if (from !== undefined && to !== undefined && to < from) return yield* new Errors.InvalidInput({ field: "to", reason: "must not be before from" })
          // What was just asked shows at once.
          yield* recorder.flush
          const now = yield* Clock.currentTimeMillis
          const read = yield* repo.answers(siteId, new Date(from ?? 0), new Date((to ?? now) + 1), maxAnswersRead)
          return { now, answers: read.filter((a) => matches(a, filter)) }
        })

      const foundQuestion = (siteId: string, questionId: string) =>
        Effect.flatMap(repo.question(siteId, questionId), Option.match({
          onNone: () => Effect.fail(new Errors.NotFound({ resource: "Site question", id: questionId })),
          onSome: Effect.succeed
        }))

      const foundAnswer = (organizationId: string, siteId: string, answerId: string) =>
        Effect.gen(function*() {
          yield* readable(organizationId, siteId)
          yield* recorder.flush
          const found = yield* repo.answer(siteId, answerId)
          if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "Site question answer", id: answerId })
          return found.value
        })

      const list = Effect.fn("SiteQuestions.list")(function*(organizationId: string, siteId: string, query: QuestionsQuery) {
        const { now, answers } = yield* askings(organizationId, siteId, query)
        const numeric = query.sort === "stats.answered" || query.sort === "stats.feedback" || query.sort === "stats.answers"
        const after = yield* Pagination.afterOf(query, numeric ? ["number", "string"] : ["timestamp", "string"])
        const grouped = byQuestion(answers)
        const views = (yield* repo.questions(siteId)).flatMap((q) => {
          const asked = grouped.get(q.id)
          return asked === undefined ? [] : [questionView(q, asked, now)]
        })
        const keyOf = (v: QuestionView): Pagination.CursorKey => {
          switch (query.sort) {
            case "askedAt":
              return timeKey(v.askedAt, v.id)
            case "stats.answered":
              return [v.stats.answers === 0 ? 0 : v.stats.answered.yes / v.stats.answers, v.id]
            case "stats.feedback":
              return [v.stats.answers === 0 ? 0 : v.stats.feedback.positive / v.stats.answers, v.id]
            case "stats.answers":
              return [v.stats.answers, v.id]
            case undefined:
              return timeKey(v.createdAt, v.id)
          }
        }
        return yield* Pagination.paginateArray(views, keyOf, { order: query.order ?? "desc", after, limit: Pagination.limitOf(query) })
      })

      const get = Effect.fn("SiteQuestions.get")(function*(organizationId: string, siteId: string, questionId: string, filter: RangeFilter) {
        const { now, answers } = yield* askings(organizationId, siteId, filter)
        const question = yield* foundQuestion(siteId, questionId)
        return questionView(question, answers.filter((a) => a.questionId === question.id), now)
      })

      const sources = Effect.fn("SiteQuestions.sources")(function*(organizationId: string, siteId: string, questionId: string, query: RangeFilter & Pagination.PageRequest) {
        const { answers } = yield* askings(organizationId, siteId, query)
        const question = yield* foundQuestion(siteId, questionId)
        const after = yield* Pagination.afterOf(query, ["number", "string"])
        const ranked = questionSources(answers.filter((a) => a.questionId === question.id))
        // The rank is the key: the order is the views' own (most drawn on first).
        return yield* Pagination.paginateArray(ranked.map((view, rank) => ({ view, rank })), ({ rank, view }) => [rank, view.id], {
          order: "asc",
          after,
          limit: Pagination.limitOf(query)
        }).pipe(Effect.map((page) => ({ ...page, items: page.items.map(({ view }) => view) })))
      })

      const stats = Effect.fn("SiteQuestions.stats")(function*(organizationId: string, siteId: string, filter: RangeFilter) {
        const { now, answers } = yield* askings(organizationId, siteId, filter)
        return statsOf(answers, byQuestion(answers).size, now)
      })

      const answers = Effect.fn("SiteQuestions.answers")(function*(organizationId: string, siteId: string, query: RangeFilter & Pagination.PageRequest) {
        const after = yield* Pagination.afterOf(query, ["timestamp", "string"])
        const { answers: kept } = yield* askings(organizationId, siteId, query)
        return yield* Pagination.paginateArray(kept.map(answerView), (v) => timeKey(v.createdAt, v.id), { order: "desc", after, limit: Pagination.limitOf(query) })
      })

      const answer = Effect.fn("SiteQuestions.answer")(function*(organizationId: string, siteId: string, answerId: string) {
        return answerView(yield* foundAnswer(organizationId, siteId, answerId))
      })

      const answerSourcesOf = Effect.fn("SiteQuestions.answerSources")(function*(organizationId: string, siteId: string, answerId: string, page: Pagination.PageRequest) {
        const after = yield* Pagination.afterOf(page, ["number"])
        const found = yield* foundAnswer(organizationId, siteId, answerId)
        const views = answerSources(found)
        return yield* Pagination.paginateArray(views.map((view, i) => ({ view, n: found.sources[i]!.n })), ({ n }) => [n], {
          order: "asc",
          after,
          limit: Pagination.limitOf(page)
        }).pipe(Effect.map((p) => ({ ...p, items: p.items.map(({ view }) => view) })))
      })

      const purgeExpired = Effect.gen(function*() {
        const days = yield* Effect.orDie(InsightsRetentionDays)
        if (days <= 0) return 0
        yield* recorder.flush
        return yield* repo.purgeBefore(new Date((yield* Clock.currentTimeMillis) - days * dayMillis))
      })

      return SiteQuestions.of({ list, get, sources, stats, answers, answer, answerSources: answerSourcesOf, purgeExpired })
    })
  )
}
