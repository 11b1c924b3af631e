/** What guards the API's door: rate limits and idempotent replays, with memory and SQL storage. */
export { migrations } from "./migrations/index.ts"
export * from "./RateLimiter.ts"
