/**
 * The agent's review when it is asked as a reviewer (reviews' AgentReviews): queued on the job
 * queue, run by whoever runs the jobs (the embedded server, or the worker beside PostgreSQL) as the
 * person who asked. One attempt: its outcome, failure included, is recorded on the request, and a
 * job given up (its process died) is recorded failed.
 */
import { Effect, Layer, Schema } from "effect"
import { define, JobQueue } from "@quire/queue"
import { AgentReviewQueue, AgentReviews } from "@quire/reviews"

export const agentReview = define("reviews.agentReview", {
  payload: Schema.Struct({ spaceId: Schema.String, changeRequestId: Schema.String, requestedBy: Schema.String, requestedAt: Schema.String }),
  maxAttempts: 1,
  handler: (job) => AgentReviews.use((reviews) => reviews.execute(job)),
  // A process that died mid-review: the request says so rather than running for good.
  onGiveUp: (job, reason) => AgentReviews.use((reviews) => reviews.giveUp(job, reason))
})

export const jobs = [agentReview] as const

/** Reviews' AgentReviewQueue over the job queue: one job per request (a renewed request is a new job). */
export const layerQueue = Layer.effect(
  AgentReviewQueue,
  Effect.gen(function*() {
    const queue = yield* JobQueue
    return AgentReviewQueue.of({
      enqueue: (job) =>
        agentReview.enqueue(job, { jobKey: `reviews.agentReview:${job.changeRequestId}:${job.requestedAt}` }).pipe(Effect.provideService(JobQueue, queue))
    })
  })
)
