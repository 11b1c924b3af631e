/**
 * What a published site answers at a path below its base, for one audience: an HTML page, a
 * page's markdown, the machine files, search results, a file of a revision, a redirect or a 404.
 * Knows nothing of HTTP: the serving routes decide who reads and turn answers into responses.
 * A dispatcher: each job (routing, URLs, navigation, chrome, machine files, search, pages, links,
 * caching) is a module of `answer/`.
 */
import { Context, Effect, Layer, Option } from "effect"
import { AskEmbeddings, PublishedContent, SpaceContent } from "@quire/content"
import { BoundedCache } from "@quire/kernel"
import type { RenderAnswer, RenderRequest } from "./answer/Answer.ts"
import { assetAnswer, text } from "./answer/Answer.ts"
import { answerCache } from "./answer/AnswerCache.ts"
import { ask, type AskFailure, type AskReply } from "./answer/Ask.ts"
import { AskModel } from "./AskModel.ts"
import { recordedAsk } from "./questions/AskRecording.ts"
import { SiteQuestionRecorder } from "./questions/QuestionRecorder.ts"
import { notFound } from "./answer/Chrome.ts"
import { fileAnswer } from "./answer/FileAnswer.ts"
import { cacheKeyOf, machineFile } from "./answer/MachineFiles.ts"
import { placeTrees } from "./answer/Navigation.ts"
import { layoutMemo } from "./render/Layout.ts"
import { pageAnswer } from "./answer/PageAnswer.ts"
import { locate } from "./answer/Places.ts"
import { readingOf } from "./answer/Reading.ts"
import { revisionReader } from "./answer/Revisions.ts"
import { routeOf } from "./answer/Routing.ts"
import { destinationUrl, redirectAnswer } from "./answer/Redirects.ts"
import { searchAnswer } from "./answer/Search.ts"
import { askAnswer } from "./answer/AskAnswer.ts"
import { recommendedQuestions } from "./answer/RecommendedQuestions.ts"
import type { RedirectDestination } from "./domain/Redirect.ts"
import type { PublishedSite } from "./PublishedSites.ts"
import { RedirectsRepo } from "./RedirectsRepo.ts"
import { SpaceRedirects } from "./SpaceRedirects.ts"
import * as Condition from "./Condition.ts"
import { isAssetName } from "./render/Assets.ts"
import { CodeHighlighter } from "./render/Highlight.ts"
import { SpecOperations } from "./SpecOperations.ts"

export type { RenderAnswer, RenderRequest } from "./answer/Answer.ts"

export interface SiteRendererShape {
  readonly render: (request: RenderRequest) => Effect.Effect<RenderAnswer>
  /** Where a redirect's destination is on the site reached at `root`, as an anonymous reader sees it (absolute); undefined when hidden or gone. */
  /**
   * Ask's answer to `question` for the reader of `request` (its claims choose the sections and
   * spaces read), whatever the site's `ai.mode`: the caller decides whether Ask is offered. The
   * question is recorded on the site's questions (`request.asker` says how it came).
   */
  readonly ask: (request: RenderRequest, question: string, scope?: (siteSpaceId: string) => boolean) => Effect.Effect<AskReply, AskFailure>
  readonly redirectTarget: (site: PublishedSite, root: string, destination: RedirectDestination) => Effect.Effect<string | undefined>
  /** At most five questions to ask the site, for the reader of `request`, within `scope` (RecommendedQuestions.ts). */
  readonly recommendedQuestions: (request: RenderRequest, scope?: (siteSpaceId: string) => boolean) => Effect.Effect<ReadonlyArray<string>>
}

