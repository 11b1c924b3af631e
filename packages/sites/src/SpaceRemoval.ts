/** Content's SpaceDependents port over the sites tables: a purged space leaves every site it was in. */
import { Clock, Effect, Layer, Option } from "effect"
import { SpaceDependents } from "@quire/content"
import { SitesRepo } from "./SitesRepo.ts"
import { SiteStructureRepo } from "./SiteStructureRepo.ts"
import { SiteChanges } from "./SiteChanges.ts"
import * as Model from "./StructureModel.ts"

export const layer = Layer.effect(
  SpaceDependents,
  Effect.gen(function*() {
    const structure = yield* SiteStructureRepo
    const sites = yield* SitesRepo
    const changes = yield* SiteChanges
    return SpaceDependents.of({
      removeSpace: (spaceId) =>
        Effect.gen(function*() {
          const now = new Date(yield* Clock.currentTimeMillis)
          for (const siteSpace of yield* structure.siteSpacesOfSpace(spaceId)) {
            const site = yield* sites.find(siteSpace.siteId)
            if (Option.isNone(site)) {
              yield* structure.removeSiteSpace(siteSpace.id)
              continue
            }
            // Read again for each: an earlier removal may have moved a default.
            const model = yield* Model.load(structure, site.value.id)
            yield* Model.removeSiteSpace(site.value, model, siteSpace, now)
          }
        }).pipe(Effect.provideService(SiteStructureRepo, structure), Effect.provideService(SitesRepo, sites), changes.after)
    })
  })
)
