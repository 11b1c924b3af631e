/** Postgres adapter of PassageVectors: `content_passage_vectors`, a `real[]` per model and passage hash. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import { PassageVectors } from "./PassageVectors.ts"

const VectorRow = Schema.Struct({ hash: Schema.String, vector: Schema.Array(Schema.Number) })
const vectorRows = Rows.decoder("content_passage_vectors", VectorRow)

/** Hashes per read, and vectors per write (a 1,536-number vector is about 10 KB of text). */
const chunk = 200

export const layer = Layer.effect(
  PassageVectors,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return PassageVectors.of({
      get: (model, hashes) =>
        Effect.gen(function*() {
          const found = new Map<string, ReadonlyArray<number>>()
          for (let at = 0; at < hashes.length; at += chunk) {
            const batch = hashes.slice(at, at + chunk)
            const rows = yield* sql`SELECT hash, vector FROM content_passage_vectors WHERE model = ${model} AND hash = ANY(${batch})`.pipe(Effect.flatMap(vectorRows.all))
            for (const row of rows) found.set(row.hash, row.vector)
          }
          return found
        }).pipe(Effect.orDie),
      put: (model, vectors) =>
        Effect.gen(function*() {
          for (let at = 0; at < vectors.length; at += chunk) {
            const batch = vectors.slice(at, at + chunk)
            yield* sql`
              INSERT INTO content_passage_vectors (model, hash, vector)
              SELECT ${model}, v.hash, string_to_array(v.vector, ',')::real[]
              FROM unnest(${batch.map((v) => v.hash)}::text[], ${batch.map((v) => v.vector.join(","))}::text[]) AS v(hash, vector)
              ON CONFLICT (model, hash) DO NOTHING`
          }
        }).pipe(Effect.orDie)
    })
  })
)
