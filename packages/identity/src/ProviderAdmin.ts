/**
 * What the SAML and OpenID Connect provider use cases share: the admin check, the default team's
 * check, a provider's view, and a write recorded in the audit log in its transaction.
 */
import { AuditLog, caller as auditCaller } from "@quire/audit"
import { Effect, Option } from "effect"
import { Errors, Transactor } from "@quire/kernel"
import { ensureOrganization } from "./Authorization.ts"
import type { OrganizationAccess, Team } from "./domain/Identity.ts"
import { Organizations } from "./Organizations.ts"
import { TeamsRepo } from "./TeamsRepo.ts"

/** A provider with its default team resolved, as responses show it. */
export interface ProviderView<P> {
  readonly provider: P
  readonly defaultTeam: Team | undefined
  readonly access: OrganizationAccess
}

export const make = Effect.gen(function*() {
  const organizations = yield* Organizations
  const teams = yield* TeamsRepo
  const transactor = yield* Transactor.Transactor
  const audit = yield* AuditLog

  /** Runs a write with its audit event, in one transaction; `fields` names what an update changed. */
  const audited = <E>(
    write: Effect.Effect<unknown, E>,
    organizationId: string,
    protocol: "saml" | "oidc",
    action: "sso.provider-created" | "sso.provider-changed" | "sso.provider-removed",
    provider: { readonly id: string; readonly label?: string | undefined },
    fields: ReadonlyArray<string> = []
  ) =>
    transactor.transaction(Effect.gen(function*() {
      yield* write
      yield* audit.record({
        organizationId,
        action,
        actor: yield* auditCaller,
        target: { type: "sso-provider", id: provider.id, ...(provider.label === undefined ? {} : { label: provider.label }) },
        payload: { protocol, ...(fields.length === 0 ? {} : { fields: fields.join(",") }) }
      })
    }))

  /** The organization, when the caller administers it. */
  const adminAccess = Effect.fnUntraced(function*(organizationId: string) {
    const access = yield* organizations.access(organizationId)
    yield* ensureOrganization(access.membership, "admin", "manage single sign-on")
    return access
  })

  const view = Effect.fnUntraced(function*<P extends { readonly organizationId: string; readonly defaultTeamId: string | null }>(
    access: OrganizationAccess,
    provider: P
  ) {
    const team = provider.defaultTeamId === null ? Option.none() : yield* teams.find(provider.organizationId, provider.defaultTeamId)
    return { provider, access, defaultTeam: Option.getOrUndefined(team) }
  })

  /** A default team must be one of the organization's. */
  const checkDefaultTeam = Effect.fnUntraced(function*(organizationId: string, teamId: string | undefined) {
    if (teamId !== undefined && Option.isNone(yield* teams.find(organizationId, teamId))) {
      return yield* new Errors.InvalidInput({ field: "defaultTeam", reason: `team ${JSON.stringify(teamId)} does not exist in this organization` })
    }
  })

  return { adminAccess, view, checkDefaultTeam, audited }
})
