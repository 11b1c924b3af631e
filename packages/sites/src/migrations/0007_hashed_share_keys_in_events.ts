/** Share keys that insights events kept as sent become their SHA-256, as new events keep them (a key opens its site). */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0007_hashed_share_keys_in_events = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // A stored link id is 64 hex digits: those are hashed already.
  yield* sql`
    UPDATE sites_events SET site_share_key = encode(sha256(convert_to(site_share_key, 'UTF8')), 'hex')
    WHERE site_share_key IS NOT NULL AND site_share_key !~ '^[0-9a-f]{64}$'`
})
