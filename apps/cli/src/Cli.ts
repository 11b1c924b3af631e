/**
 * The `quire` command tree and its runner. `run` takes the arguments and answers the exit
 * status instead of exiting, and prints only through `Console`, so tests run it in-process.
 */
import { Console, Effect, Logger, Predicate } from "effect"
import { CliError, CliOutput, Command } from "effect/cli"
// node:http rather than fetch: a call then skips loading undici (a tenth of its start-up).
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import packageJson from "../package.json" with { type: "json" }
import {
  AdminsCommands,
  AuditCommands,
  ChangeRequestsCommands,
  CollectionsCommands,
  CommentsCommands,
  DbCommands,
  FilesCommands,
  GitCommands,
  InvitesCommands,
  LinksCommands,
  LoginCommand,
  MembersCommands,
  OidcCommands,
  OrganizationsCommands,
  PagesCommands,
  SamlCommands,
  SearchCommands,
  SitesCommands,
  SpacesCommands,
  SpecsCommands,
  TeamsCommands,
  TokensCommands,
  TranslationsCommands,
  UsersCommands
} from "./commands/index.ts"
import * as Failure from "./Failure.ts"
import * as GlobalFlags from "./GlobalFlags.ts"

/** Exit statuses: success, a failed operation, a command line that does not parse. */
export const ExitCode = { ok: 0, failure: 1, usage: 2 } as const

/** The root command. */
export const quire = Command.make("quire").pipe(
  Command.withDescription(
    "Command-line client of a Quire server. Configure it with QUIRE_URL and QUIRE_TOKEN (or --url and --token)."
  ),
  Command.withSubcommands([
    LoginCommand.login,
    UsersCommands.whoami,
    UsersCommands.users,
    TokensCommands.tokens,
    OrganizationsCommands.orgs,
    MembersCommands.members,
    InvitesCommands.invites,
    SamlCommands.saml,
    OidcCommands.oidc,
    TeamsCommands.teams,
    SpacesCommands.spaces,
    CollectionsCommands.collections,
    SearchCommands.search,
    PagesCommands.pages,
    FilesCommands.files,
    CommentsCommands.comments,
    LinksCommands.links,
    ChangeRequestsCommands.cr,
    GitCommands.git,
    SitesCommands.sites,
    SpecsCommands.specs,
    TranslationsCommands.translations,
    AdminsCommands.admins,
    AuditCommands.audit,
    DbCommands.db
  ]),
  // After the subcommands, so the settings they read are provided to them.
  Command.withGlobalFlags(GlobalFlags.all),
  Command.withExamples([
    { command: "QUIRE_TOKEN=... quire orgs list", description: "List your organizations" },
    { command: "quire members list ORG_ID --role admin --json", description: "Admins of an organization, as JSON" },
    { command: "quire spaces create ORG_ID Handbook --emoji 📘", description: "Create a space" },
    { command: "quire sites publish ORG_ID SITE_ID", description: "Publish a docs site" },
    { command: "quire search ORG_ID \"incident response\"", description: "Search the content of an organization" },
    { command: "quire pages get SPACE_ID guides/install > install.md", description: "Read a page as markdown" },
    { command: "quire cr apply SPACE_ID 3 docs/", description: "Apply a folder of markdown to change request #3" }
  ])
)

/** Subcommand help points at `quire --help` for the global flags instead of repeating them. */
const formatter = CliOutput.layer(CliOutput.defaultFormatter({ globalFlags: "summary" }))

/** A command line that does not parse: the errors and where to read usage, all on stderr. */
const presenter = CliOutput.layerPresenter({
  present: (event) =>
    Predicate.isTagged(event, "InvalidInvocation")
      ? Effect.gen(function*() {
        const format = yield* CliOutput.Formatter
        yield* Console.error(format.formatErrors(event.errors))
        yield* Console.error(`\nSee '${event.commandPath.join(" ")} --help'.`)
      })
      : CliOutput.defaultPresenter.present(event)
})

const usage = (error: CliError.CliError) =>
  Predicate.isTagged(error, "ShowHelp")
    // Help and the parse errors have already been presented by the runner.
    ? Effect.succeed(error.errors.length === 0 ? ExitCode.ok : ExitCode.usage)
    : Console.error(`quire: ${error.message}`).pipe(Effect.as(ExitCode.usage))

/**
 * Runs `quire` with `args` (without the program name) and answers its exit status. Results go
 * to `Console.log`, failures to `Console.error` as one line, logs to stderr.
 */
export const run = (args: ReadonlyArray<string>): Effect.Effect<number, never, Command.Environment> =>
  Command.runWith(quire, { version: packageJson.version })(args).pipe(
    Effect.as<number>(ExitCode.ok),
    Effect.catch((error) =>
      CliError.isCliError(error)
        ? usage(error)
        : Effect.flatMap(Failure.describe(error), (message) => Console.error(`quire: ${message}`)).pipe(
          Effect.as(ExitCode.failure)
        )
    ),
    Effect.catchDefect((defect) =>
      Console.error(`quire: unexpected error: ${defect instanceof Error ? defect.message : String(defect)}`).pipe(
        Effect.as(ExitCode.failure)
      )
    ),
    Effect.provide([NodeHttpClient.layerNodeHttp, formatter, presenter]),
    Effect.provideService(Logger.LogToStderr, true)
  )
