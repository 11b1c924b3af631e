/**
 * GitBook's `site-questions` operations (AI insights): the questions asked on a published site's
 * Ask, grouped, with their stats, each asking with its answer, and the pages they drew on.
 */
import { Schema } from "effect"
import {
  AskChannel,
  AskOutcome,
  ChannelType,
  CoreChannelType,
  QuestionHelpfulness,
  QuestionRelevance,
  QuestionResolution,
  QuestionSort,
  QuestionType
} from "@quire/sites/domain/SiteQuestion"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { DateTime, EntityId, ListOf, Order, PageQuery, Text, Timestamp } from "./Schemas.ts"
import { siteParams } from "./SiteSchemas.ts"

const Counts = <const K extends ReadonlyArray<string>>(keys: K) =>
  Schema.Struct(Object.fromEntries(keys.map((k) => [k, Schema.Finite])) as { readonly [P in K[number]]: typeof Schema.Finite })

/** GitBook's `SiteQuestionStats`. */
export const SiteQuestionStats = Schema.Struct({
  total: Schema.Finite,
  answers: Schema.Finite,
  feedback: Counts(["positive", "negative", "unrated"]),
  answered: Counts(["yes", "partially", "no"]),
  relevance: Counts(["relevant", "spam", "off-topic", "unclear"]),
  types: Counts(["exploring", "how-to", "troubleshooting", "reference", "unknown"]),
  channelTypes: Schema.Record(Schema.String, Schema.Finite),
  channels: Schema.Record(Schema.String, Schema.Finite),
  weeklyPulse: Schema.Array(Schema.Finite)
}).annotate({ identifier: "SiteQuestionStats" })

const Location = Schema.Struct({ location: Schema.String })

/** GitBook's `SiteQuestion`. */
export const SiteQuestion = Schema.Struct({
  object: Schema.Literal("site-question"),
  id: Schema.String,
  question: Schema.String,
  type: QuestionType,
  createdAt: Timestamp,
  askedAt: Timestamp,
  stats: SiteQuestionStats,
  urls: Location
}).annotate({ identifier: "SiteQuestion" })
export type SiteQuestion = typeof SiteQuestion.Type

/** GitBook's `SiteQuestionAnswer`, with Quire's `via`, `outcome`, `output` and `siteSpaces`. */
export const SiteQuestionAnswer = Schema.Struct({
  object: Schema.Literal("site-question-answer"),
  id: Schema.String,
  question: Schema.Struct({ id: Schema.String, type: QuestionType }),
  topics: Schema.Array(Schema.String),
  input: Schema.Struct({ text: Schema.String, raw: Schema.String }),
  responseId: Schema.String,
  language: Schema.String,
  answered: QuestionResolution,
  helpfulness: QuestionHelpfulness,
  relevance: QuestionRelevance,
  channel: Schema.Struct({ type: CoreChannelType }),
  createdAt: Timestamp,
  urls: Location,
  /** Quire's: how the question came (the site's Ask page, its MCP server, the API). */
  via: AskChannel,
  /** Quire's: answered citing the pages, no page found, the pages did not answer, the model failed, no model. */
  outcome: AskOutcome,
  /** Quire's: the answer the asker got, in markdown. */
  output: Schema.Struct({ markdown: Schema.String }),
  /** Quire's: the site spaces the question searched. */
  siteSpaces: Schema.Array(Schema.String)
}).annotate({ identifier: "SiteQuestionAnswer" })
export type SiteQuestionAnswer = typeof SiteQuestionAnswer.Type

/** GitBook's `AIMessage` as an answer's `response` holds it: one final step whose content is the answer. */
const AIMessage = Schema.Struct({
  id: Schema.String,
  role: Schema.Literals(["user", "assistant", "developer"]),
  steps: Schema.Array(Schema.Struct({
    content: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown)),
    phase: Schema.optionalKey(Schema.Literals(["commentary", "final_answer"]))
  })),
  createdAt: Schema.optionalKey(Timestamp)
}).annotate({ identifier: "AIMessage" })

/** GitBook's `SiteQuestionAnswerWithResponse`. */
export const SiteQuestionAnswerWithResponse = Schema.Struct({ ...SiteQuestionAnswer.fields, response: AIMessage })
  .annotate({ identifier: "SiteQuestionAnswerWithResponse" })
export type SiteQuestionAnswerWithResponse = typeof SiteQuestionAnswerWithResponse.Type

/** GitBook's page `SiteQuestionAnswerSource`, with Quire's sections and how many askings drew on the page. */
export const SiteQuestionAnswerSource = Schema.Struct({
  object: Schema.Literal("site-question-answer-source"),
  id: Schema.String,
  type: Schema.Literal("page"),
  weight: Schema.Finite,
  title: Schema.String,
  space: Schema.String,
  revision: Schema.String,
  page: Schema.String,
  urls: Location,
  /** Quire's: the sections of the page given to the model. */
  sections: Schema.Array(Schema.Struct({ id: Schema.String, title: Schema.String })),
  /** Quire's: the askings that drew on the page (1 for an asking's own source). */
  answers: Schema.Finite,
  /** Quire's, on an asking's source: whether its answer cites the page. */
  cited: Schema.optionalKey(Schema.Boolean)
}).annotate({ identifier: "SiteQuestionAnswerSource" })
export type SiteQuestionAnswerSource = typeof SiteQuestionAnswerSource.Type

/** A query parameter that may be repeated. */
const many = <S extends Schema.Top>(item: S) => Schema.optional(Schema.Union([item, Schema.Array(item).check(Schema.isMaxLength(20))]))

