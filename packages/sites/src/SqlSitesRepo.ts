/** Postgres adapter of SitesRepo: `sites_sites` (customization and visitor key in the site's row) and `sites_adaptive_schemas`. */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { Errors, Pagination, Rows } from "@quire/kernel"
import { decodeStored, type SiteCustomizationRecord } from "./domain/Customization.ts"
import { AgentsContext, type Site, type SiteAdaptiveSchema, SiteType, SiteVisibility } from "./domain/Site.ts"
import { siteKey, SitesRepo } from "./SitesRepo.ts"
import { setList } from "./SqlRows.ts"

type Row = Record<string, unknown>

const SiteRow = Schema.Struct({
  id: Schema.String,
  organization_id: Schema.String,
  type: SiteType,
  title: Schema.String,
  hostname: Schema.NullOr(Schema.String),
  basename: Schema.NullOr(Schema.String),
  proxy: Schema.NullOr(Schema.String),
  visibility: SiteVisibility,
  published: Schema.Boolean,
  adaptive_content: Schema.Boolean,
  agents_context: AgentsContext,
  default_section_id: Schema.NullOr(Schema.String),
  default_site_space_id: Schema.NullOr(Schema.String),
  created_at: Rows.Timestamp,
  updated_at: Rows.Timestamp
})

const siteColumns = "id, organization_id, type, title, hostname, basename, proxy, visibility, published, adaptive_content, " +
  "agents_context, default_section_id, default_site_space_id, created_at, updated_at"

const sites = Rows.decoder("sites_sites", SiteRow, (row): Site => ({
  id: row.id,
  organizationId: row.organization_id,
  type: row.type,
  title: row.title,
  hostname: row.hostname,
  basename: row.basename,
  proxy: row.proxy,
  visibility: row.visibility,
  published: row.published,
  adaptiveContent: row.adaptive_content,
  agentsContext: row.agents_context,
  defaultSectionId: row.default_section_id,
  defaultSiteSpaceId: row.default_site_space_id,
  createdAt: row.created_at,
  updatedAt: row.updated_at
}))

const schemas = Rows.decoder(
  "sites_adaptive_schemas",
  Schema.Struct({ site_id: Schema.String, json_schema: Rows.Json(Schema.Unknown), updated_at: Rows.Timestamp }),
  (row): SiteAdaptiveSchema => ({ siteId: row.site_id, jsonSchema: row.json_schema, updatedAt: row.updated_at })
)

const customizations = Rows.decoder(
  "sites_sites",
  Schema.Struct({ id: Schema.String, customization: Rows.Json(Schema.Unknown), customization_updated_at: Rows.TimestampOrNull }),
  (row) => ({ siteId: row.id, stored: row.customization, updatedAt: row.customization_updated_at })
)

/** A stored customization; fields that no longer decode fall back to their defaults, with a warning. */
const storedCustomization = (row: { readonly siteId: string; readonly stored: unknown; readonly updatedAt: Date | null }) => {
  const { dropped, settings } = decodeStored(row.stored)
  const record: SiteCustomizationRecord = { settings, updatedAt: row.updatedAt }
  return dropped.length === 0
    ? Effect.succeed(record)
    : Effect.as(Effect.logWarning(`site ${row.siteId}: stored customization fields that do not decode are ignored: ${dropped.join(", ")}`), record)
}

/** The text in a site row's nullable column, `none` when the site or the value is absent. */
const nullableText = <C extends "visitor_key" | "visitor_fallback_url">(column: C) => {
  const decoder = Rows.decoder("sites_sites", Schema.Struct({ [column]: Schema.NullOr(Schema.String) }), (row) => row[column] as string | null)
  return (rows: Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>): Effect.Effect<Option.Option<string>> =>
    rows.pipe(Effect.orDie, Effect.flatMap(decoder.first), Effect.map((found) => Option.flatMap(found, Option.fromNullishOr)))
}
const keys = nullableText("visitor_key")
const fallbacks = nullableText("visitor_fallback_url")

/** A unique violation on the hostname (two writers at once, past the check) is a Conflict too; other SQL errors are defects. */
const hostnameRace = (hostname: string | null | undefined) => <A>(self: Effect.Effect<A, SqlError.SqlError>) =>
  Effect.catch(self, (e) =>
    e.cause._tag === "UniqueViolation" && hostname != null ? Effect.fail(clash(hostname)) : Effect.die(e))

const clash = (hostname: string) => new Errors.Conflict({ reason: `hostname ${JSON.stringify(hostname)} is already used by another site` })

