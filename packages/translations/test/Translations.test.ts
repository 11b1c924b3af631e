/**
 * The translations use cases over the memory adapters, with content's use cases, test memberships,
 * the in-process queue on the TestClock and a fake Translator that answers each segment upper-cased
 * behind `[<language>] ` (and fails on one holding `FAIL`): who may read and change translations,
 * instructions and their cap, and runs (one per translation after the debounce, unchanged pages
 * kept, failures recorded with nothing written, the budget checked before anything is sent).
 */
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { Ids, Transactor } from "@quire/kernel"
import { as, errorMessage, errorTag, memberRoles } from "@quire/testkit"
import { OutboundFetch } from "@quire/outbound"
import {
  BlobStore,
  ContentLayers,
  documentHash,
  Memberships,
  type PageNode,
  ParsePool,
  PublishedContent,
  SpaceContent,
  Spaces,
  withIncludes
} from "@quire/content"
import { JobRunner, layerInProcessQueue, layerInProcessRunner } from "@quire/queue"
import type { InstructionsDocument } from "../src/domain/Translation.ts"
import { jobs } from "../src/Jobs.ts"
import * as SourceChanges from "../src/SourceChanges.ts"
import * as SpaceRemoval from "../src/SpaceRemoval.ts"
import { TranslationRunner } from "../src/TranslationRunner.ts"
import { TranslationRuns } from "../src/TranslationRuns.ts"
import { Translations } from "../src/Translations.ts"
import { TranslationsRepo } from "../src/TranslationsRepo.ts"
import { GlossaryRepo } from "../src/glossary/GlossaryRepo.ts"
import { type TranslateRequest, Translator, TranslatorError } from "../src/Translator.ts"

const org = "org-1"
const debounceMillis = 2_000
const budget = { segments: 40, characters: 600 }

const roles = memberRoles({ [org]: { alice: "admin", rhea: "read", guest: null }, "org-2": { otto: "admin" } })

/** Every request the fake Translator received, in order. */
class Sent extends Context.Service<Sent, Array<TranslateRequest>>()("@quire/translations/test/Sent") {}

const layerTranslator = Layer.effect(Translator, Effect.map(Effect.service(Sent), (sent) =>
  Translator.of({
    configured: Option.none(),
    budget,
    chunkCharacters: 1_000,
    translate: (request) =>
      Effect.suspend(() => {
        sent.push(request)
        return request.segments.some((segment) => segment.includes("FAIL"))
          ? Effect.fail(new TranslatorError({ reason: "the provider answered 500" }))
          : Effect.succeed(request.segments.map((segment) => `[${request.language}] ${segment.toUpperCase()}`))
      })
  }))).pipe(Layer.provideMerge(Layer.sync(Sent, () => [])))

/** Content's use cases, whose main moves and purges reach the translations' observer and dependents. */
const layerContent = SpaceContent.layer.pipe(
  Layer.provideMerge(ContentLayers.layerServices),
  Layer.provide([SourceChanges.layer, SpaceRemoval.layer])
)

const layerServices = Layer.mergeAll(Translations.layer, TranslationRunner.layer).pipe(
  Layer.provideMerge(layerContent),
  Layer.provideMerge(TranslationRuns.layer),
  Layer.provideMerge(Layer.mergeAll(ContentLayers.layerReposMemory, TranslationsRepo.layerMemory, GlossaryRepo.layerMemory, Transactor.Transactor.layerMemory)),
  Layer.provideMerge(layerTranslator),
  Layer.provide([Memberships.layerTest(roles), Ids.Ids.layerTest, BlobStore.layerMemory, OutboundFetch.layer({ allow: [] }), ParsePool.layerMainThread])
)

/** The runner, the use cases and the queue they enqueue on (in memory, on the TestClock). */
const layer = layerInProcessRunner(jobs).pipe(
  Layer.provideMerge(layerServices),
  Layer.provideMerge(layerInProcessQueue(jobs)),
  Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown({ QUIRE_TRANSLATE_DEBOUNCE_MS: String(debounceMillis) })))
)

const instructions = (text: string): InstructionsDocument => ({
  object: "document",
  data: {},
  nodes: [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ text }] }] }]
})

type Page = readonly [id: string, title: string, markdown: string]

