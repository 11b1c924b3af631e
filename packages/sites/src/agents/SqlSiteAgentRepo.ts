/** Postgres adapter of SiteAgentRepo: `sites_agent_settings` (one row per site that changed them) and `sites_mcp_servers`. */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, Rows } from "@quire/kernel"
import { defaultAgentSettings, FindingChangeRequests, McpTransport, ScanTopics, type SiteAgentSettingsRecord, type SiteMcpServer } from "../domain/Agent.ts"
import { mcpServerKey, SiteAgentRepo } from "./SiteAgentRepo.ts"

type Row = Record<string, unknown>

const Document = Schema.Struct({
  object: Schema.Literal("document"),
  data: Schema.Record(Schema.String, Schema.Unknown),
  nodes: Schema.Array(Schema.Unknown)
})

const settingsRows = Rows.decoder(
  "sites_agent_settings",
  Schema.Struct({
    scan_topics: ScanTopics,
    finding_change_requests: FindingChangeRequests,
    custom_instructions: Rows.Json(Document),
    updated_at: Rows.Timestamp,
    updated_by: Schema.String
  }),
  (row): SiteAgentSettingsRecord => ({
    scans: { topics: row.scan_topics },
    findings: { changeRequests: row.finding_change_requests },
    editing: { customInstructions: row.custom_instructions },
    updatedAt: row.updated_at,
    updatedBy: row.updated_by
  })
)

const serverRows = Rows.decoder(
  "sites_mcp_servers",
  Schema.Struct({
    id: Schema.String,
    site_id: Schema.String,
    name: Schema.String,
    url: Schema.String,
    transport: McpTransport,
    header_names: Rows.Json(Schema.Array(Schema.String)),
    sealed_headers: Schema.String,
    condition: Schema.NullOr(Schema.String),
    created_at: Rows.Timestamp,
    updated_at: Rows.Timestamp
  }),
  (row): SiteMcpServer => ({
    id: row.id,
    siteId: row.site_id,
    name: row.name,
    url: row.url,
    transport: row.transport,
    headerNames: row.header_names,
    sealedHeaders: row.sealed_headers,
    condition: row.condition,
    createdAt: row.created_at,
    updatedAt: row.updated_at
  })
)

const exec = (statement: Effect.Effect<unknown, unknown>) => statement.pipe(Effect.orDie, Effect.asVoid)

export const layer = Layer.effect(
  SiteAgentRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return SiteAgentRepo.of({
      settings: (siteId) =>
        sql<Row>`SELECT * FROM sites_agent_settings WHERE site_id = ${siteId}`.pipe(
          Effect.orDie,
          Effect.flatMap(settingsRows.first),
          Effect.map(Option.getOrElse(() => defaultAgentSettings))
        ),
      putSettings: (siteId, r) =>
        exec(sql`
          INSERT INTO sites_agent_settings (site_id, scan_topics, finding_change_requests, custom_instructions, updated_at, updated_by)
          VALUES (${siteId}, ${r.scans.topics}, ${r.findings.changeRequests}, ${JSON.stringify(r.editing.customInstructions)}::jsonb,
            ${r.updatedAt ?? new Date(0)}, ${r.updatedBy ?? ""})
          ON CONFLICT (site_id) DO UPDATE SET scan_topics = EXCLUDED.scan_topics,
            finding_change_requests = EXCLUDED.finding_change_requests, custom_instructions = EXCLUDED.custom_instructions,
            updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`),
      listMcpServers: (siteId, after, limit) =>
        sql<Row>`
          SELECT * FROM sites_mcp_servers
          WHERE site_id = ${siteId}
            AND ${after === undefined ? sql`true` : sql`(created_at, id) > (${String(after[0])}::timestamptz, ${String(after[1])})`}
          ORDER BY created_at, id
          LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(serverRows.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, mcpServerKey))
        ),
      countMcpServers: (siteId) =>
        sql<{ readonly count: number }>`SELECT count(*)::int AS count FROM sites_mcp_servers WHERE site_id = ${siteId}`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows[0]?.count ?? 0)
        ),
      findMcpServer: (serverId) =>
        sql<Row>`SELECT * FROM sites_mcp_servers WHERE id = ${serverId}`.pipe(Effect.orDie, Effect.flatMap(serverRows.first)),
      insertMcpServer: (s) =>
        exec(sql`
          INSERT INTO sites_mcp_servers (id, site_id, name, url, transport, header_names, sealed_headers, condition, created_at, updated_at)
          VALUES (${s.id}, ${s.siteId}, ${s.name}, ${s.url}, ${s.transport}, ${JSON.stringify(s.headerNames)}::jsonb,
            ${s.sealedHeaders}, ${s.condition}, ${s.createdAt}, ${s.updatedAt})`),
      updateMcpServer: (s) =>
        exec(sql`
          UPDATE sites_mcp_servers SET name = ${s.name}, url = ${s.url}, transport = ${s.transport},
            header_names = ${JSON.stringify(s.headerNames)}::jsonb, sealed_headers = ${s.sealedHeaders},
            condition = ${s.condition}, updated_at = ${s.updatedAt}
          WHERE id = ${s.id}`),
      removeMcpServer: (serverId) =>
        sql<Row>`DELETE FROM sites_mcp_servers WHERE id = ${serverId} RETURNING id`.pipe(Effect.orDie, Effect.map((rows) => rows.length > 0)),
      removeSite: (siteId) =>
        Effect.all([
          exec(sql`DELETE FROM sites_agent_settings WHERE site_id = ${siteId}`),
          exec(sql`DELETE FROM sites_mcp_servers WHERE site_id = ${siteId}`)
        ], { discard: true })
    })
  })
)
