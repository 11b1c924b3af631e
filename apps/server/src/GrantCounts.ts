/**
 * `spaces` of teams and members: how many spaces each was invited to (content's grants), joined to
 * identity's records when the server presents them, one lookup per response.
 */
import { Effect } from "effect"
import { ContentPermissions } from "@quire/content"
import type { Member, Team } from "@quire/identity"

/** The counters, over the content permissions of the server (a handler group builds it once). */
export const make = Effect.map(Effect.service(ContentPermissions), (permissions) => {
  const teams = <T extends Team>(organizationId: string, all: ReadonlyArray<T>) =>
    Effect.map(
      permissions.spaceCounts(organizationId, "team", all.map((t) => t.id)),
      (counts) => all.map((t): T => ({ ...t, spaces: counts.get(t.id) ?? 0 }))
    )
  const members = <M extends Member>(organizationId: string, all: ReadonlyArray<M>) =>
    Effect.map(
      permissions.spaceCounts(organizationId, "user", all.map((m) => m.user.id)),
      (counts) => all.map((m): M => ({ ...m, spaces: counts.get(m.user.id) ?? 0 }))
    )
  return {
    /** The teams with their `spaces` counted. */
    teams,
    /** The members with their `spaces` counted. */
    members,
    team: <T extends Team>(organizationId: string, team: T) => Effect.map(teams(organizationId, [team]), (counted) => counted[0]!),
    member: <M extends Member>(organizationId: string, member: M) => Effect.map(members(organizationId, [member]), (counted) => counted[0]!)
  }
})
