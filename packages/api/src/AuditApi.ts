/** An organization's audit log: who changed what, when and from where (its admins only). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ActorType, AuditSource } from "@quire/audit/domain/AuditEvent"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { DateTime, EntityId, ListOf, Text, Timestamp } from "./Schemas.ts"

const Reference = <S extends Schema.Codec<string>>(type: S) =>
  Schema.Struct({ type, id: Schema.String, label: Schema.optionalKey(Schema.String) })

/** GitBook's `AuditEvent`, with Quire's `client` (the address and user agent the change came from) and `payload`. */
export const AuditEvent = Schema.Struct({
  object: Schema.Literal("audit-event"),
  id: Schema.String,
  occurredAt: Timestamp,
  action: Schema.String,
  actor: Reference(ActorType).annotate({ identifier: "AuditEventActor" }),
  source: AuditSource,
  target: Reference(Schema.String).annotate({ identifier: "AuditEventTarget" }),
  urls: Schema.Struct({ location: Schema.String }),
  client: Schema.optionalKey(Schema.Struct({ address: Schema.optionalKey(Schema.String), userAgent: Schema.optionalKey(Schema.String) })),
  /** Quire's: the action's details (as `AuditEventDetails` has them), so a listing reads as sentences without a request per event. */
  payload: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
}).annotate({ identifier: "AuditEvent" })

/** GitBook's `AuditEventDetails`: the event with its action's details. */
export const AuditEventDetails = Schema.Struct({
  ...AuditEvent.fields,
  schemaVersion: Schema.Int,
  payload: Schema.Record(Schema.String, Schema.Unknown)
}).annotate({ identifier: "AuditEventDetails" })

/** GitBook's `AuditEventAction`. */
export const AuditEventAction = Schema.Struct({
  object: Schema.Literal("audit-event-action"),
  id: Schema.String,
  label: Schema.String
}).annotate({ identifier: "AuditEventAction" })

const orgParams = { organizationId: EntityId }

export class AuditApi extends HttpApiGroup.make("auditEvents")
  .add(
    /** The organization's audit events, newest first. */
    HttpApiEndpoint.get("listOrganizationAuditEvents", "/orgs/:organizationId/audit-events", {
      params: orgParams,
      query: {
        page: Schema.optional(Text),
        limit: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))),
        from: Schema.optional(DateTime),
        to: Schema.optional(DateTime),
        action: Schema.optional(Text.check(Schema.isMaxLength(200))),
        actor: Schema.optional(Text.check(Schema.isMaxLength(200))),
        target: Schema.optional(Text.check(Schema.isMaxLength(500)))
      },
      success: ListOf(AuditEvent),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List organization audit events",
        description: "Who changed what in the organization, newest first, 20 a page unless `limit` says (up to 100). `from` and `to` bound the time (inclusive); `action`, `actor` and `target` keep events with exactly that action, actor id or target id. Organization admins only. Entries are never edited or deleted through the API; they age out after the instance's retention."
      })),
    /** One audit event with its details. */
    HttpApiEndpoint.get("getOrganizationAuditEvent", "/orgs/:organizationId/audit-events/:auditEventId", {
      params: { ...orgParams, auditEventId: Schema.String.check(Schema.isMaxLength(100)) },
      success: AuditEventDetails,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get an organization audit event",
        description: "One event of the organization's audit log with its action's details. Organization admins only."
      })),
    /** The actions the audit log records. */
    HttpApiEndpoint.get("listOrganizationAuditEventActions", "/orgs/:organizationId/audit-event-actions", {
      params: orgParams,
      success: Schema.Struct({ items: Schema.Array(AuditEventAction) }),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List audit event actions",
        description: "Every action the audit log records, with its label: the values `action` filters by. Organization admins only."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
