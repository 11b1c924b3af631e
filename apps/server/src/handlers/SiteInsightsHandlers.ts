/** Handlers of the site insights group: a site's events checked and acknowledged, not kept. */
import { Clock, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { Errors } from "@quire/kernel"
import { SiteReaders } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"

/** How far an event's `timestamp` may be from now, as GitBook allows. */
const timestampWindowMillis = 5 * 60 * 1000

export const layer = HttpApiBuilder.group(Api, "siteInsights", Effect.fn(function*(handlers) {
  const readers = yield* SiteReaders
  return handlers.handle("trackEventsInSiteById", ({ params, payload }) =>
    Effect.gen(function*() {
      yield* readers.reach(params.organizationId, params.siteId)
      const now = yield* Clock.currentTimeMillis
      for (const [index, event] of payload.events.entries()) {
        if (event.timestamp === undefined) continue
        const at = Date.parse(event.timestamp)
        if (Number.isNaN(at) || Math.abs(at - now) > timestampWindowMillis) {
          return yield* new Errors.InvalidInput({ field: `events.${index}.timestamp`, reason: "must be a date-time within 5 minutes of now" })
        }
      }
    }).pipe(DomainErrors.api))
}))
