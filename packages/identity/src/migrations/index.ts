/** The identity package's schema. Its migrations table is its own: `quire_identity_migrations`. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

const m0001_identity = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE identity_users (
      id text COLLATE "C" PRIMARY KEY,
      email text NOT NULL UNIQUE,
      display_name text NOT NULL,
      photo_url text,
      instance_admin boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL
    )`
  yield* sql`
    CREATE TABLE identity_api_tokens (
      id text COLLATE "C" PRIMARY KEY,
      user_id text COLLATE "C" NOT NULL REFERENCES identity_users (id) ON DELETE CASCADE,
      label text,
      token_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL
    )`
  yield* sql`
    CREATE TABLE identity_organizations (
      id text COLLATE "C" PRIMARY KEY,
      title text NOT NULL,
      created_at timestamptz NOT NULL,
      email_domains jsonb NOT NULL DEFAULT '[]',
      hostname text,
      default_role text,
      default_content_site text,
      logo text,
      sso boolean NOT NULL DEFAULT false,
      ai boolean NOT NULL DEFAULT false,
      invite_links boolean NOT NULL DEFAULT false
    )`
  yield* sql`CREATE INDEX identity_organizations_email_domains ON identity_organizations USING gin (email_domains jsonb_path_ops)`
  yield* sql`
    CREATE TABLE identity_members (
      organization_id text COLLATE "C" NOT NULL REFERENCES identity_organizations (id) ON DELETE CASCADE,
      user_id text COLLATE "C" NOT NULL REFERENCES identity_users (id) ON DELETE CASCADE,
      role text,
      joined_at timestamptz NOT NULL,
      last_seen_at timestamptz,
      sso boolean NOT NULL DEFAULT false,
      disabled boolean NOT NULL DEFAULT false,
      PRIMARY KEY (organization_id, user_id)
    )`
  yield* sql`CREATE INDEX identity_members_user ON identity_members (user_id)`
  yield* sql`CREATE INDEX identity_members_joined ON identity_members (organization_id, joined_at, user_id)`
  yield* sql`CREATE INDEX identity_members_seen ON identity_members (organization_id, last_seen_at, user_id)`
  yield* sql`
    CREATE TABLE identity_teams (
      id text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C" NOT NULL REFERENCES identity_organizations (id) ON DELETE CASCADE,
      title text NOT NULL,
      created_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX identity_teams_organization ON identity_teams (organization_id, created_at, id)`
  yield* sql`
    CREATE TABLE identity_team_members (
      team_id text COLLATE "C" NOT NULL REFERENCES identity_teams (id) ON DELETE CASCADE,
      user_id text COLLATE "C" NOT NULL REFERENCES identity_users (id) ON DELETE CASCADE,
      role text NOT NULL,
      PRIMARY KEY (team_id, user_id)
    )`
  yield* sql`CREATE INDEX identity_team_members_user ON identity_team_members (user_id)`
  yield* sql`
    CREATE TABLE identity_link_invites (
      id text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C" NOT NULL REFERENCES identity_organizations (id) ON DELETE CASCADE,
      role text,
      created_at timestamptz NOT NULL
    )`
  yield* sql`
    CREATE TABLE identity_email_invites (
      organization_id text COLLATE "C" NOT NULL REFERENCES identity_organizations (id) ON DELETE CASCADE,
      email text NOT NULL,
      role text,
      sso boolean NOT NULL DEFAULT false,
      PRIMARY KEY (organization_id, email)
    )`
  yield* sql`CREATE INDEX identity_email_invites_email ON identity_email_invites (email)`
})

const m0002_saml_providers = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE identity_saml_providers (
      id text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C" NOT NULL REFERENCES identity_organizations (id) ON DELETE CASCADE,
      label text NOT NULL,
      entity_id text,
      sso_url text,
      certificate text,
      default_team_id text COLLATE "C" REFERENCES identity_teams (id) ON DELETE SET NULL,
      default_role text,
      created_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX identity_saml_providers_organization ON identity_saml_providers (organization_id, created_at, id)`
})

/** Emails are unique ignoring case, as the memory adapter and every lookup compare them. */
const m0003_users_email_ignoring_case = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE UNIQUE INDEX identity_users_email_lower ON identity_users (lower(email))`
  yield* sql`ALTER TABLE identity_users DROP CONSTRAINT identity_users_email_key`
})

const m0004_email_invites_created_at = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE identity_email_invites ADD COLUMN created_at timestamptz NOT NULL DEFAULT now()`
  yield* sql`CREATE INDEX identity_email_invites_created ON identity_email_invites (created_at)`
})

