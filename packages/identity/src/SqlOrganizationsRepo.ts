/** Postgres adapter of OrganizationsRepo. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, Roles, Rows } from "@quire/kernel"
import type { LinkInvite, MemberInvite, OrganizationAccess, OrganizationPatch } from "./domain/Identity.ts"
import { organizationKey, OrganizationsRepo, type OrganizationsRepoShape } from "./OrganizationsRepo.ts"
import { organizationColumns, OrganizationFields, organizationOf } from "./SqlRows.ts"

type Row = Record<string, unknown>

const organizations = Rows.decoder("identity_organizations", Schema.Struct(OrganizationFields), organizationOf)

/** An organization with the caller's role in it (null: a guest, or not a member at all). */
const AccessRow = Schema.Struct({ ...OrganizationFields, member_role: Roles.MemberRoleOrGuest })
const accesses = Rows.decoder("identity_organizations", AccessRow, (row): OrganizationAccess => ({
  organization: organizationOf(row),
  membership: { role: row.member_role }
}))

const LinkInviteRow = Schema.Struct({
  id: Schema.String,
  sealed_id: Schema.NullOr(Schema.String),
  organization_id: Schema.String,
  role: Roles.MemberRoleOrGuest,
  created_at: Rows.Timestamp,
  expires_at: Schema.NullOr(Rows.Timestamp)
})
const linkInvites = Rows.decoder("identity_link_invites", LinkInviteRow, (row): LinkInvite => ({
  id: row.id,
  sealedId: row.sealed_id,
  organizationId: row.organization_id,
  role: row.role,
  createdAt: row.created_at,
  expiresAt: row.expires_at
}))
const linkInviteColumns = "id, sealed_id, organization_id, role, created_at, expires_at"

const EmailInviteRow = Schema.Struct({
  id: Schema.String,
  sealed_id: Schema.NullOr(Schema.String),
  organization_id: Schema.String,
  email: Schema.String,
  role: Roles.MemberRoleOrGuest,
  sso: Schema.Boolean,
  created_at: Rows.Timestamp
})
const emailInvites = Rows.decoder("identity_email_invites", EmailInviteRow, (row): MemberInvite => ({
  id: row.id,
  sealedId: row.sealed_id,
  organizationId: row.organization_id,
  email: row.email,
  role: row.role,
  sso: row.sso,
  createdAt: row.created_at
}))
const emailInviteColumns = "id, sealed_id, organization_id, email, role, sso, created_at"

/** The invite links and email invitations of organizations. */
const invites = (sql: SqlClient.SqlClient): Pick<
  OrganizationsRepoShape,
  "insertLinkInvite"
  | "findLinkInvite"
  | "updateLinkInvite"
  | "listLinkInvites"
  | "deleteLinkInvite"
  | "sealLegacyLinkInvites"
  | "insertEmailInvite"
  | "sealLegacyEmailInvites"
  | "purgeEmailInvites"
  | "findEmailInvite"
  | "listEmailInvites"
  | "takeEmailInvite"
