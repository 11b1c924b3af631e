/**
 * Request budgets per caller (a token, or an address without one): `QUIRE_RATE_LIMIT` requests
 * per `QUIRE_RATE_LIMIT_WINDOW` seconds, counted by rate-limiter-flexible, in memory for one
 * process or in PostgreSQL (`gateway_rate_limits`) for replicas that share a database. The shared
 * count is written in batches (every 100 ms), not once per request: see `layerSql`.
 */
import { Clock, Config, Context, Duration, Effect, Latch, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible"

/** `QUIRE_RATE_LIMIT` (0 turns limits off) and `QUIRE_RATE_LIMIT_WINDOW` (seconds). */
export const RateLimitSettings = Config.all({
  limit: Config.Int("QUIRE_RATE_LIMIT").pipe(Config.withDefault(10_000)),
  windowSeconds: Config.Int("QUIRE_RATE_LIMIT_WINDOW").pipe(Config.withDefault(60))
})

type Settings = Config.Success<typeof RateLimitSettings>

/** How often a process adds the requests it counted to the shared budgets. */
export const flushInterval = Duration.millis(100)

/** What one request costs a caller's budget. */
export interface Decision {
  readonly allowed: boolean
  readonly limit: number
  readonly remaining: number
  /** Milliseconds until the window resets (and, when refused, until a request is accepted again). */
  readonly resetMs: number
}

/**
 * A budget of its own beside the API's: `limit` points per `windowSeconds`, its keys apart from
 * every other budget's (by `name`). A limit of 0 turns it off.
 */
export interface Budget {
  readonly name: string
  readonly limit: number
  readonly windowSeconds: number
}

/**
 * Counts requests per caller key; `enabled` is false when `QUIRE_RATE_LIMIT` is 0. Without a
 * `budget`, a key draws on the API's (`QUIRE_RATE_LIMIT`); `cost` is the points a request spends (1).
 */
export class RateLimiter extends Context.Service<RateLimiter, {
  readonly enabled: boolean
  readonly consume: (key: string, budget?: Budget, cost?: number) => Effect.Effect<Decision>
  /** The state of a budget without spending it (`allowed`: a request would be accepted now). */
  readonly peek: (key: string, budget?: Budget) => Effect.Effect<Decision>
  /** Deletes budgets whose window has ended (the memory store forgets them by itself); answers how many. */
  readonly purgeExpired: Effect.Effect<number>
}>()("@quire/gateway/RateLimiter") {
  /** Budgets kept in this process (tests, the embedded server). */
  static readonly layerMemory = Layer.effect(
    RateLimiter,
    Effect.map(Effect.orDie(RateLimitSettings), (api) => {
      // One counter per budget, made when the budget is first spent.
      const limiters = new Map<string, RateLimiterMemory>()
      const limiterOf = (settings: Settings, name: string) => {
        const id = `${name}/${settings.limit}/${settings.windowSeconds}`
        let limiter = limiters.get(id)
        if (limiter === undefined) {
          limiter = new RateLimiterMemory({ points: Math.max(settings.limit, 1), duration: settings.windowSeconds, keyPrefix: name })
          limiters.set(id, limiter)
        }
        return limiter
      }
      return RateLimiter.of({
        enabled: api.limit > 0,
        purgeExpired: Effect.succeed(0),
        peek: (key, budget) => {
          const settings = budget ?? api
          const limiter = limiterOf(settings, budget?.name ?? "api")
          return Effect.promise(() => limiter.get(key)).pipe(
            Effect.map((res) =>
              res === null
                ? decision(settings, true, settings.limit, settings.windowSeconds * 1000)
                : decision(settings, res.consumedPoints < settings.limit, settings.limit - res.consumedPoints, res.msBeforeNext)
            )
          )
        },
        consume: (key, budget, cost = 1) => {
          const settings = budget ?? api
          if (settings.limit <= 0) return Effect.succeed(decision(settings, true, 0, 0))
          const limiter = limiterOf(settings, budget?.name ?? "api")
          return Effect.tryPromise({ try: () => limiter.consume(key, cost), catch: (error) => error }).pipe(
            Effect.map((res) => decision(settings, true, res.remainingPoints, res.msBeforeNext)),
            Effect.catch((error) =>
              error instanceof RateLimiterRes
                ? Effect.succeed(decision(settings, false, error.remainingPoints, error.msBeforeNext))
                : Effect.die(error)
            )
          )
        }
      })
    })
  )

  /**
   * Budgets in PostgreSQL, shared by every replica on the database. Needs a SqlClient.
   *
   * A write per request on one row per caller serialized the requests of a token on its row lock,
   * so each process decides from the shared count
   * it last read plus what it counted since, and adds its count to the row every 100 ms through
   * rate-limiter-flexible's PostgreSQL store. Replicas may together exceed a budget by what they
   * accept in one such interval.
   */
  static readonly layerSql = Layer.effect(
    RateLimiter,
    Effect.gen(function*() {
      const api = yield* Effect.orDie(RateLimitSettings)
      const sql = yield* SqlClient.SqlClient
      // rate-limiter-flexible's PostgreSQL store, speaking through Effect's SqlClient (PostgreSQL or
      // PGlite) outside any transaction, with this layer's services; the table is created by this
      // package's migrations.
      const runPromise = Effect.runPromiseWith(yield* Effect.context<never>())
      const storeClient = {
        query: (query: { readonly text: string; readonly values?: ReadonlyArray<unknown> }) =>
          runPromise(sql.unsafe<Record<string, unknown>>(query.text, query.values ?? [])).then((rows) => ({
            rows: rows.map((row) => ({ ...row, expire: row["expire"] === null ? null : Number(row["expire"]) })),
            rowCount: rows.length
          }))
      }
      // One store per budget (its window sets a row's expiry), all in the one table: a budget's keys carry its name.
      const stores = new Map<string, RateLimiterPostgres>()
      const storeOf = (settings: Settings, name: string) => {
        const id = `${name}/${settings.limit}/${settings.windowSeconds}`
        let store = stores.get(id)
        if (store === undefined) {
          store = new RateLimiterPostgres({
            storeClient,
            storeType: "client",
            tableName: "gateway_rate_limits",
            tableCreated: true,
            clearExpiredByTimeout: false,
            points: Math.max(settings.limit, 1),
            duration: settings.windowSeconds,
            ...(name === "api" ? {} : { keyPrefix: name })
          })
          stores.set(id, store)
        }
        return store
      }

      interface Count {
        /** The shared count when last read, this process's flushed requests included. */
        shared: number
        /** Requests counted here and being added to the shared count. */
        flushing: number
        /** Requests counted here and not yet added to the shared count. */
        pending: number
        windowEnd: number
        readonly settings: Settings
        readonly store: RateLimiterPostgres
      }
      const budgets = new Map<string, Count>()

      /** Adds `points` counted here to the shared budget of `key`, and reads the shared count back. */
      const write = (key: string, budget: Count, points: number) =>
        Effect.tryPromise(() => budget.store.penalty(key.slice(key.indexOf("\u0000") + 1), points)).pipe(
          Effect.flatMap((res) =>
            Effect.map(Clock.currentTimeMillis, (now) => {
              budget.flushing -= points
              budget.shared = Math.max(budget.shared, res.consumedPoints)
              budget.windowEnd = now + Math.max(res.msBeforeNext, 0)
            })),
          Effect.tapError(() =>
            Effect.sync(() => {
              // Counted again at the next flush.
              budget.flushing -= points
              budget.pending += points
            }))
        )

      const flush = Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const writes: Array<Effect.Effect<void, unknown>> = []
        for (const [key, budget] of budgets) {
          if (budget.windowEnd <= now) {
            budgets.delete(key)
            continue
          }
          if (budget.pending === 0) continue
          const points = budget.pending
          budget.pending = 0
          budget.flushing += points
          writes.push(write(key, budget, points))
        }
        // Every write runs to its end (each puts back what it could not add), then the first failure is reported.
        return Effect.flatMap(
          Effect.all(writes, { concurrency: "unbounded", mode: "result" }),
          (results) => Effect.forEach(results, (result) => Effect.fromResult(result), { discard: true })
        )
      }).pipe(
        Effect.catchCause((cause) => Effect.logWarning("Rate limits could not be written to the database", cause))
      )
      // The flush ticks only while budgets are counted here: an idle process (or a test moving its
      // clock by days) is not woken every interval for nothing.
      const counting = yield* Latch.make(false)
      yield* Effect.forkScoped(Effect.forever(
        counting.await.pipe(
          Effect.andThen(Effect.sleep(flushInterval)),
          Effect.andThen(flush),
          Effect.andThen(Effect.suspend(() => (budgets.size === 0 ? counting.close : Effect.void)))
        )
      ))
      yield* Effect.addFinalizer(() => flush)

      return RateLimiter.of({
        enabled: api.limit > 0,
        consume: (key, given, cost = 1) => {
          const settings = given ?? api
          if (settings.limit <= 0) return Effect.succeed(decision(settings, true, 0, 0))
          return Effect.map(Clock.currentTimeMillis, (now) => {
            const at = countKey(key, given)
            let budget = budgets.get(at)
            if (budget === undefined || budget.windowEnd <= now) {
              const store = storeOf(settings, given?.name ?? "api")
              budget = { shared: 0, flushing: 0, pending: 0, windowEnd: now + settings.windowSeconds * 1000, settings, store }
              budgets.set(at, budget)
            }
            budget.pending += cost
            counting.openUnsafe()
            const used = budget.shared + budget.flushing + budget.pending
            return decision(settings, used <= settings.limit, settings.limit - used, budget.windowEnd - now)
          })
        },
        peek: (key, given) =>
          Effect.map(Clock.currentTimeMillis, (now) => {
            const settings = given ?? api
            const budget = budgets.get(countKey(key, given))
            if (budget === undefined || budget.windowEnd <= now) return decision(settings, true, settings.limit, settings.windowSeconds * 1000)
            const used = budget.shared + budget.flushing + budget.pending
            return decision(settings, used < settings.limit, settings.limit - used, budget.windowEnd - now)
          }),
        purgeExpired: Effect.flatMap(Clock.currentTimeMillis, (now) =>
          sql`DELETE FROM gateway_rate_limits WHERE expire <= ${now} RETURNING 1 AS removed`.pipe(
            Effect.map((rows) => rows.length),
            Effect.orDie
          )
        )
      })
    })
  )
}

/** Where the SQL limiter keeps a key's count: under its budget's name, apart from every other budget's. */
const countKey = (key: string, budget: Budget | undefined) => `${budget?.name ?? "api"}\u0000${key}`

const decision = (settings: { readonly limit: number }, allowed: boolean, remaining: number, resetMs: number): Decision => ({
  allowed,
  limit: settings.limit,
  remaining: Math.max(remaining, 0),
  resetMs: Math.max(resetMs, 0)
})
