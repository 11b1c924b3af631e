/**
 * Members' conversations with the organization's agent (GitBook's organization
 * `AgentConversation`): addressed by the client's id within their member and organization, never
 * seen by anyone else, with their messages (the member's questions, the agent's answers and the
 * pages they stand on) as one JSON array. The CHECKs restate the bounds the use case applies.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0015_organization_agent_conversations = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    CREATE TABLE reviews_organization_agent_conversations (
      organization_id text COLLATE "C" NOT NULL,
      user_id text COLLATE "C" NOT NULL,
      id text COLLATE "C" NOT NULL CONSTRAINT reviews_organization_agent_conversations_id_length CHECK (char_length(id) BETWEEN 1 AND 100),
      title text CONSTRAINT reviews_organization_agent_conversations_title_length CHECK (char_length(title) <= 200),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      messages jsonb NOT NULL DEFAULT '[]'::jsonb CONSTRAINT reviews_organization_agent_conversations_messages CHECK (jsonb_typeof(messages) = 'array' AND jsonb_array_length(messages) <= 400),
      PRIMARY KEY (organization_id, user_id, id)
    )`)
  yield* sql.unsafe(`CREATE INDEX reviews_organization_agent_conversations_listing ON reviews_organization_agent_conversations (organization_id, user_id, updated_at DESC, id)`)
})
