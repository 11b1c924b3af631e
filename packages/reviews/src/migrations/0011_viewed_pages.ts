/** Each reviewer's "Viewed" marks on the pages of a change request, with the page's fingerprint when marked. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0011_viewed_pages = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE reviews_viewed_pages (
      change_request_id text COLLATE "C" NOT NULL,
      user_id text COLLATE "C" NOT NULL,
      page_id text COLLATE "C" NOT NULL,
      space_id text COLLATE "C" NOT NULL,
      fingerprint text NOT NULL,
      revision text COLLATE "C" NOT NULL,
      viewed_at timestamptz NOT NULL,
      PRIMARY KEY (change_request_id, user_id, page_id)
    )`
  yield* sql`CREATE INDEX reviews_viewed_pages_space ON reviews_viewed_pages (space_id)`
})
