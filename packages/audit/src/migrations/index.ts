/** The audit package's schema. Its migrations table is its own: `quire_audit_migrations`. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * One row per event, never updated: a trigger refuses any UPDATE, so an entry stays as it was
 * recorded whatever code runs. Rows leave only by age (the retention purge). No foreign keys: an
 * event outlives the user, token or organization it names.
 */
const m0001_audit_events = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE audit_events (
      id text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C",
      occurred_at timestamptz NOT NULL,
      action text NOT NULL,
      actor_type text NOT NULL,
      actor_id text NOT NULL,
      actor_label text,
      source text NOT NULL,
      target_type text NOT NULL,
      target_id text NOT NULL,
      target_label text,
      address text,
      user_agent text,
      payload jsonb NOT NULL DEFAULT '{}'
    )`
  yield* sql`CREATE INDEX audit_events_organization ON audit_events (organization_id, occurred_at DESC, id DESC)`
  yield* sql`CREATE INDEX audit_events_occurred ON audit_events (occurred_at DESC, id DESC)`
  yield* sql`
    CREATE FUNCTION audit_events_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit events are never edited';
    END
    $$`
  yield* sql`
    CREATE TRIGGER audit_events_append_only BEFORE UPDATE ON audit_events
    FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_update()`
})

/**
 * Nor deleted, except by the two operations that remove events on purpose: the retention purge
 * and the restore of a whole instance (`quire db restore --force`). Each says so for its own
 * transaction (`set_config('quire.audit_removal', ..., true)`); any other DELETE or TRUNCATE fails.
 */
const m0002_audit_events_no_delete = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE FUNCTION audit_events_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF coalesce(current_setting('quire.audit_removal', true), '') IN ('retention', 'restore') THEN
        RETURN CASE WHEN TG_LEVEL = 'ROW' THEN OLD ELSE NULL END;
      END IF;
      RAISE EXCEPTION 'audit events are never deleted (only the retention purge removes old ones)';
    END
    $$`
  yield* sql`
    CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
    FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_delete()`
  yield* sql`
    CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
    FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_delete()`
})

export const migrations = {
  table: "quire_audit_migrations",
  migrations: {
    "0001_audit_events": m0001_audit_events,
    "0002_audit_events_no_delete": m0002_audit_events_no_delete
  }
} as const
