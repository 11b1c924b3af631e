/** PostgreSQL adapter of IdempotencyRepo: one row per caller and key, claimed by one atomic upsert. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { type Claim, IdempotencyRepo } from "./IdempotencyRepo.ts"

const Row = Schema.Struct({
  fingerprint: Schema.String,
  status: Schema.NullOr(Schema.Number),
  content_type: Schema.NullOr(Schema.String),
  body: Schema.NullOr(Schema.String)
})
const decodeRow = Schema.decodeUnknownSync(Row)

export const layer = Layer.effect(
  IdempotencyRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const claimOnce = (caller: string, key: string, fingerprint: string, times: Parameters<IdempotencyRepo["Service"]["claim"]>[3]) =>
      Effect.gen(function*() {
        // Inserted, or taken over when the row has expired or was left running by a lost process.
        const started = yield* sql`
          INSERT INTO gateway_idempotency_keys AS k (caller, key, fingerprint, created_ms)
          VALUES (${caller}, ${key}, ${fingerprint}, ${times.now})
          ON CONFLICT (caller, key) DO UPDATE SET
            fingerprint = EXCLUDED.fingerprint, created_ms = EXCLUDED.created_ms,
            status = NULL, content_type = NULL, body = NULL
          WHERE k.created_ms < ${times.expiredBefore} OR (k.status IS NULL AND k.created_ms < ${times.staleBefore})
          RETURNING 1 AS started`
        if (started.length > 0) return { _tag: "Started" } as Claim
        const rows = yield* sql`
          SELECT fingerprint, status, content_type, body FROM gateway_idempotency_keys
          WHERE caller = ${caller} AND key = ${key}`
        if (rows.length === 0) return undefined
        const row = decodeRow(rows[0])
        if (row.fingerprint !== fingerprint) return { _tag: "Mismatch" } as Claim
        if (row.status === null) return { _tag: "InProgress" } as Claim
        return { _tag: "Replay", response: { status: row.status, contentType: row.content_type ?? "", body: row.body ?? "" } } as Claim
      })
    return IdempotencyRepo.of({
      claim: (caller, key, fingerprint, times) =>
        claimOnce(caller, key, fingerprint, times).pipe(
          // The row was abandoned between the two statements: claim again.
          Effect.flatMap((claim) => claim === undefined ? claimOnce(caller, key, fingerprint, times) : Effect.succeed(claim)),
          Effect.map((claim): Claim => claim ?? { _tag: "InProgress" }),
          Effect.orDie
        ),
      complete: (caller, key, fingerprint, response) =>
        sql`
          UPDATE gateway_idempotency_keys
          SET status = ${response.status}, content_type = ${response.contentType}, body = ${response.body}
          WHERE caller = ${caller} AND key = ${key} AND fingerprint = ${fingerprint} AND status IS NULL`.pipe(Effect.orDie, Effect.asVoid),
      abandon: (caller, key, fingerprint) =>
        sql`
          DELETE FROM gateway_idempotency_keys
          WHERE caller = ${caller} AND key = ${key} AND fingerprint = ${fingerprint} AND status IS NULL`.pipe(Effect.orDie, Effect.asVoid),
      purge: (expiredBefore) =>
        sql`DELETE FROM gateway_idempotency_keys WHERE created_ms < ${expiredBefore} RETURNING 1 AS removed`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        )
    })
  })
)
