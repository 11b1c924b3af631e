/** Postgres adapter of StorageUsageRepo: one row per organization in `content_organization_storage`. */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import { StorageUsageRepo } from "./StorageUsageRepo.ts"

const UsageRow = Schema.Struct({ bytes: Schema.Number })
const usage = Rows.decoder("content_organization_storage", UsageRow)

export const layer = Layer.effect(
  StorageUsageRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return StorageUsageRepo.of({
      // One statement: the row is created or incremented only when the new total is within the limit.
      reserve: (organizationId, bytes, limit) =>
        sql`
          INSERT INTO content_organization_storage AS s (organization_id, bytes)
          SELECT ${organizationId}, ${bytes} WHERE ${bytes}::bigint <= ${limit}::bigint
          ON CONFLICT (organization_id) DO UPDATE SET bytes = s.bytes + EXCLUDED.bytes
            WHERE s.bytes + EXCLUDED.bytes <= ${limit}::bigint
          RETURNING bytes`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
      release: (organizationId, bytes) =>
        sql`
          UPDATE content_organization_storage SET bytes = greatest(bytes - ${bytes}::bigint, 0)
          WHERE organization_id = ${organizationId}`.pipe(Effect.asVoid, Effect.orDie),
      used: (organizationId) =>
        sql`SELECT bytes::float8 AS bytes FROM content_organization_storage WHERE organization_id = ${organizationId}`.pipe(
          Effect.flatMap(usage.first),
          Effect.map((row) => Option.match(row, { onNone: () => 0, onSome: (r) => r.bytes })),
          Effect.orDie
        )
    })
  })
)
