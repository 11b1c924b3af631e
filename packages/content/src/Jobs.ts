/** Background jobs of the content package. */
import { Effect, Schema } from "effect"
import { define } from "@quire/queue"
import { Spaces } from "./Spaces.ts"

/** Hourly: spaces in the trash for more than 7 days are removed for good, with their revisions. */
export const purgeDeletedSpaces = define("content.purgeDeletedSpaces", {
  payload: Schema.Struct({}),
  schedule: { every: "1 hour" },
  handler: () =>
    Effect.gen(function*() {
      const spaces = yield* Spaces
      const purged = yield* spaces.purgeDeleted
      if (purged > 0) yield* Effect.logInfo(`Purged ${purged} deleted spaces`)
    })
})

export const jobs = [purgeDeletedSpaces] as const
