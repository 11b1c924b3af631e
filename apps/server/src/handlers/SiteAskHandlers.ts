/**
 * Handlers of GitBook's Ask of a site: any member reads the published site as its anonymous
 * reader does (default audience, no share key), narrowed to the spaces their own permissions let
 * them read, and gets the model's answer and its page sources as server-sent events, one `answer`
 * event holding the whole answer.
 */
import { Effect, Option, Stream } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { type AIStreamResponse, Api, ApiErrors, modelFailure, NotConfigured, type SearchAIAnswerStream, type SiteSearchScope } from "@quire/api"
import { ContentAccess } from "@quire/content"
import { Ids } from "@quire/kernel"
import { type AskFailure, type AskReply, InsightsBeacon, PublishedSites, readableSpaceIds, SiteRenderer, Sites, siteRoot } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"
import { callerKey, siteLimits, siteRefused, TrustProxy } from "../RateLimits.ts"
import * as SiteContexts from "./SiteContexts.ts"

/** Which site spaces a scope lets the answer read. */
const scopeFilter = (scope: SiteSearchScope): ((siteSpaceId: string) => boolean) | undefined => {
  if (scope.mode === "specific") return (id) => scope.siteSpaceIds.includes(id)
  if (scope.mode === "default" && scope.currentSiteSpace !== undefined && scope.restrictTo !== undefined) {
    const current = scope.currentSiteSpace
    return scope.restrictTo === "currentSiteSpace" ? (id) => id === current : (id) => id !== current
  }
  return undefined
}

/** A markdown answer as a GitBook document: one paragraph per block of text. */
export const documentOf = (markdown: string) => ({
  object: "document",
  data: {},
  nodes: markdown.split(/\n{2,}/).map((text) => text.trim()).filter((text) => text !== "").map((text) => ({
    object: "block",
    type: "paragraph",
    data: {},
    nodes: [{ object: "text", leaves: [{ object: "leaf", text, marks: [] }] }]
  }))
})

/** GitBook's `SearchAIAnswer` of an answer's markdown and the pages it stands on (a site's Ask's and the organization's). */
export const answerOf = (
  markdown: string,
  sources: ReadonlyArray<{ readonly pageId: string; readonly revisionId: string; readonly spaceId: string; readonly title: string; readonly url: string; readonly sections: ReadonlyArray<{ readonly id: string }> }>,
  format: "document" | "markdown"
): SearchAIAnswerStream["answer"] => ({
  // GitBook's `Document`: a markdown document, or a JSON one.
  answer: format === "markdown" ? { markdown } : { document: documentOf(markdown) },
  followupQuestions: [],
  sources: sources.map((s) => ({
    type: "page" as const,
    page: s.pageId,
    revision: s.revisionId,
    space: s.spaceId,
    sections: s.sections.map((section) => section.id).filter((id) => id !== ""),
    title: s.title,
    url: s.url
  }))
})

const eventOf = (reply: AskReply, format: "document" | "markdown"): SearchAIAnswerStream => ({ type: "answer", answer: answerOf(reply.answer, reply.sources, format) })

/** The text of a message's content: itself, or a document's leaves, a block a line. */
export const textOf = (content: string | { readonly nodes: ReadonlyArray<unknown> }): string => {
  if (typeof content === "string") return content
  const lines: Array<string> = []
  const walk = (node: unknown, into: Array<string>): void => {
    if (typeof node !== "object" || node === null) return
    const n = node as { readonly object?: unknown; readonly text?: unknown; readonly leaves?: unknown; readonly nodes?: unknown }
    if (n.object === "leaf" && typeof n.text === "string") into.push(n.text)
    for (const child of [...(Array.isArray(n.leaves) ? n.leaves : []), ...(Array.isArray(n.nodes) ? n.nodes : [])]) walk(child, into)
  }
  for (const block of content.nodes) {
    const parts: Array<string> = []
    walk(block, parts)
    lines.push(parts.join(""))
  }
  return lines.join("\n").trim()
}

const newId = Effect.sync(() => Ids.randomId())

