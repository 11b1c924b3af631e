/** The content package's schema. Its migrations table is its own: `quire_content_migrations`. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { m0009_merge_rules } from "./0009_merge_rules.ts"
import { m0010_revision_parts } from "./0010_revision_parts.ts"
import { m0011_reusable_contents } from "./0011_reusable_contents.ts"
import { m0012_document_links } from "./0012_document_links.ts"
import { m0013_shared_tree_parts } from "./0013_shared_tree_parts.ts"
import { m0014_search_titles } from "./0014_search_titles.ts"
import { m0015_revision_part_lists } from "./0015_revision_part_lists.ts"
import { m0016_document_link_text } from "./0016_document_link_text.ts"
import { m0017_part_hashes_uncompressed } from "./0017_part_hashes_uncompressed.ts"
import { m0018_import_runs } from "./0018_import_runs.ts"
import { m0019_link_graphs } from "./0019_link_graphs.ts"
import { m0020_part_lists } from "./0020_part_lists.ts"
import { m0021_passage_vectors } from "./0021_passage_vectors.ts"

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

const m0003_search = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // One row per section of each page of each space's current revision (SqlSearchIndex.ts).
  // 'english' stems (install, installing, installed match each other) and drops stop words.
  yield* sql`
    CREATE TABLE content_search_sections (
      space_id text COLLATE "C" NOT NULL,
      page_id text COLLATE "C" NOT NULL,
      position integer NOT NULL,
      section_id text NOT NULL,
      page_title text NOT NULL,
      section_title text NOT NULL,
      path text NOT NULL,
      body text NOT NULL,
      tsv tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', page_title), 'A') ||
        setweight(to_tsvector('english', section_title), 'B') ||
        setweight(to_tsvector('english', body), 'C')
      ) STORED,
      -- The page title alone, on each page's first row: title matches are found however many bodies match.
      title_tsv tsvector GENERATED ALWAYS AS (
        CASE WHEN position = 0 THEN to_tsvector('english', page_title) END
      ) STORED,
      PRIMARY KEY (space_id, page_id, position)
    )`
  // fastupdate off: a pending list of recent inserts would be scanned linearly by every search.
  yield* sql`CREATE INDEX content_search_sections_tsv ON content_search_sections USING GIN (tsv) WITH (fastupdate = off)`
  yield* sql`
    CREATE INDEX content_search_sections_title ON content_search_sections USING GIN (title_tsv) WITH (fastupdate = off)
    WHERE position = 0`
})

/** The change-request and comment counters belong to the reviews package, which keeps them in its own table. */
const m0004_spaces_without_review_counters = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE content_spaces
      DROP COLUMN comments, DROP COLUMN change_requests, DROP COLUMN change_requests_open, DROP COLUMN change_requests_draft`
})

/**
 * Which documents each space's revisions point to, so that purging a space can delete the
 * documents no other space holds (documents are shared by hash, a duplicate shares them all).
 */
const m0005_space_documents = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE content_space_documents (
      space_id text COLLATE "C" NOT NULL,
      hash text COLLATE "C" NOT NULL,
      PRIMARY KEY (space_id, hash)
    )`
  yield* sql`CREATE INDEX content_space_documents_hash ON content_space_documents (hash)`
  yield* sql`
    INSERT INTO content_space_documents (space_id, hash)
    SELECT DISTINCT r.space_id, d #>> '{}'
    FROM content_revisions r, jsonb_path_query(r.pages, 'strict $.**.document') d
    ON CONFLICT DO NOTHING`
})

