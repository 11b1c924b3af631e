/**
 * Port: explicit grants of a role on a space or a collection to a user or a team of its
 * organization (GitBook's space and collection permissions), and its memory adapter.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { MemoryStore, Pagination, type Roles } from "@quire/kernel"

/** What a grant is on. */
export const TargetKind = Schema.Literals(["space", "collection"])
export type TargetKind = typeof TargetKind.Type

/** Who a grant is to. */
export const PrincipalKind = Schema.Literals(["user", "team"])
export type PrincipalKind = typeof PrincipalKind.Type

export interface Target {
  readonly kind: TargetKind
  readonly id: string
}

export interface Principal {
  readonly kind: PrincipalKind
  readonly id: string
}

export interface Grant {
  readonly organizationId: string
  readonly target: Target
  readonly principal: Principal
  readonly role: Roles.MemberRole
  /** When the principal was first invited there (a changed role keeps it). */
  readonly createdAt: Date
}

export interface PermissionsRepoShape {
  /** Grants `role` on `target` to each principal; a grant they had there takes the new role and keeps its `createdAt`. */
  readonly put: (
    organizationId: string,
    target: Target,
    principals: ReadonlyArray<Principal>,
    role: Roles.MemberRole,
    at: Date
  ) => Effect.Effect<void>
  /** Removes the principal's grant on the target; false when there was none. */
  readonly remove: (target: Target, principal: Principal) => Effect.Effect<boolean>
  /** The grants on `target` to principals of `kind`, oldest first, keyset-paginated on (createdAt, principal id). */
  readonly list: (
    target: Target,
    kind: PrincipalKind,
    after: Pagination.CursorKey | undefined,
    limit: number
  ) => Effect.Effect<Pagination.Page<Grant>>
  /** Every grant on these targets (a space and the collections holding it). */
  readonly onTargets: (targets: ReadonlyArray<Target>) => Effect.Effect<ReadonlyArray<Grant>>
  /** Every grant of the organization to these principals (a member and their teams). */
  readonly ofPrincipals: (organizationId: string, principals: ReadonlyArray<Principal>) => Effect.Effect<ReadonlyArray<Grant>>
  /** Removes every grant on the target (a purged space, a deleted or transferred one). */
  readonly removeTarget: (target: Target) => Effect.Effect<void>
  /** Removes every grant of the organization to the principal (a member or a team that left). */
  readonly removePrincipal: (organizationId: string, principal: Principal) => Effect.Effect<void>
  /** How many spaces each principal of `kind` among `ids` has a grant on (absent: none). */
  readonly countSpaces: (
    organizationId: string,
    kind: PrincipalKind,
    ids: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyMap<string, number>>
}

/** Sort key of a target's grants: invitation instant, then the principal's id. */
export const grantKey = (grant: Grant): Pagination.CursorKey => [grant.createdAt.toISOString(), grant.principal.id]
export const grantKeyShape: Pagination.KeyShape = ["timestamp", "string"]

const sameTarget = (a: Target, b: Target) => a.kind === b.kind && a.id === b.id

const keyOf = (target: Target, principal: Principal) => `${target.kind}/${target.id}/${principal.kind}/${principal.id}`

export class PermissionsRepo extends Context.Service<PermissionsRepo, PermissionsRepoShape>()("@quire/content/PermissionsRepo") {
  static readonly layerMemory = Layer.sync(PermissionsRepo, () => {
    const grants = new MemoryStore.TxMap<string, Grant>()
    const where = (keep: (grant: Grant) => boolean) => Array.from(grants.values()).filter(keep)
    return PermissionsRepo.of({
      put: (organizationId, target, principals, role, at) =>
        Effect.sync(() => {
          for (const principal of principals) {
            const key = keyOf(target, principal)
            const createdAt = grants.get(key)?.createdAt ?? at
            grants.set(key, { organizationId, target, principal, role, createdAt })
          }
        }),
      remove: (target, principal) => Effect.sync(() => grants.delete(keyOf(target, principal))),
      list: (target, kind, after, limit) =>
        Effect.suspend(() =>
          Pagination.paginateArray(
            where((g) => sameTarget(g.target, target) && g.principal.kind === kind),
            grantKey,
            { order: "asc", after, limit }
          )
        ),
      onTargets: (targets) => Effect.sync(() => where((g) => targets.some((t) => sameTarget(g.target, t)))),
      ofPrincipals: (organizationId, principals) =>
        Effect.sync(() =>
          where((g) =>
            g.organizationId === organizationId &&
            principals.some((p) => p.kind === g.principal.kind && p.id === g.principal.id)
          )
        ),
      removeTarget: (target) =>
        Effect.sync(() => {
          for (const [key, grant] of grants) if (sameTarget(grant.target, target)) grants.delete(key)
        }),
      removePrincipal: (organizationId, principal) =>
        Effect.sync(() => {
          for (const [key, grant] of grants) {
            if (
              grant.organizationId === organizationId && grant.principal.kind === principal.kind &&
              grant.principal.id === principal.id
            ) grants.delete(key)
          }
        }),
      countSpaces: (organizationId, kind, ids) =>
        Effect.sync(() => {
          const counts = new Map<string, number>()
          for (const grant of grants.values()) {
            if (
              grant.organizationId === organizationId && grant.target.kind === "space" &&
              grant.principal.kind === kind && ids.includes(grant.principal.id)
            ) counts.set(grant.principal.id, (counts.get(grant.principal.id) ?? 0) + 1)
          }
          return counts
        })
    })
  })
}
