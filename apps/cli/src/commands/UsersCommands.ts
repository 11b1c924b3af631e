/** `quire whoami` and `quire users`: accounts and their API tokens. */
import { Effect } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { Schemas } from "@quire/api"
import * as Output from "../Output.ts"
import { QuireClient } from "../QuireClient.ts"
import { issueToken, newTokenFlags } from "./TokensCommands.ts"

const showUser = (user: Schemas.User) =>
  Output.details([
    ["id", user.id],
    ["name", user.displayName],
    ["email", user.email],
    ["url", user.urls.location]
  ])

const userId = Argument.String("user-id").pipe(Argument.withDescription("The user's id"))

/** The user behind the token. */
export const whoami = Command.make(
  "whoami",
  {},
  Effect.fn("quire.whoami")(function*() {
    const client = yield* QuireClient
    yield* Output.print(yield* client.users.getAuthenticatedUser(), showUser)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Show the user the API token belongs to")
)

const get = Command.make(
  "get",
  { userId },
  Effect.fn("quire.users.get")(function*({ userId }) {
    const client = yield* QuireClient
    yield* Output.print(yield* client.users.getUserById({ params: { userId } }), showUser)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Show a user")
)

const create = Command.make(
  "create",
  {
    email: Flag.String("email").pipe(Flag.withDescription("Email address of the new user")),
    name: Flag.String("name").pipe(Flag.withDescription("Display name of the new user"))
  },
  Effect.fn("quire.users.create")(function*({ email, name }) {
    const client = yield* QuireClient
    yield* Output.print(yield* client.users.createUser({ payload: { email, displayName: name } }), showUser)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Create a user account (instance administrators only)"),
  Command.withExamples([{ command: "quire users create --email ada@example.com --name Ada" }])
)

const token = Command.make(
  "token",
  { userId, ...newTokenFlags },
  Effect.fn("quire.users.token")(function*({ userId, ...flags }) {
    yield* issueToken(userId, flags)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Issue an API token for a user (the user or an instance administrator)"),
  Command.withExamples([{ command: "quire users token usr_123 --label ci --expires-at 2027-01-31T00:00:00Z" }])
)

/** `quire users ...` */
export const users = Command.make("users").pipe(
  Command.withDescription("Manage user accounts and API tokens"),
  Command.withSubcommands([get, create, token])
)
