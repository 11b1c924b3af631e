/** Postgres adapter of OrganizationConversationsRepo. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import type { OrganizationConversation } from "./OrganizationConversation.ts"
import { OrganizationConversationsRepo } from "./OrganizationConversationsRepo.ts"

type Row = Record<string, unknown>

const conversations = Rows.decoder(
  "reviews_organization_agent_conversations",
  Schema.Struct({
    organization_id: Schema.String,
    user_id: Schema.String,
    id: Schema.String,
    title: Schema.NullOr(Schema.String),
    created_at: Rows.Timestamp,
    updated_at: Rows.Timestamp,
    messages: Rows.Json(Schema.Array(Schema.Struct({
      role: Schema.Literals(["user", "agent"]),
      text: Schema.String,
      at: Schema.String,
      byModel: Schema.optionalKey(Schema.Boolean),
      sources: Schema.optionalKey(Schema.Array(Schema.Struct({ spaceId: Schema.String, pageId: Schema.String, title: Schema.String, path: Schema.String }))),
      changeRequest: Schema.optionalKey(Schema.Struct({ spaceId: Schema.String, changeRequestId: Schema.String, number: Schema.Number, subject: Schema.String }))
    })))
  }),
  (row): OrganizationConversation => ({
    organizationId: row.organization_id,
    userId: row.user_id,
    id: row.id,
    title: row.title ?? undefined,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    messages: row.messages
  })
)

export const layer = Layer.effect(
  OrganizationConversationsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return OrganizationConversationsRepo.of({
      get: (organizationId, userId, id) =>
        sql<Row>`
          SELECT * FROM reviews_organization_agent_conversations
          WHERE organization_id = ${organizationId} AND user_id = ${userId} AND id = ${id}`.pipe(Effect.orDie, Effect.flatMap(conversations.first)),
      list: (organizationId, userId) =>
        sql<Row>`
          SELECT * FROM reviews_organization_agent_conversations
          WHERE organization_id = ${organizationId} AND user_id = ${userId}
          ORDER BY updated_at DESC, id`.pipe(Effect.orDie, Effect.flatMap(conversations.all)),
      put: (c) =>
        sql`
          INSERT INTO reviews_organization_agent_conversations (organization_id, user_id, id, title, created_at, updated_at, messages)
          VALUES (${c.organizationId}, ${c.userId}, ${c.id}, ${c.title ?? null}, ${c.createdAt}, ${c.updatedAt}, ${JSON.stringify(c.messages)}::jsonb)
          ON CONFLICT (organization_id, user_id, id)
          DO UPDATE SET title = EXCLUDED.title, updated_at = EXCLUDED.updated_at, messages = EXCLUDED.messages`.pipe(Effect.orDie, Effect.asVoid),
      remove: (organizationId, userId, id) =>
        sql<Row>`
          DELETE FROM reviews_organization_agent_conversations
          WHERE organization_id = ${organizationId} AND user_id = ${userId} AND id = ${id} RETURNING id`.pipe(Effect.orDie, Effect.map((rows) => rows.length > 0)),
      removeMember: (organizationId, userId) =>
        sql`DELETE FROM reviews_organization_agent_conversations WHERE organization_id = ${organizationId} AND user_id = ${userId}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
