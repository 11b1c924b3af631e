/**
 * Handlers of GitBook's Ask of a site: any member reads the published site as its anonymous
 * reader does (default audience, no share key), narrowed to the spaces their own permissions let
 * them read, and gets the model's answer and its page sources as server-sent events, one `answer`
 * event holding the whole answer.
 */
import { Effect, Option, Stream } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api, ApiErrors, ModelFailed, NotConfigured, type SearchAIAnswerStream, type SiteSearchScope } from "@quire/api"
import { ContentAccess } from "@quire/content"
import { type AskReply, InsightsBeacon, PublishedSites, readableSpaceIds, SiteRenderer, Sites, siteRoot } from "@quire/sites"
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
  answer: format === "markdown" ? markdown : documentOf(markdown),
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

export const layer = HttpApiBuilder.group(Api, "siteAsk", Effect.fn(function*(handlers) {
  const sites = yield* Sites
  const published = yield* PublishedSites
  const renderer = yield* SiteRenderer
  const contexts = yield* SiteContexts.make
  const limits = yield* siteLimits
  const access = yield* ContentAccess
  const trustProxy = yield* Effect.orDie(TrustProxy)
  return handlers.handle("streamAskInSite", ({ params, query, payload }) =>
    Effect.gen(function*() {
      const { site } = yield* sites.get(params.organizationId, params.siteId).pipe(DomainErrors.api)
      const live = yield* published.byId(params.siteId)
      if (Option.isNone(live)) return yield* ApiErrors.NotFound.of("The site is not published: Ask reads the published site")
      // A question reaches the team's model: it spends the caller's budget and the site's, as the site's own Ask does.
      const refusal = yield* limits.spend("ask", params.siteId, callerKey(yield* HttpServerRequest.HttpServerRequest, trustProxy))
      if (refusal !== undefined) return siteRefused(refusal)
      // The caller reads the spaces of the site their permissions open, no others: retrieval never reaches the rest.
      const readableSpaces = yield* readableSpaceIds(access, live.value)
      const language = InsightsBeacon.languageOf((yield* HttpServerRequest.HttpServerRequest).headers["accept-language"])
      const request = {
        site: live.value,
        root: siteRoot(site, contexts.urls.base),
        path: "",
        query: new URLSearchParams(),
        claims: {},
        noindex: false,
        readableSpaces,
        asker: { via: "api", language } as const
      }
      const reply = yield* renderer.ask(request, payload.question, scopeFilter(payload.scope)).pipe(
        Effect.mapError((failure) =>
          failure.kind === "NotConfigured"
            ? NotConfigured.of(failure.message)
            : failure.kind === "BadQuestion"
            ? ApiErrors.BadRequest.of(failure.message, "question")
            : ModelFailed.of(failure.message)
        )
      )
      return Stream.make(eventOf(reply, query.format ?? "document"))
    }))
}))