> => {
  /**
   * Hashes and seals the rows of `table` (invite links, email invitations) an older Quire stored
   * in clear, in one transaction; FOR UPDATE, so that two processes starting together seal each once.
   */
  const sealLegacy = (table: "identity_link_invites" | "identity_email_invites", seal: (id: string) => { readonly id: string; readonly sealedId: string }) =>
    Effect.gen(function*() {
      const name = sql.literal(table)
      const legacy = yield* sql<{ readonly id: string }>`SELECT id FROM ${name} WHERE sealed_id IS NULL FOR UPDATE`
      for (const { id } of legacy) {
        const next = seal(id)
        yield* sql`UPDATE ${name} SET id = ${next.id}, sealed_id = ${next.sealedId} WHERE id = ${id} AND sealed_id IS NULL`
      }
      return legacy.length
    }).pipe(sql.withTransaction, Effect.orDie)

  return {
    insertLinkInvite: (invite) =>
      sql`
        INSERT INTO identity_link_invites (id, sealed_id, organization_id, role, created_at, expires_at)
        VALUES (${invite.id}, ${invite.sealedId}, ${invite.organizationId}, ${invite.role}, ${invite.createdAt}, ${invite.expiresAt})`.pipe(
        Effect.orDie,
        Effect.asVoid
      ),
    findLinkInvite: (organizationId, inviteId) =>
      sql<Row>`
        SELECT ${sql.literal(linkInviteColumns)} FROM identity_link_invites
        WHERE organization_id = ${organizationId} AND id = ${inviteId}`.pipe(Effect.orDie, Effect.flatMap(linkInvites.first)),
    updateLinkInvite: (organizationId, inviteId, patch) => {
      const sets = [
        ...(patch.role === undefined ? [] : [sql`role = ${patch.role}`]),
        ...(patch.expiresAt === undefined ? [] : [sql`expires_at = ${patch.expiresAt}`])
      ]
      return sql<Row>`
        UPDATE identity_link_invites SET ${sets.length === 0 ? sql`id = id` : sql.csv(sets)}
        WHERE organization_id = ${organizationId} AND id = ${inviteId}
        RETURNING ${sql.literal(linkInviteColumns)}`.pipe(Effect.orDie, Effect.flatMap(linkInvites.first))
    },
    listLinkInvites: (organizationId) =>
      sql<Row>`
        SELECT ${sql.literal(linkInviteColumns)} FROM identity_link_invites
        WHERE organization_id = ${organizationId} ORDER BY created_at, id`.pipe(
        Effect.orDie,
        Effect.flatMap(linkInvites.all)
      ),
    deleteLinkInvite: (organizationId, inviteId) =>
      sql`DELETE FROM identity_link_invites WHERE organization_id = ${organizationId} AND id = ${inviteId}`.pipe(
        Effect.orDie,
        Effect.asVoid
      ),
    sealLegacyLinkInvites: (seal) => sealLegacy("identity_link_invites", seal),
    insertEmailInvite: (invite) =>
      sql`
        INSERT INTO identity_email_invites (id, sealed_id, organization_id, email, role, sso, created_at)
        VALUES (${invite.id}, ${invite.sealedId}, ${invite.organizationId}, ${invite.email}, ${invite.role}, ${invite.sso}, ${invite.createdAt})
        ON CONFLICT (organization_id, email)
        DO UPDATE SET id = excluded.id, sealed_id = excluded.sealed_id, role = excluded.role, sso = excluded.sso, created_at = excluded.created_at`.pipe(
        Effect.orDie,
        Effect.asVoid
      ),
    sealLegacyEmailInvites: (seal) => sealLegacy("identity_email_invites", seal),
    purgeEmailInvites: (before) =>
      sql<Row>`DELETE FROM identity_email_invites WHERE created_at < ${before} RETURNING email`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.length)
      ),
    findEmailInvite: (organizationId, inviteId) =>
      sql<Row>`
        SELECT ${sql.literal(emailInviteColumns)} FROM identity_email_invites
        WHERE id = ${inviteId} AND organization_id = ${organizationId}`.pipe(Effect.orDie, Effect.flatMap(emailInvites.first)),
    listEmailInvites: (filter) =>
      sql<Row>`
        SELECT ${sql.literal(emailInviteColumns)} FROM identity_email_invites
        WHERE ${"email" in filter ? sql`email = ${filter.email}` : sql`organization_id = ${filter.organizationId}`}
        ORDER BY created_at, id`.pipe(Effect.orDie, Effect.flatMap(emailInvites.all)),
    takeEmailInvite: (organizationId, email) =>
      sql<Row>`
        DELETE FROM identity_email_invites WHERE organization_id = ${organizationId} AND email = ${email}
        RETURNING ${sql.literal(emailInviteColumns)}`.pipe(Effect.orDie, Effect.flatMap(emailInvites.first))
  }
}

