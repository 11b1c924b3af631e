/**
 * The audit log: use cases record who changed what (in their own transaction, so an event exists
 * exactly when its change does), administrators read it, retention ages it out.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { Errors, type Pagination } from "@quire/kernel"
import { randomUUID } from "node:crypto"
import { type AuditAction, type AuditEvent, type AuditFilter, type AuditRecord, actions } from "./domain/AuditEvent.ts"
import { AuditLogRepo } from "./AuditLogRepo.ts"
import { AuditOrigin } from "./AuditOrigin.ts"

export interface AuditLogShape {
  /**
   * Records an event, stamped with the time and the current `AuditOrigin`. Call it inside the
   * transaction that makes the change: it is undone with it.
   */
  readonly record: (event: AuditRecord) => Effect.Effect<AuditEvent>
  /** Events matching `filter`, newest first. */
  readonly list: (filter: AuditFilter, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<AuditEvent>, Errors.InvalidInput>
  /** One event; within an organization when `organizationId` is given (another organization's is not found). */
  readonly get: (organizationId: string | undefined, id: string) => Effect.Effect<AuditEvent, Errors.NotFound>
  /** The actions the log records, with their labels. */
  readonly actions: ReadonlyArray<{ readonly id: AuditAction; readonly label: string }>
  /** Removes the events older than `days` days; answers how many. */
  readonly purgeOlderThan: (days: number) => Effect.Effect<number>
}

export class AuditLog extends Context.Service<AuditLog, AuditLogShape>()("@quire/audit/AuditLog") {
  static readonly layer = Layer.effect(
    AuditLog,
    Effect.gen(function*() {
      const repo = yield* AuditLogRepo
      const record = Effect.fn("AuditLog.record")(function*(event: AuditRecord) {
        const origin = yield* AuditOrigin
        const entry: AuditEvent = {
          id: randomUUID(),
          organizationId: event.organizationId,
          occurredAt: new Date(yield* Clock.currentTimeMillis),
          action: event.action,
          actor: event.actor,
          source: origin.source,
          target: event.target,
          address: origin.address ?? null,
          userAgent: origin.userAgent ?? null,
          payload: event.payload ?? {}
        }
        yield* repo.append(entry)
        return entry
      })
      return AuditLog.of({
        record,
        list: repo.list,
        get: (organizationId, id) =>
          Effect.flatMap(repo.get(organizationId, id), Option.match({
            onNone: () => Effect.fail(new Errors.NotFound({ resource: "Audit event", id })),
            onSome: Effect.succeed
          })),
        actions: Object.entries(actions).map(([id, label]) => ({ id: id as AuditAction, label })),
        purgeOlderThan: (days) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) => repo.purgeBefore(new Date(now - days * 86_400_000)))
      })
    })
  )
}