/** Makes the space's main content `pages` (as alice), as an edit of the source would. */
const setPages = (spaceId: string, pages: ReadonlyArray<Page>) =>
  Effect.gen(function*() {
    const content = yield* SpaceContent
    const at = new Date(0).toISOString()
    yield* content.commit(spaceId, () =>
      Effect.succeed({
        pages: pages.map(([id, title, markdown]): PageNode => ({
          id,
          type: "document",
          title,
          slug: id,
          document: documentHash(markdown),
          createdAt: at,
          updatedAt: at,
          pages: []
        })),
        documents: new Map(pages.map(([, , markdown]) => [documentHash(markdown), markdown]))
      })).pipe(as("alice"))
  })

let spaces = 0
/** A source space of the organization holding `pages`, made by alice. */
const sourceWith = (pages: ReadonlyArray<Page>) =>
  Effect.gen(function*() {
    const space = (yield* Effect.flatMap(Effect.service(Spaces), (s) => s.create(org, { title: `Source ${++spaces}` })).pipe(as("alice"))).space
    yield* setPages(space.id, pages)
    return space.id
  })

/** Runs every job that is due, to its end. */
const settle = Effect.flatMap(Effect.service(JobRunner), (runner) => runner.drain)

/** A translation into French of `sourceId`, created by alice, once its first run ended. */
const translate = (sourceId: string, language: "fr" | "de" = "fr", notes?: InstructionsDocument) =>
  Effect.gen(function*() {
    const translations = yield* Translations
    const created = yield* translations.create(org, {
      source: { space: sourceId, language: "en" },
      language,
      ...(notes === undefined ? {} : { instructions: notes })
    }).pipe(as("alice"))
    yield* settle
    return created.translation.id
  })

const stored = (translationId: string) =>
  Effect.flatMap(Effect.service(TranslationsRepo), (repo) => Effect.map(repo.find(translationId), Option.getOrThrow))

const markdownOf = (spaceId: string, pageId: string) =>
  Effect.map(Effect.flatMap(Effect.service(SpaceContent), (c) => c.page(spaceId, pageId)), (p) => p.markdown).pipe(as("alice"))

const mainOf = (spaceId: string) =>
  Effect.map(Effect.flatMap(Effect.service(SpaceContent), (c) => c.revision(spaceId)), (c) => c.revision).pipe(as("alice"))

/** The segments the Translator received since `from` requests. */
const sentSince = (from: number) => Effect.map(Effect.service(Sent), (sent) => sent.slice(from).flatMap((r) => r.segments))
const sentCount = Effect.map(Effect.service(Sent), (sent) => sent.length)

