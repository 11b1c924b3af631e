/** `quire teams`: teams of an organization. */
import { Effect } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { Team } from "@quire/api"
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

/** `quire teams ...` */
export const teams = Command.make("teams").pipe(
  Command.withDescription("Manage the teams of an organization"),
  Command.withSubcommands([list, create, get, rename, remove])
)
