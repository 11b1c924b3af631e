/**
 * @quire/reviews: domain package, wired into the workspace and ready for its issue. It declares its
 * service interfaces here, with memory and Postgres adapters beside them, and knows nothing of HTTP.
 */
export const packageName = "@quire/reviews"

export { migrations } from "./migrations/index.ts"
