/** Postgres adapter of SiteEventsRepo: `sites_events` and `sites_insights_salts`. */
import { Array as Arr, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import { DisplayContext, type SiteEvent, SiteEventType } from "../domain/SiteEvent.ts"
import { SiteEventsRepo } from "./SiteEventsRepo.ts"

const NullableText = Schema.NullOr(Schema.String)

const events = Rows.decoder(
  "sites_events",
  Schema.Struct({
    id: Schema.String,
    organization_id: Schema.String,
    site_id: Schema.String,
    type: SiteEventType,
    at: Rows.Timestamp,
    visitor: Schema.String,
    session: Schema.String,
    url: Schema.String,
    url_path: Schema.String,
    display_context: DisplayContext,
    site_section: NullableText,
    site_space: NullableText,
    site_share_key: NullableText,
    space_id: NullableText,
    page_id: NullableText,
    referrer: NullableText,
    language: NullableText,
    data: Rows.Json(Schema.Record(Schema.String, Schema.Unknown))
  }),
  (row): SiteEvent => ({
    id: row.id,
    organizationId: row.organization_id,
    siteId: row.site_id,
    type: row.type,
    at: row.at,
    visitor: row.visitor,
    session: row.session,
    url: row.url,
    urlPath: row.url_path,
    displayContext: row.display_context,
    siteSection: row.site_section,
    siteSpace: row.site_space,
    siteShareKey: row.site_share_key,
    spaceId: row.space_id,
    pageId: row.page_id,
    referrer: row.referrer,
    language: row.language,
    data: row.data
  })
)

/** Rows per INSERT: well under Postgres' 65,535 parameters at 18 columns. */
const insertChunk = 1000

export const layer = Layer.effect(
  SiteEventsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return SiteEventsRepo.of({
      append: (batch) =>
        Effect.gen(function*() {
          for (let at = 0; at < batch.length; at += insertChunk) {
            const rows = batch.slice(at, at + insertChunk).map((e) => ({
              id: e.id,
              organization_id: e.organizationId,
              site_id: e.siteId,
              type: e.type,
              at: e.at,
              visitor: e.visitor,
              session: e.session,
              url: e.url,
              url_path: e.urlPath,
              display_context: e.displayContext,
              site_section: e.siteSection,
              site_space: e.siteSpace,
              site_share_key: e.siteShareKey,
              space_id: e.spaceId,
              page_id: e.pageId,
              referrer: e.referrer,
              language: e.language,
              data: JSON.stringify(e.data)
            }))
            if (!Arr.isArrayNonEmpty(rows)) continue
            yield* sql`INSERT INTO sites_events ${sql.insert(rows)} ON CONFLICT (id) DO NOTHING`
          }
        }).pipe(sql.withTransaction, Effect.orDie),
      inRange: (siteId, from, to, limit) =>
        sql`
          SELECT * FROM sites_events WHERE site_id = ${siteId} AND at >= ${from} AND at < ${to}
          ORDER BY at, id LIMIT ${limit}`.pipe(Effect.orDie, Effect.flatMap(events.all)),
      saltOf: (day, candidate) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM sites_insights_salts WHERE day < ${day}`
          yield* sql`INSERT INTO sites_insights_salts (day, salt) VALUES (${day}, ${candidate}) ON CONFLICT (day) DO NOTHING`
          const rows = yield* sql<{ readonly salt: string }>`SELECT salt FROM sites_insights_salts WHERE day = ${day}`
          return rows[0]?.salt ?? candidate
        }).pipe(sql.withTransaction, Effect.orDie),
      removeSite: (siteId) => sql`DELETE FROM sites_events WHERE site_id = ${siteId}`.pipe(Effect.orDie, Effect.asVoid),
      purgeBefore: (before) =>
        sql<{ readonly id: string }>`DELETE FROM sites_events WHERE at < ${before} RETURNING id`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length)
        )
    })
  })
)
