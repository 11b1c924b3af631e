/** The jobs of the in-process queue of an embedded server, kept until they are done or given up. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0001_jobs = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // state: 'waiting' (not started, or between retries) or 'running' (an attempt started).
  yield* sql`
    CREATE TABLE queue_jobs (
      id bigserial PRIMARY KEY,
      task text COLLATE "C" NOT NULL,
      payload jsonb NOT NULL,
      run_at_ms bigint NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      max_attempts integer NOT NULL,
      job_key text COLLATE "C",
      state text COLLATE "C" NOT NULL DEFAULT 'waiting'
    )`
})
