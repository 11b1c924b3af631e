/** What the SAML and OpenID Connect provider use cases share: the admin check, the default team's check and a provider's view. */
import { Effect, Option } from "effect"
import { Errors } from "@quire/kernel"
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

  return { adminAccess, view, checkDefaultTeam }
})
