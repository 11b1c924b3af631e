/**
 * The insights' own rules: the recorder keeps events in memory until a batch is written (and
 * drops, counting, beyond its capacity), and GitBook's aggregation over stored events (filters
 * before and after grouping, buckets, order, limit).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { at } from "@quire/testkit"
import { aggregate, bucketOf, invalidField } from "../src/insights/Aggregate.ts"
import { SiteEventRecorder } from "../src/insights/SiteEventRecorder.ts"
import { SiteEventsRepo } from "../src/insights/SiteEventsRepo.ts"
import { siteEvent } from "./contract/SiteEventsRepoContract.ts"

const recorder = (capacity: number) =>
  SiteEventRecorder.make({ batchSize: 3, interval: "1 hour", capacity }).pipe(Layer.provideMerge(SiteEventsRepo.layerMemory))

describe("SiteEventRecorder", () => {
  it.effect("answers at once and writes the queue in batches when asked (a query, the shutdown)", () =>
    Effect.gen(function*() {
      const rec = yield* SiteEventRecorder
      const repo = yield* SiteEventsRepo
      yield* rec.record([siteEvent("r-1", "r-site", 1), siteEvent("r-2", "r-site", 2)])
      assert.deepStrictEqual(yield* repo.inRange("r-site", at(0), at(10), 10), [])
      assert.deepStrictEqual(yield* rec.stats, { pending: 2, dropped: 0 })
      yield* rec.flush
      assert.strictEqual((yield* repo.inRange("r-site", at(0), at(10), 10)).length, 2)
      assert.deepStrictEqual(yield* rec.stats, { pending: 0, dropped: 0 })
    }).pipe(Effect.provide(recorder(100))))

  it.effect("drops what does not fit rather than grow, and says how many", () =>
    Effect.gen(function*() {
      const rec = yield* SiteEventRecorder
      yield* rec.record(Array.from({ length: 7 }, (_, i) => siteEvent(`d-${i}`, "d-site", i)))
      assert.deepStrictEqual(yield* rec.stats, { pending: 5, dropped: 2 })
    }).pipe(Effect.provide(recorder(5))))

  it.effect("writes what is queued when its scope closes", () =>
    Effect.gen(function*() {
      const repo = yield* SiteEventsRepo
      yield* Effect.scoped(Effect.gen(function*() {
        const built = yield* Layer.build(SiteEventRecorder.make({ batchSize: 100, interval: "1 hour", capacity: 100 }))
        const rec = built.mapUnsafe.get(SiteEventRecorder.key) as SiteEventRecorder["Service"]
        yield* rec.record([siteEvent("s-1", "s-site", 1)])
      }))
      assert.strictEqual((yield* repo.inRange("s-site", at(0), at(10), 10)).length, 1)
    }).pipe(Effect.provide(SiteEventsRepo.layerMemory)))
})

describe("aggregate", () => {
  const events = [
    siteEvent("a-1", "s", 0, { visitor: "v1", urlPath: "/a" }),
    siteEvent("a-2", "s", 1, { visitor: "v2", urlPath: "/a" }),
    siteEvent("a-3", "s", 2, { visitor: "v1", urlPath: "/a" }),
    siteEvent("a-4", "s", 3, { visitor: "v1", urlPath: "/b" }),
    siteEvent("a-5", "s", 4, { type: "page_post_feedback", data: { feedback: { rating: "bad" } } }),
    siteEvent("a-6", "s", 5, { type: "page_post_feedback", data: { feedback: { rating: "good" } } })
  ]

  it("groups, counts events and distinct visitors, filters counts after grouping, orders and limits", () => {
    const result = aggregate(events, {
      range: "last7Days",
      where: [{ column: "eventType", values: ["page_view"] }, { column: "eventsCount", values: [1], operator: "greaterThan" }],
      groupBy: [{ column: "urlPath" }],
      select: [{ column: "urlPath" }, { column: "eventsCount" }, { column: "visitorsCount" }],
      order: { by: { column: "eventsCount" }, direction: "desc" }
    })
    assert.deepStrictEqual(result.columns.map((c) => c.values), [["/a"], [3], [2]])
    const all = aggregate(events, { range: "last7Days", where: [{ column: "eventType", values: ["page_post_feedback"], operator: "notIn" }], groupBy: [{ column: "urlPath" }], limit: 1 })
    assert.deepStrictEqual(all.columns.map((c) => [c.column, c.values]), [["urlPath", ["/a"]], ["eventsCount", [3]]])
  })

  it("breaks ties of the order by the groups' columns, and refuses an order by a column neither counted nor grouped", () => {
    const tied = [
      siteEvent("t-1", "s", 0, { urlPath: "/c" }),
      siteEvent("t-2", "s", 1, { urlPath: "/a" }),
      siteEvent("t-3", "s", 2, { urlPath: "/b" }),
      siteEvent("t-4", "s", 3, { urlPath: "/b" })
    ]
    const query = { range: "last7Days", groupBy: [{ column: "urlPath" }], order: { by: { column: "eventsCount" }, direction: "desc" } } as const
    assert.deepStrictEqual(aggregate(tied, query).columns[0]!.values, ["/b", "/a", "/c"])
    assert.deepStrictEqual(aggregate(tied, { ...query, limit: 2 }).columns[0]!.values, ["/b", "/a"])
    assert.isUndefined(invalidField(query))
    assert.isUndefined(invalidField({ ...query, order: { by: { column: "urlPath" }, direction: "asc" } }))
    assert.strictEqual(invalidField({ ...query, order: { by: { column: "url" }, direction: "asc" } })?.field, "order.by")
    assert.strictEqual(invalidField({ range: "last7Days", order: { by: { column: "datetime", interval: "hour" }, direction: "asc" }, groupBy: [{ column: "datetime" }] })?.field, "order.by")
  })

  it("counts page ratings, and without groups answers one row", () => {
    const result = aggregate(events, { range: "last7Days", select: [{ column: "pageFeedbackRating" }, { column: "eventsCount" }] })
    assert.deepStrictEqual(result.columns.map((c) => c.values), [[{ ok: 0, good: 1, bad: 1 }], [6]])
    assert.deepStrictEqual(aggregate([], { range: "last7Days", select: [{ column: "eventsCount" }] }).columns[0]!.values, [])
  })

  it("buckets times by hour, day, ISO week and month (UTC)", () => {
    const when = new Date("2030-05-15T13:45:10Z")
    assert.strictEqual(bucketOf(when, "hour"), "2030-05-15T13:00:00.000Z")
    assert.strictEqual(bucketOf(when, "day"), "2030-05-15T00:00:00.000Z")
    assert.strictEqual(bucketOf(when, "week"), "2030-05-13T00:00:00.000Z")
    assert.strictEqual(bucketOf(when, "month"), "2030-05-01T00:00:00.000Z")
  })
})
