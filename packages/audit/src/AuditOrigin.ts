/**
 * Where the work running now came from: the client's address and user agent and the entry point.
 * The HTTP layer provides it around each request; the audit log stamps it on what it records, so
 * domain code records events without knowing about requests.
 */
import { Context } from "effect"
import type { AuditSource } from "./domain/AuditEvent.ts"

export interface AuditOriginShape {
  readonly source: AuditSource
  readonly address?: string | undefined
  readonly userAgent?: string | undefined
}

/** Defaults to a script (a CLI command run on the server, a worker job): no address. */
export const AuditOrigin = Context.Reference<AuditOriginShape>("@quire/audit/AuditOrigin", {
  defaultValue: () => ({ source: "script" })
})
