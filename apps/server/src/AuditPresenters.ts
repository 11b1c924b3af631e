/** Audit events as the API answers them: GitBook's `AuditEvent`, with the client it came from. */
import type { AuditEvent } from "@quire/audit"
import type { PublicUrl } from "./PublicUrl.ts"

/** GitBook's `AuditEvent`; an event of the instance (no organization) is located in the instance's log. */
export const event = (urls: PublicUrl["Service"]) => (e: AuditEvent) => ({
  object: "audit-event" as const,
  id: e.id,
  occurredAt: e.occurredAt.toISOString(),
  action: e.action,
  actor: e.actor,
  source: e.source,
  target: e.target,
  urls: { location: e.organizationId === null ? urls.app(`/admin/audit-events/${e.id}`) : urls.api(`/orgs/${e.organizationId}/audit-events/${e.id}`) },
  ...(e.address === null && e.userAgent === null ? {} : {
    client: { ...(e.address === null ? {} : { address: e.address }), ...(e.userAgent === null ? {} : { userAgent: e.userAgent }) }
  }),
  payload: e.payload
})
