/** `quire teams`: teams of an organization, and their members. */
import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { OrganizationTeamMember, Team } from "@quire/api"
import * as Fields from "../Fields.ts"
import * as Output from "../Output.ts"
import * as Pages from "../Pages.ts"
import { QuireClient } from "../QuireClient.ts"
import { organizationId } from "./OrganizationsCommands.ts"

const columns: ReadonlyArray<Output.Column<Team>> = [
  { header: "id", value: (team) => team.id },
  { header: "title", value: (team) => team.title },
  { header: "members", value: (team) => String(team.members) },
  { header: "spaces", value: (team) => String(team.spaces) },
  { header: "created", value: (team) => Output.when(team.createdAt) }
]

const showTeam = (team: Team) =>
  Output.details([
    ["id", team.id],
    ["title", team.title],
    ["members", String(team.members)],
    ["spaces", String(team.spaces)],
    ["created", Output.when(team.createdAt)]
  ])

const teamId = Argument.String("team-id").pipe(Argument.withDescription("The team's id"))
const title = Argument.String("title").pipe(Argument.withDescription("The team's name"))

const list = Command.make(
  "list",
  {
    organizationId,
    title: Flag.String("title").pipe(Flag.withDescription("Only teams whose title contains this"), Flag.optional),
    ...Pages.flags
  },
  Effect.fn("quire.teams.list")(function*({ limit, organizationId, pageSize, title }) {
    const client = yield* QuireClient
    const filter = Fields.optional("title", title)
    const teams = yield* Pages.collect(
      (page) => client.teams.listTeamsInOrganizationById({ params: { organizationId }, query: { ...filter, ...page } }),
      { limit, pageSize }
    )
    yield* Output.printList(teams, columns, "No teams yet (quire teams create ORG_ID TITLE).")
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List the teams of an organization"),
  Command.withAlias("ls")
)

const create = Command.make(
  "create",
  {
    organizationId,
    title,
    members: Flag.String("member").pipe(Flag.withDescription("User id of a member (repeatable)"), Flag.atLeast(0))
  },
  Effect.fn("quire.teams.create")(function*({ members, organizationId, title }) {
    const client = yield* QuireClient
    const team = yield* client.teams.createOrganizationTeam({
      params: { organizationId },
      payload: { title, ...Fields.nonEmpty("members", members) }
    })
    yield* Output.print(team, showTeam)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Create a team"),
  Command.withExamples([{ command: "quire teams create ORG_ID Writers --member USER_ID" }])
)

const get = Command.make(
  "get",
  { organizationId, teamId },
  Effect.fn("quire.teams.get")(function*({ organizationId, teamId }) {
    const client = yield* QuireClient
    yield* Output.print(yield* client.teams.getTeamInOrganizationById({ params: { organizationId, teamId } }), showTeam)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Show a team")
)

const rename = Command.make(
  "rename",
  { organizationId, teamId, title },
  Effect.fn("quire.teams.rename")(function*({ organizationId, teamId, title }) {
    const client = yield* QuireClient
    const team = yield* client.teams.updateTeamInOrganizationById({
      params: { organizationId, teamId },
      payload: { title }
    })
    yield* Output.print(team, showTeam)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Rename a team")
)

const remove = Command.make(
  "delete",
  { organizationId, teamId },
  Effect.fn("quire.teams.delete")(function*({ organizationId, teamId }) {
    const client = yield* QuireClient
    yield* client.teams.removeTeamFromOrganizationById({ params: { organizationId, teamId } })
    yield* Output.done(`Deleted team ${teamId}.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Delete a team")
)

const memberColumns: ReadonlyArray<Output.Column<OrganizationTeamMember>> = [
  { header: "user", value: (member) => member.organization.user.id },
  { header: "name", value: (member) => member.organization.user.displayName },
  { header: "email", value: (member) => member.organization.user.email ?? "" },
  { header: "team role", value: (member) => member.team.role },
  { header: "org role", value: (member) => Output.role(member.organization.role) }
]

/** A member's role in a team (the API's TeamMemberRole). */
const teamRoles = ["owner", "member"] as const satisfies ReadonlyArray<OrganizationTeamMember["team"]["role"]>

const userId = Argument.String("user-id").pipe(Argument.withDescription("The user's id (a member of the organization)"))

const listMembers = Command.make(
  "list",
  { organizationId, teamId, ...Pages.flags },
  Effect.fn("quire.teams.members.list")(function*({ limit, organizationId, pageSize, teamId }) {
    const client = yield* QuireClient
    const members = yield* Pages.collect(
      (query) => client.teamMembers.listTeamMembersInOrganizationById({ params: { organizationId, teamId }, query }),
      { limit, pageSize }
    )
    yield* Output.printList(members, memberColumns, "No members in this team (quire teams members add ORG_ID TEAM_ID USER_ID).")
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List a team's members and their role in it"),
  Command.withAlias("ls")
)

const addMember = Command.make(
  "add",
  {
    organizationId,
    teamId,
    userId,
    role: Flag.Literals("role", teamRoles).pipe(
      Flag.withDescription("Their role in the team: owners manage its members (default: member)"),
      Flag.optional
    )
  },
  Effect.fn("quire.teams.members.add")(function*({ organizationId, role, teamId, userId }) {
    const client = yield* QuireClient
    yield* client.teamMembers.addMemberToOrganizationTeamById({
      params: { organizationId, teamId, userId },
      payload: Fields.optional("role", role)
    })
    yield* Output.done(`Added ${userId} to team ${teamId}${Option.isSome(role) ? ` as ${role.value}` : ""}.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Add a member of the organization to a team, or change their role in it"),
  Command.withExamples([{ command: "quire teams members add ORG_ID TEAM_ID USER_ID --role owner" }])
)

const removeMember = Command.make(
  "rm",
  { organizationId, teamId, userId },
  Effect.fn("quire.teams.members.rm")(function*({ organizationId, teamId, userId }) {
    const client = yield* QuireClient
    const result = yield* client.teamMembers.deleteMemberFromOrganizationTeamById({ params: { organizationId, teamId, userId } })
    yield* Output.done(result === "removed" ? `Removed ${userId} from team ${teamId}.` : `${userId} was not in team ${teamId}.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Remove a member from a team")
)

const members = Command.make("members").pipe(
  Command.withDescription("The members of a team: list, add (or change a role), rm"),
  Command.withSubcommands([listMembers, addMember, removeMember])
)

/** `quire teams ...` */
export const teams = Command.make("teams").pipe(
  Command.withDescription("Manage the teams of an organization and their members"),
  Command.withSubcommands([list, create, get, rename, remove, members])
)
