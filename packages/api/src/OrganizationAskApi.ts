/**
 * GitBook's Ask of an organization: a member's question answered from the pages of the spaces they
 * may read, by the server's model when it has one, else with the passages found; and the questions
 * worth asking. Each as JSON and as server-sent events.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId } from "./Schemas.ts"
import { BudgetSpent, ModelFailed, SearchAIAnswer, SearchAIAnswerStream, SearchAIRecommendedQuestions, SearchAIRecommendedQuestionStream } from "./SiteAskApi.ts"

const params = { organizationId: EntityId }

/** A question: 1 to 512 characters. */
const Question = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(512))

/** `format`: the answer as a GitBook document (the default) or as markdown text; `details` is accepted as GitBook's. */
const AnswerQuery = {
  format: Schema.optionalKey(Schema.Literals(["document", "markdown"])),
  details: Schema.optionalKey(Schema.Literals(["true", "false"]))
}

const without = "Without a model (QUIRE_AI_URL unset), the answer is the passages that best match the question, each with its page."

export class OrganizationAskApi extends HttpApiGroup.make("organizationAsk")
  .add(
    HttpApiEndpoint.post("askInOrganization", "/orgs/:organizationId/ask", {
      params,
      query: Schema.Struct(AnswerQuery),
      payload: Schema.Struct({
        query: Question,
        previousQueries: Schema.optionalKey(Schema.Array(Schema.String.check(Schema.isMaxLength(512))).check(Schema.isMaxLength(10)))
      }),
      success: Schema.Struct({ answer: Schema.optionalKey(SearchAIAnswer) }),
      error: [...ApiErrors.Common, ModelFailed, BudgetSpent]
    }).annotateMerge(OpenApi.annotations({
      summary: "Ask a question in an organization",
      description: `Answers from the pages of the organization's spaces the caller may read, with the pages and sections it stands on. ${without}`
    }))
  )
  .add(
    HttpApiEndpoint.get("streamAskInOrganization", "/orgs/:organizationId/ask/stream", {
      params,
      query: Schema.Struct({ query: Question, ...AnswerQuery }),
      success: HttpApiSchema.StreamSse({ data: SearchAIAnswerStream }),
      error: [...ApiErrors.Common, ModelFailed, BudgetSpent]
    }).annotateMerge(OpenApi.annotations({
      summary: "Stream the answer to a question in an organization",
      description: `As askInOrganization, as server-sent events; the last event holds the whole answer. ${without}`
    }))
  )
  .add(
    HttpApiEndpoint.get("getRecommendedQuestionsInOrganization", "/orgs/:organizationId/ask/questions", {
      params,
      success: SearchAIRecommendedQuestions,
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({
      summary: "Questions to ask in an organization",
      description: "At most five questions the caller's readable pages answer: the model's, or without one, questions of the pages a reader meets first."
    }))
  )
  .add(
    HttpApiEndpoint.get("streamRecommendedQuestionsInOrganization", "/orgs/:organizationId/ask/questions/stream", {
      params,
      success: HttpApiSchema.StreamSse({ data: SearchAIRecommendedQuestionStream }),
      error: ApiErrors.Common
    }).annotateMerge(OpenApi.annotations({
      summary: "Stream the questions to ask in an organization",
      description: "As getRecommendedQuestionsInOrganization, one question an event."
    }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
