/**
 * The vectors an embedding model gave passages of the documentation (ask/PassageVectors.ts), by
 * model and the SHA-256 of the passage's text: Ask ranks passages by them beside full-text search
 * when the AI endpoint has an embedding model (`QUIRE_AI_MODEL_EMBEDDINGS`).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0021_passage_vectors = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE content_passage_vectors (
      model text COLLATE "C" NOT NULL,
      hash text COLLATE "C" NOT NULL,
      vector real[] NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (model, hash)
    )`
})
