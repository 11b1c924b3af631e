/** The first answers to requests sent with an `Idempotency-Key`, kept 24 hours. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0002_idempotency_keys = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // status NULL: the first request is still running. body: the answer's bytes in base64.
  yield* sql`
    CREATE TABLE gateway_idempotency_keys (
      caller text COLLATE "C" NOT NULL,
      key text COLLATE "C" NOT NULL,
      fingerprint text COLLATE "C" NOT NULL,
      created_ms bigint NOT NULL,
      status integer,
      content_type text,
      body text,
      PRIMARY KEY (caller, key)
    )`
  yield* sql`CREATE INDEX gateway_idempotency_keys_created ON gateway_idempotency_keys (created_ms)`
})
