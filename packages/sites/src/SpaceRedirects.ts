/**
 * Port: a space's own redirects (GitBook's `.gitbook.yaml` `redirects:`), an old path below the
 * space's URL to the file of the page replacing it. Git sync knows them; a published site applies
 * them below each site space showing the space, after the site's own redirects.
 */
import { Context, Effect, Layer } from "effect"
import { flattenPages, type Revision } from "@quire/content"

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

/**
 * The page of `revision` that one of `redirects` sends `path` (below the space's URL) to: the
 * page whose Git file is the redirect's target, as the published site follows it. None when no
 * redirect names the path or its target is no page of the revision.
 */
export const redirectedPage = (
  redirects: ReadonlyArray<SpaceRedirect>,
  revision: Pick<Revision, "pages">,
  path: string
): { readonly id: string; readonly path: string } | undefined => {
  const wanted = path.replace(/^\/+|\/+$/g, "")
  if (wanted === "") return undefined
  const own = redirects.find((r) => r.source === wanted)
  if (own === undefined) return undefined
  const entry = flattenPages(revision.pages).find((e) => e.page.git?.path === own.target)
  return entry === undefined ? undefined : { id: entry.page.id, path: entry.path }
}
