/** Content's SpaceDependents port over the reviews package's tables: a purged space takes its change requests, comments, reviews, notifications and shared documents with it. */
import { Effect, Layer } from "effect"
import { SpaceDependents } from "@quire/content"
import { ChangeRequestsRepo } from "./ChangeRequestsRepo.ts"
import { CollabUpdatesRepo } from "./CollabUpdatesRepo.ts"
import { CommentsRepo } from "./CommentsRepo.ts"
import { NotificationsRepo } from "./NotificationsRepo.ts"
import { ReviewsRepo } from "./ReviewsRepo.ts"
import { SpaceCountersRepo } from "./SpaceCountersRepo.ts"

export const layer = Layer.effect(
  SpaceDependents,
  Effect.gen(function*() {
    const changeRequests = yield* ChangeRequestsRepo
    const comments = yield* CommentsRepo
    const counters = yield* SpaceCountersRepo
    const reviews = yield* ReviewsRepo
    const notifications = yield* NotificationsRepo
    const collab = yield* CollabUpdatesRepo
    return SpaceDependents.of({
      removeSpace: (spaceId) =>
        Effect.all([
          reviews.removeForSpace(spaceId),
          notifications.removeForSpace(spaceId),
          collab.removeForSpace(spaceId),
          comments.removeForSpace(spaceId),
          changeRequests.removeForSpace(spaceId),
          counters.removeSpace(spaceId)
        ], {
          discard: true
        })
    })
  })
)
