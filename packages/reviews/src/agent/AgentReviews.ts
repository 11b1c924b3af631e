/**
 * The change request's agent as a requested reviewer, as GitBook's reviewers list has it: asking
 * the reviewer `agent` (`agentReviewerId`) with the people stores its request and queues its
 * review (AgentTasks.review), which runs in the background as the person who asked, with their
 * rights; the request keeps where the review stands (pending, running, done, failed).
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { Access } from "@quire/content"
import { Actor, Errors } from "@quire/kernel"
import { ChangeRequestReviews, type RequestReviewersInput } from "../ChangeRequestReviews.ts"
import { ChangeRequests } from "../ChangeRequests.ts"
import { agentReviewerId, type AgentReviewState, type RequestedReviewer } from "../domain/Review.ts"
import { ReviewsRepo } from "../ReviewsRepo.ts"
import { AgentTasks } from "./AgentTasks.ts"
import { AgentModel } from "./ChangeRequestAgent.ts"

/** What the queued review carries: the request it runs for (a renewed or withdrawn request is not run). */
export interface AgentReviewJob {
  readonly spaceId: string
  readonly changeRequestId: string
  readonly requestedBy: string
  /** The request's instant (ISO), which names it. */
  readonly requestedAt: string
}

/** Port: queues the agent's review (the platform implements it with the job queue). */
export class AgentReviewQueue extends Context.Service<AgentReviewQueue, {
  readonly enqueue: (job: AgentReviewJob) => Effect.Effect<void>
}>()("@quire/reviews/AgentReviewQueue") {
  /** Queues nothing: for compositions that never run the agent's reviews (the package's own tests). */
  static readonly layerNone = Layer.succeed(AgentReviewQueue)({ enqueue: () => Effect.void })
}

/** What the agent's refusal says without a model. */
export const agentReviewerNeedsModel =
  "the agent reviews with a language model, and this server has none: set QUIRE_AI_URL (and QUIRE_AI_MODEL) to an OpenAI-compatible endpoint, such as Ollama's (docs/ai.md)"

export interface AgentReviewsShape {
  /**
   * Requests the reviewers asked (ChangeRequestReviews' rules for people); the agent among them
   * needs a model (a 400 naming `users[i]` otherwise) and the edit right, and its review is queued.
   */
  readonly requestReviewers: (
    spaceId: string,
    ref: string,
    input: RequestReviewersInput
  ) => Effect.Effect<ReadonlyArray<RequestedReviewer>, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
  /** Runs a queued review as the person who asked, recording its outcome on the request (never fails). */
  readonly execute: (job: AgentReviewJob) => Effect.Effect<void>
  /** The queue gave the review up (its process died): the request says it failed and why, rather than running for good. */
  readonly giveUp: (job: AgentReviewJob, reason: string) => Effect.Effect<void>
}

export class AgentReviews extends Context.Service<AgentReviews, AgentReviewsShape>()("@quire/reviews/AgentReviews") {
  static readonly layer = Layer.effect(
    AgentReviews,
    Effect.gen(function*() {
      const reviews = yield* ChangeRequestReviews
      const changeRequests = yield* ChangeRequests
      const repo = yield* ReviewsRepo
      const tasks = yield* AgentTasks
      const queue = yield* AgentReviewQueue
      const { model } = yield* AgentModel

      const requestReviewers = Effect.fn("AgentReviews.requestReviewers")(function*(spaceId: string, ref: string, input: RequestReviewersInput) {
        const index = input.users.indexOf(agentReviewerId)
        if (index < 0) return yield* reviews.requestReviewers(spaceId, ref, input)
        const found = yield* changeRequests.get(spaceId, ref)
        yield* Access.ensure(found.access.permissions.edit, "request reviews of this change request")
        if (Option.isNone(model)) return yield* new Errors.InvalidInput({ field: `users[${index}]`, reason: agentReviewerNeedsModel })
        // The people (their rules, the change request's status, a new subject) first; the agent's request after.
        const people = yield* reviews.requestReviewers(spaceId, ref, input)
        const actor = yield* Actor.Actor
        const cr = found.changeRequest
        const request: RequestedReviewer = {
          spaceId,
          changeRequestId: cr.id,
          userId: agentReviewerId,
          requestedBy: actor.userId,
          revision: cr.revision,
          createdAt: new Date(yield* Clock.currentTimeMillis),
          agentReview: { status: "pending", comments: 0, message: null }
        }
        yield* repo.requestReviewer(request)
        yield* queue.enqueue({ spaceId, changeRequestId: cr.id, requestedBy: actor.userId, requestedAt: request.createdAt.toISOString() })
        return [...people, request]
      })

      /** The request this job runs for, while it is still the one stored. */
      const current = (job: AgentReviewJob) =>
        Effect.map(repo.findRequestedReviewer(job.changeRequestId, agentReviewerId), Option.filter((r) => r.createdAt.toISOString() === job.requestedAt))

      const record = (job: AgentReviewJob, state: AgentReviewState) =>
        Effect.flatMap(current(job), Option.match({ onNone: () => Effect.void, onSome: (r) => repo.requestReviewer({ ...r, agentReview: state }) }))

      const execute = Effect.fn("AgentReviews.execute")(function*(job: AgentReviewJob) {
        const stored = yield* current(job)
        if (Option.isNone(stored) || stored.value.agentReview?.status !== "pending") return
        yield* record(job, { status: "running", comments: 0, message: null })
        const outcome = yield* tasks.review(job.spaceId, job.changeRequestId).pipe(
          Effect.provideService(Actor.Actor, { userId: job.requestedBy, instanceAdmin: false }),
          Effect.map((result): AgentReviewState => ({ status: "done", comments: result.comments.length, message: result.summary === "" ? null : result.summary })),
          Effect.catch((error) => Effect.succeed<AgentReviewState>({ status: "failed", comments: 0, message: "reason" in error ? String(error.reason) : error.message })),
          // A defect is recorded too: a review is never left running.
          Effect.catchDefect((defect) => Effect.succeed<AgentReviewState>({ status: "failed", comments: 0, message: `The review stopped: ${String(defect)}` }))
        )
        yield* record(job, outcome)
      })

      const giveUp = Effect.fn("AgentReviews.giveUp")(function*(job: AgentReviewJob, reason: string) {
        const stored = yield* current(job)
        const status = Option.isSome(stored) ? stored.value.agentReview?.status : undefined
        if (status === "pending" || status === "running") yield* record(job, { status: "failed", comments: 0, message: `The review stopped: ${reason}` })
      })

      return AgentReviews.of({ requestReviewers, execute, giveUp })
    })
  )
}
