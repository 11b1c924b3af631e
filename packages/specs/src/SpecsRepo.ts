/** Port: OpenAPI specifications and their versions. */
import { Context, Effect, Layer, Option } from "effect"
import { Errors, MemoryStore, Pagination } from "@quire/kernel"
import type { Spec, SpecVersion } from "./domain/Spec.ts"

export type SpecPatch = Partial<Omit<Spec, "id" | "organizationId" | "slug" | "createdAt">>

export interface SpecsRepoShape {
  /** Conflict when the organization has a spec with this slug. */
  readonly insert: (spec: Spec) => Effect.Effect<void, Errors.Conflict>
  readonly find: (specId: string) => Effect.Effect<Option.Option<Spec>>
  readonly findBySlug: (organizationId: string, slug: string) => Effect.Effect<Option.Option<Spec>>
  /** Specs ordered by (createdAt, id). */
  readonly list: (organizationId: string, after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<Spec>>
  /** Every spec with a URL source (the poller's). */
  readonly withUrl: Effect.Effect<ReadonlyArray<Spec>>
  /** None, and nothing written, when the spec does not exist (it may have been removed meanwhile). */
  readonly update: (specId: string, patch: SpecPatch) => Effect.Effect<Option.Option<Spec>>
  /** Removes the spec and its versions. */
  readonly remove: (specId: string) => Effect.Effect<void>
  /** Does nothing once the version's spec is removed. */
  readonly insertVersion: (version: SpecVersion) => Effect.Effect<void>
  readonly findVersion: (specId: string, versionId: string) => Effect.Effect<Option.Option<SpecVersion>>
  /** Versions, newest first, ordered by (createdAt, id) descending. */
  readonly listVersions: (specId: string, after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<SpecVersion>>
}

export const specKey = (spec: Spec): Pagination.CursorKey => [spec.createdAt.toISOString(), spec.id]
export const versionKey = (version: SpecVersion): Pagination.CursorKey => [version.createdAt.toISOString(), version.id]
export const keyShape: Pagination.KeyShape = ["timestamp", "string"]

export const slugTaken = (slug: string) => new Errors.Conflict({ reason: `an OpenAPI spec with slug ${JSON.stringify(slug)} already exists` })

export class SpecsRepo extends Context.Service<SpecsRepo, SpecsRepoShape>()("@quire/specs/SpecsRepo") {
  static readonly layerMemory = Layer.sync(SpecsRepo, () => {
    const specs = new MemoryStore.TxMap<string, Spec>()
    const versions = new MemoryStore.TxMap<string, SpecVersion>()
    const bySlug = (organizationId: string, slug: string) =>
      Array.from(specs.values()).find((s) => s.organizationId === organizationId && s.slug === slug)

    return SpecsRepo.of({
      insert: (spec) =>
        Effect.suspend(() => {
          if (bySlug(spec.organizationId, spec.slug) !== undefined) return Effect.fail(slugTaken(spec.slug))
          specs.set(spec.id, spec)
          return Effect.void
        }),
      find: (specId) => Effect.sync(() => Option.fromNullishOr(specs.get(specId))),
      findBySlug: (organizationId, slug) => Effect.sync(() => Option.fromNullishOr(bySlug(organizationId, slug))),
      list: (organizationId, after, limit) =>
        Effect.suspend(() =>
          Pagination.paginateArray(
            Array.from(specs.values()).filter((s) => s.organizationId === organizationId),
            specKey,
            { order: "asc", after, limit }
          )
        ),
      withUrl: Effect.sync(() => Array.from(specs.values()).filter((s) => "url" in s.source)),
      update: (specId, patch) =>
        Effect.sync(() => {
          const found = specs.get(specId)
          if (found === undefined) return Option.none()
          const next: Spec = { ...found, ...patch }
          specs.set(specId, next)
          return Option.some(next)
        }),
      remove: (specId) =>
        Effect.sync(() => {
          specs.delete(specId)
          for (const v of Array.from(versions.values())) if (v.specId === specId) versions.delete(v.id)
        }),
      insertVersion: (version) =>
        Effect.sync(() => {
          if (specs.get(version.specId) !== undefined) versions.set(version.id, version)
        }),
      findVersion: (specId, versionId) =>
        Effect.sync(() => Option.filter(Option.fromNullishOr(versions.get(versionId)), (v) => v.specId === specId)),
      listVersions: (specId, after, limit) =>
        Effect.suspend(() =>
          Pagination.paginateArray(
            Array.from(versions.values()).filter((v) => v.specId === specId),
            versionKey,
            { order: "desc", after, limit }
          )
        )
    })
  })
}
