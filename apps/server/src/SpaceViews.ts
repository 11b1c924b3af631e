/** Spaces as the API shows them: content's space with the counters the reviews package keeps. */
import { Context, Effect, Layer } from "effect"
import type { SpaceAccess } from "@quire/content"
import { SpaceActivity } from "@quire/reviews"
import * as Presenters from "./Presenters.ts"
import { PublicUrl } from "./PublicUrl.ts"

type SpaceResponse = ReturnType<typeof Presenters.space>

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
      return SpaceViews.of({
        one: (access) => Effect.map(activity.counters([access.space.id]), (found) => Presenters.space(urls, access, found)),
        page: (page, spaceOf, present) =>
          Effect.map(activity.counters(page.items.map((item) => spaceOf(item).space.id)), (found) =>
            Presenters.list(page, (item) => present(item, Presenters.space(urls, spaceOf(item), found))))
      })
    })
  )
}
