/** Content's SpaceDependents port over the reviews package's tables: a purged space takes its change requests, comments, reviews, notifications, shared documents, viewed marks and agent conversations with it. */
import { Effect, Layer } from "effect"
import { SpaceDependents } from "@quire/content"
import { ChangeRequestsRepo } from "./ChangeRequestsRepo.ts"
import { CollabUpdatesRepo } from "./CollabUpdatesRepo.ts"
import { CommentsRepo } from "./CommentsRepo.ts"
import { NotificationsRepo } from "./NotificationsRepo.ts"
import { ReviewsRepo } from "./ReviewsRepo.ts"
import { SpaceCountersRepo } from "./SpaceCountersRepo.ts"
import { ViewedPagesRepo } from "./ViewedPagesRepo.ts"
import { AgentConversationsRepo } from "./agent/AgentConversationsRepo.ts"

export const layer = Layer.effect(
  SpaceDependents,
  Effect.gen(function*() {
    const changeRequests = yield* ChangeRequestsRepo
    const comments = yield* CommentsRepo
    const counters = yield* SpaceCountersRepo
    const reviews = yield* ReviewsRepo
    const notifications = yield* NotificationsRepo
    const collab = yield* CollabUpdatesRepo
    const viewed = yield* ViewedPagesRepo
    const conversations = yield* AgentConversationsRepo
    return SpaceDependents.of({
      removeSpace: (spaceId) =>
        Effect.all([
          reviews.removeForSpace(spaceId),
          notifications.removeForSpace(spaceId),
          collab.removeForSpace(spaceId),
          viewed.removeForSpace(spaceId),
          conversations.removeForSpace(spaceId),
          comments.removeForSpace(spaceId),
          changeRequests.removeForSpace(spaceId),
          counters.removeSpace(spaceId)
        ], {
          discard: true
        })
    })
  })
)