/** Bytes of files each organization has stored, for its storage quota (`StorageUsageRepo`). */
const m0006_organization_storage = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE content_organization_storage (
      organization_id text COLLATE "C" PRIMARY KEY,
      bytes bigint NOT NULL CHECK (bytes >= 0)
    )`
})

/**
 * Which blobs each space's revisions point to, and how many spaces of an organization hold each
 * blob: a blob counts once against its organization's quota while any space holds it, and a purge
 * gives back the bytes only the purged space held. The count is rebuilt from the revisions.
 */
const m0007_space_blobs = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE content_space_blobs (
      space_id text COLLATE "C" NOT NULL,
      organization_id text COLLATE "C" NOT NULL,
      blob text COLLATE "C" NOT NULL,
      size bigint NOT NULL,
      PRIMARY KEY (space_id, blob)
    )`
  yield* sql`
    CREATE TABLE content_organization_blobs (
      organization_id text COLLATE "C" NOT NULL,
      blob text COLLATE "C" NOT NULL,
      size bigint NOT NULL,
      spaces integer NOT NULL,
      PRIMARY KEY (organization_id, blob)
    )`
  yield* sql`
    INSERT INTO content_space_blobs (space_id, organization_id, blob, size)
    SELECT r.space_id, s.organization_id, f ->> 'blob', max((f ->> 'size')::bigint)
    FROM content_revisions r
    JOIN content_spaces s ON s.id = r.space_id
    CROSS JOIN jsonb_array_elements(r.files) f
    GROUP BY r.space_id, s.organization_id, f ->> 'blob'`
  yield* sql`
    INSERT INTO content_organization_blobs (organization_id, blob, size, spaces)
    SELECT organization_id, blob, max(size), count(*) FROM content_space_blobs GROUP BY organization_id, blob`
  yield* sql`DELETE FROM content_organization_storage`
  yield* sql`
    INSERT INTO content_organization_storage (organization_id, bytes)
    SELECT organization_id, sum(size) FROM content_organization_blobs GROUP BY organization_id`
})

/**
 * Explicit grants on spaces and collections (`PermissionsRepo`): a role for a user or a team of the
 * organization. Access takes the highest of a member's grants on the content and the collections
 * holding it, and the level they inherit.
 */
const m0008_permissions = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE content_permissions (
      organization_id text COLLATE "C" NOT NULL,
      target_kind text NOT NULL CHECK (target_kind IN ('space', 'collection')),
      target_id text COLLATE "C" NOT NULL,
      principal_kind text NOT NULL CHECK (principal_kind IN ('user', 'team')),
      principal_id text COLLATE "C" NOT NULL,
      role text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (target_kind, target_id, principal_kind, principal_id)
    )`
  // A member's (and their teams') grants, read once per request; a principal's removal.
  yield* sql`CREATE INDEX content_permissions_principal ON content_permissions (organization_id, principal_kind, principal_id)`
  // A target's grants in invitation order.
  yield* sql`
    CREATE INDEX content_permissions_listing ON content_permissions (target_kind, target_id, principal_kind, created_at, principal_id)`
})

export const migrations = {
  table: "quire_content_migrations",
  migrations: {
    "0001_revisions": m0001_revisions,
    "0002_spaces_collections": m0002_spaces_collections,
    "0003_search": m0003_search,
    "0004_spaces_without_review_counters": m0004_spaces_without_review_counters,
    "0005_space_documents": m0005_space_documents,
    "0006_organization_storage": m0006_organization_storage,
    "0007_space_blobs": m0007_space_blobs,
    "0008_permissions": m0008_permissions,
    "0009_merge_rules": m0009_merge_rules,
    "0010_revision_parts": m0010_revision_parts,
    "0011_reusable_contents": m0011_reusable_contents,
    "0012_document_links": m0012_document_links,
    "0013_shared_tree_parts": m0013_shared_tree_parts,
    "0014_search_titles": m0014_search_titles,
    "0015_revision_part_lists": m0015_revision_part_lists,
    "0016_document_link_text": m0016_document_link_text,
    "0017_part_hashes_uncompressed": m0017_part_hashes_uncompressed,
    "0018_import_runs": m0018_import_runs,
    "0019_link_graphs": m0019_link_graphs,
    "0020_part_lists": m0020_part_lists,
    "0021_passage_vectors": m0021_passage_vectors
  }
} as const
