/**
 * Spaces as the API shows them: content's space with the counters the reviews package keeps and
 * the repository gitsync syncs it with (`gitSync`).
 */
import { Context, Effect, Layer } from "effect"
import type { SpaceAccess } from "@quire/content"
import { GitSync, type SpaceGitSync } from "@quire/gitsync"
import { SpaceActivity } from "@quire/reviews"
import * as Presenters from "./Presenters.ts"
import { PublicUrl } from "./PublicUrl.ts"

type SpaceResponse = ReturnType<typeof Presenters.space>

/** The space with its `gitSync` when it has a repository. */
const withGitSync = (space: SpaceResponse, syncs: ReadonlyMap<string, SpaceGitSync>): SpaceResponse => {
  const sync = syncs.get(space.id)
  return sync === undefined ? space : { ...space, gitSync: { ...sync, updatedAt: sync.updatedAt.toISOString() } }
}

export class SpaceViews extends Context.Service<SpaceViews, {
  readonly one: (access: SpaceAccess) => Effect.Effect<SpaceResponse>
  /** Every item's space, with the counters of all of them read at once. */
  readonly page: <A, B>(
    page: { readonly items: ReadonlyArray<A>; readonly next?: string | undefined },
    spaceOf: (item: A) => SpaceAccess,
    present: (item: A, space: SpaceResponse) => B
  ) => Effect.Effect<ReturnType<typeof Presenters.list<A, B>>>
}>()("@quire/server/SpaceViews") {
  static readonly layer = Layer.effect(
    SpaceViews,
    Effect.gen(function*() {
      const activity = yield* SpaceActivity
      const urls = yield* PublicUrl
      const git = yield* GitSync
      const gitSyncs = (spaceIds: ReadonlyArray<string>) =>
        Effect.map(
          Effect.forEach(spaceIds, (id) => Effect.map(git.gitSyncOf(id), (sync) => [id, sync] as const)),
          (pairs) => new Map<string, SpaceGitSync>(pairs.flatMap(([id, sync]) => (sync === null ? [] : [[id, sync] as const])))
        )
      const views = (spaceIds: ReadonlyArray<string>) =>
        Effect.all([activity.counters(spaceIds), gitSyncs(spaceIds)])
      return SpaceViews.of({
        one: (access) =>
          Effect.map(views([access.space.id]), ([found, syncs]) => withGitSync(Presenters.space(urls, access, found), syncs)),
        page: (page, spaceOf, present) =>
          Effect.map(views(page.items.map((item) => spaceOf(item).space.id)), ([found, syncs]) =>
            Presenters.list(page, (item) => present(item, withGitSync(Presenters.space(urls, spaceOf(item), found), syncs))))
      })
    })
  )
}
