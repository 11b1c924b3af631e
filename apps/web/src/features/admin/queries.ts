/**
 * The administration screens' reads, each a `QuireApi` query atom with the reactivity key its
 * mutations invalidate: `members:<org>`, `invites:<org>`, `teams:<org>`, `tokens:<user>`,
 * `access:<space|collection>:<id>`, `sso:<org>`. Organizations are small: one page of 1,000 is all of them.
 */
import { Effect } from "effect"
import { Atom } from "effect/reactivity"
import type { Member, Team } from "@quire/api"
import { QuireApi } from "../../api/client.ts"

export const membersKey = (organizationId: string) => `members:${organizationId}`
export const invitesKey = (organizationId: string) => `invites:${organizationId}`
export const teamsKey = (organizationId: string) => `teams:${organizationId}`
export const tokensKey = (userId: string) => `tokens:${userId}`
export const accessKey = (kind: "space" | "collection", id: string) => `access:${kind}:${id}`
export const ssoKey = (organizationId: string) => `sso:${organizationId}`

export const membersAtom = Atom.family((organizationId: string) =>
  QuireApi.query("members", "listMembersInOrganizationById", {
    params: { organizationId },
    query: { limit: 1000, sort: "name", order: "asc" },
    reactivityKeys: [membersKey(organizationId)]
  }))

/** Pending invitations by email (admins only). */
export const memberInvitesAtom = Atom.family((organizationId: string) =>
  QuireApi.query("organizations", "listOrganizationMemberInvites", { params: { organizationId }, reactivityKeys: [invitesKey(organizationId)] }))

export const inviteLinksAtom = Atom.family((organizationId: string) =>
  QuireApi.query("organizations", "listOrganizationInviteLinks", { params: { organizationId }, query: { limit: 1000 }, reactivityKeys: [invitesKey(organizationId)] }))

/** The organization's SAML and OpenID Connect providers (admins only). */
export const samlProvidersAtom = Atom.family((organizationId: string) =>
  QuireApi.query("sso", "listSAMLProvidersInOrganizationById", { params: { organizationId }, query: { limit: 1000 }, reactivityKeys: [ssoKey(organizationId)] }))

export const oidcProvidersAtom = Atom.family((organizationId: string) =>
  QuireApi.query("sso", "listOIDCProvidersInOrganizationById", { params: { organizationId }, query: { limit: 1000 }, reactivityKeys: [ssoKey(organizationId)] }))

export const teamsAtom = Atom.family((organizationId: string) =>
  QuireApi.query("teams", "listTeamsInOrganizationById", { params: { organizationId }, query: { limit: 1000 }, reactivityKeys: [teamsKey(organizationId)] }))

/** A team's members; key `<org>\n<team>`. */
export const teamMembersAtom = Atom.family((key: string) => {
  const [organizationId = "", teamId = ""] = key.split("\n")
  return QuireApi.query("teamMembers", "listTeamMembersInOrganizationById", {
    params: { organizationId, teamId },
    query: { limit: 1000 },
    reactivityKeys: [teamsKey(organizationId)]
  })
})

export const tokensAtom = Atom.family((userId: string) =>
  QuireApi.query("users", "listUserTokens", { params: { userId }, query: { limit: 1000 }, reactivityKeys: [tokensKey(userId)] }))

/** Where a person's access to content comes from. */
export type AccessSource =
  | { readonly kind: "person"; readonly role: string }
  | { readonly kind: "team"; readonly role: string; readonly team: Team }

export interface AccessRow {
  readonly user: Member["user"]
  /** Their effective role on the content. */
  readonly role: string
  /** Their role in the organization (null: a guest). */
  readonly organizationRole: string | null
  readonly sources: ReadonlyArray<AccessSource>
}

export interface AccessListing {
  readonly rows: ReadonlyArray<AccessRow>
  /** The grants on the content itself, to a person or a team. */
  readonly people: ReadonlyArray<{ readonly user: Member["user"]; readonly role: string }>
  readonly teams: ReadonlyArray<{ readonly team: Team; readonly role: string }>
  readonly members: ReadonlyArray<Member>
  readonly allTeams: ReadonlyArray<Team>
}

/**
 * Who can access a space or a collection and through what: the aggregate listing (effective
 * roles), the grants to people and teams on the content itself, the granted teams' members and
 * the organization's members (for their organization role). Key `<space|collection>\n<id>\n<org>`.
 */
export const accessAtom = Atom.family((key: string) => {
  const [kind = "space", id = "", organizationId = ""] = key.split("\n") as ["space" | "collection", string, string]
  return QuireApi.runtime.atom(Effect.gen(function*() {
    const client = yield* QuireApi
    const query = { limit: 1000 }
    const [aggregate, people, teams, members, allTeams] = yield* Effect.all(kind === "space"
      ? [
        client.permissions.listPermissionsAggregateInSpace({ params: { spaceId: id }, query }),
        client.permissions.listUserPermissionsInSpace({ params: { spaceId: id }, query }),
        client.permissions.listTeamPermissionsInSpace({ params: { spaceId: id }, query }),
        client.members.listMembersInOrganizationById({ params: { organizationId }, query }),
        client.teams.listTeamsInOrganizationById({ params: { organizationId }, query })
      ] as const
      : [
        client.permissions.listPermissionsAggregateInCollection({ params: { collectionId: id }, query }),
        client.permissions.listUserPermissionsInCollection({ params: { collectionId: id }, query }),
        client.permissions.listTeamPermissionsInCollection({ params: { collectionId: id }, query }),
        client.members.listMembersInOrganizationById({ params: { organizationId }, query }),
        client.teams.listTeamsInOrganizationById({ params: { organizationId }, query })
      ] as const, { concurrency: "unbounded" })
    const teamMembers = yield* Effect.forEach(teams.items, (grant) =>
      client.teamMembers.listTeamMembersInOrganizationById({ params: { organizationId, teamId: grant.team.id }, query }).pipe(
        Effect.map((list) => ({ grant, ids: new Set(list.items.map((item) => item.organization.user.id)) }))
      ), { concurrency: 4 })
    const roleOf = new Map(members.items.map((member) => [member.user.id, member.role]))
    const rows: Array<AccessRow> = aggregate.items.map((item) => ({
      user: item.user,
      role: item.permission,
      organizationRole: roleOf.get(item.user.id) ?? null,
      sources: [
        ...people.items.filter((grant) => grant.user.id === item.user.id).map((grant) => ({ kind: "person" as const, role: grant.permission })),
        ...teamMembers.filter(({ ids }) => ids.has(item.user.id)).map(({ grant }) => ({ kind: "team" as const, role: grant.permission, team: grant.team }))
      ]
    }))
    return {
      rows,
      people: people.items.map((grant) => ({ user: grant.user, role: grant.permission })),
      teams: teams.items.map((grant) => ({ team: grant.team, role: grant.permission })),
      members: members.items,
      allTeams: allTeams.items
    } satisfies AccessListing
  })).pipe(Atom.withReactivity([accessKey(kind, id)]))
})
