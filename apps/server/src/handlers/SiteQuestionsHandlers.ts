/** Handlers of GitBook's site questions (AI insights): the questions asked on a site's Ask, their askings and sources. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, type SiteQuestionAnswerWithResponse } from "@quire/api"
import { type AnswerView, type QuestionView, SiteQuestions, type SourceView } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"
import { list } from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"
import { documentOf } from "./SiteAskHandlers.ts"

/** A repeatable query parameter as a list. */
const listOf = <A>(value: A | ReadonlyArray<A> | undefined): ReadonlyArray<A> | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value as A]

type Site = { readonly organizationId: string; readonly siteId: string }
const sitePath = (site: Site) => `/orgs/${site.organizationId}/sites/${site.siteId}`

export const layer = HttpApiBuilder.group(Api, "siteQuestions", Effect.fn(function*(handlers) {
  const questions = yield* SiteQuestions
  const urls = yield* PublicUrl
  const question = (site: Site) => (view: QuestionView) => ({ ...view, urls: { location: urls.api(`${sitePath(site)}/questions/${view.id}`) } })
  const answer = (site: Site) => (view: AnswerView) => ({ ...view, urls: { location: urls.api(`${sitePath(site)}/answers/${view.id}`) } })
  const source = (site: Site) => (view: SourceView) => ({ ...view, urls: { location: urls.api(`${sitePath(site)}/answers/${view.answer}`) } })
  const withResponse = (site: Site) => (view: AnswerView): SiteQuestionAnswerWithResponse => ({
    ...answer(site)(view),
    response: { id: view.responseId, role: "assistant", steps: [{ content: documentOf(view.output.markdown), phase: "final_answer" }], createdAt: view.createdAt }
  })

  return handlers
    .handle("listSiteQuestions", ({ params, query }) =>
      questions.list(params.organizationId, params.siteId, {
        ...query,
        relevance: listOf(query.relevance),
        channelType: listOf(query.channelType),
        answered: listOf(query.answered),
        topic: listOf(query.topic)
      }).pipe(Effect.map((page) => list(page, question(params))), DomainErrors.api))
    .handle("getSiteQuestionById", ({ params, query }) =>
      questions.get(params.organizationId, params.siteId, params.siteQuestionId, {
        ...query,
        relevance: listOf(query.relevance),
        channelType: listOf(query.channelType),
        answered: listOf(query.answered)
      }).pipe(Effect.map(question(params)), DomainErrors.api))
    .handle("listSiteQuestionSources", ({ params, query }) =>
      questions.sources(params.organizationId, params.siteId, params.siteQuestionId, {
        ...query,
        relevance: listOf(query.relevance),
        channelType: listOf(query.channelType),
        answered: listOf(query.answered)
      }).pipe(Effect.map((page) => list(page, source(params))), DomainErrors.api))
    .handle("getSiteQuestionStats", ({ params, query }) =>
      questions.stats(params.organizationId, params.siteId, {
        ...query,
        relevance: listOf(query.relevance),
        channelType: listOf(query.channelType),
        answered: listOf(query.answered),
        topic: listOf(query.topic)
      }).pipe(DomainErrors.api))
    .handle("listSiteQuestionAnswers", ({ params, query }) => {
      const { "question.type": type, topic, ...rest } = query
      return questions.answers(params.organizationId, params.siteId, {
        ...rest,
        type,
        topic: listOf(topic),
        relevance: listOf(query.relevance),
        channelType: listOf(query.channelType),
        answered: listOf(query.answered)
      }).pipe(Effect.map((page) => list(page, answer(params))), DomainErrors.api)
    })
    .handle("getSiteQuestionAnswerById", ({ params }) =>
      questions.answer(params.organizationId, params.siteId, params.siteQuestionAnswerId).pipe(Effect.map(withResponse(params)), DomainErrors.api))
    .handle("getSiteQuestionAnswerThreadById", ({ params }) =>
      questions.answer(params.organizationId, params.siteId, params.siteQuestionAnswerId).pipe(Effect.map((view) => [withResponse(params)(view)]), DomainErrors.api))
    .handle("listSiteQuestionAnswerSources", ({ params, query }) =>
      questions.answerSources(params.organizationId, params.siteId, params.siteQuestionAnswerId, query).pipe(
        Effect.map((page) => list(page, source(params))),
        DomainErrors.api
      ))
}))
