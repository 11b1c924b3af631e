/**
 * The rows identity's SQL adapters read, as schemas, and their decoders to domain records: the
 * user and organization columns that several queries select under prefixed names.
 */
import { Schema } from "effect"
import { MergeRules, Roles, Rows } from "@quire/kernel"
import type { Organization, User } from "./domain/Identity.ts"

/** `identity_users` selected as `u`, each column prefixed with `user_`. */
export const userColumns = `u.id AS user_id, u.email AS user_email, u.display_name AS user_display_name,
  u.photo_url AS user_photo_url, u.instance_admin AS user_instance_admin, u.created_at AS user_created_at`

export const UserFields = {
  user_id: Schema.String,
  user_email: Schema.String,
  user_display_name: Schema.String,
  user_photo_url: Schema.NullOr(Schema.String),
  user_instance_admin: Schema.Boolean,
  user_created_at: Rows.Timestamp
}
export const UserRow = Schema.Struct(UserFields)

export const userOf = (row: Schema.Struct.Type<typeof UserFields>): User => ({
  id: row.user_id,
  email: row.user_email,
  displayName: row.user_display_name,
  photoURL: row.user_photo_url,
  instanceAdmin: row.user_instance_admin,
  createdAt: row.user_created_at
})

/** `identity_organizations` selected as `o`, each column prefixed with `org_`. */
export const organizationColumns = `o.id AS org_id, o.title AS org_title, o.created_at AS org_created_at,
  o.email_domains AS org_email_domains, o.hostname AS org_hostname, o.default_role AS org_default_role,
  o.default_content_site AS org_default_content_site, o.logo AS org_logo, o.sso AS org_sso, o.ai AS org_ai,
  o.invite_links AS org_invite_links, o.merge_rules AS org_merge_rules`

export const OrganizationFields = {
  org_id: Schema.String,
  org_title: Schema.String,
  org_created_at: Rows.Timestamp,
  org_email_domains: Rows.Json(Schema.Array(Schema.String)),
  org_hostname: Schema.NullOr(Schema.String),
  org_default_role: Roles.MemberRoleOrGuest,
  org_default_content_site: Schema.NullOr(Schema.String),
  org_logo: Schema.NullOr(Schema.String),
  org_sso: Schema.Boolean,
  org_ai: Schema.Boolean,
  org_invite_links: Schema.Boolean,
  org_merge_rules: Rows.Json(MergeRules.StandaloneConfiguration)
}

export const organizationOf = (row: Schema.Struct.Type<typeof OrganizationFields>): Organization => ({
  id: row.org_id,
  title: row.org_title,
  createdAt: row.org_created_at,
  emailDomains: row.org_email_domains,
  hostname: row.org_hostname,
  defaultRole: row.org_default_role,
  defaultContentSite: row.org_default_content_site,
  logo: row.org_logo,
  sso: row.org_sso,
  ai: row.org_ai,
  inviteLinks: row.org_invite_links,
  mergeRules: row.org_merge_rules
})

// The benchmark's baseline server (tooling/bench) maps its rows with these three, as Quire does.
const users = Rows.decoder("identity_users", UserRow, userOf)
const organizations = Rows.decoder("identity_organizations", Schema.Struct(OrganizationFields), organizationOf)
const roles = Rows.decoder("identity_members", Roles.MemberRoleOrGuest)

/** A row holding the user columns as a User; throws `Rows.InvalidRow` when it does not match. */
export const toUser = (row: unknown): User => users.decode(row)

/** A row holding the organization columns as an Organization; throws `Rows.InvalidRow` when it does not match. */
export const toOrganization = (row: unknown): Organization => organizations.decode(row)

/** A member role column (null: a guest); throws `Rows.InvalidRow` when it holds something else. */
export const toRole = (value: unknown): Roles.MemberRole | null => roles.decode(value)
