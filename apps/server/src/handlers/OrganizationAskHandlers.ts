/**
 * Handlers of GitBook's Ask of an organization: a member's question answered from what they may
 * read (content's OrganizationAsk), as JSON or as server-sent events; the questions worth asking.
 * A question spends the caller's Ask budget, as a site's does.
 */
import { Effect, Stream } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api, ApiErrors, BudgetSpent, ModelFailed, modelFailure } from "@quire/api"
import { type OrganizationAnswer, OrganizationAsk, type OrganizationAskFailure } from "@quire/content"
import type { Errors } from "@quire/kernel"
import * as DomainErrors from "../DomainErrors.ts"
import { PublicUrl } from "../PublicUrl.ts"
import { callerKey, siteLimits, siteRefused, TrustProxy } from "../RateLimits.ts"
import { answerOf } from "./SiteAskHandlers.ts"

const answerOfReply = (reply: OrganizationAnswer, format: "document" | "markdown", base: string) =>
  answerOf(reply.answer, reply.sources.map((s) => ({ ...s, url: new URL(s.path, base).toString() })), format)

export const layer = HttpApiBuilder.group(Api, "organizationAsk", Effect.fn(function*(handlers) {
  const asker = yield* OrganizationAsk
  const urls = yield* PublicUrl
  const limits = yield* siteLimits
  const trustProxy = yield* Effect.orDie(TrustProxy)
  /** The 429 of a caller past their budget of questions in the organization, or nothing. */
  const refused = (organizationId: string) =>
    Effect.gen(function*() {
      const refusal = yield* limits.spend("ask", `org:${organizationId}`, callerKey(yield* HttpServerRequest.HttpServerRequest, trustProxy))
      return refusal === undefined ? undefined : siteRefused({ ...refusal, message: refusal.message.replace("on this site", "in this organization") })
    })
  const answer = (organizationId: string, question: string, format: "document" | "markdown" | undefined) =>
    asker.ask(organizationId, question).pipe(
      Effect.catch((failure: OrganizationAskFailure | Errors.NotFound): Effect.Effect<never, ApiErrors.NotFound | ApiErrors.BadRequest | ModelFailed | BudgetSpent> =>
        !("kind" in failure) ? DomainErrors.api(Effect.fail(failure))
          : Effect.fail(failure.kind === "BadQuestion" ? ApiErrors.BadRequest.of(failure.message, "query") : modelFailure(failure.message))
      ),
      Effect.map((reply) => answerOfReply(reply, format ?? "document", urls.base))
    )
  return handlers
    .handle("askInOrganization", ({ params, query, payload }) =>
      Effect.gen(function*() {
        const refusal = yield* refused(params.organizationId)
        if (refusal !== undefined) return refusal
        return { answer: yield* answer(params.organizationId, payload.query, query.format) }
      }))
    .handle("streamAskInOrganization", ({ params, query }) =>
      Effect.gen(function*() {
        const refusal = yield* refused(params.organizationId)
        if (refusal !== undefined) return refusal
        const answered = yield* answer(params.organizationId, query.query, query.format)
        return Stream.make({ type: "answer" as const, answer: answered })
      }))
    .handle("getRecommendedQuestionsInOrganization", ({ params }) =>
      Effect.map(asker.recommendedQuestions(params.organizationId).pipe(DomainErrors.api), (questions) => ({ questions })))
    .handle("streamRecommendedQuestionsInOrganization", ({ params }) =>
      Effect.map(asker.recommendedQuestions(params.organizationId).pipe(DomainErrors.api), (questions) => Stream.fromIterable(questions.map((question) => ({ question })))))
}))
