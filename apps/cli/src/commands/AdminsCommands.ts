/**
 * `quire admins`: the instance administrators, through the server's `/admin/users` routes (outside
 * `/v1`: GitBook's API has none). After first-run setup, only an instance administrator grants or
 * withdraws instance administration; the server refuses to withdraw the last one.
 */
import { Effect } from "effect"
import { Argument, Command } from "effect/cli"
import { HttpClientRequest, type HttpClientResponse } from "effect/http"
import { CliFailure } from "../Failure.ts"
import * as Output from "../Output.ts"
import { QuireHttp } from "../QuireClient.ts"

interface Admin {
  readonly id: string
  readonly displayName: string
  readonly email: string
}

const userId = Argument.String("user-id").pipe(Argument.withDescription("The user's id"))

/** The answer's JSON when it is 200; the server's error message (or its status) as the failure otherwise. */
const bodyOf = Effect.fnUntraced(function*(baseUrl: string, request: HttpClientRequest.HttpClientRequest) {
  const { httpClient } = yield* QuireHttp
  const response: HttpClientResponse.HttpClientResponse = yield* httpClient.execute(request).pipe(
    Effect.mapError((error) => new CliFailure({ message: `Cannot reach the server at ${baseUrl}: ${error.message}` }))
  )
  const body: unknown = yield* Effect.orElseSucceed(response.json, () => undefined)
  if (response.status !== 200) {
    const message = (body as { readonly error?: { readonly message?: unknown } } | undefined)?.error?.message
    return yield* new CliFailure({ message: typeof message === "string" ? message : `The server answered ${response.status}` })
  }
  return body
})

const list = Command.make(
  "list",
  {},
  Effect.fn("quire.admins.list")(function*() {
    const { baseUrl } = yield* QuireHttp
    const body = (yield* bodyOf(baseUrl, HttpClientRequest.get(`${baseUrl}/admin/users`, { urlParams: { instanceAdmin: "true" } }))) as { readonly items: ReadonlyArray<Admin> }
    yield* Output.printList(body, [
      { header: "ID", value: (admin) => admin.id },
      { header: "NAME", value: (admin) => admin.displayName, shrink: "end" },
      { header: "EMAIL", value: (admin) => admin.email }
    ], "No instance administrators.")
  })
).pipe(
  Command.provide(QuireHttp.layer),
  Command.withDescription("List the instance administrators (instance administrators only)")
)

const set = (name: "grant" | "revoke", instanceAdmin: boolean) =>
  Command.make(
    name,
    { userId },
    Effect.fn(`quire.admins.${name}`)(function*({ userId }) {
      const { baseUrl } = yield* QuireHttp
      const request = HttpClientRequest.bodyJsonUnsafe(
        HttpClientRequest.put(`${baseUrl}/admin/users/${encodeURIComponent(userId)}/instance-admin`),
        { instanceAdmin }
      )
      const user = (yield* bodyOf(baseUrl, request)) as Admin & { readonly instanceAdmin: boolean }
      yield* Output.done(
        instanceAdmin
          ? `${user.displayName} (${user.email}) is an instance administrator.`
          : `${user.displayName} (${user.email}) is no longer an instance administrator.`,
        user
      )
    })
  ).pipe(
    Command.provide(QuireHttp.layer),
    Command.withDescription(
      instanceAdmin
        ? "Make a user an instance administrator (instance administrators only)"
        : "Withdraw instance administration from a user (instance administrators only; never the last one)"
    ),
    Command.withExamples([{ command: `quire admins ${name} USER_ID` }])
  )

/** `quire admins ...` */
export const admins = Command.make("admins").pipe(
  Command.withDescription("Grant and withdraw instance administration"),
  Command.withSubcommands([list, set("grant", true), set("revoke", false)])
)
