/**
 * Metrics every package may record, as Effect metrics (exported by `GET /metrics` and OTLP; see
 * docs/operations.md): lookups of the process's caches, hit or miss. Each server provides a
 * registry of its own (`Metric.MetricRegistry`), so two servers in one process count apart.
 */
import { Context, Effect, Layer, Metric } from "effect"

/** Lookups of a cache, by `cache` and `result` (`hit` or `miss`). */
export const cacheLookups = Metric.counter("quire_cache_lookups_total", {
  description: "Lookups of the server's caches, by cache and result (hit or miss)",
  incremental: true
})

/** The hit and miss counters of one cache, made once (a series per cache and result). */
export interface CacheCounter {
  /** Counts one lookup. */
  readonly record: (hit: boolean) => Effect.Effect<void>
  /** Counts one lookup outside any fiber (Node's request event), in the registry of `context`. */
  readonly recordUnsafe: (hit: boolean, context: Context.Context<never>) => void
}

/** The counters of the cache named `cache` (`token_owners`, `site_answers`, ...). */
export const cacheCounter = (cache: string): CacheCounter => {
  const hit = Metric.withAttributes(cacheLookups, { cache, result: "hit" })
  const miss = Metric.withAttributes(cacheLookups, { cache, result: "miss" })
  return {
    record: (found) => Metric.update(found ? hit : miss, 1),
    recordUnsafe: (found, context) => (found ? hit : miss).updateUnsafe(1, context)
  }
}

/**
 * A metric registry of its own for whatever this layer is provided to (a server, a worker): the
 * default one is the process's, which two servers in one process would share.
 */
export const layerRegistry: Layer.Layer<never> = Layer.effectContext(
  Effect.sync(() => Context.make(Metric.MetricRegistry, new Map()))
)
