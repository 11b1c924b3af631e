/** Content's SpaceDependents port: what reviews, sites, Git sync and translations keep about a purged space, removed in the purge's transaction. */
import { Effect, Layer } from "effect"
import { SpaceDependents } from "@quire/content"
import { GitSyncLayers } from "@quire/gitsync"
import { ReviewsLayers } from "@quire/reviews"
import { SitesLayers } from "@quire/sites"
import { TranslationsLayers } from "@quire/translations"

const each = <R>(layer: Layer.Layer<SpaceDependents, never, R>) => Effect.service(SpaceDependents).pipe(Effect.provide(layer))

export const layer = Layer.effect(
  SpaceDependents,
  Effect.map(
    Effect.all([each(ReviewsLayers.layerSpaceDependents), each(SitesLayers.layerSpaceDependents), each(GitSyncLayers.layerSpaceDependents), each(TranslationsLayers.layerSpaceDependents)]),
    (all) => SpaceDependents.of(SpaceDependents.combine(all))
  )
)
