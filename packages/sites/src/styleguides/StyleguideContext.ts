/** What the style guide use cases share: their ports, and reading a site's guide and its rules. */
import { Clock, Effect, Option } from "effect"
import { ContentAccess, flattenPages, type SpaceAccess, Spaces, SpaceContent } from "@quire/content"
import { Errors, Ids, Transactor } from "@quire/kernel"
import { JobQueue } from "@quire/queue"
import * as SiteGuard from "../SiteGuard.ts"
import { SiteStructureRepo } from "../SiteStructureRepo.ts"
import type { SiteStyleguide } from "./Styleguide.ts"
import { StyleguideRepo } from "./StyleguideRepo.ts"
import { StyleguideModel } from "./StyleguideModel.ts"
import { StyleguideReviews } from "./StyleguideReviews.ts"
import { parseRules } from "./StyleRules.ts"

export const noGuide = (siteId: string) => new Errors.NotFound({ resource: "Styleguide", id: siteId })

export const make = Effect.gen(function*() {
  const guard = yield* SiteGuard.make
  const repo = yield* StyleguideRepo
  const structure = yield* SiteStructureRepo
  const access = yield* ContentAccess
  const spaces = yield* Spaces
  const content = yield* SpaceContent
  const reviews = yield* StyleguideReviews
  const { model } = yield* StyleguideModel
  const queue = yield* JobQueue
  const ids = yield* Ids.Ids
  const transactor = yield* Transactor.Transactor
  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

  /** The guide's space when it is still there (a trashed or purged space is no guide). */
  const spaceOf = (guide: SiteStyleguide) =>
    spaces.get(guide.spaceId).pipe(
      Effect.map((found) => (found.space.deletedAt === null ? Option.some(found) : Option.none<SpaceAccess>())),
      Effect.catchTag("NotFound", () => Effect.succeed(Option.none<SpaceAccess>()))
    )

  /** The rules of a guide's space: every document page's markdown, in the tree's order. */
  const rulesOf = Effect.fnUntraced(function*(spaceId: string) {
    const current = yield* content.revision(spaceId)
    const texts: Array<string> = []
    for (const { page } of flattenPages(current.revision.pages)) {
      if (page.type !== "document") continue
      const entry = yield* content.pageEntryIn(current.revision, page.id)
      texts.push((yield* content.pageMarkdown(entry)) ?? "")
    }
    return parseRules(texts.join("\n\n"))
  })

  const guideOf = Effect.fnUntraced(function*(siteId: string) {
    const guide = yield* repo.guideOf(siteId)
    if (Option.isNone(guide)) return yield* noGuide(siteId)
    const space = yield* spaceOf(guide.value)
    if (Option.isNone(space)) return yield* noGuide(siteId)
    return { guide: guide.value, space: space.value }
  })

  return { guard, repo, structure, access, spaces, content, reviews, model, queue, ids, transactor, now, spaceOf, rulesOf, guideOf }
})

export type StyleguideContext = Effect.Success<typeof make>
