/**
 * A translation's run: reads the source space's current revision, translates the text of the pages
 * whose source changed since the last completed run (the others keep the result's translation),
 * and writes the result space's new revision through content's RevisionWriter: the same tree,
 * slugs, files and markdown bytes but for the translated text. The source's reusable contents
 * (`{% include %}`) are written too, their markdown translated like a page's, with their ids and
 * `.gitbook/includes/` paths kept so the pages' includes (by id or by path) still find them. The translation's `status`,
 * `failure` and `stats` are the run's; a failure writes nothing. The organization's glossary terms
 * reach the translator as placeholders and come back as the glossary's words.
 */
import { Clock, Context, Data, Effect, Layer, Option, Result } from "effect"
import { createHash } from "node:crypto"
import {
  documentHash,
  flattenPages,
  type PageNode,
  PublishedContent,
  type ReusableContentNode,
  type Revision,
  RevisionWriter,
  reusableDocuments,
  SpaceContent
} from "@quire/content"
import { Actor } from "@quire/kernel"
import * as Instructions from "./domain/Instructions.ts"
import * as Glossary from "./glossary/Glossary.ts"
import { GlossaryRepo } from "./glossary/GlossaryRepo.ts"
import type { Translation, TranslationStats } from "./domain/Translation.ts"
import * as Segments from "./Segments.ts"
import { Translator } from "./Translator.ts"
import type { RunJob } from "./TranslationRuns.ts"
import { TranslationsRepo } from "./TranslationsRepo.ts"

class RunFailed extends Data.TaggedError("RunFailed")<{ readonly reason: string }> {}

/** One piece of text to translate: a page's title, description or a segment of its (or a reusable content's) markdown. */
interface Item {
  /** The page's id, or the reusable content's (`reusable`). */
  readonly pageId: string
  readonly reusable?: true
  readonly kind: "title" | "description" | "body"
  readonly segment?: Segments.Segment
  readonly text: string
  /** Unique per page and section: chunks never mix them. */
  readonly section: number
}

export interface TranslationRunnerShape {
  /** Runs the translation once; records the outcome on it and never fails. */
  readonly run: (job: RunJob) => Effect.Effect<void>
  /** The queue gave the run up (its process died on the last attempt): a run still pending or running is recorded failed with `reason`. */
  readonly giveUp: (job: RunJob, reason: string) => Effect.Effect<void>
}

const pageKey = (translation: Translation, instructions: string, page: PageNode, markdown: string | undefined) =>
  createHash("sha256")
    .update(JSON.stringify([translation.sourceLanguage, translation.language, instructions, page.title, page.description ?? null, markdown ?? null]))
    .digest("hex")

const reusableKey = (translation: Translation, instructions: string, markdown: string | undefined) =>
  createHash("sha256")
    .update(JSON.stringify(["reusable", translation.sourceLanguage, translation.language, instructions, markdown ?? null]))
    .digest("hex")

/**
 * The source's reusable contents (`nodes`) as the result should hold them, given the result's
 * (`previous`) and the documents of both: one unchanged since the last run (its hash in the
 * translation's `pageHashes`) keeps the result's translation; the others' markdown segments are
 * pushed on `items` (sections from `firstSection`) and the answered function writes their
 * translation once `translated` holds it. Their hashes join `hashes`, keyed by id like pages'.
 * Ids and `git` paths stay the source's: pages include them by `/reusable-content/<id>` or by
 * `.gitbook/includes/<name>.md`, and an export writes each back to that file.
 */
const planReusable = (
  translation: Translation,
  instructions: string,
  nodes: ReadonlyArray<ReusableContentNode>,
  previous: ReadonlyArray<ReusableContentNode>,
  documents: ReadonlyMap<string, string>,
  hashes: Record<string, string>,
  items: Array<Item>,
  firstSection: number
) => {
  const before = new Map(previous.map((node) => [node.id, node]))
  const pending = nodes.map((node, index) => {
    const markdown = node.document === undefined ? undefined : documents.get(node.document)
    const key = reusableKey(translation, instructions, markdown)
    hashes[node.id] = key
    const kept = before.get(node.id)
    if (kept !== undefined && translation.pageHashes[node.id] === key && (kept.document === undefined || documents.has(kept.document))) {
      return () => ({ ...node, ...(kept.document === undefined ? {} : { document: kept.document }) })
    }
    if (markdown === undefined) return () => node
    const own = Segments.segments(markdown).map((segment): Item => ({
      pageId: node.id,
      reusable: true,
      kind: "body",
      segment,
      text: segment.text,
      section: firstSection + index * 10_000 + segment.section
    }))
    items.push(...own)
    return (translated: ReadonlyMap<Item, string>, newDocuments: Map<string, string>): ReusableContentNode => {
      const next = Segments.apply(markdown, own.map((item) => item.segment!), own.map((item) => translated.get(item)!))
      const document = documentHash(next)
      newDocuments.set(document, next)
      return { ...node, document }
    }
  })
  return (translated: ReadonlyMap<Item, string>, newDocuments: Map<string, string>): ReadonlyArray<ReusableContentNode> =>
    pending.map((finish) => finish(translated, newDocuments))
}

