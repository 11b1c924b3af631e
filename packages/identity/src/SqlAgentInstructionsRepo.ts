/** Postgres adapter of AgentInstructionsRepo: `identity_agent_instructions`, one row per organization whose instructions were set. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import { AgentInstructionsRepo, type InstructionsState } from "./AgentInstructionsRepo.ts"

const Document = Schema.Struct({
  object: Schema.Literal("document"),
  data: Schema.Record(Schema.String, Schema.Unknown),
  nodes: Schema.Array(Schema.Unknown)
})

const rows = Rows.decoder(
  "identity_agent_instructions",
  Schema.Struct({
    instructions: Schema.NullOr(Rows.Json(Document)),
    updated_at: Rows.TimestampOrNull,
    updated_by: Schema.NullOr(Schema.String),
    created_at: Rows.Timestamp,
    created_by: Schema.NullOr(Schema.String)
  }),
  (row): InstructionsState =>
    row.instructions === null || row.updated_at === null
      ? { instructions: null, updatedAt: row.created_at, updatedBy: row.created_by }
      : { instructions: row.instructions, updatedAt: row.updated_at, updatedBy: row.updated_by }
)

export const layer = Layer.effect(
  AgentInstructionsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return AgentInstructionsRepo.of({
      find: (organizationId) =>
        sql<Record<string, unknown>>`
          SELECT a.instructions, a.updated_at, a.updated_by, o.created_at, o.created_by
          FROM identity_organizations o LEFT JOIN identity_agent_instructions a ON a.organization_id = o.id
          WHERE o.id = ${organizationId}`.pipe(Effect.orDie, Effect.flatMap(rows.first)),
      put: (organizationId, stored) =>
        sql`
          INSERT INTO identity_agent_instructions (organization_id, instructions, updated_at, updated_by)
          SELECT id, ${JSON.stringify(stored.instructions)}::jsonb, ${stored.updatedAt}, ${stored.updatedBy}
          FROM identity_organizations WHERE id = ${organizationId}
          ON CONFLICT (organization_id) DO UPDATE SET instructions = EXCLUDED.instructions,
            updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
