/** Postgres adapter of AiLogRepo. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, Rows } from "@quire/kernel"
import { AiLogRepo, callKey, type StoredAiCall } from "./AiLogRepo.ts"

type Row = Record<string, unknown>

const calls = Rows.decoder(
  "reviews_ai_log",
  Schema.Struct({
    id: Schema.String,
    organization_id: Schema.String,
    conversation_id: Schema.NullOr(Schema.String),
    purpose: Schema.String,
    model: Schema.String,
    prompt: Rows.Json(Schema.Array(Schema.Struct({ role: Schema.String, content: Schema.String }))),
    tools: Rows.Json(Schema.Array(Schema.String)),
    answer: Schema.String,
    tool_calls: Rows.Json(Schema.Array(Schema.Struct({ name: Schema.String, params: Schema.Unknown }))),
    tokens: Schema.Number,
    failure: Schema.NullOr(Schema.String),
    at: Rows.Timestamp
  }),
  (row): StoredAiCall => ({
    id: row.id,
    organizationId: row.organization_id,
    conversationId: row.conversation_id,
    purpose: row.purpose,
    model: row.model,
    prompt: row.prompt,
    tools: row.tools,
    answer: row.answer,
    toolCalls: row.tool_calls,
    tokens: row.tokens,
    failure: row.failure,
    at: row.at
  })
)

export const layer = Layer.effect(
  AiLogRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return AiLogRepo.of({
      insert: (c) =>
        sql`
          INSERT INTO reviews_ai_log (id, organization_id, conversation_id, purpose, model, prompt, tools, answer, tool_calls, tokens, failure, at)
          VALUES (${c.id}, ${c.organizationId}, ${c.conversationId}, ${c.purpose}, ${c.model}, ${JSON.stringify(c.prompt)}::jsonb,
            ${JSON.stringify(c.tools)}::jsonb, ${c.answer}, ${JSON.stringify(c.toolCalls)}::jsonb, ${Math.round(c.tokens)}, ${c.failure}, ${c.at})`.pipe(Effect.orDie, Effect.asVoid),
      list: (query, after, limit) => {
        const conversation = query.conversationId === undefined ? sql`` : sql`AND conversation_id = ${query.conversationId}`
        const from = after === undefined ? sql`` : sql`AND (at, id) < (${new Date(String(after[0]))}, ${String(after[1])})`
        return sql<Row>`
          SELECT * FROM reviews_ai_log
          WHERE organization_id = ${query.organizationId} ${conversation} ${from}
          ORDER BY at DESC, id DESC
          LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(calls.all),
          Effect.flatMap((rows) => Pagination.pageFromRows(rows, limit, callKey))
        )
      }
    })
  })
)
