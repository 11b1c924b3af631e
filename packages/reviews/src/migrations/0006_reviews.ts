/** Reviews of change requests, the reviewers requested on them, and how often each editor edited one. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0006_reviews = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE reviews_reviews (
      id text COLLATE "C" PRIMARY KEY,
      space_id text COLLATE "C" NOT NULL,
      change_request_id text COLLATE "C" NOT NULL,
      reviewer_id text COLLATE "C" NOT NULL,
      status text NOT NULL,
      revision text COLLATE "C" NOT NULL,
      requested_by text COLLATE "C",
      comment_id text COLLATE "C",
      created_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX reviews_reviews_change_request ON reviews_reviews (change_request_id, created_at, id)`
  yield* sql`CREATE INDEX reviews_reviews_space ON reviews_reviews (space_id)`
  yield* sql`
    CREATE TABLE reviews_requested_reviewers (
      change_request_id text COLLATE "C" NOT NULL,
      user_id text COLLATE "C" NOT NULL,
      space_id text COLLATE "C" NOT NULL,
      requested_by text COLLATE "C" NOT NULL,
      revision text COLLATE "C" NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (change_request_id, user_id)
    )`
  yield* sql`CREATE INDEX reviews_requested_reviewers_space ON reviews_requested_reviewers (space_id)`
  yield* sql`
    CREATE TABLE reviews_edit_contributions (
      change_request_id text COLLATE "C" NOT NULL,
      user_id text COLLATE "C" NOT NULL,
      space_id text COLLATE "C" NOT NULL,
      edits integer NOT NULL,
      first_edited_at timestamptz NOT NULL,
      last_edited_at timestamptz NOT NULL,
      PRIMARY KEY (change_request_id, user_id)
    )`
  yield* sql`CREATE INDEX reviews_edit_contributions_space ON reviews_edit_contributions (space_id)`
  // Editors before this table existed: one edit each, at their change request's last change.
  yield* sql`
    INSERT INTO reviews_edit_contributions (change_request_id, user_id, space_id, edits, first_edited_at, last_edited_at)
    SELECT c.change_request_id, c.user_id, cr.space_id, 1, cr.updated_at, cr.updated_at
    FROM reviews_change_request_contributors c
    JOIN reviews_change_requests cr ON cr.id = c.change_request_id`
})
