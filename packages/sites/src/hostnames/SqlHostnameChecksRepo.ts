/** Postgres adapter of HostnameChecksRepo: `sites_hostname_checks`. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import { type HostnameCheck, HostnameChecksRepo } from "./HostnameChecksRepo.ts"

const CheckRow = Schema.Struct({
  hostname: Schema.String,
  site_id: Schema.String,
  status: Schema.Literals(["live", "dns_wrong_cname", "dns_no_cname", "internal_error"]),
  target: Schema.String,
  found: Rows.Json(Schema.Array(Schema.String)),
  checked_at: Rows.Timestamp
})

const checks = Rows.decoder("sites_hostname_checks", CheckRow, (row): HostnameCheck => ({
  hostname: row.hostname,
  siteId: row.site_id,
  status: row.status,
  target: row.target,
  found: row.found,
  checkedAt: row.checked_at
}))

export const layer = Layer.effect(
  HostnameChecksRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return HostnameChecksRepo.of({
      find: (hostname) => sql`SELECT * FROM sites_hostname_checks WHERE hostname = ${hostname}`.pipe(Effect.orDie, Effect.flatMap(checks.first)),
      put: (c) =>
        sql`
          INSERT INTO sites_hostname_checks (hostname, site_id, status, target, found, checked_at)
          VALUES (${c.hostname}, ${c.siteId}, ${c.status}, ${c.target}, ${JSON.stringify(c.found)}::jsonb, ${c.checkedAt})
          ON CONFLICT (hostname) DO UPDATE SET site_id = EXCLUDED.site_id, status = EXCLUDED.status, target = EXCLUDED.target,
            found = EXCLUDED.found, checked_at = EXCLUDED.checked_at`.pipe(Effect.orDie, Effect.asVoid),
      remove: (hostname) => sql`DELETE FROM sites_hostname_checks WHERE hostname = ${hostname}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
