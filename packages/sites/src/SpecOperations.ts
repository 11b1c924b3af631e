/**
 * Port: the OpenAPI specs of an organization as published pages read them (`{% openapi-operation %}`
 * blocks). The specs package implements it (platform wires it); by default there are no specs.
 */
import { Context, Effect, Option } from "effect"

export interface SpecOperationsShape {
  /** The id of the spec's latest version (cheap: checked before a cached page is served). */
  readonly latestVersionId: (organizationId: string, slug: string) => Effect.Effect<Option.Option<string>>
  /** The latest version's id and its entry document, `$ref`s resolved. */
  readonly latestDocument: (
    organizationId: string,
    slug: string
  ) => Effect.Effect<Option.Option<{ readonly versionId: string; readonly document: Readonly<Record<string, unknown>> }>>
}

/** Read when the SiteRenderer is built; provide a layer of it to render operations (default: no specs). */
export const SpecOperations = Context.Reference<SpecOperationsShape>("@quire/sites/SpecOperations", {
  defaultValue: () => ({ latestVersionId: () => Effect.succeed(Option.none()), latestDocument: () => Effect.succeed(Option.none()) })
})
