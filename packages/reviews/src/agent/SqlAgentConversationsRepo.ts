/** Postgres adapter of AgentConversationsRepo. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import type { AgentConversation } from "./AgentConversation.ts"
import { AgentConversationsRepo } from "./AgentConversationsRepo.ts"

type Row = Record<string, unknown>

const conversations = Rows.decoder(
  "reviews_agent_conversations",
  Schema.Struct({
    change_request_id: Schema.String,
    id: Schema.String,
    space_id: Schema.String,
    title: Schema.NullOr(Schema.String),
    shared: Schema.Boolean,
    created_by: Schema.String,
    created_at: Rows.Timestamp,
    updated_at: Rows.Timestamp,
    messages: Rows.Json(Schema.Array(Schema.Struct({
      role: Schema.Literals(["user", "agent"]),
      text: Schema.String,
      userId: Schema.String,
      at: Schema.String,
      edits: Schema.optionalKey(Schema.Array(Schema.Struct({ kind: Schema.Literals(["created", "updated"]), pageId: Schema.String, title: Schema.String })))
    })))
  }),
  (row): AgentConversation => ({
    spaceId: row.space_id,
    changeRequestId: row.change_request_id,
    id: row.id,
    title: row.title ?? undefined,
    shared: row.shared,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    messages: row.messages
  })
)

export const layer = Layer.effect(
  AgentConversationsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return AgentConversationsRepo.of({
      get: (changeRequestId, id) =>
        sql<Row>`SELECT * FROM reviews_agent_conversations WHERE change_request_id = ${changeRequestId} AND id = ${id}`.pipe(Effect.orDie, Effect.flatMap(conversations.first)),
      list: (changeRequestId, viewer) =>
        sql<Row>`
          SELECT * FROM reviews_agent_conversations
          WHERE change_request_id = ${changeRequestId} AND (shared OR created_by = ${viewer})
          ORDER BY updated_at DESC, id`.pipe(Effect.orDie, Effect.flatMap(conversations.all)),
      put: (c) =>
        sql`
          INSERT INTO reviews_agent_conversations (change_request_id, id, space_id, title, shared, created_by, created_at, updated_at, messages)
          VALUES (${c.changeRequestId}, ${c.id}, ${c.spaceId}, ${c.title ?? null}, ${c.shared}, ${c.createdBy}, ${c.createdAt}, ${c.updatedAt}, ${JSON.stringify(c.messages)}::jsonb)
          ON CONFLICT (change_request_id, id)
          DO UPDATE SET title = EXCLUDED.title, shared = EXCLUDED.shared, updated_at = EXCLUDED.updated_at, messages = EXCLUDED.messages`.pipe(Effect.orDie, Effect.asVoid),
      remove: (changeRequestId, id) =>
        sql<Row>`DELETE FROM reviews_agent_conversations WHERE change_request_id = ${changeRequestId} AND id = ${id} RETURNING id`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length > 0)
        ),
      removeForSpace: (spaceId) => sql`DELETE FROM reviews_agent_conversations WHERE space_id = ${spaceId}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
