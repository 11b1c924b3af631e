/**
 * Port: a space's own redirects (GitBook's `.gitbook.yaml` `redirects:`), an old path below the
 * space's URL to the file of the page replacing it. Git sync knows them; a published site applies
 * them below each site space showing the space, after the site's own redirects.
 */
import { Context, Effect, Layer } from "effect"

export interface SpaceRedirect {
  /** Below the site space's URL, without leading or trailing `/`, not percent-encoded. */
  readonly source: string
  /** The Git path of the page's file (a page's `git.path`). */
  readonly target: string
}

export interface SpaceRedirectsShape {
  readonly forSpace: (spaceId: string) => Effect.Effect<ReadonlyArray<SpaceRedirect>>
}

export class SpaceRedirects extends Context.Service<SpaceRedirects, SpaceRedirectsShape>()("@quire/sites/SpaceRedirects") {
  /** No space has redirects (a composition without Git sync). */
  static readonly layerNone = Layer.succeed(SpaceRedirects, SpaceRedirects.of({ forSpace: () => Effect.succeed([]) }))
}
