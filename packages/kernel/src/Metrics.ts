/**
 * Metrics every package may record, as Effect metrics (exported by `GET /metrics` and OTLP; see
 * docs/operations.md): the server's caches, their lookups, entries and bounds. Each server
 * provides a registry of its own (`Metric.MetricRegistry`, and `BoundedCache.CacheRegistry` for
 * its caches), so two servers in one process count apart.
 */
import { Context, Effect, Layer, Metric, Option } from "effect"
import { CacheRegistry, makeRegistry, type Stats } from "./BoundedCache.ts"

/** Lookups of a cache, by `cache` and `result` (`hit` or `miss`). */
export const cacheLookups = Metric.counter("quire_cache_lookups_total", {
  description: "Lookups of the server's caches, by cache and result (hit or miss)",
  incremental: true
})

const cacheEntries = Metric.gauge("quire_cache_entries", { description: "Entries the server's bounded caches hold, by cache" })
const cacheCapacity = Metric.gauge("quire_cache_capacity", { description: "The most entries each bounded cache keeps, by cache" })
const cacheWeight = Metric.gauge("quire_cache_weight", {
  description: "What each bounded cache holds in its own unit (characters, pages, bytes; 0 when it counts entries only), by cache"
})
const cacheMaxWeight = Metric.gauge("quire_cache_max_weight", {
  description: "The most weight each bounded cache keeps, by cache (absent when only entries bound it)"
})
const cacheEvictions = Metric.counter("quire_cache_evictions_total", {
  description: "Entries the server's bounded caches forgot to stay within their bounds, by cache",
  incremental: true
})

/** The counts each cache had at the last sample, so that a sample adds what happened since. */
type Reported = Pick<Stats, "hits" | "misses" | "evictions">

/**
 * Reads the bounded caches of the registry into their metrics: entries and bounds as gauges (summed
 * over caches of one name), hits, misses and evictions added to their counters since the last
 * sample. `/metrics` samples before each scrape; OTLP export every interval.
 */
export const sampleCaches: Effect.Effect<void> = Effect.gen(function*() {
  const registry = yield* Effect.serviceOption(CacheRegistry)
  const reported = yield* Effect.serviceOption(Reports)
  if (Option.isNone(registry) || Option.isNone(reported)) return
  const byName = new Map<string, { entries: number; capacity: number; weight: number; maxWeight: number }>()
  const counted = new Map<string, Reported>()
  for (const stats of registry.value.all()) {
    const sum = byName.get(stats.name) ?? { entries: 0, capacity: 0, weight: 0, maxWeight: 0 }
    sum.entries += stats.entries
    sum.capacity += stats.capacity
    sum.weight += stats.weight
    sum.maxWeight += stats.maxWeight
    byName.set(stats.name, sum)
    counted.set(stats.name, {
      hits: (counted.get(stats.name)?.hits ?? 0) + stats.hits,
      misses: (counted.get(stats.name)?.misses ?? 0) + stats.misses,
      evictions: (counted.get(stats.name)?.evictions ?? 0) + stats.evictions
    })
  }
  for (const [cache, sum] of byName) {
    yield* Metric.update(Metric.withAttributes(cacheEntries, { cache }), sum.entries)
    yield* Metric.update(Metric.withAttributes(cacheCapacity, { cache }), sum.capacity)
    yield* Metric.update(Metric.withAttributes(cacheWeight, { cache }), sum.weight)
    if (Number.isFinite(sum.maxWeight)) yield* Metric.update(Metric.withAttributes(cacheMaxWeight, { cache }), sum.maxWeight)
    const now = counted.get(cache)!
    const before = reported.value.get(cache) ?? { hits: 0, misses: 0, evictions: 0 }
    // A cache made again (its layer rebuilt) starts from zero: only growth is added.
    const added = (key: keyof Reported) => Math.max(0, now[key] - before[key])
    yield* Metric.update(Metric.withAttributes(cacheLookups, { cache, result: "hit" }), added("hits"))
    yield* Metric.update(Metric.withAttributes(cacheLookups, { cache, result: "miss" }), added("misses"))
    yield* Metric.update(Metric.withAttributes(cacheEvictions, { cache }), added("evictions"))
    reported.value.set(cache, now)
  }
}).pipe(Effect.withTracerEnabled(false))

/** What `sampleCaches` last added to the counters, by cache name (one per metric registry). */
class Reports extends Context.Service<Reports, Map<string, Reported>>()("@quire/kernel/Metrics/Reports") {}

/**
 * A metric registry of its own for whatever this layer is provided to (a server, a worker), and a
 * registry of its bounded caches: the default metric registry is the process's, which two servers
 * in one process would share.
 */
export const layerRegistry: Layer.Layer<CacheRegistry> = Layer.effectContext(
  Effect.sync(() =>
    Context.make(Metric.MetricRegistry, new Map()).pipe(
      Context.add(CacheRegistry, makeRegistry()),
      Context.add(Reports, new Map())
    )
  )
)