/**
 * The source's pages in a run: one unchanged since the last run (its hash in the translation's
 * `pageHashes`) keeps the result's page (`kept`); the others' title, description and markdown
 * segments are `items` to translate. Their hashes join `hashes`, by page id.
 */
const planPages = (
  translation: Translation,
  instructions: string,
  sourcePages: ReadonlyArray<{ readonly page: PageNode }>,
  resultPages: ReadonlyMap<string, PageNode>,
  documents: ReadonlyMap<string, string>,
  hashes: Record<string, string>
) => {
  const kept = new Map<string, PageNode>()
  const items: Array<Item> = []
  const markdownOf = new Map<string, string>()
  sourcePages.forEach(({ page }, index) => {
    const markdown = page.document === undefined ? undefined : documents.get(page.document)
    const key = pageKey(translation, instructions, page, markdown)
    hashes[page.id] = key
    const previous = resultPages.get(page.id)
    const reusable = previous !== undefined && translation.pageHashes[page.id] === key &&
      (previous.document === undefined || documents.has(previous.document))
    if (reusable) {
      kept.set(page.id, previous)
      return
    }
    const base = index * 10_000
    if (Segments.translatable(page.title)) items.push({ pageId: page.id, kind: "title", text: page.title, section: base })
    if (page.description !== undefined && Segments.translatable(page.description)) {
      items.push({ pageId: page.id, kind: "description", text: page.description, section: base })
    }
    if (markdown !== undefined) {
      markdownOf.set(page.id, markdown)
      for (const segment of Segments.segments(markdown)) {
        items.push({ pageId: page.id, kind: "body", segment, text: segment.text, section: base + segment.section })
      }
    }
  })
  return { kept, items, markdownOf }
}

/** The source's tree with each page's translated title, description and document (a kept page's from the result); new documents join `newDocuments`. */
const translatedTree = (
  pages: ReadonlyArray<PageNode>,
  plan: { readonly kept: ReadonlyMap<string, PageNode>; readonly items: ReadonlyArray<Item>; readonly markdownOf: ReadonlyMap<string, string> },
  translated: ReadonlyMap<Item, string>,
  newDocuments: Map<string, string>
): ReadonlyArray<PageNode> => {
  const { items, kept, markdownOf } = plan
  const rebuild = (nodes: ReadonlyArray<PageNode>): ReadonlyArray<PageNode> =>
    nodes.map((page): PageNode => {
      const children = rebuild(page.pages)
      const previous = kept.get(page.id)
      const { git: _git, ...rest } = page
      if (previous !== undefined) {
        const { git: _previousGit, ...keptRest } = previous
        return { ...rest, title: keptRest.title, description: keptRest.description, document: keptRest.document, pages: children }
      }
      const own = items.filter((item) => item.pageId === page.id)
      const title = own.find((item) => item.kind === "title")
      const description = own.find((item) => item.kind === "description")
      let document = page.document
      const markdown = markdownOf.get(page.id)
      if (markdown !== undefined) {
        const body = own.filter((item) => item.kind === "body")
        const next = Segments.apply(markdown, body.map((item) => item.segment!), body.map((item) => translated.get(item)!))
        document = documentHash(next)
        newDocuments.set(document, next)
      }
      return {
        ...rest,
        title: title === undefined ? page.title : translated.get(title)!,
        ...(page.description === undefined ? {} : { description: description === undefined ? page.description : translated.get(description)! }),
        ...(document === undefined ? {} : { document }),
        pages: children
      }
    })
  return rebuild(pages)
}

