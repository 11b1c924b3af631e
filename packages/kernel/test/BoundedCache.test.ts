import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Metric } from "effect"
import { BoundedCache } from "../src/index.ts"
import * as Metrics from "../src/Metrics.ts"

describe("BoundedCache", () => {
  it("keeps at most `capacity` entries, forgetting the least recently used first", () => {
    const cache = BoundedCache.unsafeMake<string, number>({ name: "test", capacity: 3 })
    cache.set("a", 1)
    cache.set("b", 2)
    cache.set("c", 3)
    assert.strictEqual(cache.get("a"), 1) // a is now the most recently used
    cache.set("d", 4)
    assert.isFalse(cache.has("b"))
    assert.deepStrictEqual(["a", "c", "d"].map((key) => cache.peek(key)), [1, 3, 4])
    cache.set("e", 5)
    assert.isFalse(cache.has("c"))
    assert.strictEqual(cache.stats().entries, 3)
    assert.strictEqual(cache.stats().evictions, 2)
  })

  it("keeps at most `maxWeight` in all, and no entry heavier alone", () => {
    const cache = BoundedCache.unsafeMake<string, string>({ name: "test", capacity: 100, maxWeight: 10, weigh: (value) => value.length })
    cache.set("a", "xxxx")
    cache.set("b", "yyyy")
    cache.set("c", "zzzz") // 12 > 10: a goes
    assert.deepStrictEqual([cache.has("a"), cache.has("b"), cache.has("c")], [false, true, true])
    assert.strictEqual(cache.stats().weight, 8)
    cache.set("big", "x".repeat(11))
    assert.isFalse(cache.has("big"))
    assert.strictEqual(cache.stats().weight, 8)
    cache.set("b", "y") // replacing an entry replaces its weight
    assert.strictEqual(cache.stats().weight, 5)
  })

  it("counts hits and misses of `get`, not of `peek`", () => {
    const cache = BoundedCache.unsafeMake<string, number>({ name: "test", capacity: 2 })
    cache.set("a", 1)
    cache.get("a")
    cache.get("a")
    cache.get("b")
    cache.peek("b")
    cache.record(false)
    const { hits, misses } = cache.stats()
    assert.deepStrictEqual({ hits, misses }, { hits: 2, misses: 2 })
  })

  it("forgets the entries `evictFirst` names before the least recently used", () => {
    const cache = BoundedCache.unsafeMake<string, { space: string }>({
      name: "test",
      capacity: 3,
      evictFirst: (candidate, added) => candidate.space === added.space
    })
    cache.set("x1", { space: "x" })
    cache.set("y1", { space: "y" })
    cache.set("y2", { space: "y" })
    cache.set("y3", { space: "y" }) // y1 goes, though x1 is older
    assert.deepStrictEqual([cache.has("x1"), cache.has("y1"), cache.has("y2"), cache.has("y3")], [true, false, true, true])
    cache.set("z1", { space: "z" }) // no other of z: the least recently used goes
    assert.isFalse(cache.has("x1"))
  })

  it("forgets what `deleteWhere` and `clear` name", () => {
    const cache = BoundedCache.unsafeMake<string, number>({ name: "test", capacity: 10, weigh: (n) => n })
    for (const [key, n] of [["a", 1], ["b", 2], ["c", 3]] as const) cache.set(key, n)
    cache.deleteWhere((n) => n % 2 === 1)
    assert.deepStrictEqual([cache.has("a"), cache.has("b"), cache.has("c"), cache.stats().weight], [false, true, false, 2])
    cache.clear()
    assert.deepStrictEqual([cache.stats().entries, cache.stats().weight], [0, 0])
  })

  it.effect("reports each named cache's entries, bounds, hits, misses and evictions in its server's metrics", () =>
    Effect.gen(function*() {
      const cache = yield* BoundedCache.make<string, number>({ name: "pages", capacity: 2 })
      cache.set("a", 1)
      cache.set("b", 2)
      cache.set("c", 3)
      cache.get("c")
      cache.get("a")
      yield* Metrics.sampleCaches
      cache.get("c")
      yield* Metrics.sampleCaches
      const snapshot = yield* Metric.snapshot
      const value = (id: string, attributes: Record<string, string>) => {
        const state = snapshot.find((metric) =>
          metric.id === id && Object.entries(attributes).every(([key, v]) => metric.attributes?.[key] === v)
        )?.state as { readonly count?: number; readonly value?: number } | undefined
        return state?.count ?? state?.value
      }
      assert.strictEqual(value("quire_cache_entries", { cache: "pages" }), 2)
      assert.strictEqual(value("quire_cache_capacity", { cache: "pages" }), 2)
      assert.strictEqual(value("quire_cache_lookups_total", { cache: "pages", result: "hit" }), 2)
      assert.strictEqual(value("quire_cache_lookups_total", { cache: "pages", result: "miss" }), 1)
      assert.strictEqual(value("quire_cache_evictions_total", { cache: "pages" }), 1)
    }).pipe(Effect.scoped, Effect.provide(Layer.fresh(Metrics.layerRegistry))))
})
