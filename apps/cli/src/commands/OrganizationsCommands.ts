/** `quire orgs`: organizations the caller belongs to, their settings and invitations. */
import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { Organization } from "@quire/api"
import { CliFailure } from "../Failure.ts"
import * as Fields from "../Fields.ts"
import * as Output from "../Output.ts"
import * as Pages from "../Pages.ts"
import { QuireClient } from "../QuireClient.ts"

/** Roles a member can be given; `guest` is the API's `null`. */
export const roles = ["admin", "create", "review", "edit", "comment", "read", "guest"] as const
export type RoleName = typeof roles[number]
export const toApiRole = (role: RoleName) => (role === "guest" ? null : role)

const columns: ReadonlyArray<Output.Column<Organization>> = [
  { header: "id", value: (org) => org.id },
  { header: "title", value: (org) => org.title },
  { header: "admin", value: (org) => Output.yesNo(org.permissions.admin) },
  { header: "created", value: (org) => Output.when(org.createdAt) }
]

const showOrganization = (org: Organization) =>
  Output.details([
    ["id", org.id],
    ["title", org.title],
    ["created", Output.when(org.createdAt)],
    ["email domains", org.emailDomains.join(", ")],
    ["hostname", org.hostname],
    // As the API answers it: `null` (nobody joins on their own with a role), not a made-up "guest".
    ["default role", org.defaultRole ?? "null"],
    ["sso", Output.yesNo(org.sso)],
    ["ai", Output.yesNo(org.ai)],
    ["invite links", Output.yesNo(org.inviteLinks)],
    ["admin", Output.yesNo(org.permissions.admin)],
    ["url", org.urls.app]
  ])

/** The organization id argument, shared by every command that acts on one organization. */
export const organizationId = Argument.String("org-id").pipe(Argument.withDescription("The organization's id"))

const emailDomains = Flag.String("email-domain").pipe(
  Flag.withDescription("An email domain whose users may join (repeatable)"),
  Flag.atLeast(0)
)