/**
 * Tokens can be listed (by owner), expire, record when they were last used, and know whether the
 * bootstrap issued them. Revoking deletes the row. Tokens the bootstrap issued before carry its label.
 */
const m0005_api_tokens_lifecycle = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE identity_api_tokens ADD COLUMN last_used_at timestamptz`
  yield* sql`ALTER TABLE identity_api_tokens ADD COLUMN expires_at timestamptz`
  yield* sql`ALTER TABLE identity_api_tokens ADD COLUMN bootstrap boolean NOT NULL DEFAULT false`
  yield* sql`UPDATE identity_api_tokens SET bootstrap = true WHERE label = 'bootstrap'`
  yield* sql`CREATE INDEX identity_api_tokens_user ON identity_api_tokens (user_id, created_at, id)`
})

/** SAML sign-in: ids consumed until they expire (assertions, one-time codes), and the SP signing key (one row). */
const m0006_saml_sign_in = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE identity_saml_consumed (id text COLLATE "C" PRIMARY KEY, expires_at timestamptz NOT NULL)`
  yield* sql`CREATE INDEX identity_saml_consumed_expiry ON identity_saml_consumed (expires_at)`
  yield* sql`CREATE TABLE identity_saml_sp_key (id int PRIMARY KEY CHECK (id = 1), private_key text NOT NULL)`
})

/** AuthnRequest ids sent, so that any replica can check a response's InResponseTo. */
const m0007_saml_requests = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE identity_saml_requests (id text COLLATE "C" PRIMARY KEY, expires_at timestamptz NOT NULL)`
  yield* sql`CREATE INDEX identity_saml_requests_expiry ON identity_saml_requests (expires_at)`
})

/** Invite links may expire (null: never). */
const m0008_link_invites_expiry = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE identity_link_invites ADD COLUMN expires_at timestamptz`
})

/**
 * Invitations are offers: each has an id its invited person accepts or declines by. API tokens
 * obtained through an organization's single sign-on carry that organization as their scope.
 */