export class TranslationRunner extends Context.Service<TranslationRunner, TranslationRunnerShape>()("@quire/translations/TranslationRunner") {
  static readonly layer = Layer.effect(
    TranslationRunner,
    Effect.gen(function*() {
      const repo = yield* TranslationsRepo
      const content = yield* SpaceContent
      const writer = yield* RevisionWriter
      const published = yield* PublishedContent
      const translator = yield* Translator
      const glossary = yield* GlossaryRepo
      const nowMillis = Clock.currentTimeMillis

      const work = (translation: Translation) =>
        Effect.gen(function*() {
          if (Option.isSome(translator.configured)) return yield* new RunFailed({ reason: translator.configured.value })
          const source = (yield* content.revision(translation.sourceSpaceId)).revision
          const result = (yield* content.revision(translation.resultSpaceId)).revision
          const sourcePages = flattenPages(source.pages)
          const resultPages = new Map(flattenPages(result.pages).map(({ page }) => [page.id, page]))
          const documents = yield* published.documents([
            ...reusableDocuments(source.reusableContents),
            ...reusableDocuments(result.reusableContents),
            ...sourcePages.flatMap(({ page }) => page.document === undefined ? [] : [page.document]),
            ...Array.from(resultPages.values()).flatMap((page) => page.document === undefined ? [] : [page.document])
          ])
          const instructions = Instructions.toText(translation.instructions)
          const terms = Glossary.termsFor(yield* glossary.list(translation.organizationId), translation.sourceLanguage, translation.language)
          // A changed glossary translates every page again, as changed instructions do.
          const hashed = terms.length === 0 ? instructions : `${instructions}\u0000${JSON.stringify(terms)}`

          const hashes: Record<string, string> = {}
          const { items, kept, markdownOf } = planPages(translation, hashed, sourcePages, resultPages, documents, hashes)

          const finishReusable = planReusable(
            translation,
            hashed,
            source.reusableContents ?? [],
            result.reusableContents ?? [],
            documents,
            hashes,
            items,
            sourcePages.length * 10_000
          )

          const characters = items.reduce((n, item) => n + item.text.length, 0)
          const budget = translator.budget
          if (items.length > budget.segments || characters > budget.characters) {
            return yield* new RunFailed({
              reason: `Translation budget exhausted: this run needs ${items.length} segments and ${characters} characters, ` +
                `the budget of a run is ${budget.segments} segments and ${budget.characters} characters`
            })
          }

          const translated = new Map<Item, string>()
          for (const chunk of Segments.chunks(items, translator.chunkCharacters)) {
            const answer = yield* translator.translate({
              language: translation.language,
              sourceLanguage: translation.sourceLanguage,
              instructions,
              glossary: terms.length > 0,
              segments: chunk.map((item) => Glossary.protect(item.text, terms))
            }).pipe(Effect.mapError((e) => new RunFailed({ reason: `The translation provider failed: ${e.reason}` })))
            chunk.forEach((item, i) => translated.set(item, Glossary.restore(answer[i]!, terms)))
          }

          const newDocuments = new Map<string, string>()
          const translatedPages = new Set(items.flatMap((item) => item.reusable ? [] : [item.pageId]))
          const pages = translatedTree(source.pages, { kept, items, markdownOf }, translated, newDocuments)
          const reusableContents = finishReusable(translated, newDocuments)

          const written = yield* writer.write(content.mainHead(translation.resultSpaceId), (_parent: Revision) =>
            Effect.succeed({ pages, files: source.files, variables: source.variables, reusableContents, documents: newDocuments }), { system: true }).pipe(
            Effect.mapError((e) => new RunFailed({ reason: `The result space could not be written: ${e.message}` }))
          )
          return {
            revisionId: written.revision.id,
            hashes,
            pages: translatedPages.size,
            words: items.reduce((n, item) => n + Segments.words(item.text), 0)
          }
        })

      const run = (job: RunJob) =>
        Effect.gen(function*() {
          const found = yield* repo.find(job.translationId)
          if (Option.isNone(found)) return
          const started = yield* nowMillis
          yield* repo.update(job.translationId, { status: "running", failure: null })
          const outcome = yield* work(found.value).pipe(
            Effect.provideService(Actor.Actor, { userId: job.actorId, instanceAdmin: false }),
            Effect.catchTag("NotFound", (e) => Effect.fail(new RunFailed({ reason: e.message }))),
            Effect.result
          )
          const finished = yield* nowMillis
          const seconds = Math.round((finished - started) / 1000)
          // The record as it is now: instructions may have changed during the run.
          const current = yield* repo.find(job.translationId)
          if (Option.isNone(current)) return
          const before = current.value.stats
          if (Result.isSuccess(outcome)) {
            const done = outcome.success
            const stats: TranslationStats = {
              runs: before.runs + 1,
              totalWords: before.totalWords + done.words,
              totalPages: before.totalPages + done.pages,
              totalDuration: before.totalDuration + seconds,
              latestRunDuration: seconds,
              latestPages: done.pages,
              latestWords: done.words
            }
            yield* repo.update(job.translationId, {
              status: "completed",
              failure: null,
              resultRevisionId: done.revisionId,
              pageHashes: done.hashes,
              stats,
              updatedAt: new Date(finished)
            })
          } else {
            const stats: TranslationStats = {
              ...before,
              runs: before.runs + 1,
              totalDuration: before.totalDuration + seconds,
              latestRunDuration: seconds,
              latestPages: 0,
              latestWords: 0
            }
            const failure = outcome.failure
            const reason = failure instanceof RunFailed ? failure.reason : String(failure)
            yield* Effect.logWarning(`translation ${job.translationId} failed: ${reason}`)
            yield* repo.update(job.translationId, { status: "failed", failure: reason, stats, updatedAt: new Date(finished) })
          }
        }).pipe(Effect.withSpan("TranslationRunner.run", { attributes: { translationId: job.translationId } }))

      const giveUp = (job: RunJob, reason: string) =>
        Effect.gen(function*() {
          const found = yield* repo.find(job.translationId)
          if (Option.isNone(found) || (found.value.status !== "running" && found.value.status !== "pending")) return
          const failure = `The run stopped: ${reason}. It runs again when the source changes or the translation is saved.`
          yield* repo.update(job.translationId, { status: "failed", failure, updatedAt: new Date(yield* nowMillis) })
        })

      return TranslationRunner.of({ run, giveUp })
    })
  )
}
