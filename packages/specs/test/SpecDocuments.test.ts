/** The reader's lookup of a spec's latest document: `$ref`s resolved across the version's files, cached per version. */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import type { Spec } from "../src/domain/Spec.ts"
import { resolveDocument, SpecDocuments } from "../src/SpecDocuments.ts"
import { SpecsRepo } from "../src/SpecsRepo.ts"

const at = new Date(Date.UTC(2026, 0, 1))

const spec: Spec = {
  id: "s1",
  organizationId: "o1",
  slug: "pets",
  visibility: "private",
  source: { text: "{}" },
  processingState: "complete",
  lastProcessErrorCode: null,
  lastProcessedErrors: [],
  lastProcessedAt: at,
  lastVersionId: null,
  createdAt: at,
  updatedAt: at
}

const filesystem = [
  {
    filename: "openapi",
    isEntrypoint: true,
    references: ["schemas/pet.json"],
    specification: {
      openapi: "3.1.0",
      paths: { "/pets": { get: { responses: { "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/Pets" } } } } } } } },
      components: { schemas: { Pets: { type: "array", items: { $ref: "schemas/pet.json" } }, Loop: { properties: { next: { $ref: "#/components/schemas/Loop" } } } } }
    }
  },
  { filename: "schemas/pet.json", isEntrypoint: false, references: ["tag.json"], specification: { type: "object", properties: { tag: { $ref: "tag.json" }, gone: { $ref: "missing.json" } } } },
  { filename: "tag.json", isEntrypoint: false, references: [], specification: { type: "string" } }
]

describe("SpecDocuments", () => {
  it("resolves references in the same file and in others (relative to the file that makes them); cycles and dangling ones stay", () => {
    const doc = resolveDocument(filesystem) as any
    const schema = doc.paths["/pets"].get.responses["200"].content["application/json"].schema
    assert.deepStrictEqual(schema, { type: "array", items: { type: "object", properties: { tag: { type: "string" }, gone: { $ref: "missing.json" } } } })
    assert.deepStrictEqual(doc.components.schemas.Loop.properties.next.properties.next, { $ref: "#/components/schemas/Loop" })
    assert.isUndefined(resolveDocument([]))
  })

  it.effect("latestDocument: none without a spec or a version, else the latest version's id and document", () =>
    Effect.gen(function*() {
      const repo = yield* SpecsRepo
      const documents = yield* SpecDocuments
      assert.isTrue(Option.isNone(yield* documents.latestDocument("o1", "pets")))
      yield* repo.insert(spec)
      assert.isTrue(Option.isNone(yield* documents.latestDocument("o1", "pets")))
      yield* repo.insertVersion({ id: "v1", specId: "s1", createdAt: at, filesystem, hash: "h", url: null })
      yield* repo.update("s1", { lastVersionId: "v1" })
      const latest = yield* documents.latestDocument("o1", "pets")
      assert.strictEqual(Option.getOrThrow(latest).versionId, "v1")
      assert.strictEqual((Option.getOrThrow(latest).document as any).openapi, "3.1.0")
      // Cached per version: the same object again.
      assert.strictEqual(Option.getOrThrow(yield* documents.latestDocument("o1", "pets")).document, Option.getOrThrow(latest).document)
      assert.deepStrictEqual(yield* documents.latestVersionId("o1", "pets"), Option.some("v1"))
      assert.isTrue(Option.isNone(yield* documents.latestDocument("o2", "pets")))
    }).pipe(Effect.provide(SpecDocuments.layer.pipe(Layer.provideMerge(SpecsRepo.layerMemory)))))
})