const m0009_invites_and_token_scope = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE identity_email_invites ADD COLUMN id text COLLATE "C"`
  yield* sql`UPDATE identity_email_invites SET id = md5(organization_id || '/' || email || '/' || random()::text)`
  yield* sql`ALTER TABLE identity_email_invites ALTER COLUMN id SET NOT NULL`
  yield* sql`CREATE UNIQUE INDEX identity_email_invites_id ON identity_email_invites (id)`
  yield* sql`ALTER TABLE identity_api_tokens ADD COLUMN organization_id text COLLATE "C" REFERENCES identity_organizations (id) ON DELETE CASCADE`
})

/**
 * Password sign-in: argon2id hashes of people's passwords, stored sign-in sessions (a
 * browser's cookie carries a signed session id; a session ends when revoked or expired), and the
 * sign-in attempts counted per email and per address.
 */
const m0010_passwords_and_sessions = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE identity_passwords (
      user_id text COLLATE "C" PRIMARY KEY REFERENCES identity_users (id) ON DELETE CASCADE,
      hash text NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`
    CREATE TABLE identity_sessions (
      id text COLLATE "C" PRIMARY KEY,
      user_id text COLLATE "C" NOT NULL REFERENCES identity_users (id) ON DELETE CASCADE,
      organization_id text COLLATE "C" REFERENCES identity_organizations (id) ON DELETE CASCADE,
      method text NOT NULL,
      created_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      user_agent text,
      revoked_at timestamptz
    )`
  yield* sql`CREATE INDEX identity_sessions_user ON identity_sessions (user_id, created_at)`
  yield* sql`
    CREATE TABLE identity_sign_in_attempts (
      key text COLLATE "C" PRIMARY KEY,
      count integer NOT NULL,
      reset_at timestamptz NOT NULL
    )`
})

/**
 * OpenID Connect sign-in: an organization's OIDC providers (the client secret sealed,
 * never answered) and the sign-ins begun at them, each answered once by its callback.
 */
const m0011_oidc_providers = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE identity_oidc_providers (
      id text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C" NOT NULL REFERENCES identity_organizations (id) ON DELETE CASCADE,
      label text NOT NULL,
      discovery_url text NOT NULL,
      client_id text NOT NULL,
      client_secret text NOT NULL,
      scopes jsonb NOT NULL DEFAULT '[]',
      default_team_id text COLLATE "C" REFERENCES identity_teams (id) ON DELETE SET NULL,
      default_role text,
      created_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX identity_oidc_providers_organization ON identity_oidc_providers (organization_id, created_at, id)`
  yield* sql`
    CREATE TABLE identity_oidc_requests (
      state text COLLATE "C" PRIMARY KEY,
      organization_id text COLLATE "C" NOT NULL,
      provider_id text COLLATE "C" NOT NULL REFERENCES identity_oidc_providers (id) ON DELETE CASCADE,
      code_verifier text NOT NULL,
      nonce text NOT NULL,
      relay_state text NOT NULL,
      expires_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX identity_oidc_requests_expiry ON identity_oidc_requests (expires_at)`
})

/**
 * Bearer values are kept as hashes: a session's row is keyed by the SHA-256 (hex) of
 * the id its cookie carries, so the ids a dump holds sign nobody in; cookies issued before keep
 * working, since the cookie still carries the id that hashes to the row's. Invite links keep the
 * hash of their secret as `id` and the secret sealed under the instance secret in `sealed_id`
 * (GitBook's API lists the links with their secret): the migration cannot seal, having no
 * secret, so it leaves `sealed_id` null and the links as they were; the server's first start
 * seals and hashes them (`LinkInviteSecrets`).
 */
const m0012_hashed_bearer_values = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE identity_sessions SET id = encode(sha256(convert_to(id, 'UTF8')), 'hex')`
  yield* sql`ALTER TABLE identity_link_invites ADD COLUMN sealed_id text`
})

/**
 * API tokens created through a sign-in session (a browser's cookie, `quire login`) are marked, so
 * that a password change or signing out everywhere revokes them with the sessions.
 * Tokens created before were made by a person or a program holding a token, or by a browser whose
 * session is not recorded: they stay unmarked.
 */
const m0015_tokens_created_by_session = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE identity_api_tokens ADD COLUMN from_session boolean NOT NULL DEFAULT false`
})

/**
 * When a user proved their email (null: never, or not the email they have now), the
 * links that prove it (stored as hashes, expiring), and who created each organization (a
 * per-creator cap keeps one person from multiplying the per-organization storage quota;
 * organizations created before it have none).
 */
