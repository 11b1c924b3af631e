/** Change requests, their contributors, and the per-space counter their numbers come from. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0001_change_requests = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE reviews_change_request_numbers (
      space_id text COLLATE "C" PRIMARY KEY,
      last integer NOT NULL
    )`
  yield* sql`
    CREATE TABLE reviews_change_requests (
      id text COLLATE "C" PRIMARY KEY,
      space_id text COLLATE "C" NOT NULL,
      number integer NOT NULL,
      status text NOT NULL,
      subject text NOT NULL,
      created_by text COLLATE "C" NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      revision text COLLATE "C" NOT NULL,
      revision_initial text COLLATE "C" NOT NULL,
      revision_merged_ancestor text COLLATE "C" NOT NULL,
      revision_merged text COLLATE "C",
      agent_task_id text,
      UNIQUE (space_id, number)
    )`
  yield* sql`CREATE INDEX reviews_change_requests_status ON reviews_change_requests (space_id, status, number)`
  yield* sql`
    CREATE TABLE reviews_change_request_contributors (
      change_request_id text COLLATE "C" NOT NULL,
      user_id text COLLATE "C" NOT NULL,
      position integer NOT NULL,
      PRIMARY KEY (change_request_id, user_id)
    )`
  yield* sql`CREATE INDEX reviews_change_request_contributors_user ON reviews_change_request_contributors (user_id)`
})