/** GitBook's response events of an answer: start, one final-answer step with its document, follow-ups, finish. */
const responseEvents = (messageId: string, responseId: string, previous: string | undefined, reply: AskReply, base: string): ReadonlyArray<AIStreamResponse> => {
  // The sources, as links under the answer (GitBook's assistant shows them so).
  const sources = reply.sources.length === 0 ? "" : `\n\nSources: ${reply.sources.map((s) => `${s.title} (${new URL(s.url, base).toString()})`).join("; ")}`
  return [
    { type: "response_start", messageId },
    { type: "response_step_start", messageId, stepIndex: 0, phase: "final_answer" },
    { type: "response_document", messageId, stepIndex: 0, operation: "insert", blocks: documentOf(`${reply.answer}${sources}`).nodes },
    { type: "response_finish", messageId, response: { id: responseId, ...(previous === undefined ? {} : { previous }) } }
  ]
}

/** An Ask refusal as the API answers it, naming the field a bad question came in. */
const askFailure = (field: string) => (failure: AskFailure) =>
  failure.kind === "NotConfigured"
    ? NotConfigured.of(failure.message)
    : failure.kind === "BadQuestion"
    ? ApiErrors.BadRequest.of(failure.message, field)
    : modelFailure(failure.message)

export const layer = HttpApiBuilder.group(Api, "siteAsk", Effect.fn(function*(handlers) {
  const sites = yield* Sites
  const published = yield* PublishedSites
  const renderer = yield* SiteRenderer
  const contexts = yield* SiteContexts.make
  const limits = yield* siteLimits
  const access = yield* ContentAccess
  const trustProxy = yield* Effect.orDie(TrustProxy)

  /** The published site as its anonymous reader sees it, within the spaces the caller's permissions open (retrieval never reaches the rest). */
  const readingFor = Effect.fnUntraced(function*(organizationId: string, siteId: string) {
    const { site } = yield* sites.get(organizationId, siteId).pipe(DomainErrors.api)
    const live = yield* published.byId(siteId)
    if (Option.isNone(live)) return yield* ApiErrors.NotFound.of("The site is not published: Ask reads the published site")
    const readableSpaces = yield* readableSpaceIds(access, live.value)
    const language = InsightsBeacon.languageOf((yield* HttpServerRequest.HttpServerRequest).headers["accept-language"])
    return {
      site: live.value,
      root: siteRoot(site, contexts.urls.base),
      path: "",
      query: new URLSearchParams(),
      claims: {},
      noindex: false,
      readableSpaces,
      asker: { via: "api", language } as const
    }
  })

  /** A question reaches the team's model: it spends the caller's budget and the site's, as the site's own Ask does. */
  const spend = (siteId: string) => Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => limits.spend("ask", siteId, callerKey(request, trustProxy)))

  return handlers
    .handle("streamAskInSite", ({ params, query, payload }) =>
      Effect.gen(function*() {
        const request = yield* readingFor(params.organizationId, params.siteId)
        const refusal = yield* spend(params.siteId)
        if (refusal !== undefined) return siteRefused(refusal)
        const reply = yield* renderer.ask(request, payload.question, scopeFilter(payload.scope)).pipe(Effect.mapError(askFailure("question")))
        return Stream.make(eventOf(reply, query.format ?? "document"))
      }))
    .handle("streamRecommendedQuestionsInSite", ({ params, query }) =>
      Effect.gen(function*() {
        const request = yield* readingFor(params.organizationId, params.siteId)
        const only = query.siteSpaceId
        const questions = yield* renderer.recommendedQuestions(request, only === undefined ? undefined : (id) => id === only)
        return Stream.fromIterable(questions.map((question) => ({ question })))
      }))
    .handle("streamAIResponseInSite", ({ params, payload }) =>
      Effect.gen(function*() {
        const last = payload.input.findLastIndex((m) => m.role === "user")
        const question = last < 0 ? "" : textOf(payload.input[last]!.content)
        if (question === "") return yield* ApiErrors.BadRequest.of("The input has no user message with text to answer", `input[${Math.max(last, 0)}].content`)
        const request = yield* readingFor(params.organizationId, params.siteId)
        const refusal = yield* spend(params.siteId)
        if (refusal !== undefined) return siteRefused(refusal)
        const reply = yield* renderer.ask(request, question, undefined).pipe(Effect.mapError(askFailure(`input[${last}].content`)))
        return Stream.fromIterable(responseEvents(yield* newId, yield* newId, payload.previousResponseId, reply, request.root))
      }))
}))
