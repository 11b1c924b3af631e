/**
 * GitBook's views of a site's questions over stored askings, written once for every store: which
 * askings a filter keeps, a question's stats, the askings and their sources as GitBook shows them.
 * Quire classifies nothing: every question is of type `unknown` and `relevant`, has no topic and no
 * rating; an answer is `yes` (helpfulness `high`) when it cited the pages, else `no` (`low`).
 */
import {
  type AnswerSource,
  type AskChannel,
  type AskOutcome,
  type ChannelType,
  channelTypeOf,
  type QuestionHelpfulness,
  type QuestionRelevance,
  type QuestionResolution,
  type QuestionType,
  resolutionOf,
  type StoredAnswer,
  type StoredQuestion
} from "../domain/SiteQuestion.ts"

/** The filters GitBook's operations take on askings (each operation takes some of them). */
export interface AnswerFilter {
  readonly relevance?: ReadonlyArray<QuestionRelevance> | undefined
  readonly channelType?: ReadonlyArray<ChannelType> | undefined
  readonly answered?: ReadonlyArray<QuestionResolution> | undefined
  readonly topic?: ReadonlyArray<string> | undefined
  readonly type?: QuestionType | undefined
  readonly language?: string | undefined
  readonly helpfulness?: QuestionHelpfulness | undefined
  readonly question?: string | undefined
  readonly thread?: string | undefined
}

const questionType: QuestionType = "unknown"
const relevance: QuestionRelevance = "relevant"
const helpfulnessOf = (outcome: AskOutcome): QuestionHelpfulness => (outcome === "answered" ? "high" : "low")
/** An answer's language when the asker's client said none: ISO 639's "undetermined". */
const unknownLanguage = "und"

const within = <A>(values: ReadonlyArray<A> | undefined, value: A) => values === undefined || values.length === 0 || values.includes(value)

/** Whether an asking passes the filter. */
export const matches = (answer: StoredAnswer, filter: AnswerFilter): boolean =>
  within(filter.relevance, relevance) &&
  within(filter.channelType, channelTypeOf(answer.channel)) &&
  within(filter.answered, resolutionOf(answer.outcome)) &&
  // No asking has a topic: a topic filter keeps none.
  (filter.topic === undefined || filter.topic.length === 0) &&
  (filter.type === undefined || filter.type === questionType) &&
  (filter.language === undefined || filter.language.toLowerCase() === (answer.language ?? unknownLanguage).toLowerCase()) &&
  (filter.helpfulness === undefined || filter.helpfulness === helpfulnessOf(answer.outcome)) &&
  (filter.question === undefined || filter.question === answer.questionId) &&
  // Each asking is a thread of its own (Ask answers one question at a time).
  (filter.thread === undefined || filter.thread === answer.id)

/** GitBook's `SiteQuestionStats`. */
export interface QuestionStats {
  readonly total: number
  readonly answers: number
  readonly feedback: { readonly positive: number; readonly negative: number; readonly unrated: number }
  readonly answered: { readonly yes: number; readonly partially: number; readonly no: number }
  readonly relevance: { readonly relevant: number; readonly spam: number; readonly "off-topic": number; readonly unclear: number }
  readonly types: { readonly exploring: number; readonly "how-to": number; readonly troubleshooting: number; readonly reference: number; readonly unknown: number }
  readonly channelTypes: Readonly<Record<string, number>>
  readonly channels: Readonly<Record<string, number>>
  readonly weeklyPulse: ReadonlyArray<number>
}

const weekMillis = 7 * 24 * 60 * 60 * 1000
const pulseWeeks = 13

/** The stats of `answers` (askings of `total` questions), with the weekly count of the 13 weeks up to `now`, oldest first. */
export const statsOf = (answers: ReadonlyArray<StoredAnswer>, total: number, now: number): QuestionStats => {
  const count = (outcome: (a: StoredAnswer) => boolean) => answers.filter(outcome).length
  const channelTypes: Record<string, number> = {}
  for (const a of answers) channelTypes[channelTypeOf(a.channel)] = (channelTypes[channelTypeOf(a.channel)] ?? 0) + 1
  const weeklyPulse = Array.from({ length: pulseWeeks }, () => 0)
  for (const a of answers) {
    const weeksAgo = Math.floor((now - a.at.getTime()) / weekMillis)
    if (weeksAgo >= 0 && weeksAgo < pulseWeeks) weeklyPulse[pulseWeeks - 1 - weeksAgo]!++
  }
  const yes = count((a) => resolutionOf(a.outcome) === "yes")
  return {
    total,
    answers: answers.length,
    feedback: { positive: 0, negative: 0, unrated: answers.length },
    answered: { yes, partially: 0, no: answers.length - yes },
    relevance: { relevant: answers.length, spam: 0, "off-topic": 0, unclear: 0 },
    types: { exploring: 0, "how-to": 0, troubleshooting: 0, reference: 0, unknown: answers.length },
    channelTypes,
    channels: {},
    weeklyPulse
  }
}

