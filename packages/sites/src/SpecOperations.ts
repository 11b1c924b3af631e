/**
 * Port: the OpenAPI specs of an organization as published pages read them (`{% openapi-operation %}`
 * blocks). The specs package implements it (platform wires it). Required: a composition without
 * specs says so with `SpecOperations.layerNone`.
 */
import { Context, Effect, Layer, Option } from "effect"

export interface SpecOperationsShape {
  /** The id of the spec's latest version (cheap: checked before a cached page is served). */
  readonly latestVersionId: (organizationId: string, slug: string) => Effect.Effect<Option.Option<string>>
  /** The latest version's id and its entry document, `$ref`s resolved. */
  readonly latestDocument: (
    organizationId: string,
    slug: string
  ) => Effect.Effect<Option.Option<{ readonly versionId: string; readonly document: Readonly<Record<string, unknown>> }>>
}

/** Read when the SiteRenderer is built. */
export class SpecOperations extends Context.Service<SpecOperations, SpecOperationsShape>()("@quire/sites/SpecOperations") {
  /** No specs: every operation block draws as one whose spec is missing (sites' own tests). */
  static readonly layerNone = Layer.succeed(SpecOperations, SpecOperations.of({ latestVersionId: () => Effect.succeed(Option.none()), latestDocument: () => Effect.succeed(Option.none()) }))
}
