/** Comments on spaces and change requests, their replies and reactions. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0002_comments = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // change_request_id NULL: a comment on the space's own content. replies: count of its replies.
  yield* sql`
    CREATE TABLE review_comments (
      id text COLLATE "C" PRIMARY KEY,
      space_id text COLLATE "C" NOT NULL,
      change_request_id text COLLATE "C",
      revision_id text COLLATE "C" NOT NULL,
      page_id text COLLATE "C",
      node_id text,
      table_cell jsonb,
      author_id text COLLATE "C" NOT NULL,
      markdown text NOT NULL,
      posted_at timestamptz NOT NULL,
      edited_at timestamptz,
      status text NOT NULL,
      resolved_at timestamptz,
      resolved_by text COLLATE "C",
      replies integer NOT NULL DEFAULT 0
    )`
  yield* sql`CREATE INDEX review_comments_space ON review_comments (space_id, change_request_id, posted_at, id)`
  yield* sql`
    CREATE TABLE review_comment_replies (
      id text COLLATE "C" PRIMARY KEY,
      comment_id text COLLATE "C" NOT NULL REFERENCES review_comments (id) ON DELETE CASCADE,
      space_id text COLLATE "C" NOT NULL,
      author_id text COLLATE "C" NOT NULL,
      markdown text NOT NULL,
      posted_at timestamptz NOT NULL,
      edited_at timestamptz
    )`
  yield* sql`CREATE INDEX review_comment_replies_comment ON review_comment_replies (comment_id, posted_at, id)`
  // target_id: a comment or a reply (ids are unique across both).
  yield* sql`
    CREATE TABLE review_comment_reactions (
      target_id text COLLATE "C" NOT NULL,
      emoji text COLLATE "C" NOT NULL,
      user_id text COLLATE "C" NOT NULL,
      reacted_at timestamptz NOT NULL,
      PRIMARY KEY (target_id, emoji, user_id)
    )`
})
