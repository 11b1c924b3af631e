/**
 * The one bounded cache of Quire: a map bounded in entries and in total weight (`weigh`, in its
 * user's units) that forgets the least recently used entries first. Each cache is made by the
 * service that owns it, while its layer is built (`make`), and has a name: the server's `/metrics`
 * shows each named cache's entries, bounds, hits, misses and evictions (`Metrics.sampleCaches`).
 */
import { Context, Effect, Option, Scope } from "effect"

/** How a cache is bounded and named. */
export interface Options<K, V> {
  /** The name `/metrics` shows it under (`page_bodies`, `site_revisions`, ...): one per cache of a server. */
  readonly name: string
  /** The most entries it keeps. */
  readonly capacity: number
  /** The most weight it keeps in all (default: no bound but `capacity`); an entry heavier alone is not kept. */
  readonly maxWeight?: number
  /** An entry's weight (default 0). */
  readonly weigh?: (value: V, key: K) => number
  /**
   * Entries to forget before the least recently used when `added` passes a bound (a space's older
   * revisions when one of its new ones comes in); the others are then forgotten as usual.
   */
  readonly evictFirst?: (candidate: V, added: V) => boolean
}

/** What a cache has done since it was made. */
export interface Stats {
  readonly name: string
  readonly entries: number
  readonly capacity: number
  readonly weight: number
  readonly maxWeight: number
  readonly hits: number
  readonly misses: number
  readonly evictions: number
}

/** A bounded cache (see the module's header). Synchronous, so that code outside a fiber (Node's request event) may use it. */
export interface BoundedCache<K, V> {
  readonly name: string
  /** The value kept under `key`, counted as a hit or a miss and made the most recently used. */
  readonly get: (key: K) => V | undefined
  /** The value kept under `key`, neither counted nor made recent (for a caller that decides itself what a hit is: `record`). */
  readonly peek: (key: K) => V | undefined
  /** Counts one lookup the caller made with `peek`. */
  readonly record: (hit: boolean) => void
  readonly has: (key: K) => boolean
  /** How many entries it holds. */
  readonly size: () => number
  /** Keeps `value` under `key` as the most recently used, forgetting others past the bounds. */
  readonly set: (key: K, value: V) => void
  readonly delete: (key: K) => boolean
  /** Forgets the entries `test` holds for. */
  readonly deleteWhere: (test: (value: V, key: K) => boolean) => void
  readonly clear: () => void
  readonly stats: () => Stats
}

interface Entry<V> {
  readonly value: V
  readonly weight: number
}

/** A cache not reported anywhere: for `make`, and for code and tests that hold one of their own. */
export const unsafeMake = <K, V>(options: Options<K, V>): BoundedCache<K, V> => {
  const { name, capacity } = options
  const maxWeight = options.maxWeight ?? Infinity
  const weigh = options.weigh
  const evictFirst = options.evictFirst
  const entries = new Map<K, Entry<V>>()
  let weight = 0
  let hits = 0
  let misses = 0
  let evictions = 0

  const remove = (key: K, entry: Entry<V>) => {
    entries.delete(key)
    weight -= entry.weight
  }
  const over = () => entries.size > capacity || weight > maxWeight
  const evict = (addedKey: K, added: V) => {
    if (evictFirst !== undefined) {
      for (const [key, entry] of entries) {
        if (!over()) return
        if (key === addedKey || !evictFirst(entry.value, added)) continue
        remove(key, entry)
        evictions++
      }
    }
    // The least recently used first; the entry just added is last, and alone within the bounds.
    while (over()) {
      const key = entries.keys().next().value as K
      if (key === addedKey) return
      remove(key, entries.get(key)!)
      evictions++
    }
  }

  return {
    name,
    get: (key) => {
      const entry = entries.get(key)
      if (entry === undefined) {
        misses++
        return undefined
      }
      hits++
      entries.delete(key)
      entries.set(key, entry)
      return entry.value
    },
    peek: (key) => entries.get(key)?.value,
    record: (hit) => {
      if (hit) hits++
      else misses++
    },
    has: (key) => entries.has(key),
    size: () => entries.size,
    set: (key, value) => {
      const entryWeight = weigh === undefined ? 0 : weigh(value, key)
      const old = entries.get(key)
      if (old !== undefined) remove(key, old)
      if (entryWeight > maxWeight || capacity < 1) return
      entries.set(key, { value, weight: entryWeight })
      weight += entryWeight
      if (over()) evict(key, value)
    },
    delete: (key) => {
      const entry = entries.get(key)
      if (entry === undefined) return false
      remove(key, entry)
      return true
    },
    deleteWhere: (test) => {
      for (const [key, entry] of entries) if (test(entry.value, key)) remove(key, entry)
    },
    clear: () => {
      entries.clear()
      weight = 0
    },
    stats: () => ({ name, entries: entries.size, capacity, weight, maxWeight, hits, misses, evictions })
  }
}

/** The caches of one server or worker, which its `/metrics` and OTLP export report (`Metrics.layerRegistry` provides it). */
export class CacheRegistry extends Context.Service<CacheRegistry, {
  /** Reports `cache` (until `remove`). */
  readonly add: (cache: { readonly stats: () => Stats }) => Effect.Effect<void>
  readonly remove: (cache: { readonly stats: () => Stats }) => Effect.Effect<void>
  /** The stats of every cache reported. */
  readonly all: () => ReadonlyArray<Stats>
}>()("@quire/kernel/CacheRegistry") {}

/** A fresh registry (the caches of one server). */
export const makeRegistry = (): CacheRegistry["Service"] => {
  const caches = new Set<{ readonly stats: () => Stats }>()
  return CacheRegistry.of({
    add: (cache) => Effect.sync(() => void caches.add(cache)),
    remove: (cache) => Effect.sync(() => void caches.delete(cache)),
    all: () => Array.from(caches, (cache) => cache.stats())
  })
}

/**
 * A cache owned by the service whose layer makes it, reported under its name by the registry of
 * the server or worker building that layer until the layer's scope closes (nowhere when no
 * registry is provided, as in a unit test of the service alone).
 */
export const make = <K, V>(options: Options<K, V>): Effect.Effect<BoundedCache<K, V>> =>
  Effect.gen(function*() {
    const cache = unsafeMake(options)
    const registry = yield* Effect.serviceOption(CacheRegistry)
    if (Option.isNone(registry)) return cache
    yield* registry.value.add(cache)
    // A layer built again (a test's fresh one) reports its new cache, not both.
    const scope = yield* Effect.serviceOption(Scope.Scope)
    if (Option.isSome(scope)) yield* Scope.addFinalizer(scope.value, registry.value.remove(cache))
    return cache
  })
