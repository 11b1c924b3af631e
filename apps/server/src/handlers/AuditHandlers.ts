/** Handlers of the audit events group: an organization's log, for its admins. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { AuditLog } from "@quire/audit"
import { Authorization, Organizations } from "@quire/identity"
import * as AuditPresenters from "../AuditPresenters.ts"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"

export const layer = HttpApiBuilder.group(Api, "auditEvents", Effect.fn(function*(handlers) {
  const log = yield* AuditLog
  const organizations = yield* Organizations
  const urls = yield* PublicUrl

  /** Only the organization's admins read its log; anyone else who is not a member gets 404. */
  const ensureAdmin = (organizationId: string) =>
    Effect.flatMap(organizations.access(organizationId), (access) =>
      Authorization.ensureOrganization(access.membership, "admin", "read the audit log"))

  const present = AuditPresenters.event(urls)

  return handlers
    .handle("listOrganizationAuditEvents", ({ params, query }) =>
      ensureAdmin(params.organizationId).pipe(
        Effect.andThen(log.list({
          organizationId: params.organizationId,
          from: query.from === undefined ? undefined : new Date(query.from),
          to: query.to === undefined ? undefined : new Date(query.to),
          action: query.action,
          actor: query.actor,
          target: query.target
        }, { page: query.page, limit: query.limit ?? 20 })),
        DomainErrors.api,
        Effect.map((page) => Presenters.list(page, present))
      ))
    .handle("getOrganizationAuditEvent", ({ params }) =>
      ensureAdmin(params.organizationId).pipe(
        Effect.andThen(log.get(params.organizationId, params.auditEventId)),
        DomainErrors.api,
        Effect.map((e) => ({ ...present(e), schemaVersion: 1, payload: e.payload }))
      ))
    .handle("listOrganizationAuditEventActions", ({ params }) =>
      ensureAdmin(params.organizationId).pipe(
        DomainErrors.api,
        Effect.as({ items: log.actions.map((a) => ({ object: "audit-event-action" as const, id: a.id, label: a.label })) })
      ))
}))