const rangeQuery = { from: Schema.optional(DateTime), to: Schema.optional(DateTime) } as const
const filterQuery = {
  ...rangeQuery,
  relevance: many(QuestionRelevance),
  channelType: many(ChannelType),
  answered: many(QuestionResolution)
} as const
const Topic = Text.check(Schema.isMaxLength(100))

const questionParams = { ...siteParams, siteQuestionId: EntityId } as const
const answerParams = { ...siteParams, siteQuestionAnswerId: EntityId } as const

const readers = "Members of the site's organization with a role may call it, as they read its insights."

export class SiteQuestionsApi extends HttpApiGroup.make("siteQuestions")
  .add(
    /** The questions asked on the site. */
    HttpApiEndpoint.get("listSiteQuestions", "/orgs/:organizationId/sites/:siteId/questions", {
      params: siteParams,
      query: {
        ...PageQuery,
        ...filterQuery,
        type: Schema.optional(QuestionType),
        topic: many(Topic),
        order: Schema.optional(Order),
        sort: Schema.optional(QuestionSort)
      },
      success: ListOf(SiteQuestion),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a site's questions",
        description:
          "The questions readers asked the site's Ask (its page, its MCP server's `askQuestion`, `streamAskInSite`), repeated askings grouped into one question by their words. " +
          "A question is listed when one of its askings passes the filters (`from`, `to`, `answered`, `channelType`, ...), and its `stats` count those. " +
          "Newest question first unless `sort` (`askedAt`: latest asking; `stats.answers`: most asked; `stats.answered`: answered rate) or `order=asc`. " +
          "Quire classifies nothing: every question is of type `unknown` and `relevant`, and has no topic (a `topic` filter keeps none). " + readers
      }))
  )
  .add(
    /** A question of the site, with its stats. */
    HttpApiEndpoint.get("getSiteQuestionById", "/orgs/:organizationId/sites/:siteId/questions/:siteQuestionId", {
      params: questionParams,
      query: filterQuery,
      success: SiteQuestion,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({ summary: "Get a site question", description: `The question with its stats over the askings the filters keep. ${readers}` }))
  )
  .add(
    /** The pages a question's askings drew on. */
    HttpApiEndpoint.get("listSiteQuestionSources", "/orgs/:organizationId/sites/:siteId/questions/:siteQuestionId/sources", {
      params: questionParams,
      query: { ...PageQuery, ...filterQuery },
      success: ListOf(SiteQuestionAnswerSource),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a site question's sources",
        description: `The pages the question's askings drew on, one per page as its latest asking saw it; \`weight\` is the share of askings that drew on it, most drawn on first. ${readers}`
      }))
  )
  .add(
    /** Stats over the site's questions. */
    HttpApiEndpoint.get("getSiteQuestionStats", "/orgs/:organizationId/sites/:siteId/question-stats", {
      params: siteParams,
      query: { ...filterQuery, topic: many(Topic) },
      success: SiteQuestionStats,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a site's question stats",
        description: `How many questions and askings the filters keep, how many were answered (cited the pages) or not, by channel, and by week over the last 13 weeks (oldest first). ${readers}`
      }))
  )
  .add(
    /** Each asking of the site's questions, newest first. */
    HttpApiEndpoint.get("listSiteQuestionAnswers", "/orgs/:organizationId/sites/:siteId/answers", {
      params: siteParams,
      query: {
        ...PageQuery,
        ...filterQuery,
        question: Schema.optional(EntityId),
        language: Schema.optional(Text.check(Schema.isMaxLength(35))),
        helpfulness: Schema.optional(QuestionHelpfulness),
        "question.type": Schema.optional(QuestionType),
        topic: Schema.optional(Topic),
        thread: Schema.optional(EntityId)
      },
      success: ListOf(SiteQuestionAnswer),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a site's question answers",
        description:
          "Each time a question was asked, newest first: the text as asked, how (`channel`, and Quire's `via`: `site`, `mcp` or `api`), whether it was answered, and Quire's `outcome` and `output` (the answer given). " +
          "`answered` is `yes` when the answer cited the site's pages and `no` otherwise; `helpfulness` follows it (`high`, `low`). `language` is the asker's client's first language, `und` when it said none. " +
          "Ask answers one question at a time: each answer is a thread of its own. " + readers
      }))
  )
  .add(
    /** An asking with the answer given. */
    HttpApiEndpoint.get("getSiteQuestionAnswerById", "/orgs/:organizationId/sites/:siteId/answers/:siteQuestionAnswerId", {
      params: answerParams,
      success: SiteQuestionAnswerWithResponse,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({ summary: "Get a site question answer", description: `The asking with its \`response\`: the answer given, as a document. ${readers}` }))
  )
  .add(
    /** The thread an asking belongs to. */
    HttpApiEndpoint.get("getSiteQuestionAnswerThreadById", "/orgs/:organizationId/sites/:siteId/answers/:siteQuestionAnswerId/thread", {
      params: answerParams,
      success: Schema.Array(SiteQuestionAnswerWithResponse),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a site question answer's thread",
        description: `The askings of the answer's thread in order. Ask answers one question at a time, so a thread is the asking itself. ${readers}`
      }))
  )
  .add(
    /** The pages an asking drew on. */
    HttpApiEndpoint.get("listSiteQuestionAnswerSources", "/orgs/:organizationId/sites/:siteId/answers/:siteQuestionAnswerId/sources", {
      params: answerParams,
      query: PageQuery,
      success: ListOf(SiteQuestionAnswerSource),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a site question answer's sources",
        description: `The pages given to the model for this asking, in their order, with their sections; the ones the answer cites share the \`weight\` (all do when it cites none). ${readers}`
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
