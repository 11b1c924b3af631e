/** `quire tokens`: list, create and revoke API tokens (your own, or a user's as an instance administrator). */
import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import * as Fields from "../Fields.ts"
import * as Output from "../Output.ts"
import * as Pages from "../Pages.ts"
import { QuireClient } from "../QuireClient.ts"

const user = Flag.String("user").pipe(
  Flag.withDescription("Whose tokens (a user id; instance administrators only). Default: yours"),
  Flag.optional
)

/** The user the command is about: `--user`, else the token's own. */
const owner = Effect.fnUntraced(function*(user: Option.Option<string>) {
  if (Option.isSome(user)) return user.value
  const client = yield* QuireClient
  return (yield* client.users.getAuthenticatedUser()).id
})

const list = Command.make(
  "list",
  { user, ...Pages.flags },
  Effect.fn("quire.tokens.list")(function*({ limit, pageSize, user }) {
    const client = yield* QuireClient
    const userId = yield* owner(user)
    yield* Output.printList(
      yield* Pages.collect((page) => client.users.listUserTokens({ params: { userId }, query: page }), { limit, pageSize }),
      [
        { header: "id", value: (token) => token.id },
        { header: "label", value: (token) => token.label ?? "" },
        { header: "created", value: (token) => Output.when(token.createdAt) },
        { header: "last used", value: (token) => (token.lastUsedAt === undefined ? "never" : Output.when(token.lastUsedAt)) },
        { header: "expires", value: (token) => (token.expiresAt === undefined ? "never" : Output.when(token.expiresAt)) }
      ],
      "No tokens."
    )
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List API tokens: label, creation, last use and expiry (never the secrets)")
)

/** The flags of a new token, shared by `quire tokens create` and `quire users token`. */
export const newTokenFlags = {
  label: Flag.String("label").pipe(Flag.withDescription("A note saying what the token is for"), Flag.optional),
  expiresAt: Flag.String("expires-at").pipe(
    Flag.withDescription("When the token stops working, e.g. 2027-01-31T00:00:00Z. Default: never"),
    Flag.optional
  )
}

/** Issues a token for `userId` and prints it (its secret shown this once). */
export const issueToken = Effect.fnUntraced(function*(
  userId: string,
  { expiresAt, label }: { readonly label: Option.Option<string>; readonly expiresAt: Option.Option<string> }
) {
  const client = yield* QuireClient
  const issued = yield* client.users.createUserToken({
    params: { userId },
    payload: { ...Fields.optional("label", label), ...Fields.optional("expiresAt", expiresAt) }
  })
  yield* Output.print(issued, (issued) =>
    Output.details([
      ["id", issued.id],
      ["label", issued.label],
      ["created", Output.when(issued.createdAt)],
      ["expires", issued.expiresAt === undefined ? "never" : Output.when(issued.expiresAt)],
      ["token", issued.token]
    ]) + "\n\nThe token is shown only now: store it (e.g. export QUIRE_TOKEN=...).")
})

const create = Command.make(
  "create",
  { user, ...newTokenFlags },
  Effect.fn("quire.tokens.create")(function*({ user, ...flags }) {
    yield* issueToken(yield* owner(user), flags)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Issue an API token; its secret is shown once"),
  Command.withExamples([{ command: "quire tokens create --label ci --expires-at 2027-01-31T00:00:00Z" }])
)

const revoke = Command.make(
  "revoke",
  { user, tokenId: Argument.String("token-id").pipe(Argument.withDescription("The token's id (see `quire tokens list`)")) },
  Effect.fn("quire.tokens.revoke")(function*({ tokenId, user }) {
    const client = yield* QuireClient
    const userId = yield* owner(user)
    yield* client.users.deleteUserTokenById({ params: { userId, tokenId } })
    yield* Output.done(`Revoked token ${tokenId}: it no longer works.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Revoke an API token: it stops working at once")
)

/** `quire tokens ...` */
export const tokens = Command.make("tokens").pipe(
  Command.withDescription("List, create and revoke API tokens"),
  Command.withSubcommands([list, create, revoke])
)
