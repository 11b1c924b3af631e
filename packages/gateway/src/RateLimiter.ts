/**
 * Request budgets per caller (a token, or an address without one): `QUIRE_RATE_LIMIT` requests
 * per `QUIRE_RATE_LIMIT_WINDOW` seconds, counted by rate-limiter-flexible, in memory for one
 * process or in PostgreSQL (`gateway_rate_limits`) for replicas that share a database.
 */
import { Config, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible"

/** `QUIRE_RATE_LIMIT` (0 turns limits off) and `QUIRE_RATE_LIMIT_WINDOW` (seconds). */
export const RateLimitSettings = Config.all({
  limit: Config.Int("QUIRE_RATE_LIMIT").pipe(Config.withDefault(10_000)),
  windowSeconds: Config.Int("QUIRE_RATE_LIMIT_WINDOW").pipe(Config.withDefault(60))
})

/** What one request costs a caller's budget. */
export interface Decision {
  readonly allowed: boolean
  readonly limit: number
  readonly remaining: number
  /** Milliseconds until the window resets (and, when refused, until a request is accepted again). */
  readonly resetMs: number
}

/** Counts requests per caller key; `enabled` is false when `QUIRE_RATE_LIMIT` is 0. */
export class RateLimiter extends Context.Service<RateLimiter, {
  readonly enabled: boolean
  readonly consume: (key: string) => Effect.Effect<Decision>
  /** Deletes budgets whose window has ended (the memory store forgets them by itself); answers how many. */
  readonly purgeExpired: Effect.Effect<number>
}>()("@quire/gateway/RateLimiter") {
  /** Budgets kept in this process (tests, the embedded server). */
  static readonly layerMemory = Layer.effect(
    RateLimiter,
    Effect.map(Effect.orDie(RateLimitSettings), (settings) =>
      make(settings, new RateLimiterMemory({ points: Math.max(settings.limit, 1), duration: settings.windowSeconds }), Effect.succeed(0)))
  )

  /** Budgets in PostgreSQL, shared by every replica on the database. Needs a SqlClient. */
  static readonly layerSql = Layer.effect(
    RateLimiter,
    Effect.gen(function*() {
      const settings = yield* Effect.orDie(RateLimitSettings)
      const sql = yield* SqlClient.SqlClient
      // rate-limiter-flexible's PostgreSQL store, speaking through Effect's SqlClient (PostgreSQL or
      // PGlite) outside any transaction; the table is created by this package's migrations.
      const storeClient = {
        query: (query: { readonly text: string; readonly values?: ReadonlyArray<unknown> }) =>
          Effect.runPromise(sql.unsafe<Record<string, unknown>>(query.text, query.values ?? [])).then((rows) => ({
            rows: rows.map((row) => ({ ...row, expire: row["expire"] === null ? null : Number(row["expire"]) })),
            rowCount: rows.length
          }))
      }
      return make(settings, new RateLimiterPostgres({
        storeClient,
        storeType: "client",
        tableName: "gateway_rate_limits",
        tableCreated: true,
        clearExpiredByTimeout: false,
        points: Math.max(settings.limit, 1),
        duration: settings.windowSeconds
      }), Effect.suspend(() =>
        sql`DELETE FROM gateway_rate_limits WHERE expire <= ${Date.now()} RETURNING 1 AS removed`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        )))
    })
  )
}

const make = (
  settings: Config.Success<typeof RateLimitSettings>,
  limiter: RateLimiterAbstract,
  purgeExpired: Effect.Effect<number>
): RateLimiter["Service"] => {
  const decision = (allowed: boolean, res: RateLimiterRes): Decision => ({
    allowed,
    limit: settings.limit,
    remaining: res.remainingPoints,
    resetMs: Math.max(res.msBeforeNext, 0)
  })
  return RateLimiter.of({
    enabled: settings.limit > 0,
    purgeExpired,
    consume: (key) =>
      Effect.tryPromise({
        try: () => limiter.consume(key, 1),
        catch: (error) => error
      }).pipe(
        Effect.map((res) => decision(true, res)),
        Effect.catch((error) => error instanceof RateLimiterRes ? Effect.succeed(decision(false, error)) : Effect.die(error))
      )
  })
}
