/** Postgres adapter of AuditLogRepo: `audit_events`, which a trigger keeps from being updated. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, Rows } from "@quire/kernel"
import { ActorType, AuditAction, type AuditEvent, type AuditFilter, AuditPayload, AuditSource } from "./domain/AuditEvent.ts"
import { AuditLogRepo, keyOf, keyShape } from "./AuditLogRepo.ts"

const events = Rows.decoder(
  "audit_events",
  Schema.Struct({
    id: Schema.String,
    organization_id: Schema.NullOr(Schema.String),
    occurred_at: Rows.Timestamp,
    action: AuditAction,
    actor_type: ActorType,
    actor_id: Schema.String,
    actor_label: Schema.NullOr(Schema.String),
    source: AuditSource,
    target_type: Schema.String,
    target_id: Schema.String,
    target_label: Schema.NullOr(Schema.String),
    address: Schema.NullOr(Schema.String),
    user_agent: Schema.NullOr(Schema.String),
    payload: Rows.Json(AuditPayload)
  }),
  (row): AuditEvent => ({
    id: row.id,
    organizationId: row.organization_id,
    occurredAt: row.occurred_at,
    action: row.action,
    actor: { type: row.actor_type, id: row.actor_id, ...(row.actor_label === null ? {} : { label: row.actor_label }) },
    source: row.source,
    target: { type: row.target_type, id: row.target_id, ...(row.target_label === null ? {} : { label: row.target_label }) },
    address: row.address,
    userAgent: row.user_agent,
    payload: row.payload
  })
)

export const layer = Layer.effect(
  AuditLogRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql`SELECT * FROM audit_events`

    const where = (filter: AuditFilter, after: Pagination.CursorKey | undefined) =>
      sql.and([
        sql`true`,
        ...(filter.organizationId === undefined ? [] : [sql`organization_id = ${filter.organizationId}`]),
        ...(filter.from === undefined ? [] : [sql`occurred_at >= ${filter.from}`]),
        ...(filter.to === undefined ? [] : [sql`occurred_at <= ${filter.to}`]),
        ...(filter.action === undefined ? [] : [sql`action = ${filter.action}`]),
        ...(filter.actor === undefined ? [] : [sql`actor_id = ${filter.actor}`]),
        ...(filter.target === undefined ? [] : [sql`target_id = ${filter.target}`]),
        ...(after === undefined ? [] : [sql`(occurred_at, id) < (${String(after[0])}::timestamptz, ${String(after[1])})`])
      ])

    return AuditLogRepo.of({
      append: (event) =>
        sql`
          INSERT INTO audit_events (id, organization_id, occurred_at, action, actor_type, actor_id, actor_label, source,
            target_type, target_id, target_label, address, user_agent, payload)
          VALUES (${event.id}, ${event.organizationId}, ${event.occurredAt}, ${event.action}, ${event.actor.type}, ${event.actor.id},
            ${event.actor.label ?? null}, ${event.source}, ${event.target.type}, ${event.target.id}, ${event.target.label ?? null},
            ${event.address}, ${event.userAgent}, ${JSON.stringify(event.payload)}::jsonb)`.pipe(Effect.orDie, Effect.asVoid),
      list: (filter, page) =>
        Effect.gen(function*() {
          const after = yield* Pagination.afterOf(page, keyShape)
          const limit = Pagination.limitOf(page)
          const rows = yield* sql`
            ${select}
            WHERE ${where(filter, after)}
            ORDER BY occurred_at DESC, id DESC
            LIMIT ${limit + 1}`.pipe(Effect.orDie, Effect.flatMap(events.all))
          return yield* Pagination.pageFromRows(rows, limit, keyOf)
        }),
      get: (organizationId, id) =>
        sql`
          ${select}
          WHERE id = ${id}${organizationId === undefined ? sql`` : sql` AND organization_id = ${organizationId}`}`.pipe(
          Effect.orDie,
          Effect.flatMap(events.first)
        ),
      // The only DELETE the table's trigger lets through: this transaction says it is the retention's.
      purgeBefore: (before) =>
        Effect.gen(function*() {
          yield* sql`SELECT set_config('quire.audit_removal', 'retention', true)`
          return (yield* sql`DELETE FROM audit_events WHERE occurred_at < ${before} RETURNING id`).length
        }).pipe(sql.withTransaction, Effect.orDie)
    })
  })
)
