/**
 * The organization's AI log: every model call made on its behalf (outbound's AiLog records them as
 * the model adapters make them), read by its admins only, newest first, all of them or one
 * conversation's.
 */
import { Context, Effect, Layer } from "effect"
import type { AiLogEntry } from "@quire/outbound"
import { ContentAccess } from "@quire/content"
import { Actor, Errors, Ids, Pagination } from "@quire/kernel"
import { AiLogRepo, callKeyShape, type StoredAiCall } from "./AiLogRepo.ts"

/** Stores a call with a new id (outbound's AiLog, which the model adapters record to, and AiLogs' `record`). */
export const recorder = Effect.map(Effect.all([Effect.service(AiLogRepo), Effect.service(Ids.Ids)]), ([repo, ids]) => (entry: AiLogEntry) =>
  Effect.flatMap(ids.make, (id) => repo.insert({ ...entry, id })))

export interface AiLogsShape {
  readonly record: (entry: AiLogEntry) => Effect.Effect<void>
  /** The organization's calls (one conversation's with `conversationId`): its admins only. */
  readonly list: (
    organizationId: string,
    request: Pagination.PageRequest & { readonly conversationId?: string | undefined }
  ) => Effect.Effect<Pagination.Page<StoredAiCall>, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor>
}

export class AiLogs extends Context.Service<AiLogs, AiLogsShape>()("@quire/reviews/AiLogs") {
  static readonly layer = Layer.effect(
    AiLogs,
    Effect.gen(function*() {
      const repo = yield* AiLogRepo
      const access = yield* ContentAccess
      return AiLogs.of({
        record: yield* recorder,
        list: Effect.fn("AiLogs.list")(function*(organizationId, request) {
          const role = yield* access.organizationMember(organizationId)
          if (role !== "admin") return yield* new Errors.Forbidden({ reason: "Only the organization's admins read its AI log" })
          const after = yield* Pagination.afterOf(request, callKeyShape)
          return yield* repo.list({ organizationId, conversationId: request.conversationId }, after, Math.min(Pagination.limitOf(request), 100))
        })
      })
    })
  )
}
