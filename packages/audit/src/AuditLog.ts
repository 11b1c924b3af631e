/**
 * The audit log: use cases record who changed what (in their own transaction, so an event exists
 * exactly when its change does), administrators read it, retention ages it out.
 */
import { Clock, Config, Context, Effect, Layer, Option } from "effect"
import { Actor, Errors, type Pagination } from "@quire/kernel"
import { randomBytes } from "node:crypto"
import { type AuditAction, type AuditActor, type AuditEvent, type AuditFilter, type AuditRecord, actions } from "./domain/AuditEvent.ts"
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
  /** Removes the events older than the retention setting (`QUIRE_AUDIT_RETENTION_DAYS`); none when it is 0. */
  readonly purgeExpired: Effect.Effect<number>
}

/** How many days events are kept: `QUIRE_AUDIT_RETENTION_DAYS`, a year unless set; 0 keeps them for ever. */
export const AuditRetentionDays = Config.Int("QUIRE_AUDIT_RETENTION_DAYS").pipe(Config.withDefault(365))

/** The caller of the operation running now, as an event's actor. */
export const caller: Effect.Effect<AuditActor, never, Actor.Actor> = Effect.map(Effect.service(Actor.Actor), (actor) => ({ type: "user", id: actor.userId }))

/** A user as an event's actor or target. */
export const userRef = (userId: string, label?: string): AuditActor => ({ type: "user", id: userId, ...(label === undefined ? {} : { label }) })

/**
 * Makes UUIDv7 ids (RFC 9562): the millisecond first, then a counter within it, so ids sort in
 * the order this process recorded them, also for events of the same millisecond.
 */
const timeOrderedIds = () => {
  let lastMs = -1
  let counter = 0
  return (nowMs: number): string => {
    let ms = Math.max(nowMs, lastMs)
    counter = ms === lastMs ? counter + 1 : 0
    if (counter > 0xfff) {
      ms += 1
      counter = 0
    }
    lastMs = ms
    const random = randomBytes(8)
    const hex = ms.toString(16).padStart(12, "0").slice(-12) +
      (0x7000 | counter).toString(16) +
      ((random[0]! & 0x3f) | 0x80).toString(16).padStart(2, "0") +
      random.subarray(1).toString("hex")
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
  }
}

export class AuditLog extends Context.Service<AuditLog, AuditLogShape>()("@quire/audit/AuditLog") {
  static readonly layer = Layer.effect(
    AuditLog,
    Effect.gen(function*() {
      const repo = yield* AuditLogRepo
      const nextId = timeOrderedIds()
      const record = Effect.fn("AuditLog.record")(function*(event: AuditRecord) {
        const origin = yield* AuditOrigin
        const now = yield* Clock.currentTimeMillis
        const entry: AuditEvent = {
          id: nextId(now),
          organizationId: event.organizationId,
          occurredAt: new Date(now),
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
      const purgeOlderThan = (days: number) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => repo.purgeBefore(new Date(now - days * 86_400_000)))
      return AuditLog.of({
        record,
        list: repo.list,
        get: (organizationId, id) =>
          Effect.flatMap(repo.get(organizationId, id), Option.match({
            onNone: () => Effect.fail(new Errors.NotFound({ resource: "Audit event", id })),
            onSome: Effect.succeed
          })),
        actions: Object.entries(actions).map(([id, label]) => ({ id: id as AuditAction, label })),
        purgeOlderThan,
        purgeExpired: Effect.flatMap(Effect.orDie(AuditRetentionDays), (days) => (days > 0 ? purgeOlderThan(days) : Effect.succeed(0)))
      })
    })
  )
}
