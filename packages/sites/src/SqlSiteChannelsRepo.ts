/** Postgres adapter of SiteChannelsRepo: `sites_channels`. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import { channelRoles, channelTypes, type SiteChannel } from "./domain/StructureExtras.ts"
import { SiteChannelsRepo } from "./SiteChannelsRepo.ts"

type Row = Record<string, unknown>

const channels = Rows.decoder(
  "sites_channels",
  Schema.Struct({
    id: Schema.String,
    site_id: Schema.String,
    type: Schema.Literals(channelTypes),
    setup_settings: Rows.Json(Schema.Record(Schema.String, Schema.Array(Schema.String))),
    role: Schema.Literals(channelRoles),
    created_at: Rows.Timestamp,
    updated_at: Rows.Timestamp
  }),
  (row): SiteChannel => ({
    id: row.id,
    siteId: row.site_id,
    type: row.type,
    setupSettings: row.setup_settings,
    role: row.role,
    createdAt: row.created_at,
    updatedAt: row.updated_at
  })
)

const run = <A>(statement: Effect.Effect<ReadonlyArray<Row>, unknown>, decode: (rows: ReadonlyArray<unknown>) => Effect.Effect<A>) =>
  statement.pipe(Effect.orDie, Effect.flatMap(decode))

export const layer = Layer.effect(
  SiteChannelsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return SiteChannelsRepo.of({
      list: (siteId) => run(sql<Row>`SELECT * FROM sites_channels WHERE site_id = ${siteId} ORDER BY created_at, id`, channels.all),
      find: (siteId, id) => run(sql<Row>`SELECT * FROM sites_channels WHERE site_id = ${siteId} AND id = ${id}`, channels.first),
      insert: (c) =>
        sql`
          INSERT INTO sites_channels (id, site_id, type, setup_settings, role, created_at, updated_at)
          VALUES (${c.id}, ${c.siteId}, ${c.type}, ${JSON.stringify(c.setupSettings)}::jsonb, ${c.role}, ${c.createdAt}, ${c.updatedAt})`
          .pipe(Effect.orDie, Effect.asVoid),
      update: (siteId, id, patch) =>
        run(sql<Row>`
          UPDATE sites_channels SET
            type = COALESCE(${patch.type ?? null}, type),
            setup_settings = COALESCE(${patch.setupSettings === undefined ? null : JSON.stringify(patch.setupSettings)}::jsonb, setup_settings),
            role = COALESCE(${patch.role ?? null}, role),
            updated_at = COALESCE(${patch.updatedAt ?? null}, updated_at)
          WHERE site_id = ${siteId} AND id = ${id} RETURNING *`, channels.first),
      remove: (siteId, id) =>
        sql<Row>`DELETE FROM sites_channels WHERE site_id = ${siteId} AND id = ${id} RETURNING id`.pipe(Effect.orDie, Effect.map((rows) => rows.length > 0)),
      removeSite: (siteId) => sql`DELETE FROM sites_channels WHERE site_id = ${siteId}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
