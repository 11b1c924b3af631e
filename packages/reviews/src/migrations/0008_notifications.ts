/** Notifications of users (review requested, comment reply, mention, change request merged), newest first per user. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0008_notifications = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE reviews_notifications (
      id text COLLATE "C" PRIMARY KEY,
      user_id text COLLATE "C" NOT NULL,
      kind text NOT NULL,
      actor_id text COLLATE "C" NOT NULL,
      space_id text COLLATE "C" NOT NULL,
      change_request_id text COLLATE "C",
      comment_id text COLLATE "C",
      reply_id text COLLATE "C",
      page_id text COLLATE "C",
      created_at timestamptz NOT NULL,
      read_at timestamptz
    )`
  yield* sql`CREATE INDEX reviews_notifications_user ON reviews_notifications (user_id, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX reviews_notifications_unread ON reviews_notifications (user_id) WHERE read_at IS NULL`
  yield* sql`CREATE INDEX reviews_notifications_space ON reviews_notifications (space_id)`
})
