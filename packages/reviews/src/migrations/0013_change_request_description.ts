/**
 * A change request's description (GitBook's `description`, stored as markdown; null when unset) and
 * its external links (GitBook's `links`, a JSON array of `{id, url, title?}`). The CHECKs restate
 * the bounds the use case applies (a migration states its own values: they must not move with the code).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0013_change_request_description = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    ALTER TABLE reviews_change_requests
      ADD COLUMN description text CONSTRAINT reviews_change_requests_description_length CHECK (char_length(description) <= 20000),
      ADD COLUMN links jsonb NOT NULL DEFAULT '[]'::jsonb
        CONSTRAINT reviews_change_requests_links_count CHECK (jsonb_typeof(links) = 'array' AND jsonb_array_length(links) <= 10)`)
})
