/**
 * Events of the instance recorded by entry points that run outside a request's use cases (the
 * CLI's restore), written straight to the database they act on.
 */
import { AuditLayers, AuditLog, type AuditRecord } from "@quire/audit"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { userInfo } from "node:os"

/** Records an event of the instance on the database of the current SqlClient, as the operating system's user running the command. */
export const recordFromScript = (event: Omit<AuditRecord, "actor" | "organizationId">): Effect.Effect<void, never, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const log = yield* AuditLog
    yield* log.record({ ...event, organizationId: null, actor: { type: "system", id: "quire-cli", label: userInfo().username } })
  }).pipe(Effect.provide(AuditLayers.layerSql))
