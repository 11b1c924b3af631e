/** Background jobs of the identity package. */
import { Effect, Schema } from "effect"
import { AuditLog } from "@quire/audit"
import { define } from "@quire/queue"
import { Organizations } from "./Organizations.ts"
import { SignInSessions } from "./SignInSessions.ts"
import { EmailVerification } from "./signin/EmailVerification.ts"

/** Hourly: invitations to emails that never got an account expire after 30 days. */
export const purgeStaleInvites = define("identity.purgeStaleInvites", {
  payload: Schema.Struct({}),
  schedule: { every: "1 hour" },
  handler: () =>
    Effect.gen(function*() {
      const organizations = yield* Organizations
      const purged = yield* organizations.purgeStaleInvites
      if (purged > 0) yield* Effect.logInfo(`Purged ${purged} stale email invitations`)
    })
})

/** Hourly: sign-in sessions that expired (or were revoked a day ago), ended attempt windows and expired email confirmation links are deleted. */
export const purgeEndedSessions = define("identity.purgeEndedSessions", {
  payload: Schema.Struct({}),
  schedule: { every: "1 hour" },
  handler: () =>
    Effect.gen(function*() {
      const purged = yield* (yield* SignInSessions).purgeEnded
      if (purged > 0) yield* Effect.logInfo(`Purged ${purged} ended sign-in sessions`)
      // Email confirmation links that expired go with them.
      yield* (yield* EmailVerification).purgeExpiredLinks
    })
})

/** Hourly: audit events older than the retention setting (`QUIRE_AUDIT_RETENTION_DAYS`) are deleted, the only way one ever is. */
export const purgeExpiredAuditEvents = define("audit.purgeExpired", {
  payload: Schema.Struct({}),
  schedule: { every: "1 hour" },
  handler: () =>
    Effect.gen(function*() {
      const purged = yield* (yield* AuditLog).purgeExpired
      if (purged > 0) yield* Effect.logInfo(`Purged ${purged} audit events past their retention`)
    })
})

export const jobs = [purgeStaleInvites, purgeEndedSessions, purgeExpiredAuditEvents] as const
