/** Conversions from the values the Postgres client returns to domain values. */
import type { Roles } from "@quire/kernel"
import type { Organization, User } from "./domain/Identity.ts"

export const toDate = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)))
export const toDateOrNull = (value: unknown): Date | null => (value == null ? null : toDate(value))
export const toJson = <A>(value: unknown): A => (typeof value === "string" ? JSON.parse(value) as A : value as A)
export const toRole = (value: unknown): Roles.MemberRole | null => (value == null ? null : value as Roles.MemberRole)
export const toBool = (value: unknown): boolean => value === true || value === "t" || value === "true"

export const userColumns = `u.id AS user_id, u.email AS user_email, u.display_name AS user_display_name,
  u.photo_url AS user_photo_url, u.instance_admin AS user_instance_admin, u.created_at AS user_created_at`

export const toUser = (row: Record<string, unknown>): User => ({
  id: String(row.user_id),
  email: String(row.user_email),
  displayName: String(row.user_display_name),
  photoURL: row.user_photo_url == null ? null : String(row.user_photo_url),
  instanceAdmin: toBool(row.user_instance_admin),
  createdAt: toDate(row.user_created_at)
})

export const organizationColumns = `o.id AS org_id, o.title AS org_title, o.created_at AS org_created_at,
  o.email_domains AS org_email_domains, o.hostname AS org_hostname, o.default_role AS org_default_role,
  o.default_content_site AS org_default_content_site, o.logo AS org_logo, o.sso AS org_sso, o.ai AS org_ai,
  o.invite_links AS org_invite_links`

export const toOrganization = (row: Record<string, unknown>): Organization => ({
  id: String(row.org_id),
  title: String(row.org_title),
  createdAt: toDate(row.org_created_at),
  emailDomains: toJson<Array<string>>(row.org_email_domains),
  hostname: row.org_hostname == null ? null : String(row.org_hostname),
  defaultRole: toRole(row.org_default_role),
  defaultContentSite: row.org_default_content_site == null ? null : String(row.org_default_content_site),
  logo: row.org_logo == null ? null : String(row.org_logo),
  sso: toBool(row.org_sso),
  ai: toBool(row.org_ai),
  inviteLinks: toBool(row.org_invite_links)
})
