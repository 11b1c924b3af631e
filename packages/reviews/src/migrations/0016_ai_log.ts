/**
 * The organization's AI log (outbound's AiLog): each call of a model made on its behalf, with the
 * prompt it was sent (instructions, retrieved passages, history; each message cut at 20,000
 * characters), the tools offered, what it answered and called, its tokens and its failure.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0016_ai_log = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    CREATE TABLE reviews_ai_log (
      id text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C" NOT NULL,
      conversation_id text COLLATE "C",
      purpose text NOT NULL,
      model text NOT NULL,
      prompt jsonb NOT NULL CONSTRAINT reviews_ai_log_prompt CHECK (jsonb_typeof(prompt) = 'array'),
      tools jsonb NOT NULL,
      answer text NOT NULL,
      tool_calls jsonb NOT NULL,
      tokens integer NOT NULL,
      failure text,
      at timestamptz NOT NULL
    )`)
  yield* sql.unsafe(`CREATE INDEX reviews_ai_log_listing ON reviews_ai_log (organization_id, at DESC, id DESC)`)
  yield* sql.unsafe(`CREATE INDEX reviews_ai_log_conversation ON reviews_ai_log (organization_id, conversation_id, at DESC, id DESC)`)
})
