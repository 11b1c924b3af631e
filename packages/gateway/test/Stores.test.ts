/**
 * The gateway's ports, one contract run against memory, a real PostgreSQL and PGlite: idempotency
 * records (claim, replay, mismatch, expiry, a lost request's record taken over, purge) and rate
 * budgets (counted down per key, refused past the limit).
 */
import { assert, layer } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Layer } from "effect"
import { Backends } from "@quire/testkit"
import { IdempotencyRepo } from "../src/IdempotencyRepo.ts"
import { migrations } from "../src/index.ts"
import { RateLimiter } from "../src/RateLimiter.ts"
import * as SqlIdempotencyRepo from "../src/SqlIdempotencyRepo.ts"

const settings = ConfigProvider.layer(ConfigProvider.fromUnknown({ QUIRE_RATE_LIMIT: 2, QUIRE_RATE_LIMIT_WINDOW: 60 }))

const backends = Backends.ports({
  memory: Layer.mergeAll(IdempotencyRepo.layerMemory, RateLimiter.layerMemory).pipe(Layer.provide(settings)),
  sql: Layer.mergeAll(SqlIdempotencyRepo.layer, RateLimiter.layerSql).pipe(Layer.provide(settings)),
  migrations: [migrations]
})

const hour = 3_600_000
const at = (now: number) => ({ now, expiredBefore: now - 24 * hour, staleBefore: now - hour / 6 })
const answer = { status: 201, contentType: "application/json", body: Buffer.from("{\"id\":\"x\"}").toString("base64") }

