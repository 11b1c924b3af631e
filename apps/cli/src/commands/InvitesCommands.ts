/** `quire invites`: an organization's invite links, which let whoever holds one join with its role. */
import { Clock, DateTime, Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { LinkInvite } from "@quire/api"
import { CliFailure } from "../Failure.ts"
import * as Fields from "../Fields.ts"
import * as Output from "../Output.ts"
import * as Pages from "../Pages.ts"
import { QuireClient } from "../QuireClient.ts"
import { organizationId, roles, toApiRole } from "./OrganizationsCommands.ts"

const columns: ReadonlyArray<Output.Column<LinkInvite>> = [
  { header: "id", value: (invite) => invite.id },
  { header: "role", value: (invite) => Output.role(invite.role) },
  { header: "created", value: (invite) => Output.when(invite.createdAt) },
  { header: "expires", value: (invite) => (invite.expiresAt === undefined ? "never" : Output.when(invite.expiresAt)) },
  { header: "url", value: (invite) => invite.urls.location }
]

const units = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const

/**
 * `--expires` as the API's timestamp: an ISO date-time as given, or a span from now (`30m`,
 * `12h`, `7d`).
 */
export const expiryOf = Effect.fnUntraced(function*(given: string) {
  const span = /^(\d+)([mhd])$/.exec(given.trim())
  if (span !== null) {
    const now = yield* Clock.currentTimeMillis
    return new Date(now + Number(span[1]) * units[span[2] as keyof typeof units]).toISOString()
  }
  if (Option.isNone(DateTime.make(given))) {
    return yield* new CliFailure({ message: `--expires must be a date-time (2027-01-31T00:00:00Z) or a span (30m, 12h, 7d), got ${given}` })
  }
  return given
})

const list = Command.make(
  "list",
  { organizationId, ...Pages.flags },
  Effect.fn("quire.invites.list")(function*({ limit, organizationId, pageSize }) {
    const client = yield* QuireClient
    const invites = yield* Pages.collect(
      (query) => client.organizations.listOrganizationInviteLinks({ params: { organizationId }, query }),
      { limit, pageSize }
    )
    yield* Output.printList(invites, columns, "No invite links (quire invites create ORG_ID --role read).")
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List an organization's invite links with their role and expiry (admins)"),
  Command.withAlias("ls")
)

const create = Command.make(
  "create",
  {
    organizationId,
    role: Flag.Literals("role", roles).pipe(Flag.withDescription("Role of those who join with the link"), Flag.optional),
    expires: Flag.String("expires").pipe(
      Flag.withDescription("When the link stops working: a date-time (2027-01-31T00:00:00Z) or a span (12h, 7d). Default: never"),
      Flag.optional
    )
  },
  Effect.fn("quire.invites.create")(function*({ expires, organizationId, role }) {
    const client = yield* QuireClient
    const expiresAt = Option.isSome(expires) ? Option.some(yield* expiryOf(expires.value)) : Option.none()
    const invite = yield* client.organizations.createOrganizationInvite({
      params: { organizationId },
      payload: { ...Fields.optional("role", Option.map(role, toApiRole)), ...Fields.optional("expiresAt", expiresAt) }
    })
    yield* Output.print(invite, (invite) => invite.urls.location)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Create an invite link and print its URL: whoever opens it may join with the role (admins)"),
  Command.withExamples([
    { command: "quire invites create ORG_ID --role edit --expires 7d", description: "A link for editors, valid a week" }
  ])
)

const remove = Command.make(
  "rm",
  {
    organizationId,
    inviteId: Argument.String("invite-id").pipe(Argument.withDescription("The invite link's id (quire invites list)"))
  },
  Effect.fn("quire.invites.remove")(function*({ inviteId, organizationId }) {
    const client = yield* QuireClient
    yield* client.organizations.deleteOrganizationInviteById({ params: { organizationId, inviteId } })
    yield* Output.done(`Deleted invite link ${inviteId}: it no longer lets anyone join.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Delete an invite link so it can no longer be used (admins)"),
  Command.withAlias("delete")
)

/** `quire invites ...` */
export const invites = Command.make("invites").pipe(
  Command.withDescription("Manage an organization's invite links (invite people by email with quire members invite)"),
  Command.withSubcommands([list, create, remove])
)
