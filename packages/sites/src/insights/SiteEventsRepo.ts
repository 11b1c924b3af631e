/** Port: a site's recorded events and the day's salt of visitor hashes. */
import { Context, Effect, Layer } from "effect"
import { MemoryStore } from "@quire/kernel"
import type { SiteEvent } from "../domain/SiteEvent.ts"

export interface SiteEventsRepoShape {
  /** Stores events (one transaction). */
  readonly append: (events: ReadonlyArray<SiteEvent>) => Effect.Effect<void>
  /** A site's events with `from <= at < to`, oldest first, at most `limit`. */
  readonly inRange: (siteId: string, from: Date, to: Date, limit: number) => Effect.Effect<ReadonlyArray<SiteEvent>>
  /**
   * The salt of `day` (`YYYY-MM-DD`): the stored one, or `candidate` stored as it; the salts of
   * earlier days are forgotten, so yesterday's hashes can never be recomputed.
   */
  readonly saltOf: (day: string, candidate: string) => Effect.Effect<string>
  /** Forgets a site's events (the site deleted). */
  readonly removeSite: (siteId: string) => Effect.Effect<void>
  /** Forgets events older than `before` (retention); answers how many. */
  readonly purgeBefore: (before: Date) => Effect.Effect<number>
}

export class SiteEventsRepo extends Context.Service<SiteEventsRepo, SiteEventsRepoShape>()("@quire/sites/SiteEventsRepo") {
  static readonly layerMemory = Layer.sync(SiteEventsRepo, () => {
    const events = new MemoryStore.TxMap<string, SiteEvent>()
    const salts = new MemoryStore.TxMap<string, string>()
    return SiteEventsRepo.of({
      append: (batch) => Effect.sync(() => batch.forEach((event) => events.set(event.id, event))),
      inRange: (siteId, from, to, limit) =>
        Effect.sync(() =>
          Array.from(events.values())
            .filter((e) => e.siteId === siteId && e.at.getTime() >= from.getTime() && e.at.getTime() < to.getTime())
            .toSorted((a, b) => a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
            .slice(0, limit)
        ),
      saltOf: (day, candidate) =>
        Effect.sync(() => {
          for (const stored of Array.from(salts.keys())) if (stored < day) salts.delete(stored)
          const found = salts.get(day)
          if (found !== undefined) return found
          salts.set(day, candidate)
          return candidate
        }),
      removeSite: (siteId) =>
        Effect.sync(() => {
          for (const event of Array.from(events.values())) if (event.siteId === siteId) events.delete(event.id)
        }),
      purgeBefore: (before) =>
        Effect.sync(() => {
          let removed = 0
          for (const event of Array.from(events.values())) {
            if (event.at.getTime() < before.getTime()) {
              events.delete(event.id)
              removed++
            }
          }
          return removed
        })
    })
  })
}
