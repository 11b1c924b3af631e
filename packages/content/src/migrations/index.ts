/** The content package's schema. Its migrations table is its own: `quire_content_migrations`. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

const m0001_revisions = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE content_documents (
      hash text COLLATE "C" PRIMARY KEY,
      markdown text NOT NULL
    )`
  yield* sql`
    CREATE TABLE content_revisions (
      id text COLLATE "C" PRIMARY KEY,
      space_id text COLLATE "C" NOT NULL,
      parents jsonb NOT NULL,
      type text NOT NULL,
      pages jsonb NOT NULL,
      files jsonb NOT NULL,
      variables jsonb NOT NULL,
      git jsonb,
      created_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX content_revisions_space ON content_revisions (space_id, created_at)`
})

const m0002_spaces_collections = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // default_level: a role, 'inherit', or NULL (no access). position: order among siblings.
  yield* sql`
    CREATE TABLE content_spaces (
      id text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C" NOT NULL,
      parent_id text COLLATE "C",
      title text NOT NULL,
      emoji text NOT NULL,
      visibility text NOT NULL,
      edit_mode text NOT NULL,
      default_level text,
      language text,
      position double precision NOT NULL,
      revision_id text COLLATE "C" NOT NULL,
      share_key text COLLATE "C" NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      deleted_at timestamptz,
      comments integer NOT NULL DEFAULT 0,
      change_requests integer NOT NULL DEFAULT 0,
      change_requests_open integer NOT NULL DEFAULT 0,
      change_requests_draft integer NOT NULL DEFAULT 0
    )`
  // Keyset listings: all live spaces of an organization, and the spaces of one parent (NULL: the root).
  yield* sql`
    CREATE INDEX content_spaces_organization ON content_spaces (organization_id, position, created_at, id)
    WHERE deleted_at IS NULL`
  yield* sql`CREATE INDEX content_spaces_parent ON content_spaces (organization_id, parent_id, position, created_at, id)`
  yield* sql`CREATE INDEX content_spaces_deleted ON content_spaces (deleted_at, id) WHERE deleted_at IS NOT NULL`
  yield* sql`
    CREATE TABLE content_collections (
      id text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C" NOT NULL,
      parent_id text COLLATE "C",
      title text NOT NULL,
      description text,
      default_level text,
      position double precision NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX content_collections_organization ON content_collections (organization_id, position, created_at, id)`
  yield* sql`
    CREATE INDEX content_collections_parent ON content_collections (organization_id, parent_id, position, created_at, id)`
})

export const migrations = {
  table: "quire_content_migrations",
  migrations: {
    "0001_revisions": m0001_revisions,
    "0002_spaces_collections": m0002_spaces_collections
  }
} as const
