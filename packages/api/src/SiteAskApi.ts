/** GitBook's Ask of a site: a question answered from the site's pages by the server's model, as server-sent events. */
import { AiBudgetWords } from "@quire/kernel"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { siteParams } from "./SiteSchemas.ts"
import { SiteSearchScope } from "./SearchApi.ts"

/** 501: the server has no model for Ask (`QUIRE_AI_URL` unset). */
export class NotConfigured extends Schema.Error<NotConfigured>("NotConfigured")({
  error: Schema.Struct({ code: Schema.Literal(501), message: Schema.String })
}, { httpApiStatus: 501 }) {
  static of(message: string): NotConfigured {
    return new NotConfigured({ error: { code: 501, message } })
  }
}

/** 502: the model did not answer. */
export class ModelFailed extends Schema.Error<ModelFailed>("ModelFailed")({
  error: Schema.Struct({ code: Schema.Literal(502), message: Schema.String })
}, { httpApiStatus: 502 }) {
  static of(message: string): ModelFailed {
    return new ModelFailed({ error: { code: 502, message } })
  }
}

/** 429: the organization has spent its AI token budget (`QUIRE_AI_TOKEN_BUDGET`); the message says when it renews. */
export class BudgetSpent extends Schema.Error<BudgetSpent>("BudgetSpent")({
  error: Schema.Struct({ code: Schema.Literal(429), message: Schema.String })
}, { httpApiStatus: 429 }) {
  static of(message: string): BudgetSpent {
    return new BudgetSpent({ error: { code: 429, message } })
  }
}

/** A model's failure as the API answers it: 429 when it was the organization's spent budget, else 502. */
export const modelFailure = (message: string): ModelFailed | BudgetSpent =>
  AiBudgetWords.isSpent(message) ? BudgetSpent.of(message) : ModelFailed.of(message)


/** GitBook's `SearchAIAnswerSourcePage`. */
export const SearchAIAnswerSourcePage = Schema.Struct({
  type: Schema.Literal("page"),
  reason: Schema.optionalKey(Schema.String),
  page: Schema.String,
  revision: Schema.String,
  space: Schema.String,
  sections: Schema.Array(Schema.String),
  /** Quire adds where the page is read: its title and URL on the published site. */
  title: Schema.optionalKey(Schema.String),
  url: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "SearchAIAnswerSourcePage" })

/** GitBook's `SearchAIAnswer`: `answer` is a document, or markdown text with `format=markdown`. */
export const SearchAIAnswer = Schema.Struct({
  /** GitBook's `Document`: `{ markdown }` with `format=markdown`, else `{ document }` (a JSON document). */
  answer: Schema.optionalKey(Schema.Union([Schema.Struct({ markdown: Schema.String }), Schema.Struct({ document: Schema.Record(Schema.String, Schema.Unknown) })])),
  followupQuestions: Schema.Array(Schema.String),
  sources: Schema.Array(SearchAIAnswerSourcePage)
}).annotate({ identifier: "SearchAIAnswer" })

/** GitBook's `SearchAIAnswerStream`: one event of the answer's stream. */
export const SearchAIAnswerStream = Schema.Struct({
  type: Schema.Literal("answer"),
  answer: SearchAIAnswer
}).annotate({ identifier: "SearchAIAnswerStream" })
export type SearchAIAnswerStream = typeof SearchAIAnswerStream.Type

/** GitBook's `SearchAIRecommendedQuestions`. */
export const SearchAIRecommendedQuestions = Schema.Struct({
  questions: Schema.Array(Schema.String)
}).annotate({ identifier: "SearchAIRecommendedQuestions" })

/** GitBook's `SearchAIRecommendedQuestionStream`: one question of the stream. */
export const SearchAIRecommendedQuestionStream = Schema.Struct({
  question: Schema.String
}).annotate({ identifier: "SearchAIRecommendedQuestionStream" })

/** GitBook's `AIMessageInput`: a message of the conversation, as text or a document. */
export const AIMessageInput = Schema.Struct({
  role: Schema.Literals(["user", "assistant", "developer"]),
  content: Schema.Union([Schema.String.check(Schema.isMaxLength(2048)), Schema.Struct({ object: Schema.Literal("document"), data: Schema.Record(Schema.String, Schema.Unknown), nodes: Schema.Array(Schema.Unknown) })]),
  context: Schema.optionalKey(Schema.Unknown),
  attachments: Schema.optionalKey(Schema.Array(Schema.Unknown))
}).annotate({ identifier: "AIMessageInput" })