it.layer(layer, { timeout: "60 seconds" })("Translations", (it) => {
  describe("who may read and change translations", () => {
    it.effect("members read, admins change; a reader is refused changes; outsiders and guests get NotFound", () =>
      Effect.gen(function*() {
        const translations = yield* Translations
        const sourceId = yield* sourceWith([["a", "Alpha", "Alpha text.\n"]])
        const id = yield* translate(sourceId)

        const seen = yield* translations.get(org, id).pipe(as("rhea"))
        assert.deepStrictEqual(seen.permissions, { view: true, edit: false })
        assert.isTrue((yield* translations.list(org, {}).pipe(as("rhea"))).items.some((t) => t.translation.id === id))
        assert.deepStrictEqual((yield* translations.get(org, id).pipe(as("alice"))).permissions, { view: true, edit: true })
        const input = { source: { space: sourceId, language: "en" as const }, language: "de" as const }
        assert.deepStrictEqual([
          yield* errorTag(translations.create(org, input).pipe(as("rhea"))),
          yield* errorTag(translations.update(org, id, instructions("x")).pipe(as("rhea"))),
          yield* errorTag(translations.run(org, id).pipe(as("rhea"))),
          yield* errorTag(translations.remove(org, id).pipe(as("rhea")))
        ], ["Forbidden", "Forbidden", "Forbidden", "Forbidden"])

        for (const user of ["guest", "outsider", "otto"]) {
          assert.deepStrictEqual([
            yield* errorTag(translations.list(org, {}).pipe(as(user))),
            yield* errorTag(translations.get(org, id).pipe(as(user))),
            yield* errorTag(translations.create(org, input).pipe(as(user))),
            yield* errorTag(translations.update(org, id, instructions("x")).pipe(as(user))),
            yield* errorTag(translations.run(org, id).pipe(as(user)))
          ], ["NotFound", "NotFound", "NotFound", "NotFound", "NotFound"], user)
          // Deleting what one cannot see does nothing.
          yield* translations.remove(org, id).pipe(as(user))
        }
        // Nor is it seen through another organization.
        assert.strictEqual(yield* errorTag(translations.get("org-2", id).pipe(as("otto"))), "NotFound")
        const kept = yield* translations.get(org, id).pipe(as("alice"))

        yield* translations.remove(org, id).pipe(as("alice"))
        assert.strictEqual(yield* errorTag(translations.get(org, id).pipe(as("alice"))), "NotFound")
        yield* translations.remove(org, id).pipe(as("alice"))
        // The result space stays.
        assert.strictEqual((yield* mainOf(kept.translation.resultSpaceId)).id, kept.translation.resultRevisionId)
      }))

    it.effect("instructions are checked, capped at 4,000 characters of text, and sent to the Translator as text", () =>
      Effect.gen(function*() {
        const translations = yield* Translations
        const sourceId = yield* sourceWith([["a", "Alpha", "Alpha text.\n"]])
        const long = instructions("z".repeat(4001))
        const input = { source: { space: sourceId, language: "en" as const }, language: "fr" as const }
        assert.include(yield* errorMessage(translations.create(org, { ...input, instructions: long }).pipe(as("alice"))), "4000 characters")
        assert.include(yield* errorMessage(translations.create(org, { ...input, instructions: { object: "document" } }).pipe(as("alice"))), "instructions.data")
        assert.include(yield* errorMessage(translations.create(org, { ...input, language: "en" }).pipe(as("alice"))), "language")
        assert.strictEqual(yield* errorTag(translations.create(org, { ...input, source: { space: "nope", language: "en" } }).pipe(as("alice"))), "InvalidInput")

        const before = yield* sentCount
        const id = yield* translate(sourceId, "fr", instructions("Formal tone."))
        const sent = yield* Effect.service(Sent)
        assert.deepStrictEqual(sent.slice(before).map((r) => [r.instructions, r.sourceLanguage, r.language]), [["Formal tone.", "en", "fr"]])

        assert.include(yield* errorMessage(translations.update(org, id, long).pipe(as("alice"))), "4000 characters")
        const capped = yield* translations.update(org, id, instructions("z".repeat(4000))).pipe(as("alice"))
        assert.deepStrictEqual(capped.translation.instructions, instructions("z".repeat(4000)))
        assert.strictEqual(capped.translation.status, "pending")
        yield* settle
      }))
  })

  describe("runs", () => {
    it.effect("a run translates every page; the next sends only the pages whose source changed and keeps the others", () =>
      Effect.gen(function*() {
        const translations = yield* Translations
        const before = yield* sentCount
        const sourceId = yield* sourceWith([["guide", "Guide", "# Install\n\nRun the tool.\n"], ["about", "About", "Quire keeps docs.\n"]])
        const id = yield* translate(sourceId)
        const first = yield* stored(id)
        assert.deepStrictEqual([first.status, first.failure, first.stats.runs, first.stats.latestPages], ["completed", null, 1, 2])
        assert.deepStrictEqual((yield* sentSince(before)).toSorted(), ["About", "Guide", "Install", "Quire keeps docs.", "Run the tool."])
        const result = yield* mainOf(first.resultSpaceId)
        assert.strictEqual(result.id, first.resultRevisionId)
        assert.deepStrictEqual(result.pages.map((p) => [p.id, p.title]), [["guide", "[fr] GUIDE"], ["about", "[fr] ABOUT"]])
        const guide = yield* markdownOf(first.resultSpaceId, "guide")
        assert.strictEqual(guide, "# [fr] INSTALL\n\n[fr] RUN THE TOOL.\n")

        // One page of the source changes: only it is sent again, the other keeps its translation.
        const edited = yield* sentCount
        yield* setPages(sourceId, [["guide", "Guide", "# Install\n\nRun the tool.\n"], ["about", "About", "Quire keeps docs in step.\n"]])
        yield* TestClock.adjust(debounceMillis)
        yield* settle
        const second = yield* stored(id)
        assert.deepStrictEqual([second.status, second.stats.runs, second.stats.latestPages, second.stats.totalPages], ["completed", 2, 1, 3])
        assert.deepStrictEqual(yield* sentSince(edited), ["About", "Quire keeps docs in step."])
        assert.strictEqual(yield* markdownOf(first.resultSpaceId, "guide"), guide)
        assert.strictEqual(yield* markdownOf(first.resultSpaceId, "about"), "[fr] QUIRE KEEPS DOCS IN STEP.\n")

        // A run asked for with nothing changed sends nothing and keeps the result.
        const idle = yield* sentCount
        yield* translations.run(org, id).pipe(as("alice"))
        yield* settle
        const third = yield* stored(id)
        assert.deepStrictEqual([third.status, third.stats.runs, third.stats.latestPages], ["completed", 3, 0])
        assert.strictEqual(yield* sentCount, idle)
        assert.strictEqual(yield* markdownOf(first.resultSpaceId, "guide"), guide)

        // New instructions translate every page again.
        yield* translations.update(org, id, instructions("Short words.")).pipe(as("alice"))
        yield* settle
        assert.strictEqual((yield* stored(id)).stats.latestPages, 2)
      }))

    it.effect("a run writes the source's reusable contents translated, with their ids and paths: the pages' includes by path and by id show the translation", () =>
      Effect.gen(function*() {
        const content = yield* SpaceContent
        const published = yield* PublishedContent
        const page = "Intro.\n\n{% include \"../.gitbook/includes/warning.md\" %}\n\n{% include \"/reusable-content/rc-warning\" %}\n"
        const sourceId = yield* sourceWith([["guide", "Guide", page]])
        const warning = "Back up your data first.\n"
        yield* content.commit(sourceId, (parent) =>
          Effect.succeed({
            pages: parent.pages,
            reusableContents: [{ id: "rc-warning", title: "Warning", document: documentHash(warning), git: { oid: "b1", path: ".gitbook/includes/warning.md" } }],
            documents: new Map([[documentHash(warning), warning]])
          })).pipe(as("alice"))
        const before = yield* sentCount
        const id = yield* translate(sourceId)
        const first = yield* stored(id)
        assert.strictEqual(first.status, "completed")
        assert.include(yield* sentSince(before), "Back up your data first.")
        const result = yield* mainOf(first.resultSpaceId)
        assert.deepStrictEqual(result.reusableContents?.map((node) => [node.id, node.title, node.git?.path]), [["rc-warning", "Warning", ".gitbook/includes/warning.md"]])
        const included = yield* content.reusableContent(first.resultSpaceId, "rc-warning").pipe(as("alice"))
        assert.strictEqual(included.markdown, "[fr] BACK UP YOUR DATA FIRST.\n")
        const shown = yield* withIncludes((yield* markdownOf(first.resultSpaceId, "guide")) ?? "", result.reusableContents, undefined, published.documents)
        assert.strictEqual(shown.match(/\[fr\] BACK UP YOUR DATA FIRST\./g)?.length, 2)
        assert.notInclude(shown, "include")

        // Nothing changed: the next run sends nothing and keeps the translated reusable content.
        const idle = yield* sentCount
        yield* (yield* Translations).run(org, id).pipe(as("alice"))
        yield* settle
        assert.strictEqual(yield* sentCount, idle)
        assert.strictEqual((yield* content.reusableContent(first.resultSpaceId, "rc-warning").pipe(as("alice"))).markdown, included.markdown)
      }))

    it.effect("a sentence with formatting is sent as one segment with tags, and the result has the source's markup around the translated words", () =>
      Effect.gen(function*() {
        const before = yield* sentCount
        const sourceId = yield* sourceWith([["welcome", "Welcome", "Welcome to the **Acme** handbook: see [setup](setup.md) and `quire init`.\n"]])
        const id = yield* translate(sourceId)
        assert.include(yield* sentSince(before), "Welcome to the <1>Acme</1> handbook: see <2>setup</2> and <3/>.")
        assert.strictEqual(
          yield* markdownOf((yield* stored(id)).resultSpaceId, "welcome"),
          "[fr] WELCOME TO THE **ACME** HANDBOOK: SEE [SETUP](setup.md) AND `quire init`.\n"
        )
      }))

    it.effect("a source's edits queue one run per translation, after QUIRE_TRANSLATE_DEBOUNCE_MS", () =>
      Effect.gen(function*() {
        const sourceId = yield* sourceWith([["page", "Page", "First words.\n"]])
        const french = yield* translate(sourceId, "fr")
        const german = yield* translate(sourceId, "de")

        // Two edits in a burst: both translations wait for the debounce, then run once each.
        yield* setPages(sourceId, [["page", "Page", "Second words.\n"]])
        yield* TestClock.adjust(debounceMillis / 2)
        yield* setPages(sourceId, [["page", "Page", "Third words.\n"]])
        yield* TestClock.adjust(debounceMillis - 1)
        yield* settle
        for (const id of [french, german]) {
          const waiting = yield* stored(id)
          assert.deepStrictEqual([waiting.status, waiting.stats.runs], ["pending", 1])
        }
        yield* TestClock.adjust(1)
        yield* settle
        for (const [id, language] of [[french, "fr"], [german, "de"]] as const) {
          const done = yield* stored(id)
          assert.deepStrictEqual([done.status, done.stats.runs], ["completed", 2])
          assert.strictEqual(yield* markdownOf(done.resultSpaceId, "page"), `[${language}] THIRD WORDS.\n`)
        }
      }))

    it.effect("a failed run writes nothing and records why; the next good run clears it", () =>
      Effect.gen(function*() {
        const sourceId = yield* sourceWith([["page", "Page", "Good words.\n"]])
        const id = yield* translate(sourceId)
        const good = yield* stored(id)

        yield* setPages(sourceId, [["page", "Page", "Words that FAIL.\n"]])
        yield* TestClock.adjust(debounceMillis)
        yield* settle
        const failed = yield* stored(id)
        assert.strictEqual(failed.status, "failed")
        assert.include(failed.failure ?? "", "The translation provider failed: the provider answered 500")
        assert.deepStrictEqual([failed.stats.runs, failed.stats.latestPages, failed.stats.latestWords, failed.stats.totalPages], [2, 0, 0, 1])
        assert.strictEqual(failed.resultRevisionId, good.resultRevisionId)
        assert.strictEqual((yield* mainOf(failed.resultSpaceId)).id, good.resultRevisionId)
        assert.strictEqual(yield* markdownOf(failed.resultSpaceId, "page"), "[fr] GOOD WORDS.\n")

        yield* setPages(sourceId, [["page", "Page", "Better words.\n"]])
        yield* TestClock.adjust(debounceMillis)
        yield* settle
        const fixed = yield* stored(id)
        assert.deepStrictEqual([fixed.status, fixed.failure, fixed.stats.runs], ["completed", null, 3])
        assert.strictEqual(yield* markdownOf(fixed.resultSpaceId, "page"), "[fr] BETTER WORDS.\n")
      }))

    it.effect("the budget is checked before anything is sent: a run over it fails and sends nothing", () =>
      Effect.gen(function*() {
        const sourceId = yield* sourceWith([["page", "Page", "Short.\n"]])
        const id = yield* translate(sourceId)
        const before = yield* sentCount

        yield* setPages(sourceId, [["page", "Page", `${"Many words here. ".repeat(40)}\n`]])
        yield* TestClock.adjust(debounceMillis)
        yield* settle
        const exhausted = yield* stored(id)
        assert.strictEqual(exhausted.status, "failed")
        assert.include(exhausted.failure ?? "", "Translation budget exhausted")
        assert.include(exhausted.failure ?? "", `${budget.characters} characters`)
        assert.strictEqual(yield* sentCount, before)
        assert.strictEqual(yield* markdownOf(exhausted.resultSpaceId, "page"), "[fr] SHORT.\n")

        const segments = Array.from({ length: budget.segments + 1 }, (_, i) => `Line ${i}.`).join("\n\n")
        yield* setPages(sourceId, [["page", "Page", `${segments}\n`]])
        yield* TestClock.adjust(debounceMillis)
        yield* settle
        assert.include((yield* stored(id)).failure ?? "", `${budget.segments} segments`)
        assert.strictEqual(yield* sentCount, before)
      }))
  })
})