const list = Command.make(
  "list",
  Pages.flags,
  Effect.fn("quire.orgs.list")(function*(options) {
    const client = yield* QuireClient
    const organizations = yield* Pages.collect(
      (query) => client.organizations.listOrganizationsForAuthenticatedUser({ query }),
      options
    )
    yield* Output.printList(organizations, columns, "You belong to no organization yet (quire orgs create TITLE).")
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List the organizations you belong to"),
  Command.withAlias("ls")
)

const get = Command.make(
  "get",
  { organizationId },
  Effect.fn("quire.orgs.get")(function*({ organizationId }) {
    const client = yield* QuireClient
    const org = yield* client.organizations.getOrganizationById({ params: { organizationId } })
    yield* Output.print(org, showOrganization)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Show an organization")
)

const create = Command.make(
  "create",
  {
    title: Argument.String("title").pipe(Argument.withDescription("The organization's name")),
    emailDomains
  },
  Effect.fn("quire.orgs.create")(function*({ emailDomains, title }) {
    const client = yield* QuireClient
    const org = yield* client.organizations.createOrganization({
      payload: { title, ...Fields.nonEmpty("emailDomains", emailDomains) }
    })
    yield* Output.print(org, showOrganization)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Create an organization; you become its admin"),
  Command.withExamples([{ command: "quire orgs create \"Acme Docs\"" }])
)

const update = Command.make(
  "update",
  {
    organizationId,
    title: Flag.String("title").pipe(Flag.withDescription("New name"), Flag.optional),
    emailDomains,
    hostname: Flag.String("hostname").pipe(Flag.withDescription("New hostname"), Flag.optional),
    defaultRole: Flag.Literals("default-role", [...roles, "null"]).pipe(
      Flag.withDescription("Role given to people who join on their own; null (the API's value, also: guest) for none"),
      Flag.optional
    )
  },
  Effect.fn("quire.orgs.update")(function*({ defaultRole, emailDomains, hostname, organizationId, title }) {
    const payload = {
      ...Fields.optional("title", title),
      ...Fields.nonEmpty("emailDomains", emailDomains),
      ...Fields.optional("hostname", hostname),
      ...Fields.optional("defaultRole", Option.map(defaultRole, (role) => (role === "null" ? null : toApiRole(role))))
    }
    if (Object.keys(payload).length === 0) {
      return yield* new CliFailure({
        message: "Nothing to update: pass --title, --email-domain, --hostname or --default-role"
      })
    }
    const client = yield* QuireClient
    const org = yield* client.organizations.updateOrganizationById({ params: { organizationId }, payload })
    yield* Output.print(org, showOrganization)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Change an organization's settings")
)

/** `invite`: also `quire members invite`. */
export const invite = Command.make(
  "invite",
  {
    organizationId,
    emails: Argument.String("email").pipe(
      Argument.withDescription("Email addresses to invite"),
      Argument.variadic({ min: 1 })
    ),
    role: Flag.Literals("role", roles).pipe(Flag.withDescription("Role of the invited members"), Flag.optional)
  },
  Effect.fn("quire.orgs.invite")(function*({ emails, organizationId, role }) {
    const client = yield* QuireClient
    const result = yield* client.organizations.inviteUsersToOrganization({
      params: { organizationId },
      payload: { emails, ...Fields.optional("role", Option.map(role, toApiRole)) }
    })
    yield* Output.print(result, ({ invited, users }) =>
      users.length === 0
        ? `Invited ${invited}.`
        : `Invited ${invited}; ${users.length} added at once (an instance administrator's invitation): ${users.join(", ")}`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Invite people by email; each joins on accepting the invitation"),
  Command.withExamples([{ command: "quire orgs invite ORG_ID ada@example.com bob@example.com --role edit" }])
)

/** The caller's pending invitation to the organization: the one to accept or decline. */
const invitationTo = Effect.fnUntraced(function*(organizationId: string) {
  const client = yield* QuireClient
  const pending = yield* client.users.listInvitesForAuthenticatedUser()
  const found = pending.items.find((invite) => invite.organization.id === organizationId)
  if (found === undefined) {
    return yield* new CliFailure({ message: `You have no pending invitation to organization ${organizationId} (quire orgs invitations lists yours)` })
  }
  return found
})

const invitations = Command.make(
  "invitations",
  {},
  Effect.fn("quire.orgs.invitations")(function*() {
    const client = yield* QuireClient
    yield* Output.printList(
      yield* client.users.listInvitesForAuthenticatedUser(),
      [
        { header: "org id", value: (invite) => invite.organization.id },
        { header: "organization", value: (invite) => invite.organization.title },
        { header: "role", value: (invite) => invite.role ?? "guest" },
        { header: "sso", value: (invite) => Output.yesNo(invite.sso) },
        { header: "invited", value: (invite) => Output.when(invite.createdAt) }
      ],
      "No pending invitations."
    )
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List the invitations to organizations waiting for you to accept or decline")
)

const accept = Command.make(
  "accept",
  { organizationId },
  Effect.fn("quire.orgs.accept")(function*({ organizationId }) {
    const client = yield* QuireClient
    const invite = yield* invitationTo(organizationId)
    const org = yield* client.organizations.acceptOrganizationMemberInvite({ params: { organizationId, inviteId: invite.id } })
    yield* Output.print(org, (org) => `Joined ${org.title} as ${invite.role ?? "guest"}.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Accept your invitation to an organization: you join it with the invited role")
)

const decline = Command.make(
  "decline",
  { organizationId },
  Effect.fn("quire.orgs.decline")(function*({ organizationId }) {
    const client = yield* QuireClient
    const invite = yield* invitationTo(organizationId)
    yield* client.organizations.declineOrganizationMemberInvite({ params: { organizationId, inviteId: invite.id } })
    yield* Output.done(`Declined the invitation to ${invite.organization.title}.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Decline your invitation to an organization")
)

/** `quire orgs ...` */
export const orgs = Command.make("orgs").pipe(
  Command.withDescription("Manage organizations"),
  Command.withSubcommands([list, get, create, update, invite, invitations, accept, decline])
)