export const layer = Layer.effect(
  OrganizationsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(organizationColumns)

    const update = (organizationId: string, patch: OrganizationPatch) => {
      const sets = [
        ...(patch.title === undefined ? [] : [sql`title = ${patch.title}`]),
        ...(patch.emailDomains === undefined ? [] : [sql`email_domains = ${JSON.stringify(patch.emailDomains)}::jsonb`]),
        ...(patch.hostname === undefined ? [] : [sql`hostname = ${patch.hostname}`]),
        ...(patch.defaultRole === undefined ? [] : [sql`default_role = ${patch.defaultRole}`]),
        ...(patch.defaultContentSite === undefined ? [] : [sql`default_content_site = ${patch.defaultContentSite}`]),
        ...(patch.logo === undefined ? [] : [sql`logo = ${patch.logo}`]),
        ...(patch.sso === undefined ? [] : [sql`sso = ${patch.sso}`]),
        ...(patch.ai === undefined ? [] : [sql`ai = ${patch.ai}`]),
        ...(patch.inviteLinks === undefined ? [] : [sql`invite_links = ${patch.inviteLinks}`]),
        ...(patch.mergeRules === undefined ? [] : [sql`merge_rules = ${JSON.stringify(patch.mergeRules)}::jsonb`])
      ]
      const set = sets.length === 0 ? sql`id = id` : sql.csv(sets)
      return sql<Row>`UPDATE identity_organizations o SET ${set} WHERE o.id = ${organizationId} RETURNING ${columns}`.pipe(
        Effect.orDie,
        Effect.flatMap((rows) => Effect.sync(() => organizations.decode(rows[0])))
      )
    }

    return OrganizationsRepo.of({
      insert: (organization, adminUserId) =>
        Effect.gen(function*() {
          yield* sql`
            INSERT INTO identity_organizations (id, title, created_at, email_domains, hostname, default_role,
              default_content_site, logo, sso, ai, invite_links, merge_rules, created_by)
            VALUES (${organization.id}, ${organization.title}, ${organization.createdAt},
              ${JSON.stringify(organization.emailDomains)}::jsonb, ${organization.hostname}, ${organization.defaultRole},
              ${organization.defaultContentSite}, ${organization.logo}, ${organization.sso}, ${organization.ai},
              ${organization.inviteLinks}, ${JSON.stringify(organization.mergeRules)}::jsonb, ${adminUserId})`
          yield* sql`
            INSERT INTO identity_members (organization_id, user_id, role, joined_at)
            VALUES (${organization.id}, ${adminUserId}, 'admin', ${organization.createdAt})`
        }).pipe(sql.withTransaction, Effect.orDie),
      countCreatedBy: (userId) =>
        Effect.gen(function*() {
          yield* sql`SELECT 1 FROM identity_users WHERE id = ${userId} FOR UPDATE`
          const rows = yield* sql<{ readonly count: number | string }>`
            SELECT count(*)::int AS count FROM identity_organizations WHERE created_by = ${userId}`
          return Number(rows[0]?.count ?? 0)
        }).pipe(Effect.orDie),
      find: (organizationId) =>
        sql<Row>`SELECT ${columns} FROM identity_organizations o WHERE o.id = ${organizationId}`.pipe(
          Effect.orDie,
          Effect.flatMap(organizations.first)
        ),
      findAccess: (organizationId, userId) =>
        sql<Row>`
          SELECT ${columns}, m.role AS member_role
          FROM identity_organizations o
          JOIN identity_members m ON m.organization_id = o.id AND m.user_id = ${userId}
          WHERE o.id = ${organizationId}`.pipe(
          Effect.orDie,
          Effect.flatMap(accesses.first)
        ),
      listForUser: (userId, after, limit) => {
        const range = after === undefined
          ? sql`true`
          : sql`(o.created_at, o.id) > (${String(after[0])}::timestamptz, ${String(after[1])})`
        return sql<Row>`
          SELECT ${columns}, m.role AS member_role
          FROM identity_members m JOIN identity_organizations o ON o.id = m.organization_id
          WHERE m.user_id = ${userId} AND ${range}
          ORDER BY o.created_at, o.id
          LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(accesses.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, (a) => organizationKey(a.organization)))
        )
      },
      listByEmailDomain: (domain, userId) =>
        sql<Row>`
          SELECT ${columns}, m.role AS member_role
          FROM identity_organizations o
          LEFT JOIN identity_members m ON m.organization_id = o.id AND m.user_id = ${userId}
          WHERE o.email_domains @> ${JSON.stringify([domain.toLowerCase()])}::jsonb
          ORDER BY o.created_at, o.id`.pipe(Effect.orDie, Effect.flatMap(accesses.all)),
      update,
      ...invites(sql)
    })
  })
)
