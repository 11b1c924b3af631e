/** What guards the API's door: rate limits and idempotent replays, with memory and SQL storage. */
export * from "./Idempotency.ts"
export * from "./IdempotencyRepo.ts"
export { migrations } from "./migrations/index.ts"
export * from "./RateLimiter.ts"
export * as SqlIdempotencyRepo from "./SqlIdempotencyRepo.ts"