export const layer = Layer.effect(
  SitesRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(siteColumns)

    const hostnameTaken = (hostname: string | null | undefined, siteId: string) =>
      hostname == null
        ? Effect.succeed(false)
        : sql`SELECT 1 FROM sites_sites WHERE hostname = ${hostname} AND id <> ${siteId}`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length > 0)
        )

    return SitesRepo.of({
      insert: (site) =>
        Effect.gen(function*() {
          if (yield* hostnameTaken(site.hostname, site.id)) return yield* clash(site.hostname!)
          yield* sql`
            INSERT INTO sites_sites (${columns})
            VALUES (${site.id}, ${site.organizationId}, ${site.type}, ${site.title}, ${site.hostname}, ${site.basename},
              ${site.proxy}, ${site.visibility}, ${site.published}, ${site.adaptiveContent}, ${site.agentsContext},
              ${site.defaultSectionId}, ${site.defaultSiteSpaceId}, ${site.createdAt}, ${site.updatedAt})`.pipe(hostnameRace(site.hostname))
        }),
      find: (siteId) => sql<Row>`SELECT ${columns} FROM sites_sites WHERE id = ${siteId}`.pipe(Effect.orDie, Effect.flatMap(sites.first)),
      findByHostname: (hostname) =>
        sql<Row>`SELECT ${columns} FROM sites_sites WHERE hostname = ${hostname}`.pipe(Effect.orDie, Effect.flatMap(sites.first)),
      list: (query, after, limit) => {
        if (query.siteIds !== undefined && query.siteIds.length === 0) return Effect.succeed({ items: [] })
        const title = query.title === undefined ? sql`true` : sql`strpos(lower(title), lower(${query.title})) > 0`
        const published = query.published === undefined ? sql`true` : sql`published = ${query.published}`
        const ids = query.siteIds === undefined ? sql`true` : sql.in("id", query.siteIds)
        const range = after === undefined
          ? sql`true`
          : sql`(created_at, id) > (${String(after[0])}::timestamptz, ${String(after[1])})`
        return sql<Row>`
          SELECT ${columns} FROM sites_sites
          WHERE organization_id = ${query.organizationId} AND ${title} AND ${published} AND ${ids} AND ${range}
          ORDER BY created_at, id
          LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(sites.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, siteKey))
        )
      },
      update: (siteId, patch) =>
        Effect.gen(function*() {
          if (yield* hostnameTaken(patch.hostname, siteId)) return yield* clash(patch.hostname!)
          return yield* sql<Row>`UPDATE sites_sites SET ${setList(sql, patch)} WHERE id = ${siteId} RETURNING ${columns}`.pipe(
            hostnameRace(patch.hostname),
            Effect.flatMap(sites.first)
          )
        }),
      lock: (siteId) => sql`SELECT id FROM sites_sites WHERE id = ${siteId} FOR UPDATE`.pipe(Effect.orDie, Effect.asVoid),
      remove: (siteId) =>
        Effect.all([
          sql`DELETE FROM sites_adaptive_schemas WHERE site_id = ${siteId}`,
          sql`DELETE FROM sites_sites WHERE id = ${siteId}`
        ], { discard: true }).pipe(Effect.orDie),
      adaptiveSchema: (siteId) =>
        sql<Row>`SELECT * FROM sites_adaptive_schemas WHERE site_id = ${siteId}`.pipe(Effect.orDie, Effect.flatMap(schemas.first)),
      putAdaptiveSchema: (schema) =>
        sql`
          INSERT INTO sites_adaptive_schemas (site_id, json_schema, updated_at)
          VALUES (${schema.siteId}, ${JSON.stringify(schema.jsonSchema)}::jsonb, ${schema.updatedAt})
          ON CONFLICT (site_id) DO UPDATE SET json_schema = excluded.json_schema, updated_at = excluded.updated_at`.pipe(
          Effect.orDie,
          Effect.asVoid
        ),
      customization: (siteId) =>
        sql<Row>`SELECT id, customization, customization_updated_at FROM sites_sites WHERE id = ${siteId}`.pipe(
          Effect.orDie,
          Effect.flatMap(customizations.first),
          Effect.flatMap(Option.match({
            onNone: () => Effect.succeed<SiteCustomizationRecord>({ settings: {}, updatedAt: null }),
            onSome: storedCustomization
          }))
        ),
      putCustomization: (siteId, customization) =>
        sql`
          UPDATE sites_sites SET customization = ${JSON.stringify(customization.settings)}::jsonb,
            customization_updated_at = ${customization.updatedAt}
          WHERE id = ${siteId}`.pipe(Effect.orDie, Effect.asVoid),
      visitorKey: (siteId) => keys(sql<Row>`SELECT visitor_key FROM sites_sites WHERE id = ${siteId}`),
      putVisitorKey: (siteId, key) =>
        sql`UPDATE sites_sites SET visitor_key = ${key} WHERE id = ${siteId}`.pipe(Effect.orDie, Effect.asVoid),
      sealVisitorKeys: (reseal) =>
        Effect.gen(function*() {
          const rows = yield* sql<{ readonly id: string; readonly visitor_key: string }>`
            SELECT id, visitor_key FROM sites_sites WHERE visitor_key IS NOT NULL FOR UPDATE`
          let sealed = 0
          for (const row of rows) {
            const next = reseal(row.visitor_key)
            if (Option.isNone(next)) continue
            yield* sql`UPDATE sites_sites SET visitor_key = ${next.value} WHERE id = ${row.id}`
            sealed++
          }
          return sealed
        }).pipe(sql.withTransaction, Effect.orDie),
      fallbackUrl: (siteId) => fallbacks(sql<Row>`SELECT visitor_fallback_url FROM sites_sites WHERE id = ${siteId}`),
      putFallbackUrl: (siteId, url) =>
        sql`UPDATE sites_sites SET visitor_fallback_url = ${url} WHERE id = ${siteId}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
