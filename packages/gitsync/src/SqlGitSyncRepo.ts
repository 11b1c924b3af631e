/** Postgres adapter of GitSyncRepo: `gitsync_spaces`, `gitsync_webhook_deliveries` and `gitsync_instance_key`. */
import { Array as Arr, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import { type SyncRun, SyncStatus } from "./domain/GitSyncInfo.ts"
import { GitSyncRepo, type SyncRecord } from "./GitSyncRepo.ts"

type Row = Record<string, unknown>

/** A run as its jsonb column holds it (the instant as ISO text). */
const RunJson = Schema.Struct({ status: SyncStatus, commit: Schema.NullOr(Schema.String), at: Schema.String, error: Schema.NullOr(Schema.String) })
const runOf = (json: typeof RunJson.Type | null): SyncRun | null => json === null ? null : { ...json, at: new Date(json.at) }

const records = Rows.decoder(
  "gitsync_spaces",
  Schema.Struct({
    space_id: Schema.String,
    url: Schema.String,
    url_sealed: Schema.String,
    ref: Schema.String,
    project_directory: Schema.String,
    connected: Schema.Boolean,
    actor_id: Schema.NullOr(Schema.String),
    webhook_secret: Schema.NullOr(Schema.String),
    last_import: Schema.NullOr(Rows.Json(RunJson)),
    last_export: Schema.NullOr(Rows.Json(RunJson)),
    last_event_at: Rows.TimestampOrNull,
    exported_commit: Schema.NullOr(Schema.String),
    updated_at: Rows.Timestamp
  }),
  (row): SyncRecord => ({
    spaceId: row.space_id,
    url: row.url,
    urlSealed: row.url_sealed,
    ref: row.ref,
    projectDirectory: row.project_directory,
    connected: row.connected,
    actorId: row.actor_id,
    webhookSecret: row.webhook_secret,
    lastImport: runOf(row.last_import),
    lastExport: runOf(row.last_export),
    lastEventAt: row.last_event_at,
    exportedCommit: row.exported_commit,
    updatedAt: row.updated_at
  })
)

const json = (run: SyncRun | null) => run === null ? null : JSON.stringify({ ...run, at: run.at.toISOString() })

export const layer = Layer.effect(
  GitSyncRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return GitSyncRepo.of({
      find: (spaceId) => sql<Row>`SELECT * FROM gitsync_spaces WHERE space_id = ${spaceId}`.pipe(Effect.orDie, Effect.flatMap(records.first)),
      save: (r) =>
        sql`
          INSERT INTO gitsync_spaces (space_id, url, url_sealed, ref, project_directory, connected, actor_id, webhook_secret,
            last_import, last_export, last_event_at, exported_commit, updated_at)
          VALUES (${r.spaceId}, ${r.url}, ${r.urlSealed}, ${r.ref}, ${r.projectDirectory}, ${r.connected}, ${r.actorId}, ${r.webhookSecret},
            ${json(r.lastImport)}::jsonb, ${json(r.lastExport)}::jsonb, ${r.lastEventAt}, ${r.exportedCommit}, ${r.updatedAt})
          ON CONFLICT (space_id) DO UPDATE SET
            url = excluded.url, url_sealed = excluded.url_sealed, ref = excluded.ref, project_directory = excluded.project_directory,
            connected = excluded.connected, actor_id = excluded.actor_id, webhook_secret = excluded.webhook_secret,
            last_import = excluded.last_import, last_export = excluded.last_export, last_event_at = excluded.last_event_at,
            exported_commit = excluded.exported_commit, updated_at = excluded.updated_at`.pipe(Effect.orDie, Effect.asVoid),
      updateRun: (spaceId, u) => {
        const run = json(u.run)
        const column = u.kind === "import" ? sql`last_import = ${run}::jsonb` : sql`last_export = ${run}::jsonb`
        const eventAt = u.eventAt === undefined
          ? sql``
          : sql`, last_event_at = GREATEST(COALESCE(last_event_at, ${u.eventAt}::timestamptz), ${u.eventAt}::timestamptz)`
        const exported = u.exportedCommit === undefined ? sql`` : sql`, exported_commit = ${u.exportedCommit}`
        return sql`UPDATE gitsync_spaces SET ${column}, updated_at = ${u.run.at}${eventAt}${exported} WHERE space_id = ${spaceId}`.pipe(
          Effect.orDie,
          Effect.asVoid
        )
      },
      remove: (spaceId) =>
        Effect.all([
          sql`DELETE FROM gitsync_spaces WHERE space_id = ${spaceId}`,
          sql`DELETE FROM gitsync_webhook_deliveries WHERE space_id = ${spaceId}`
        ]).pipe(Effect.orDie, Effect.asVoid),
      recordDelivery: (spaceId, keys, at, keepSince) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM gitsync_webhook_deliveries WHERE received_at < ${keepSince}`
          const rows = keys.map((key) => ({ space_id: spaceId, key, received_at: at }))
          if (!Arr.isArrayNonEmpty(rows)) return true
          const inserted = yield* sql`INSERT INTO gitsync_webhook_deliveries ${sql.insert(rows)} ON CONFLICT DO NOTHING RETURNING key`
          return inserted.length === keys.length
        }).pipe(Effect.orDie),
      instanceKey: (candidate) =>
        Effect.gen(function*() {
          yield* sql`INSERT INTO gitsync_instance_key (id, key) VALUES (1, ${candidate}) ON CONFLICT (id) DO NOTHING`
          const rows = yield* sql<{ readonly key: string }>`SELECT key FROM gitsync_instance_key WHERE id = 1`
          const stored = rows[0]?.key
          if (stored === undefined) return yield* Effect.die(new Error("gitsync_instance_key holds no key"))
          return stored
        }).pipe(Effect.orDie),
      legacyKey: sql<{ readonly key: string }>`SELECT key FROM gitsync_instance_key WHERE id = 1`.pipe(
        Effect.map((rows) => Option.fromNullishOr(rows[0]?.key)),
        Effect.orDie
      ),
      resealAll: (legacy, reseal) =>
        Effect.gen(function*() {
          // The key's row, locked: a second process re-sealing at the same time waits, then finds it gone.
          const locked = yield* sql<{ readonly key: string }>`SELECT key FROM gitsync_instance_key WHERE id = 1 FOR UPDATE`
          if (locked[0]?.key !== legacy) return 0
          const rows = yield* sql<{ readonly space_id: string; readonly url_sealed: string; readonly webhook_secret: string | null }>`
            SELECT space_id, url_sealed, webhook_secret FROM gitsync_spaces`
          let changed = 0
          for (const row of rows) {
            const url = reseal(row.url_sealed)
            const webhook = row.webhook_secret === null ? Option.none<string>() : reseal(row.webhook_secret)
            if (Option.isNone(url) && Option.isNone(webhook)) continue
            yield* sql`
              UPDATE gitsync_spaces SET url_sealed = ${Option.getOrElse(url, () => row.url_sealed)},
                webhook_secret = ${Option.getOrElse(webhook, () => row.webhook_secret)}
              WHERE space_id = ${row.space_id}`
            changed++
          }
          yield* sql`DELETE FROM gitsync_instance_key WHERE id = 1`
          return changed
        }).pipe(sql.withTransaction, Effect.orDie)
    })
  })
)