const messageId = { messageId: Schema.String }
/** GitBook's `AIStreamResponse`: the events Quire sends of it (start, step, document, follow-ups, finish). */
export const AIStreamResponse = Schema.Union([
  Schema.Struct({ type: Schema.Literal("response_start"), ...messageId }),
  Schema.Struct({ type: Schema.Literal("response_step_start"), ...messageId, stepIndex: Schema.Int, phase: Schema.optionalKey(Schema.Literals(["commentary", "final_answer"])) }),
  Schema.Struct({ type: Schema.Literal("response_document"), ...messageId, stepIndex: Schema.Int, operation: Schema.Literals(["insert", "update"]), blocks: Schema.Array(Schema.Unknown) }),
  Schema.Struct({ type: Schema.Literal("response_followup_suggestion"), ...messageId, suggestions: Schema.Array(Schema.String) }),
  Schema.Struct({ type: Schema.Literal("response_finish"), ...messageId, response: Schema.Struct({ id: Schema.optionalKey(Schema.String), previous: Schema.optionalKey(Schema.String) }) })
]).annotate({ identifier: "AIStreamResponse" })
export type AIStreamResponse = typeof AIStreamResponse.Type

export class SiteAskApi extends HttpApiGroup.make("siteAsk")
  .add(
    /** Answers a question from the published site's pages, citing them; a stream whose last event holds the whole answer. */
    HttpApiEndpoint.post("streamAskInSite", "/orgs/:organizationId/sites/:siteId/ask", {
      params: siteParams,
      query: Schema.Struct({ format: Schema.optionalKey(Schema.Literals(["document", "markdown"])) }),
      payload: Schema.Struct({
        question: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(512)),
        context: Schema.optionalKey(Schema.Struct({ siteSpaceId: Schema.optionalKey(Schema.String), goal: Schema.optionalKey(Schema.Unknown) })),
        scope: SiteSearchScope,
        session: Schema.optionalKey(Schema.Unknown)
      }),
      success: HttpApiSchema.StreamSse({ data: SearchAIAnswerStream }),
      error: [...ApiErrors.Common, NotConfigured, ModelFailed, BudgetSpent]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Ask a question in a site",
        description:
          "Answers from the published site's pages as its anonymous reader sees them, with the pages it drew on, as server-sent events. " +
          "Any member may call it. Answers 501 when the server has no model (QUIRE_AI_URL)."
      }))
  )
  .add(
    HttpApiEndpoint.get("streamRecommendedQuestionsInSite", "/orgs/:organizationId/sites/:siteId/ask/questions", {
      params: siteParams,
      query: Schema.Struct({ siteSpaceId: Schema.optionalKey(Schema.String), spaceId: Schema.optionalKey(Schema.String) }),
      success: HttpApiSchema.StreamSse({ data: SearchAIRecommendedQuestionStream }),
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({
      summary: "Stream the questions to ask in a site",
      description:
        "At most five questions, one an event: those the site's customization suggests (`ai.suggestions`), else the model's from the pages a reader meets first, " +
        "else (no model) questions of those pages. Read from the published site as its anonymous reader sees it, within the spaces the caller may read; `siteSpaceId` narrows it to one site space."
    }))
  )
  .add(
    HttpApiEndpoint.post("streamAIResponseInSite", "/orgs/:organizationId/sites/:siteId/ai/response", {
      params: siteParams,
      payload: Schema.Struct({
        input: Schema.Array(AIMessageInput).check(Schema.isMinLength(1), Schema.isMaxLength(50)),
        previousResponseId: Schema.optionalKey(Schema.String),
        model: Schema.optionalKey(Schema.Literals(["fast", "reasoning-low", "reasoning-medium", "reasoning-high"])),
        tools: Schema.optionalKey(Schema.Array(Schema.Unknown)),
        toolCall: Schema.optionalKey(Schema.Unknown),
        session: Schema.optionalKey(Schema.Unknown),
        channel: Schema.optionalKey(Schema.Struct({ type: Schema.Literals(["site", "embed", "api"]) }))
      }),
      success: HttpApiSchema.StreamSse({ data: AIStreamResponse }),
      error: [...ApiErrors.Common, NotConfigured, ModelFailed, BudgetSpent]
    }).annotateMerge(OpenApi.annotations({
      summary: "Generate an AI response in a site",
      description:
        "Answers the last user message of `input` from the published site's pages as the caller may read them (as streamAskInSite does, and recorded on the site's questions), " +
        "as GitBook's response events: `response_start`, `response_step_start`, `response_document` (the answer as document blocks), `response_followup_suggestion`, `response_finish`. " +
        "Client tools (`tools`, `toolCall`) and `model` are accepted and not used: the server's model answers. Answers 501 when the server has no model (QUIRE_AI_URL)."
    }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
