/**
 * Port: explicit grants of a role on a site to a user or a team of its organization (GitBook's
 * site users and site permissions), and its memory adapter.
 */
import { Context, Effect, Layer, Option, Schema } from "effect"
import { MemoryStore, Pagination, type Roles } from "@quire/kernel"

/** Who a site grant is to. */
export const SitePrincipalKind = Schema.Literals(["user", "team"])
export type SitePrincipalKind = typeof SitePrincipalKind.Type

export interface SitePrincipal {
  readonly kind: SitePrincipalKind
  readonly id: string
}

export interface SiteGrant {
  readonly organizationId: string
  readonly siteId: string
  readonly principal: SitePrincipal
  readonly role: Roles.MemberRole
  /** When the principal was first invited to the site (a changed role keeps it). */
  readonly createdAt: Date
}

export interface SitePermissionsRepoShape {
  /** The principal's grant on the site. */
  readonly find: (siteId: string, principal: SitePrincipal) => Effect.Effect<Option.Option<SiteGrant>>
  /** Grants `role` on the site to the principal; a grant it had there takes the new role and keeps its `createdAt`. */
  readonly put: (organizationId: string, siteId: string, principal: SitePrincipal, role: Roles.MemberRole, at: Date) => Effect.Effect<void>
  /** Removes the principal's grant on the site; false when there was none. */
  readonly remove: (siteId: string, principal: SitePrincipal) => Effect.Effect<boolean>
  /** The site's grants to principals of `kind`, oldest first, keyset-paginated on (createdAt, principal id). */
  readonly list: (siteId: string, kind: SitePrincipalKind, after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<SiteGrant>>
  /** Every grant on the site. */
  readonly onSite: (siteId: string) => Effect.Effect<ReadonlyArray<SiteGrant>>
  /** Every site grant of the organization to these principals (a member and their teams). */
  readonly ofPrincipals: (organizationId: string, principals: ReadonlyArray<SitePrincipal>) => Effect.Effect<ReadonlyArray<SiteGrant>>
  /** Removes every grant on the site (a deleted site). */
  readonly removeSite: (siteId: string) => Effect.Effect<void>
  /** Removes every site grant of the organization to the principal (a member or a team that left). */
  readonly removePrincipal: (organizationId: string, principal: SitePrincipal) => Effect.Effect<void>
}

/** Sort key of a site's grants: invitation instant, then the principal's id. */
export const siteGrantKey = (grant: SiteGrant): Pagination.CursorKey => [grant.createdAt.toISOString(), grant.principal.id]
export const siteGrantKeyShape: Pagination.KeyShape = ["timestamp", "string"]

const keyOf = (siteId: string, principal: SitePrincipal) => `${siteId}/${principal.kind}/${principal.id}`

export class SitePermissionsRepo extends Context.Service<SitePermissionsRepo, SitePermissionsRepoShape>()("@quire/sites/SitePermissionsRepo") {
  static readonly layerMemory = Layer.sync(SitePermissionsRepo, () => {
    const grants = new MemoryStore.TxMap<string, SiteGrant>()
    const where = (keep: (grant: SiteGrant) => boolean) => Array.from(grants.values()).filter(keep)
    const drop = (keep: (grant: SiteGrant) => boolean) => {
      for (const [key, grant] of Array.from(grants)) if (keep(grant)) grants.delete(key)
    }
    return SitePermissionsRepo.of({
      find: (siteId, principal) => Effect.sync(() => Option.fromNullishOr(grants.get(keyOf(siteId, principal)))),
      put: (organizationId, siteId, principal, role, at) =>
        Effect.sync(() => {
          const key = keyOf(siteId, principal)
          grants.set(key, { organizationId, siteId, principal, role, createdAt: grants.get(key)?.createdAt ?? at })
        }),
      remove: (siteId, principal) => Effect.sync(() => grants.delete(keyOf(siteId, principal))),
      list: (siteId, kind, after, limit) =>
        Effect.suspend(() =>
          Pagination.paginateArray(where((g) => g.siteId === siteId && g.principal.kind === kind), siteGrantKey, { order: "asc", after, limit })
        ),
      onSite: (siteId) => Effect.sync(() => where((g) => g.siteId === siteId)),
      ofPrincipals: (organizationId, principals) =>
        Effect.sync(() =>
          where((g) => g.organizationId === organizationId && principals.some((p) => p.kind === g.principal.kind && p.id === g.principal.id))
        ),
      removeSite: (siteId) => Effect.sync(() => drop((g) => g.siteId === siteId)),
      removePrincipal: (organizationId, principal) =>
        Effect.sync(() =>
          drop((g) => g.organizationId === organizationId && g.principal.kind === principal.kind && g.principal.id === principal.id)
        )
    })
  })
}