const m0013_email_verification = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE identity_users ADD COLUMN email_verified_at timestamptz`
  yield* sql`
    CREATE TABLE identity_email_verifications (
      token_hash text COLLATE "C" PRIMARY KEY,
      user_id text COLLATE "C" NOT NULL REFERENCES identity_users (id) ON DELETE CASCADE,
      email text NOT NULL,
      expires_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX identity_email_verifications_user ON identity_email_verifications (user_id)`
  yield* sql`ALTER TABLE identity_organizations ADD COLUMN created_by text COLLATE "C"`
  yield* sql`CREATE INDEX identity_organizations_created_by ON identity_organizations (created_by)`
})

/**
 * Single sign-on keeps nothing a dump could use: a pending OIDC sign-in is found by the
 * hash of its state and keeps its PKCE verifier sealed under the instance secret. Those pending now
 * (ten minutes' worth) are dropped: their people start again. The SAML SP key is sealed too, but
 * the migration has no secret to seal it with: the server's first start seals it (`SamlSpKey`).
 */
const m0016_sealed_sso_keys = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DELETE FROM identity_oidc_requests`
  yield* sql`ALTER TABLE identity_oidc_requests RENAME COLUMN state TO state_hash`
  yield* sql`ALTER TABLE identity_oidc_requests RENAME COLUMN code_verifier TO sealed_code_verifier`
})

/**
 * An email invitation's id is a bearer value too (`<organizationId>.<inviteId>` signs
 * its invited email up): its row keeps the hash of the id as `id` and the id sealed under the
 * instance secret in `sealed_id` (GitBook's API lists invitations with their id). As for the invite
 * links, the migration has no secret to seal with: it leaves `sealed_id` null, and the server's
 * first start seals and hashes those invitations (`Organizations`' email invitations).
 */
const m0017_hashed_email_invites = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE identity_email_invites ADD COLUMN sealed_id text`
})

/**
 * Which kinds of notification each person turned off for email: one row per person who chose
 * (none: every kind reaches them), the kinds joined by commas.
 */
const m0018_notification_settings = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE identity_notification_settings (
      user_id text COLLATE "C" PRIMARY KEY REFERENCES identity_users (id) ON DELETE CASCADE,
      email_off text NOT NULL
    )`
})

/** The merge rules an organization's spaces inherit (GitBook's MergeRulesStandaloneConfiguration); none until an admin sets them. */
const m0019_organization_merge_rules = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE identity_organizations ADD COLUMN merge_rules jsonb NOT NULL DEFAULT '{"type":"none"}'`
})

/**
 * The instructions an organization gives its agents (GitBook's `OrganizationAgentInstructions`): a
 * row once an admin sets them, none before (read as an empty document).
 */
const m0020_agent_instructions = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE identity_agent_instructions (
      organization_id text COLLATE "C" PRIMARY KEY REFERENCES identity_organizations (id) ON DELETE CASCADE,
      instructions jsonb NOT NULL,
      updated_at timestamptz NOT NULL,
      updated_by text COLLATE "C" NOT NULL
    )`
})

export const migrations = {
  table: "quire_identity_migrations",
  migrations: {
    "0001_identity": m0001_identity,
    "0002_saml_providers": m0002_saml_providers,
    "0003_users_email_ignoring_case": m0003_users_email_ignoring_case,
    "0004_email_invites_created_at": m0004_email_invites_created_at,
    "0005_api_tokens_lifecycle": m0005_api_tokens_lifecycle,
    "0006_saml_sign_in": m0006_saml_sign_in,
    "0007_saml_requests": m0007_saml_requests,
    "0008_link_invites_expiry": m0008_link_invites_expiry,
    "0009_invites_and_token_scope": m0009_invites_and_token_scope,
    "0010_passwords_and_sessions": m0010_passwords_and_sessions,
    "0011_oidc_providers": m0011_oidc_providers,
    "0012_hashed_bearer_values": m0012_hashed_bearer_values,
    "0013_email_verification": m0013_email_verification,
    "0015_tokens_created_by_session": m0015_tokens_created_by_session,
    "0016_sealed_sso_keys": m0016_sealed_sso_keys,
    "0017_hashed_email_invites": m0017_hashed_email_invites,
    "0018_notification_settings": m0018_notification_settings,
    "0019_organization_merge_rules": m0019_organization_merge_rules,
    "0020_agent_instructions": m0020_agent_instructions
  }
} as const
