/**
 * Postgres adapter of StorageUsageRepo: which blobs each space holds (`content_space_blobs`), how
 * many spaces of an organization hold each blob (`content_organization_blobs`), and the bytes each
 * organization stores (`content_organization_storage`).
 */
import { Data, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import { type HeldBlob, StorageUsageRepo } from "./StorageUsageRepo.ts"

const UsageRow = Schema.Struct({ bytes: Schema.Number })
const usage = Rows.decoder("content_organization_storage", UsageRow)
const CountedRow = Schema.Struct({ blob: Schema.String, size: Schema.Number, first: Schema.Boolean })
const counted = Rows.decoder("content_organization_blobs", CountedRow)
const ReleasedRow = Schema.Struct({ organization_id: Schema.String, blob: Schema.String, spaces: Schema.Number })
const released = Rows.decoder("content_organization_blobs", ReleasedRow)
const HeldRow = Schema.Struct({ blob: Schema.String, size: Schema.Number })
const heldRows = Rows.decoder("content_space_blobs", HeldRow)

/** The hold would pass the limit: its savepoint rolls back. */
class OverLimit extends Data.TaggedError("OverLimit") {}

export const layer = Layer.effect(
  StorageUsageRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // The organization's row of a blob is created or counted up under its row lock, so two spaces
    // holding a new blob at once count its bytes once; the total is one conditional upsert.
    const hold = (organizationId: string, spaceId: string, blobs: ReadonlyArray<HeldBlob>, limit: number) =>
      blobs.length === 0 ? Effect.succeed(true) : Effect.gen(function*() {
        const rows = yield* sql`
          WITH held AS (
            INSERT INTO content_space_blobs (space_id, organization_id, blob, size)
            SELECT ${spaceId}, ${organizationId}, g.blob, g.size
            FROM unnest(${blobs.map((b) => b.blob)}::text[], ${blobs.map((b) => b.size)}::bigint[]) AS g(blob, size)
            ON CONFLICT DO NOTHING
            RETURNING blob, size)
          INSERT INTO content_organization_blobs AS o (organization_id, blob, size, spaces)
          SELECT ${organizationId}, blob, size, 1 FROM held
          ON CONFLICT (organization_id, blob) DO UPDATE SET spaces = o.spaces + 1
          RETURNING o.blob, o.size::float8 AS size, o.spaces = 1 AS first`.pipe(Effect.flatMap(counted.all))
        const grown = rows.reduce((sum, row) => (row.first ? sum + row.size : sum), 0)
        if (grown === 0) return true
        const within = yield* sql`
          INSERT INTO content_organization_storage AS s (organization_id, bytes)
          SELECT ${organizationId}, ${grown} WHERE ${grown}::bigint <= ${limit}::bigint
          ON CONFLICT (organization_id) DO UPDATE SET bytes = s.bytes + EXCLUDED.bytes
            WHERE s.bytes + EXCLUDED.bytes <= ${limit}::bigint
          RETURNING bytes`
        if (within.length === 0) return yield* new OverLimit()
        return true
      }).pipe(
        sql.withTransaction,
        Effect.catchTag("OverLimit", () => Effect.succeed(false)),
        Effect.orDie
      )
    const releaseSpace = (spaceId: string) =>
      Effect.gen(function*() {
        const rows = yield* sql`
          WITH released AS (DELETE FROM content_space_blobs WHERE space_id = ${spaceId} RETURNING organization_id, blob)
          UPDATE content_organization_blobs o SET spaces = o.spaces - 1
          FROM released r WHERE o.organization_id = r.organization_id AND o.blob = r.blob
          RETURNING o.organization_id, o.blob, o.spaces`.pipe(Effect.flatMap(released.all))
        const gone = rows.filter((row) => row.spaces <= 0)
        if (gone.length === 0) return
        yield* sql`
          WITH gone AS (
            DELETE FROM content_organization_blobs o
            USING unnest(${gone.map((row) => row.organization_id)}::text[], ${gone.map((row) => row.blob)}::text[]) AS z(organization_id, blob)
            WHERE o.organization_id = z.organization_id AND o.blob = z.blob AND o.spaces <= 0
            RETURNING o.organization_id, o.size)
          UPDATE content_organization_storage s SET bytes = greatest(s.bytes - g.total, 0)
          FROM (SELECT organization_id, sum(size) AS total FROM gone GROUP BY organization_id) g
          WHERE s.organization_id = g.organization_id`
      }).pipe(sql.withTransaction, Effect.orDie)
    return StorageUsageRepo.of({
      hold,
      releaseSpace,
      moveSpace: (spaceId, organizationId) =>
        Effect.gen(function*() {
          const blobs = yield* sql`
            SELECT blob, size::float8 AS size FROM content_space_blobs
            WHERE space_id = ${spaceId} AND organization_id <> ${organizationId}
            FOR UPDATE`.pipe(Effect.flatMap(heldRows.all))
          if (blobs.length === 0) return
          yield* releaseSpace(spaceId)
          yield* hold(organizationId, spaceId, blobs, Number.MAX_SAFE_INTEGER)
        }).pipe(sql.withTransaction, Effect.orDie),
      used: (organizationId) =>
        sql`SELECT bytes::float8 AS bytes FROM content_organization_storage WHERE organization_id = ${organizationId}`.pipe(
          Effect.flatMap(usage.first),
          Effect.map((row) => Option.match(row, { onNone: () => 0, onSome: (r) => r.bytes })),
          Effect.orDie
        )
    })
  })
)
