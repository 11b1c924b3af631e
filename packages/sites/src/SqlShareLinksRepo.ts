/** Postgres adapter of ShareLinksRepo: `sites_share_links`. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, Rows } from "@quire/kernel"
import type { ShareLink } from "./domain/ShareLink.ts"
import { shareLinkKey, ShareLinksRepo } from "./ShareLinksRepo.ts"
import { setList } from "./SqlRows.ts"

type Row = Record<string, unknown>

const links = Rows.decoder(
  "sites_share_links",
  Schema.Struct({
    id: Schema.String,
    site_id: Schema.String,
    name: Schema.String,
    active: Schema.Boolean,
    secret: Schema.String,
    sealed_secret: Schema.NullOr(Schema.String),
    created_at: Rows.Timestamp
  }),
  (row): ShareLink => ({ id: row.id, siteId: row.site_id, name: row.name, active: row.active, secret: row.secret, sealedSecret: row.sealed_secret, createdAt: row.created_at })
)

export const layer = Layer.effect(
  ShareLinksRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return ShareLinksRepo.of({
      insert: (l) =>
        sql`
          INSERT INTO sites_share_links (id, site_id, name, active, secret, sealed_secret, created_at)
          VALUES (${l.id}, ${l.siteId}, ${l.name}, ${l.active}, ${l.secret}, ${l.sealedSecret}, ${l.createdAt})`.pipe(Effect.orDie, Effect.asVoid),
      find: (id) => sql<Row>`SELECT * FROM sites_share_links WHERE id = ${id}`.pipe(Effect.orDie, Effect.flatMap(links.first)),
      findBySecret: (siteId, secret) =>
        sql<Row>`SELECT * FROM sites_share_links WHERE site_id = ${siteId} AND secret = ${secret}`.pipe(
          Effect.orDie,
          Effect.flatMap(links.first)
        ),
      list: (siteId, after, limit) => {
        const range = after === undefined ? sql`true` : sql`(created_at, id) > (${String(after[0])}::timestamptz, ${String(after[1])})`
        return sql<Row>`
          SELECT * FROM sites_share_links WHERE site_id = ${siteId} AND ${range}
          ORDER BY created_at, id LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(links.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, shareLinkKey))
        )
      },
      update: (id, patch) =>
        sql<Row>`UPDATE sites_share_links SET ${setList(sql, patch)} WHERE id = ${id} RETURNING *`.pipe(
          Effect.orDie,
          Effect.flatMap(links.first)
        ),
      remove: (id) => sql`DELETE FROM sites_share_links WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid),
      // The site's own links and its change requests' preview links (ShareLinks.previewKey).
      removeSite: (siteId) =>
        sql`DELETE FROM sites_share_links WHERE site_id = ${siteId} OR left(site_id, ${siteId.length + 9}) = ${`${siteId}~changes~`}`.pipe(Effect.orDie, Effect.asVoid),
      sealLegacy: (seal) =>
        Effect.gen(function*() {
          const legacy = yield* sql<{ readonly id: string; readonly secret: string }>`
            SELECT id, secret FROM sites_share_links WHERE sealed_secret IS NULL FOR UPDATE`
          for (const row of legacy) {
            const next = seal(row.secret)
            yield* sql`UPDATE sites_share_links SET secret = ${next.secret}, sealed_secret = ${next.sealedSecret} WHERE id = ${row.id}`
          }
          return legacy.length
        }).pipe(sql.withTransaction, Effect.orDie)
    })
  })
)
