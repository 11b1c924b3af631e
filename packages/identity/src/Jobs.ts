/** Background jobs of the identity package. */
import { Effect, Schema } from "effect"
import { define } from "@quire/queue"
import { Organizations } from "./Organizations.ts"

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

export const jobs = [purgeStaleInvites] as const
