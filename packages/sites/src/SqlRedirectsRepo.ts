/** Postgres adapter of RedirectsRepo: `sites_redirects`. */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { Pagination, Rows } from "@quire/kernel"
import { RedirectDestination, RedirectTaken, type SiteRedirect } from "./domain/Redirect.ts"
import { redirectKey, RedirectsRepo } from "./RedirectsRepo.ts"

type Row = Record<string, unknown>

const redirects = Rows.decoder(
  "sites_redirects",
  Schema.Struct({
    id: Schema.String,
    site_id: Schema.String,
    source: Schema.String,
    draft: Schema.Boolean,
    capture_wildcard: Schema.Boolean,
    permanent: Schema.Boolean,
    destination: Rows.Json(RedirectDestination),
    created_at: Rows.Timestamp,
    updated_at: Rows.TimestampOrNull
  }),
  (row): SiteRedirect => ({
    id: row.id,
    siteId: row.site_id,
    source: row.source,
    draft: row.draft,
    captureWildcard: row.capture_wildcard,
    permanent: row.permanent,
    destination: row.destination,
    createdAt: row.created_at,
    updatedAt: row.updated_at
  })
)

/** A unique violation (a writer of the same source at once, past the check) is RedirectTaken too; other SQL errors are defects. */
const sourceRace = (r: Pick<SiteRedirect, "source" | "draft">) => <A>(self: Effect.Effect<A, SqlError.SqlError>) =>
  Effect.catch(self, (e) =>
    e.cause._tag === "UniqueViolation" ? Effect.fail(new RedirectTaken({ source: r.source, draft: r.draft })) : Effect.die(e))

const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

export const layer = Layer.effect(
  RedirectsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const find = (id: string) => sql<Row>`SELECT * FROM sites_redirects WHERE id = ${id}`.pipe(Effect.orDie, Effect.flatMap(redirects.first))
    /** Whether another redirect than `id` holds the slot. */
    const taken = (r: Pick<SiteRedirect, "id" | "siteId" | "source" | "draft">) =>
      sql<Row>`
        SELECT id FROM sites_redirects
        WHERE site_id = ${r.siteId} AND draft = ${r.draft} AND source = ${r.source} AND id <> ${r.id}`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.length > 0)
      )
    return RedirectsRepo.of({
      insert: (r) =>
        sql<Row>`
          INSERT INTO sites_redirects (id, site_id, source, draft, capture_wildcard, permanent, destination, created_at, updated_at)
          VALUES (${r.id}, ${r.siteId}, ${r.source}, ${r.draft}, ${r.captureWildcard}, ${r.permanent},
            ${JSON.stringify(r.destination)}::jsonb, ${r.createdAt}, ${r.updatedAt})
          ON CONFLICT (site_id, draft, source) DO NOTHING
          RETURNING id`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) => rows.length === 0 ? Effect.fail(new RedirectTaken({ source: r.source, draft: r.draft })) : Effect.void)
        ),
      find,
      findBySource: (siteId, source, draft) =>
        sql<Row>`SELECT * FROM sites_redirects WHERE site_id = ${siteId} AND draft = ${draft} AND source = ${source}`.pipe(
          Effect.orDie,
          Effect.flatMap(redirects.first)
        ),
      list: (siteId, filter, after, limit) => {
        const desc = filter.orderBy !== "source"
        const key = filter.orderBy === "source" ? sql`source` : filter.orderBy === "updatedAt" ? sql`COALESCE(updated_at, created_at)` : sql`created_at`
        const range = after === undefined
          ? sql`true`
          : filter.orderBy === "source"
          ? sql`(source, id) > (${String(after[0])}, ${String(after[1])})`
          : sql`(${key}, id) < (${String(after[0])}::timestamptz, ${String(after[1])})`
        const search = filter.search === undefined || filter.search === ""
          ? sql`true`
          : sql`source ILIKE ${`%${likeEscaped(filter.search)}%`}`
        return sql<Row>`
          SELECT * FROM sites_redirects
          WHERE site_id = ${siteId} AND draft = ${filter.draft} AND ${search} AND ${range}
          ORDER BY ${key} ${desc ? sql`DESC` : sql`ASC`}, id ${desc ? sql`DESC` : sql`ASC`}
          LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(redirects.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, redirectKey(filter.orderBy)))
        )
      },
      candidates: (siteId, path) => {
        const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path
        return sql<Row>`
          SELECT * FROM sites_redirects
          WHERE site_id = ${siteId} AND NOT draft
            AND (source IN (${path}, ${trimmed}) OR (right(source, 1) = '*' AND starts_with(${path}, left(source, -1))))
          ORDER BY id`.pipe(Effect.orDie, Effect.flatMap(redirects.all))
      },
      update: (id, patch) =>
        Effect.gen(function*() {
          const found = yield* find(id)
          if (Option.isNone(found)) return Option.none()
          const next: SiteRedirect = { ...found.value, ...patch }
          if (yield* taken(next)) return yield* new RedirectTaken({ source: next.source, draft: next.draft })
          yield* sql`
            UPDATE sites_redirects SET source = ${next.source}, draft = ${next.draft}, capture_wildcard = ${next.captureWildcard},
              permanent = ${next.permanent}, destination = ${JSON.stringify(next.destination)}::jsonb, updated_at = ${next.updatedAt}
            WHERE id = ${id}`.pipe(sourceRace(next))
          return Option.some(next)
        }),
      remove: (id) => sql`DELETE FROM sites_redirects WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid),
      removeSite: (siteId) => sql`DELETE FROM sites_redirects WHERE site_id = ${siteId}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