/** GitBook's `SiteQuestion`, without its URLs. */
export interface QuestionView {
  readonly object: "site-question"
  readonly id: string
  readonly question: string
  readonly type: QuestionType
  readonly createdAt: string
  readonly askedAt: string
  readonly stats: QuestionStats
}

/** A question with its askings (those the filter kept, newest first). */
export const questionView = (question: StoredQuestion, answers: ReadonlyArray<StoredAnswer>, now: number): QuestionView => ({
  object: "site-question",
  id: question.id,
  question: question.text,
  type: questionType,
  createdAt: question.createdAt.toISOString(),
  askedAt: (answers[0]?.at ?? question.createdAt).toISOString(),
  stats: statsOf(answers, 1, now)
})

/** GitBook's `SiteQuestionAnswer` without its URLs, and Quire's: how it was asked, what became of it, the answer, the site spaces searched. */
export interface AnswerView {
  readonly object: "site-question-answer"
  readonly id: string
  readonly question: { readonly id: string; readonly type: QuestionType }
  readonly topics: ReadonlyArray<string>
  readonly input: { readonly text: string; readonly raw: string }
  readonly responseId: string
  readonly language: string
  readonly answered: QuestionResolution
  readonly helpfulness: QuestionHelpfulness
  readonly relevance: QuestionRelevance
  readonly channel: { readonly type: "site" | "api" }
  readonly createdAt: string
  readonly via: AskChannel
  readonly outcome: AskOutcome
  readonly output: { readonly markdown: string }
  readonly siteSpaces: ReadonlyArray<string>
}

export const answerView = (answer: StoredAnswer): AnswerView => ({
  object: "site-question-answer",
  id: answer.id,
  question: { id: answer.questionId, type: questionType },
  topics: [],
  input: { text: answer.text, raw: answer.raw },
  responseId: answer.id,
  language: answer.language ?? unknownLanguage,
  answered: resolutionOf(answer.outcome),
  helpfulness: helpfulnessOf(answer.outcome),
  relevance,
  channel: { type: channelTypeOf(answer.channel) },
  createdAt: answer.at.toISOString(),
  via: answer.channel,
  outcome: answer.outcome,
  output: { markdown: answer.answer },
  siteSpaces: answer.siteSpaces
})

/** GitBook's page `SiteQuestionAnswerSource` without its URLs, with Quire's sections and, for a question's, how many askings drew on it. */
export interface SourceView {
  readonly object: "site-question-answer-source"
  readonly id: string
  readonly type: "page"
  readonly weight: number
  readonly title: string
  readonly space: string
  readonly revision: string
  readonly page: string
  readonly sections: ReadonlyArray<{ readonly id: string; readonly title: string }>
  /** The asking whose URL the source's `urls.location` names. */
  readonly answer: string
  /** The askings that drew on it (1 for an asking's own). */
  readonly answers: number
  /** An asking's: whether its answer cites it. */
  readonly cited?: boolean
}

/** An asking's sources in their prompt order: the cited ones share the weight, or all do when none is cited. */
export const answerSources = (answer: StoredAnswer): ReadonlyArray<SourceView> => {
  const weighed = answer.sources.some((s) => s.cited) ? answer.sources.filter((s) => s.cited).length : answer.sources.length
  return answer.sources.map((s: AnswerSource) => ({
    object: "site-question-answer-source",
    id: `${answer.id}-${s.n}`,
    type: "page",
    weight: !answer.sources.some((x) => x.cited) || s.cited ? 1 / weighed : 0,
    title: s.title,
    space: s.spaceId,
    revision: s.revisionId,
    page: s.pageId,
    sections: s.sections,
    answer: answer.id,
    answers: 1,
    cited: s.cited
  }))
}

/**
 * A question's sources over its askings (newest first): one per page, as its newest asking saw it,
 * weighted by the share of askings that drew on it, most drawn on first.
 */
export const questionSources = (answers: ReadonlyArray<StoredAnswer>): ReadonlyArray<SourceView> => {
  const pages = new Map<string, { source: AnswerSource; answer: string; answers: number }>()
  for (const a of answers) {
    for (const s of a.sources) {
      const key = `${s.spaceId}-${s.pageId}`
      const found = pages.get(key)
      pages.set(key, found === undefined ? { source: s, answer: a.id, answers: 1 } : { ...found, answers: found.answers + 1 })
    }
  }
  return Array.from(pages, ([key, { source, answer, answers: count }]): SourceView => ({
    object: "site-question-answer-source",
    id: key,
    type: "page",
    weight: answers.length === 0 ? 0 : count / answers.length,
    title: source.title,
    space: source.spaceId,
    revision: source.revisionId,
    page: source.pageId,
    sections: source.sections,
    answer,
    answers: count
  })).toSorted((a, b) => b.answers - a.answers || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}
