/**
 * The agent's conversations in change requests (GitBook's `AgentConversation`): addressed by the
 * client's own id within their change request, shared with everyone who may see it unless private
 * to their creator, with their messages (the person's words, the agent's answers and the edits it
 * made) as one JSON array. The CHECKs restate the bounds the use case applies.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0014_agent_conversations = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    CREATE TABLE reviews_agent_conversations (
      change_request_id text COLLATE "C" NOT NULL,
      id text COLLATE "C" NOT NULL CONSTRAINT reviews_agent_conversations_id_length CHECK (char_length(id) BETWEEN 1 AND 100),
      space_id text COLLATE "C" NOT NULL,
      title text CONSTRAINT reviews_agent_conversations_title_length CHECK (char_length(title) <= 200),
      shared boolean NOT NULL DEFAULT true,
      created_by text COLLATE "C" NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      messages jsonb NOT NULL DEFAULT '[]'::jsonb CONSTRAINT reviews_agent_conversations_messages CHECK (jsonb_typeof(messages) = 'array' AND jsonb_array_length(messages) <= 400),
      PRIMARY KEY (change_request_id, id)
    )`)
  yield* sql.unsafe(`CREATE INDEX reviews_agent_conversations_space ON reviews_agent_conversations (space_id)`)
  yield* sql.unsafe(`CREATE INDEX reviews_agent_conversations_listing ON reviews_agent_conversations (change_request_id, updated_at DESC, id)`)
})