export class SiteRenderer extends Context.Service<SiteRenderer, SiteRendererShape>()("@quire/sites/SiteRenderer") {
  static readonly layer = Layer.effect(
    SiteRenderer,
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const published = yield* PublishedContent
      const specs = yield* SpecOperations
      const highlighter = yield* CodeHighlighter
      const cache = yield* answerCache(specs)
      // Without a model provided (a test, a tool), Ask refuses as when none is configured.
      const model = Option.getOrElse(yield* Effect.serviceOption(AskModel), () => AskModel.layerNoneShape)
      // Without an embedding model, Ask ranks by words alone.
      const embeddings = Option.getOrElse(yield* Effect.serviceOption(AskEmbeddings), () => AskEmbeddings.none)
      const revisions = yield* revisionReader(published)
      const trees = yield* placeTrees
      const layout = yield* layoutMemo
      const redirects = yield* RedirectsRepo
      const spaceRedirects = yield* SpaceRedirects
      const questions = yield* SiteQuestionRecorder
      // Parsed conditions of sections, site spaces and header links, read on every request.
      const conditions = yield* BoundedCache.make<string, Condition.ParseResult>({ name: "site_conditions", capacity: 1000 })
      const parseCondition = (source: string): Condition.ParseResult => {
        let parsed = conditions.get(source)
        if (parsed === undefined) {
          parsed = Condition.parse(source)
          conditions.set(source, parsed)
        }
        return parsed
      }

      const answer = (reading: ReturnType<typeof readingOf>): Effect.Effect<RenderAnswer> => Effect.gen(function*() {
        const request = reading.request
        const keyBase = cache.keyBase(request)
        const route = routeOf(reading.decoded, reading.segments)
        switch (route.kind) {
          case "Machine": {
            const key = cacheKeyOf(route.file, request.claims)
            const answer = machineFile(reading, published, route.file)
            return yield* key === undefined ? answer : cache.keep(keyBase, key, answer)
          }
          case "File":
            return yield* fileAnswer(reading, content, route.spaceId, route.fileId)
          case "Search":
            return yield* searchAnswer(reading, published)
          case "Ask":
            return yield* askAnswer(reading, published, model, questions, embeddings.similarity)
          case "Asset": {
            // Names are checked before the cache: unknown ones never take a place in it.
            if (!isAssetName(route.name)) return yield* notFound(reading, reading.visible.home)
            const answer = yield* cache.keep("~assets", route.name, Effect.sync(() => assetAnswer(route.name) ?? text("text/plain; charset=utf-8", "")))
            return answer.kind === "Text" && answer.body === "" ? yield* notFound(reading, reading.visible.home) : answer
          }
          case "NotFound":
            return yield* notFound(reading, reading.visible.home)
          case "Page": {
            const located = locate(request.site, reading.visible, route.segments)
            if (located === undefined) return yield* notFound(reading, reading.visible.home)
            const { place, rest } = located
            const wanted = rest.join("/")
            // The fingerprint in the key names every space's revision: a cached page needs no read.
            const pageKey = `${keyBase}|page|${place.siteSpace.siteSpace.id}|${route.markdown ? "md" : "html"}|${wanted}`
            return yield* cache.page(pageKey, request.site.site.organizationId, request.claims, (shown) =>
              pageAnswer(reading, { documents: published, specs, highlighter }, place, wanted, route.markdown, shown))
          }
        }
      })

      const render = Effect.fn("SiteRenderer.render")(function*(request: RenderRequest): Effect.fn.Return<RenderAnswer> {
        const reading = readingOf(request, revisions, trees, layout, parseCondition, model.configured)
        const answered = yield* answer(reading)
        // A path with no page may be one of the site's redirects, which answer before the 404.
        if (answered.kind !== "Html" || answered.status !== 404) return answered
        return (yield* redirectAnswer(reading, redirects, spaceRedirects)) ?? answered
      })

      const redirectTarget = (site: PublishedSite, root: string, destination: RedirectDestination) => {
        const reading = readingOf({ site, root, path: "", query: new URLSearchParams(), claims: {}, noindex: false }, revisions, trees, layout, parseCondition)
        return Effect.map(destinationUrl(reading, destination), (url) => url === undefined ? undefined : new URL(url, root).toString())
      }

      const askFor = Effect.fn("SiteRenderer.ask")(function*(request: RenderRequest, question: string, scope?: (siteSpaceId: string) => boolean) {
        const reading = readingOf(request, revisions, trees, layout, parseCondition)
        // A scope narrows what the reader sees; it never widens it.
        const scoped = scope === undefined
          ? reading
          : { ...reading, visible: { ...reading.visible, places: reading.visible.places.filter((p) => scope(p.siteSpace.siteSpace.id)) } }
        return yield* recordedAsk(questions, scoped, question, ask(scoped, published, model, question, undefined, embeddings.similarity))
      })

      const questionsFor = Effect.fn("SiteRenderer.recommendedQuestions")(function*(request: RenderRequest, scope?: (siteSpaceId: string) => boolean) {
        const reading = readingOf(request, revisions, trees, layout, parseCondition)
        const scoped = scope === undefined
          ? reading
          : { ...reading, visible: { ...reading.visible, places: reading.visible.places.filter((p) => scope(p.siteSpace.siteSpace.id)) } }
        return yield* recommendedQuestions(scoped, model)
      })

      return SiteRenderer.of({ render, ask: askFor, redirectTarget, recommendedQuestions: questionsFor })
    })
  )
}
