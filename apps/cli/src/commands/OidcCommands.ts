/** `quire oidc`: an organization's OpenID Connect identity providers, for single sign-on (a Quire extension). */
import { Effect, FileSystem, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { OidcProvider } from "@quire/api"
import * as Fields from "../Fields.ts"
import * as Output from "../Output.ts"
import * as Pages from "../Pages.ts"
import { QuireClient } from "../QuireClient.ts"
import { organizationId, roles, toApiRole } from "./OrganizationsCommands.ts"

const columns: ReadonlyArray<Output.Column<OidcProvider>> = [
  { header: "id", value: (p) => p.id },
  { header: "label", value: (p) => p.label },
  { header: "client id", value: (p) => p.clientId },
  { header: "role", value: (p) => Output.role(p.defaultRole) },
  { header: "discovery url", value: (p) => p.discoveryURL, shrink: "start" }
]

const showProvider = (p: OidcProvider) =>
  Output.details([
    ["id", p.id],
    ["label", p.label],
    ["discovery url", p.discoveryURL],
    ["client id", p.clientId],
    ["client secret", p.clientSecretSet ? "set (never shown)" : "not set"],
    ["scopes", ["openid", "email", "profile", ...p.scopes].join(" ")],
    ["default role", Output.role(p.defaultRole)],
    ["default team", p.defaultTeam?.id],
    ["redirect url", p.service.redirectURL],
    ["sign-in url", p.service.startURL]
  ])

const list = Command.make(
  "list",
  { organizationId, ...Pages.flags },
  Effect.fn("quire.oidc.list")(function*({ limit, organizationId, pageSize }) {
    const client = yield* QuireClient
    const found = yield* Pages.collect(
      (query) => client.sso.listOIDCProvidersInOrganizationById({ params: { organizationId }, query }),
      { limit, pageSize }
    )
    yield* Output.printList(found, columns, "No OpenID Connect providers (quire oidc add ORG_ID LABEL ...).")
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List an organization's OpenID Connect identity providers (admins)"),
  Command.withAlias("ls")
)

const add = Command.make(
  "add",
  {
    organizationId,
    label: Argument.String("label").pipe(Argument.withDescription("A name for the provider, 1 to 30 characters")),
    discoveryUrl: Flag.String("discovery-url").pipe(Flag.withDescription("The provider's issuer URL, or its /.well-known/openid-configuration")),
    clientId: Flag.String("client-id").pipe(Flag.withDescription("The client id Quire was registered with at the provider")),
    clientSecretFile: Flag.String("client-secret-file").pipe(
      Flag.withDescription("A file holding the client secret (kept off the command line; the server never shows it again)")
    ),
    scope: Flag.String("scope").pipe(Flag.withDescription("A scope to ask for besides openid, email and profile (repeatable)"), Flag.atLeast(0)),
    role: Flag.Literals("role", roles).pipe(Flag.withDescription("Role of people who join through it"), Flag.optional),
    team: Flag.String("team").pipe(Flag.withDescription("A team people who join through it are added to"), Flag.optional)
  },
  Effect.fn("quire.oidc.add")(function*({ clientId, clientSecretFile, discoveryUrl, label, organizationId, role, scope, team }) {
    const client = yield* QuireClient
    const fs = yield* FileSystem.FileSystem
    const clientSecret = (yield* fs.readFileString(clientSecretFile)).trim()
    const provider = yield* client.sso.createOrganizationOIDCProvider({
      params: { organizationId },
      payload: {
        label,
        discoveryURL: discoveryUrl,
        clientId,
        clientSecret,
        ...(scope.length === 0 ? {} : { scopes: scope }),
        ...Fields.optional("defaultRole", Option.map(role, toApiRole)),
        ...Fields.optional("defaultTeam", team)
      }
    })
    yield* Output.print(provider, showProvider)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Add an OpenID Connect provider; register its redirect URL at the provider (admins)"),
  Command.withExamples([{
    command: "quire oidc add ORG_ID Google --discovery-url https://accounts.google.com --client-id 123.apps.googleusercontent.com --client-secret-file secret.txt"
  }])
)

const remove = Command.make(
  "rm",
  {
    organizationId,
    providerId: Argument.String("provider-id").pipe(Argument.withDescription("The provider's id (quire oidc list)"))
  },
  Effect.fn("quire.oidc.remove")(function*({ organizationId, providerId }) {
    const client = yield* QuireClient
    yield* client.sso.deleteOrganizationOIDCProvider({ params: { organizationId, oidcProviderId: providerId } })
    yield* Output.done(`Removed OpenID Connect provider ${providerId}.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Remove an OpenID Connect provider (admins)"),
  Command.withAlias("delete")
)

/** `quire oidc ...` */
export const oidc = Command.make("oidc").pipe(
  Command.withDescription("Manage an organization's OpenID Connect single sign-on providers"),
  Command.withSubcommands([list, add, remove])
)
