/** `quire saml`: an organization's SAML identity providers, for single sign-on. */
import { Effect, FileSystem, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { SamlProvider } from "@quire/api"
import * as Fields from "../Fields.ts"
import * as Output from "../Output.ts"
import * as Pages from "../Pages.ts"
import { QuireClient } from "../QuireClient.ts"
import { organizationId, roles, toApiRole } from "./OrganizationsCommands.ts"

const columns: ReadonlyArray<Output.Column<SamlProvider>> = [
  { header: "id", value: (p) => p.id },
  { header: "label", value: (p) => p.label },
  { header: "status", value: (p) => p.status },
  { header: "role", value: (p) => Output.role(p.defaultRole) },
  { header: "sso url", value: (p) => p.ssoURL, shrink: "start" }
]

const showProvider = (p: SamlProvider) =>
  Output.details([
    ["id", p.id],
    ["label", p.label],
    ["status", p.status],
    ["idp entity id", p.entityID],
    ["idp sso url", p.ssoURL],
    ["default role", Output.role(p.defaultRole)],
    ["default team", p.defaultTeam?.id],
    ["acs url", p.service.acsURL],
    ["sp entity id", p.service.entityID],
    ["sp metadata", p.service.metadataURL],
    ["sign-in url", p.service.startURL]
  ])

const list = Command.make(
  "list",
  { organizationId, ...Pages.flags },
  Effect.fn("quire.saml.list")(function*({ limit, organizationId, pageSize }) {
    const client = yield* QuireClient
    const found = yield* Pages.collect(
      (query) => client.sso.listSAMLProvidersInOrganizationById({ params: { organizationId }, query }),
      { limit, pageSize }
    )
    yield* Output.printList(found, columns, "No SAML providers (quire saml add ORG_ID LABEL ...).")
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List an organization's SAML identity providers (admins)"),
  Command.withAlias("ls")
)

const add = Command.make(
  "add",
  {
    organizationId,
    label: Argument.String("label").pipe(Argument.withDescription("A name for the provider, 1 to 30 characters")),
    entityId: Flag.String("entity-id").pipe(Flag.withDescription("The identity provider's entity id"), Flag.optional),
    ssoUrl: Flag.String("sso-url").pipe(Flag.withDescription("The identity provider's sign-in URL"), Flag.optional),
    certificate: Flag.String("certificate").pipe(
      Flag.withDescription("A file holding the identity provider's signing certificate (PEM)"),
      Flag.optional
    ),
    role: Flag.Literals("role", roles).pipe(Flag.withDescription("Role of people who join through it"), Flag.optional),
    team: Flag.String("team").pipe(Flag.withDescription("A team people who join through it are added to"), Flag.optional)
  },
  Effect.fn("quire.saml.add")(function*({ certificate, entityId, label, organizationId, role, ssoUrl, team }) {
    const client = yield* QuireClient
    const fs = yield* FileSystem.FileSystem
    const pem = Option.isSome(certificate) ? Option.some(yield* fs.readFileString(certificate.value)) : Option.none()
    const provider = yield* client.sso.createOrganizationSAMLProvider({
      params: { organizationId },
      payload: {
        label,
        ...Fields.optional("entityID", entityId),
        ...Fields.optional("ssoURL", ssoUrl),
        ...Fields.optional("certificate", pem),
        ...Fields.optional("defaultRole", Option.map(role, toApiRole)),
        ...Fields.optional("defaultTeam", team)
      }
    })
    yield* Output.print(provider, showProvider)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Add a SAML identity provider; it is active once it has an entity id, a sign-in URL and a certificate (admins)"),
  Command.withExamples([{
    command: "quire saml add ORG_ID Okta --entity-id http://www.okta.com/abc --sso-url https://acme.okta.com/app/abc/sso/saml --certificate okta.pem"
  }])
)

const remove = Command.make(
  "rm",
  {
    organizationId,
    providerId: Argument.String("provider-id").pipe(Argument.withDescription("The provider's id (quire saml list)"))
  },
  Effect.fn("quire.saml.remove")(function*({ organizationId, providerId }) {
    const client = yield* QuireClient
    yield* client.sso.deleteOrganizationSAMLProvider({ params: { organizationId, samlProviderId: providerId } })
    yield* Output.done(`Removed SAML provider ${providerId}.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Remove a SAML provider; its members sign in with tokens only (admins)"),
  Command.withAlias("delete")
)

/** `quire saml ...` */
export const saml = Command.make("saml").pipe(
  Command.withDescription("Manage an organization's SAML single sign-on providers"),
  Command.withSubcommands([list, add, remove])
)
