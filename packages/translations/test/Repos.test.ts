/** The TranslationsRepo contract, run against memory, a real PostgreSQL and PGlite. */
import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Transactor } from "@quire/kernel"
import { assertNone, at, Backends, some } from "@quire/testkit"

const ids = (items: ReadonlyArray<{ readonly id: string }>) => items.map((item) => item.id)
import { emptyStats, type Translation } from "../src/domain/Translation.ts"
import { migrations } from "../src/migrations/index.ts"
import * as SqlTranslationsRepo from "../src/SqlTranslationsRepo.ts"
import { TranslationsRepo } from "../src/TranslationsRepo.ts"

const translation = (id: string, organizationId: string, overrides: Partial<Translation> = {}): Translation => ({
  id,
  organizationId,
  sourceSpaceId: `${id}-source`,
  sourceLanguage: "en",
  language: "fr",
  instructions: { object: "document", data: { schemaVersion: 1 }, nodes: [{ object: "block", type: "paragraph", nodes: [] }] },
  resultSpaceId: `${id}-result`,
  actorId: "user-1",
  resultRevisionId: null,
  status: "pending",
  failure: null,
  stats: emptyStats,
  pageHashes: {},
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

const backends = Backends.ports({ memory: TranslationsRepo.layerMemory, sql: SqlTranslationsRepo.layer, migrations: [migrations] })

Backends.each(backends, (it) => {
  it.effect("stores, finds, lists by organization in creation order, and pages", () =>
    Effect.gen(function*() {
      const repo = yield* TranslationsRepo
      const full = translation("tr-1", "tr-org", { failure: "«β» reason", status: "failed", pageHashes: { p1: "h1" }, createdAt: at(2) })
      yield* repo.insert(full)
      yield* repo.insert(translation("tr-2", "tr-org", { createdAt: at(1) }))
      yield* repo.insert(translation("tr-3", "tr-other", { createdAt: at(0) }))
      assert.deepStrictEqual(some(yield* repo.find("tr-1")), full)
      assertNone(yield* repo.find("tr-missing"))
      const page = yield* repo.list("tr-org", undefined, 1)
      assert.deepStrictEqual(ids(page.items), ["tr-2"])
      assert.isDefined(page.next)
      const rest = yield* repo.list("tr-org", [at(1).toISOString(), "tr-2"], 10)
      assert.deepStrictEqual(ids(rest.items), ["tr-1"])
      assert.isUndefined(rest.next)
      assert.deepStrictEqual(ids(yield* repo.ofSource("tr-1-source")), ["tr-1"])
      assert.deepStrictEqual(ids(yield* repo.ofResult("tr-2-result")), ["tr-2"])
      assert.deepStrictEqual(ids(yield* repo.ofResult("tr-1-source")), [])
    }))

  it.effect("concurrent updates of different fields keep each other's writes (a run's status never reverts an edit)", () =>
    Effect.gen(function*() {
      const repo = yield* TranslationsRepo
      yield* repo.insert(translation("tc-1", "tc-org"))
      const edited = { object: "document" as const, data: {}, nodes: [{ object: "block", type: "paragraph", nodes: [] }, { object: "block", type: "paragraph", nodes: [] }] }
      const statuses = Array.from({ length: 12 }, (_, i) => repo.update("tc-1", { status: i % 2 === 0 ? "running" : "pending", failure: null }))
      yield* Effect.all([...statuses.slice(0, 6), repo.update("tc-1", { instructions: edited }), ...statuses.slice(6)], { concurrency: "unbounded" })
      assert.deepStrictEqual(some(yield* repo.find("tc-1")).instructions, edited)
    }))

  it.effect("updates a record's run state and removes it", () =>
    Effect.gen(function*() {
      const repo = yield* TranslationsRepo
      yield* repo.insert(translation("tu-1", "tu-org"))
      const stats = { ...emptyStats, runs: 2, totalWords: 40, latestWords: 10 }
      const updated = yield* repo.update("tu-1", { status: "completed", resultRevisionId: "rev-1", stats, pageHashes: { a: "1", b: "2" }, updatedAt: at(5) })
      assert.strictEqual(some(updated).status, "completed")
      const found = some(yield* repo.find("tu-1"))
      assert.deepStrictEqual(found.stats, stats)
      assert.deepStrictEqual(found.pageHashes, { a: "1", b: "2" })
      assert.strictEqual(found.resultRevisionId, "rev-1")
      assert.deepStrictEqual(found.updatedAt, at(5))
      assert.isTrue(Option.isNone(yield* repo.update("tu-missing", { status: "running" })))
      yield* repo.remove("tu-1")
      assertNone(yield* repo.find("tu-1"))
    }))

  it.effect("rolls an insert back with its transaction", () =>
    Effect.gen(function*() {
      const repo = yield* TranslationsRepo
      const transactor = yield* Transactor.Transactor
      yield* transactor.transaction(Effect.andThen(repo.insert(translation("tx-1", "tx-org")), Effect.fail("stop"))).pipe(Effect.ignore)
      assertNone(yield* repo.find("tx-1"))
    }))
})