Backends.each(backends, (it) => {
  it.effect("a claimed key runs once, then replays its answer; another request under it is a mismatch", () =>
    Effect.gen(function*() {
      const repo = yield* IdempotencyRepo
      const now = Date.now()
      assert.deepStrictEqual(yield* repo.claim("alice", "k1", "fp", at(now)), { _tag: "Started" })
      assert.deepStrictEqual(yield* repo.claim("alice", "k1", "fp", at(now + 1)), { _tag: "InProgress" })
      assert.deepStrictEqual(yield* repo.claim("alice", "k1", "other", at(now + 1)), { _tag: "Mismatch" })
      // Another caller's key of the same name is its own.
      assert.deepStrictEqual(yield* repo.claim("bob", "k1", "fp", at(now + 1)), { _tag: "Started" })
      yield* repo.complete("alice", "k1", "fp", answer)
      assert.deepStrictEqual(yield* repo.claim("alice", "k1", "fp", at(now + 2)), { _tag: "Replay", response: answer })
      // Abandoning a completed record changes nothing.
      yield* repo.abandon("alice", "k1", "fp")
      assert.deepStrictEqual(yield* repo.claim("alice", "k1", "fp", at(now + 3)), { _tag: "Replay", response: answer })
      // After 24 hours the key is new again.
      assert.deepStrictEqual(yield* repo.claim("alice", "k1", "other", at(now + 25 * hour)), { _tag: "Started" })
    }))

  it.effect("an abandoned or lost first request frees its key", () =>
    Effect.gen(function*() {
      const repo = yield* IdempotencyRepo
      const now = Date.now()
      assert.deepStrictEqual(yield* repo.claim("alice", "k2", "fp", at(now)), { _tag: "Started" })
      yield* repo.abandon("alice", "k2", "fp")
      assert.deepStrictEqual(yield* repo.claim("alice", "k2", "fp", at(now + 1)), { _tag: "Started" })
      // Still running after the stale delay: taken to be lost with its process.
      assert.deepStrictEqual(yield* repo.claim("alice", "k2", "fp", at(now + hour)), { _tag: "Started" })
    }))

  it.effect("purge deletes the records past their retention only", () =>
    Effect.gen(function*() {
      const repo = yield* IdempotencyRepo
      const now = Date.now() + 1000 * hour
      yield* repo.claim("carol", "old", "fp", at(now))
      yield* repo.claim("carol", "new", "fp", at(now + 2 * hour))
      yield* repo.complete("carol", "new", "fp", answer)
      const removed = yield* repo.purge(now + hour)
      assert.isAtLeast(removed, 1)
      assert.deepStrictEqual(yield* repo.claim("carol", "old", "other", at(now + 2 * hour)), { _tag: "Started" })
      assert.deepStrictEqual(yield* repo.claim("carol", "new", "fp", at(now + 2 * hour)), { _tag: "Replay", response: answer })
    }))

  it.effect("each key has its budget, counted down, refused past the limit until the window ends", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      assert.isTrue(limiter.enabled)
      const first = yield* limiter.consume("token:a")
      const second = yield* limiter.consume("token:a")
      const third = yield* limiter.consume("token:a")
      assert.deepStrictEqual([first.allowed, second.allowed, third.allowed], [true, true, false])
      assert.deepStrictEqual([first.remaining, second.remaining, third.remaining], [1, 0, 0])
      assert.strictEqual(third.limit, 2)
      assert.isTrue(third.resetMs > 0 && third.resetMs <= 60_000, String(third.resetMs))
      const other = yield* limiter.consume("token:b")
      assert.isTrue(other.allowed)
      assert.strictEqual(other.remaining, 1)
      // Budgets whose window is still open are kept.
      yield* limiter.purgeExpired
      assert.isFalse((yield* limiter.consume("token:a")).allowed)
    }))

  it.effect("a named budget has its own limit and keys, spent by cost; a limit of 0 is off", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      const asks = { name: "asks", limit: 3, windowSeconds: 60 }
      // The same key in the API's budget and in a named one are two budgets.
      assert.isTrue((yield* limiter.consume("visitor:a")).allowed)
      const first = yield* limiter.consume("visitor:a", asks, 2)
      assert.deepStrictEqual([first.allowed, first.remaining, first.limit], [true, 1, 3])
      const second = yield* limiter.consume("visitor:a", asks, 2)
      assert.deepStrictEqual([second.allowed, second.remaining], [false, 0])
      assert.isFalse((yield* limiter.peek("visitor:a", asks)).allowed)
      assert.isTrue((yield* limiter.peek("visitor:a")).allowed)
      // Another budget with the same limit keeps its keys apart.
      assert.isTrue((yield* limiter.consume("visitor:a", { ...asks, name: "events" }, 3)).allowed)
      const off = { name: "off", limit: 0, windowSeconds: 60 }
      for (let i = 0; i < 5; i++) assert.isTrue((yield* limiter.consume("visitor:a", off)).allowed)
    }))
})

/** Two processes on one database, each with its own limiter: they share the budgets, within a flush interval. */
for (const database of Backends.databasesMigrated([migrations])) {
  layer(database.layer, { timeout: 60_000, excludeTestServices: true })(`replicas sharing budgets on ${database.name}`, (it) => {
    it.effect("a budget spent by one replica is refused by the other once both have flushed", () =>
      Effect.gen(function*() {
        const replica = Effect.map(Layer.build(RateLimiter.layerSql.pipe(Layer.provide(settings))), Context.get(RateLimiter))
        const first = yield* replica
        const second = yield* replica
        assert.isTrue((yield* first.consume("token:shared")).allowed)
        assert.isTrue((yield* first.consume("token:shared")).allowed)
        yield* Effect.sleep("300 millis")
        // The second replica has not read the row yet: it accepts, and learns the count when it writes.
        assert.isTrue((yield* second.consume("token:shared")).allowed)
        // Refused once both have flushed (every 100 ms, later on a loaded machine).
        let refused = yield* second.consume("token:shared")
        for (let waited = 0; refused.allowed && waited < 10_000; waited += 100) {
          yield* Effect.sleep("100 millis")
          refused = yield* second.consume("token:shared")
        }
        assert.isFalse(refused.allowed)
        assert.strictEqual(refused.remaining, 0)
      }).pipe(Effect.scoped))
  })
}
