/** Port: the stored audit events. Append-only: nothing edits an event, and only retention removes old ones. */
import { Context, Effect, Layer, Option } from "effect"
import { type Errors, MemoryStore, Pagination } from "@quire/kernel"
import type { AuditEvent, AuditFilter } from "./domain/AuditEvent.ts"

export interface AuditLogRepoShape {
  /** Stores `event` in the caller's transaction (rolled back with it). */
  readonly append: (event: AuditEvent) => Effect.Effect<void>
  /** Events matching `filter`, newest first. */
  readonly list: (filter: AuditFilter, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<AuditEvent>, Errors.InvalidInput>
  /** One event; within an organization when `organizationId` is given. */
  readonly get: (organizationId: string | undefined, id: string) => Effect.Effect<Option.Option<AuditEvent>>
  /** Removes the events older than `before` (the retention setting); answers how many. */
  readonly purgeBefore: (before: Date) => Effect.Effect<number>
}

/** A listing's sort key: newest first, ties by id. */
export const keyOf = (event: AuditEvent): Pagination.CursorKey => [event.occurredAt.toISOString(), event.id]
export const keyShape: Pagination.KeyShape = ["timestamp", "string"]

export const matches = (filter: AuditFilter) => (event: AuditEvent): boolean =>
  (filter.organizationId === undefined || event.organizationId === filter.organizationId) &&
  (filter.from === undefined || event.occurredAt >= filter.from) &&
  (filter.to === undefined || event.occurredAt <= filter.to) &&
  (filter.action === undefined || event.action === filter.action) &&
  (filter.actor === undefined || event.actor.id === filter.actor) &&
  (filter.target === undefined || event.target.id === filter.target)

export class AuditLogRepo extends Context.Service<AuditLogRepo, AuditLogRepoShape>()("@quire/audit/AuditLogRepo") {
  static readonly layerMemory = Layer.sync(AuditLogRepo, () => {
    const events = new MemoryStore.TxMap<string, AuditEvent>()
    return AuditLogRepo.of({
      append: (event) => Effect.sync(() => void events.set(event.id, event)),
      list: (filter, page) =>
        Effect.flatMap(Pagination.afterOf(page, keyShape), (after) =>
          Pagination.paginateArray(Array.from(events.values()).filter(matches(filter)), keyOf, {
            order: "desc",
            after,
            limit: Pagination.limitOf(page)
          })),
      get: (organizationId, id) =>
        Effect.sync(() =>
          Option.fromNullishOr(events.get(id)).pipe(
            Option.filter((event) => organizationId === undefined || event.organizationId === organizationId)
          )),
      purgeBefore: (before) =>
        Effect.sync(() => {
          let removed = 0
          for (const event of Array.from(events.values())) {
            if (event.occurredAt < before && events.delete(event.id)) removed++
          }
          return removed
        })
    })
  })
}
