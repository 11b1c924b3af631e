/** `quire members`: who belongs to an organization, with which role. */
import { Effect } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { Member } from "@quire/api"
import * as Fields from "../Fields.ts"
import * as Output from "../Output.ts"
import * as Pages from "../Pages.ts"
import { QuireClient } from "../QuireClient.ts"
import { invite, organizationId, roles, toApiRole } from "./OrganizationsCommands.ts"

const columns: ReadonlyArray<Output.Column<Member>> = [
  { header: "id", value: (member) => member.id },
  { header: "name", value: (member) => member.user.displayName },
  { header: "email", value: (member) => member.user.email ?? "" },
  { header: "role", value: (member) => Output.role(member.role) },
  { header: "joined", value: (member) => Output.when(member.joinedAt) }
]

const showMember = (member: Member) =>
  Output.details([
    ["id", member.id],
    ["name", member.user.displayName],
    ["email", member.user.email],
    ["role", Output.role(member.role)],
    ["joined", Output.when(member.joinedAt)],
    ["last seen", Output.when(member.lastSeenAt)],
    ["disabled", Output.yesNo(member.disabled)],
    ["sso", Output.yesNo(member.sso)],
    ["teams", String(member.teams)]
  ])

const userId = Argument.String("user-id").pipe(Argument.withDescription("The member's user id"))

const list = Command.make(
  "list",
  {
    organizationId,
    role: Flag.Literals("role", roles).pipe(Flag.withDescription("Only members with this role"), Flag.optional),
    search: Flag.String("search").pipe(
      Flag.withDescription("Only members whose name or email contains this"),
      Flag.optional
    ),
    sort: Flag.Literals("sort", ["joinedAt", "lastSeenAt", "name"]).pipe(
      Flag.withDescription("Sort key"),
      Flag.optional
    ),
    order: Flag.Literals("order", ["asc", "desc"]).pipe(Flag.withDescription("Sort order"), Flag.optional),
    ...Pages.flags
  },
  Effect.fn("quire.members.list")(function*({ limit, order, organizationId, pageSize, role, search, sort }) {
    const client = yield* QuireClient
    const filters = {
      ...Fields.optional("role", role),
      ...Fields.optional("search", search),
      ...Fields.optional("sort", sort),
      ...Fields.optional("order", order)
    }
    const members = yield* Pages.collect(
      (page) =>
        client.members.listMembersInOrganizationById({ params: { organizationId }, query: { ...filters, ...page } }),
      { limit, pageSize }
    )
    yield* Output.printList(members, columns, "No members match.")
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List the members of an organization"),
  Command.withAlias("ls")
)

const get = Command.make(
  "get",
  { organizationId, userId },
  Effect.fn("quire.members.get")(function*({ organizationId, userId }) {
    const client = yield* QuireClient
    yield* Output.print(
      yield* client.members.getMemberInOrganizationById({ params: { organizationId, userId } }),
      showMember
    )
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Show a member of an organization")
)

const setRole = Command.make(
  "set-role",
  {
    organizationId,
    userId,
    role: Argument.Literals("role", roles).pipe(Argument.withDescription("The new role"))
  },
  Effect.fn("quire.members.setRole")(function*({ organizationId, role, userId }) {
    const client = yield* QuireClient
    const member = yield* client.members.updateMemberInOrganizationById({
      params: { organizationId, userId },
      payload: { role: toApiRole(role) }
    })
    yield* Output.print(member, showMember)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Change a member's role"),
  Command.withAlias("role"),
  Command.withExamples([{ command: "quire members role ORG_ID USER_ID edit" }])
)

const remove = Command.make(
  "remove",
  { organizationId, userId },
  Effect.fn("quire.members.remove")(function*({ organizationId, userId }) {
    const client = yield* QuireClient
    yield* client.members.removeMemberFromOrganizationById({ params: { organizationId, userId } })
    yield* Output.done(`Removed ${userId} from ${organizationId}.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Remove a member from an organization"),
  Command.withAlias("rm")
)

/** `quire members ...` */
export const members = Command.make("members").pipe(
  Command.withDescription("Manage the members of an organization"),
  Command.withSubcommands([list, get, invite, setRole, remove])
)
