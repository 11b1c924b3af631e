/**
 * The agent as a requested reviewer: its request is a row of `reviews_requested_reviewers` (user
 * `agent`), and the review it runs in the background keeps its state here (pending, running, done
 * with its comments, failed with why). Null for people.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0017_agent_reviewer = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE reviews_requested_reviewers ADD COLUMN agent_review jsonb`
})
