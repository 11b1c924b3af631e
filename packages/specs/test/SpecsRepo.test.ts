/** The SpecsRepo contract, run against memory, a real PostgreSQL and PGlite (one store per backend; tests use ids of their own). */
import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Errors, Pagination, Transactor } from "@quire/kernel"
import { Backends } from "@quire/testkit"
import type { Spec, SpecVersion } from "../src/domain/Spec.ts"
import { migrations } from "../src/index.ts"
import { SpecsRepo } from "../src/SpecsRepo.ts"
import * as SqlSpecsRepo from "../src/SqlSpecsRepo.ts"

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds))

const spec = (id: string, organizationId: string, overrides: Partial<Spec> = {}): Spec => ({
  id,
  organizationId,
  slug: `slug-${id}`,
  visibility: "private",
  source: { url: `https://example.com/${id}.json` },
  processingState: "pending",
  lastProcessErrorCode: null,
  lastProcessedErrors: [],
  lastProcessedAt: null,
  lastVersionId: null,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

const version = (id: string, specId: string, seconds: number): SpecVersion => ({
  id,
  specId,
  createdAt: at(seconds),
  filesystem: [{ filename: "openapi", isEntrypoint: true, references: [], specification: { openapi: "3.1.0", info: { title: id } } }],
  hash: `hash-${id}`,
  url: null
})

const backends = Backends.ports({ memory: SpecsRepo.layerMemory, sql: SqlSpecsRepo.layer, migrations: [migrations] })

Backends.each(backends, (it) => {
  it.effect("stores, finds by id and slug, updates and refuses a second slug in an organization", () =>
    Effect.gen(function*() {
      const repo = yield* SpecsRepo
      const full = spec("s1", "org-a", {
        source: { text: "openapi: 3.1.0 «β»" },
        lastProcessErrorCode: "PARSE_ERROR",
        lastProcessedErrors: [{ message: "bad", code: "INVALID_DOCUMENT" }],
        lastProcessedAt: at(3)
      })
      yield* repo.insert(full)
      assert.deepStrictEqual(Option.getOrThrow(yield* repo.find("s1")), full)
      assert.deepStrictEqual(Option.getOrThrow(yield* repo.findBySlug("org-a", "slug-s1")), full)
      assert.isTrue(Option.isNone(yield* repo.findBySlug("org-b", "slug-s1")))
      const clash = yield* Effect.flip(repo.insert(spec("s2", "org-a", { slug: "slug-s1" })))
      assert.instanceOf(clash, Errors.Conflict)
      yield* repo.insert(spec("s3", "org-b", { slug: "slug-s1" }))
      const updated = yield* repo.update("s1", { visibility: "public", processingState: "complete", lastVersionId: "v1", updatedAt: at(9) })
      assert.deepStrictEqual(Option.getOrThrow(updated), { ...full, visibility: "public", processingState: "complete", lastVersionId: "v1", updatedAt: at(9) })
      assert.deepStrictEqual(Option.getOrThrow(yield* repo.find("s1")), Option.getOrThrow(updated))
      assert.isTrue(Option.isNone(yield* repo.update("missing", { visibility: "public" })))
    }))

  it.effect("lists an organization's specs oldest first, page by page, and the URL sources", () =>
    Effect.gen(function*() {
      const repo = yield* SpecsRepo
      for (const [i, id] of ["l3", "l1", "l2"].entries()) yield* repo.insert(spec(id, "org-list", { createdAt: at(10 - i) }))
      yield* repo.insert(spec("l-text", "org-list", { createdAt: at(20), source: { text: "x" } }))
      const first = yield* repo.list("org-list", undefined, 2)
      assert.deepStrictEqual(first.items.map((s) => s.id), ["l2", "l1"])
      const after = yield* Pagination.decodeCursor(first.next!)
      const second = yield* repo.list("org-list", after, 2)
      assert.deepStrictEqual(second.items.map((s) => s.id), ["l3", "l-text"])
      assert.isUndefined(second.next)
      const withUrl = (yield* repo.withUrl).map((s) => s.id)
      assert.includeMembers(withUrl, ["l1", "l2", "l3"])
      assert.notInclude(withUrl, "l-text")
    }))

  it.effect("keeps versions newest first, each under its spec, and removes them with the spec", () =>
    Effect.gen(function*() {
      const repo = yield* SpecsRepo
      yield* repo.insert(spec("v-spec", "org-v"))
      for (const [i, id] of ["va", "vb", "vc"].entries()) yield* repo.insertVersion(version(id, "v-spec", i))
      assert.deepStrictEqual(Option.getOrThrow(yield* repo.findVersion("v-spec", "vb")), version("vb", "v-spec", 1))
      assert.isTrue(Option.isNone(yield* repo.findVersion("other-spec", "vb")))
      const first = yield* repo.listVersions("v-spec", undefined, 2)
      assert.deepStrictEqual(first.items.map((v) => v.id), ["vc", "vb"])
      const second = yield* repo.listVersions("v-spec", yield* Pagination.decodeCursor(first.next!), 2)
      assert.deepStrictEqual(second.items.map((v) => v.id), ["va"])
      yield* repo.remove("v-spec")
      assert.isTrue(Option.isNone(yield* repo.find("v-spec")))
      assert.isTrue(Option.isNone(yield* repo.findVersion("v-spec", "va")))
      assert.strictEqual((yield* repo.listVersions("v-spec", undefined, 10)).items.length, 0)
    }))

  it.effect("a run that ends after its spec was removed brings back neither the spec nor a version", () =>
    Effect.gen(function*() {
      const repo = yield* SpecsRepo
      yield* repo.insert(spec("gone", "org-gone"))
      yield* repo.remove("gone")
      yield* repo.insertVersion(version("gone-v", "gone", 0))
      assert.isTrue(Option.isNone(yield* repo.update("gone", { processingState: "complete", lastVersionId: "gone-v" })))
      assert.isTrue(Option.isNone(yield* repo.find("gone")))
      assert.isTrue(Option.isNone(yield* repo.findVersion("gone", "gone-v")))
    }))

  it.effect("rolls back with the transaction", () =>
    Effect.gen(function*() {
      const repo = yield* SpecsRepo
      const transactor = yield* Transactor.Transactor
      const attempt = transactor.transaction(Effect.gen(function*() {
        yield* repo.insert(spec("rb", "org-rb"))
        yield* repo.insertVersion(version("rb-v", "rb", 0))
        return yield* Effect.fail("abort" as const)
      }))
      assert.strictEqual(yield* Effect.flip(attempt), "abort")
      assert.isTrue(Option.isNone(yield* repo.find("rb")))
      assert.isTrue(Option.isNone(yield* repo.findVersion("rb", "rb-v")))
    }))
})
