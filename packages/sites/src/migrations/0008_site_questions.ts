/** Questions asked on a site's Ask, grouped by key, and each asking with its answer and sources. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const m0008_site_questions = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE sites_questions (
      id text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C" NOT NULL,
      site_id text COLLATE "C" NOT NULL,
      key text NOT NULL,
      text text NOT NULL,
      created_at timestamptz NOT NULL,
      UNIQUE (site_id, key)
    )`
  yield* sql`
    CREATE TABLE sites_question_answers (
      id text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C" NOT NULL,
      site_id text COLLATE "C" NOT NULL,
      question_id text COLLATE "C" NOT NULL REFERENCES sites_questions (id) ON DELETE CASCADE,
      at timestamptz NOT NULL,
      raw text NOT NULL,
      text text NOT NULL,
      channel text COLLATE "C" NOT NULL,
      outcome text COLLATE "C" NOT NULL,
      language text,
      answer text NOT NULL,
      site_spaces jsonb NOT NULL,
      sources jsonb NOT NULL
    )`
  yield* sql`CREATE INDEX sites_question_answers_site_at ON sites_question_answers (site_id, at, id)`
  yield* sql`CREATE INDEX sites_question_answers_question ON sites_question_answers (question_id)`
  yield* sql`CREATE INDEX sites_question_answers_at ON sites_question_answers (at)`
})
