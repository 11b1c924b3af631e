/**
 * Share links' secrets are kept as their SHA-256 (the lookup key, in `secret`) and sealed under the
 * instance secret (`sealed_secret`, for the admins' listing). The migration has no
 * instance secret: it leaves `sealed_secret` null, and the first start seals and hashes the links.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0003_sealed_share_links = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE sites_share_links ADD COLUMN sealed_secret text`
})
