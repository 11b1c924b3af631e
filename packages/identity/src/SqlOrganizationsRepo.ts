/** Postgres adapter of OrganizationsRepo. */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, type Roles } from "@quire/kernel"
import type { LinkInvite, OrganizationAccess, OrganizationPatch } from "./domain/Identity.ts"
import { organizationKey, OrganizationsRepo } from "./OrganizationsRepo.ts"
import { organizationColumns, toBool, toDate, toOrganization, toRole } from "./SqlRows.ts"

type Row = Record<string, unknown>

export const layer = Layer.effect(
  OrganizationsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(organizationColumns)
    const toAccess = (row: Row): OrganizationAccess => ({
      organization: toOrganization(row),
      membership: { role: toRole(row.member_role) }
    })
    const toInvite = (row: Row): LinkInvite => ({
      id: String(row.id),
      organizationId: String(row.organization_id),
      role: toRole(row.role),
      createdAt: toDate(row.created_at)
    })

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
        ...(patch.inviteLinks === undefined ? [] : [sql`invite_links = ${patch.inviteLinks}`])
      ]
      const set = sets.length === 0 ? sql`id = id` : sql.csv(sets)
      return sql<Row>`UPDATE identity_organizations o SET ${set} WHERE o.id = ${organizationId} RETURNING ${columns}`.pipe(
        Effect.orDie,
        Effect.map((rows) => toOrganization(rows[0]!))
      )
    }

    return OrganizationsRepo.of({
      insert: (organization, adminUserId) =>
        Effect.gen(function*() {
          yield* sql`
            INSERT INTO identity_organizations (id, title, created_at, email_domains, hostname, default_role,
              default_content_site, logo, sso, ai, invite_links)
            VALUES (${organization.id}, ${organization.title}, ${organization.createdAt},
              ${JSON.stringify(organization.emailDomains)}::jsonb, ${organization.hostname}, ${organization.defaultRole},
              ${organization.defaultContentSite}, ${organization.logo}, ${organization.sso}, ${organization.ai},
              ${organization.inviteLinks})`
          yield* sql`
            INSERT INTO identity_members (organization_id, user_id, role, joined_at)
            VALUES (${organization.id}, ${adminUserId}, 'admin', ${organization.createdAt})`
        }).pipe(sql.withTransaction, Effect.orDie),
      findAccess: (organizationId, userId) =>
        sql<Row>`
          SELECT ${columns}, m.role AS member_role
          FROM identity_organizations o
          JOIN identity_members m ON m.organization_id = o.id AND m.user_id = ${userId}
          WHERE o.id = ${organizationId}`.pipe(
          Effect.orDie,
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toAccess))
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
          Effect.map((rows) => Pagination.pageFromRows(rows.map(toAccess), limit, (a) => organizationKey(a.organization)))
        )
      },
      listByEmailDomain: (domain, userId) =>
        sql<Row>`
          SELECT ${columns}, m.role AS member_role
          FROM identity_organizations o
          LEFT JOIN identity_members m ON m.organization_id = o.id AND m.user_id = ${userId}
          WHERE o.email_domains @> ${JSON.stringify([domain.toLowerCase()])}::jsonb
          ORDER BY o.created_at, o.id`.pipe(Effect.orDie, Effect.map((rows) => rows.map(toAccess))),
      update,
      insertLinkInvite: (invite) =>
        sql`
          INSERT INTO identity_link_invites (id, organization_id, role, created_at)
          VALUES (${invite.id}, ${invite.organizationId}, ${invite.role}, ${invite.createdAt})`.pipe(Effect.orDie, Effect.asVoid),
      listLinkInvites: (organizationId) =>
        sql<Row>`
          SELECT id, organization_id, role, created_at FROM identity_link_invites
          WHERE organization_id = ${organizationId} ORDER BY created_at, id`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.map(toInvite))
        ),
      deleteLinkInvite: (organizationId, inviteId) =>
        sql`DELETE FROM identity_link_invites WHERE organization_id = ${organizationId} AND id = ${inviteId}`.pipe(
          Effect.orDie,
          Effect.asVoid
        ),
      insertEmailInvite: (invite) =>
        sql`
          INSERT INTO identity_email_invites (organization_id, email, role, sso, created_at)
          VALUES (${invite.organizationId}, ${invite.email}, ${invite.role}, ${invite.sso}, ${invite.createdAt})
          ON CONFLICT (organization_id, email)
          DO UPDATE SET role = excluded.role, sso = excluded.sso, created_at = excluded.created_at`.pipe(
          Effect.orDie,
          Effect.asVoid
        ),
      purgeEmailInvites: (before) =>
        sql<Row>`DELETE FROM identity_email_invites WHERE created_at < ${before} RETURNING email`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length)
        ),
      takeEmailInvites: (email) =>
        sql<Row>`DELETE FROM identity_email_invites WHERE email = ${email} RETURNING organization_id, email, role, sso, created_at`.pipe(
          Effect.orDie,
          Effect.map((rows) =>
            rows.map((row) => ({
              organizationId: String(row.organization_id),
              email: String(row.email),
              role: toRole(row.role) as Roles.MemberRole | null,
              sso: toBool(row.sso),
              createdAt: toDate(row.created_at)
            }))
          )
        )
    })
  })
)
