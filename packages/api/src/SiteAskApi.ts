/** GitBook's Ask of a site: a question answered from the site's pages by the server's model, as server-sent events. */
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
  answer: Schema.optionalKey(Schema.Union([Schema.String, Schema.Record(Schema.String, Schema.Unknown)])),
  followupQuestions: Schema.Array(Schema.String),
  sources: Schema.Array(SearchAIAnswerSourcePage)
}).annotate({ identifier: "SearchAIAnswer" })

/** GitBook's `SearchAIAnswerStream`: one event of the answer's stream. */
export const SearchAIAnswerStream = Schema.Struct({
  type: Schema.Literal("answer"),
  answer: SearchAIAnswer
}).annotate({ identifier: "SearchAIAnswerStream" })
export type SearchAIAnswerStream = typeof SearchAIAnswerStream.Type

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
      error: [...ApiErrors.Common, NotConfigured, ModelFailed]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Ask a question in a site",
        description:
          "Answers from the published site's pages as its anonymous reader sees them, with the pages it drew on, as server-sent events. " +
          "Any member may call it. Answers 501 when the server has no model (QUIRE_AI_URL)."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
