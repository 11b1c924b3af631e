/**
 * Postgres adapter of SiteContextRepo: `sites_context_records`, `sites_context_connections`,
 * `sites_topics`, `sites_scans` and `sites_findings`, each row its entity as JSON beside the
 * columns it is looked up by.
 */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import { StoredConnection, StoredFinding, StoredRecord, StoredScan, StoredTopic } from "../domain/Findings.ts"
import { SiteContextRepo } from "./SiteContextRepo.ts"

const decoderOf = <S extends Schema.Codec<any, any>>(table: string, schema: S) =>
  Rows.decoder(table, Schema.Struct({ data: Rows.Json(schema) }), (row) => row.data as S["Type"])

const tables = {
  records: { name: "sites_context_records", rows: decoderOf("sites_context_records", StoredRecord) },
  connections: { name: "sites_context_connections", rows: decoderOf("sites_context_connections", StoredConnection) },
  topics: { name: "sites_topics", rows: decoderOf("sites_topics", StoredTopic) },
  scans: { name: "sites_scans", rows: decoderOf("sites_scans", StoredScan) },
  findings: { name: "sites_findings", rows: decoderOf("sites_findings", StoredFinding) }
} as const

export const layer = Layer.effect(
  SiteContextRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const all = <A>(t: { readonly name: string; readonly rows: Rows.RowDecoder<A> }) => (siteId: string) =>
      sql`SELECT data FROM ${sql(t.name)} WHERE site_id = ${siteId} ORDER BY created_at, id`.pipe(Effect.orDie, Effect.flatMap(t.rows.all))
    const one = <A>(t: { readonly name: string; readonly rows: Rows.RowDecoder<A> }) => (siteId: string, id: string) =>
      sql`SELECT data FROM ${sql(t.name)} WHERE site_id = ${siteId} AND id = ${id}`.pipe(
        Effect.orDie,
        Effect.flatMap(t.rows.all),
        Effect.map((rows) => Option.fromNullishOr(rows[0]))
      )
    const put = (name: string) => (row: { readonly id: string; readonly siteId: string; readonly createdAt: string }, extra: Record<string, string | null> = {}) =>
      sql`
        INSERT INTO ${sql(name)} ${sql.insert({ id: row.id, site_id: row.siteId, created_at: row.createdAt, ...extra, data: JSON.stringify(row) })}
        ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data${Object.keys(extra).length === 0 ? sql`` : sql`, ${sql.csv(Object.keys(extra).map((k) => sql`${sql(k)} = EXCLUDED.${sql(k)}`))}`}`.pipe(
        Effect.asVoid
      )
    const putRecord = (r: StoredRecord) => put(tables.records.name)(r, { connection_id: r.connectionId })
    const putFinding = (f: StoredFinding) => put(tables.findings.name)(f, { topic_id: f.topicId })

    return SiteContextRepo.of({
      putRecords: (batch) => Effect.forEach(batch, putRecord, { discard: true }).pipe(sql.withTransaction, Effect.orDie),
      records: all(tables.records),
      record: one(tables.records),
      connections: all(tables.connections),
      connection: one(tables.connections),
      putConnection: (c) => put(tables.connections.name)(c).pipe(Effect.orDie),
      // Connections are few (at most 50 a site): a scan of the table, no index.
      dueConnections: (before, limit) =>
        sql`
          SELECT data FROM sites_context_connections
          WHERE COALESCE(data->>'attemptedAt', data->>'syncedAt', '') COLLATE "C" < ${before}
          ORDER BY COALESCE(data->>'attemptedAt', data->>'syncedAt', '') COLLATE "C", id
          LIMIT ${limit}`.pipe(Effect.orDie, Effect.flatMap(tables.connections.rows.all)),
      removeConnection: (siteId, id) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM sites_context_records WHERE site_id = ${siteId} AND connection_id = ${id}`
          yield* sql`DELETE FROM sites_context_connections WHERE site_id = ${siteId} AND id = ${id}`
        }).pipe(sql.withTransaction, Effect.orDie),
      topics: all(tables.topics),
      topic: one(tables.topics),
      putTopic: (t) => put(tables.topics.name)(t).pipe(Effect.orDie),
      scans: all(tables.scans),
      scan: one(tables.scans),
      putScan: (s) => put(tables.scans.name)(s).pipe(Effect.orDie),
      findings: all(tables.findings),
      finding: one(tables.findings),
      putFinding: (f) => putFinding(f).pipe(Effect.orDie),
      saveScan: (scan, topics, findings, records) =>
        Effect.gen(function*() {
          yield* put(tables.scans.name)(scan)
          yield* Effect.forEach(topics, (t) => put(tables.topics.name)(t), { discard: true })
          yield* Effect.forEach(findings, putFinding, { discard: true })
          yield* Effect.forEach(records, putRecord, { discard: true })
        }).pipe(sql.withTransaction, Effect.orDie),
      removeTopicFindings: (siteId, topicId) =>
        sql<{ readonly id: string }>`DELETE FROM sites_findings WHERE site_id = ${siteId} AND topic_id = ${topicId} RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        ),
      removeSite: (siteId) =>
        Effect.forEach(Object.values(tables), (t) => sql`DELETE FROM ${sql(t.name)} WHERE site_id = ${siteId}`, { discard: true }).pipe(sql.withTransaction, Effect.orDie)
    })
  })
)
