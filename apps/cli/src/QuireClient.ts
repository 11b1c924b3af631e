/** The typed client of the Quire API, derived from the contract in `@quire/api`. */
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { HttpApi, HttpApiClient, HttpApiMiddleware } from "effect/http-api"
import { Api, Authentication } from "@quire/api"
import * as Credentials from "./Credentials.ts"
import { CliFailure } from "./Failure.ts"
import * as GlobalFlags from "./GlobalFlags.ts"

export const missingToken = new CliFailure({
  message: "No API token: set QUIRE_TOKEN (export QUIRE_TOKEN=<token>) or pass --token <token>. " +
    "The server prints the administrator's token when it first starts; `quire users token <user-id>` issues more; " +
    "`quire login --sso ORG` gets one through your organization's single sign-on."
})

/**
 * The contract, except that the client sends query strings without checking them (they are
 * still encoded): the server judges them, so a refusal (`quire search ORG ""`) prints the
 * server's own 400 message rather than a schema error worded by the client.
 */
const lenientQueries = Api.annotate(HttpApi.QueryParseOptions, { disableChecks: true })

/** The server's base URL and the caller's token, from the flags, the environment or `quire login`. */
const connection = Effect.gen(function*() {
  const url = yield* GlobalFlags.Url
  const given = Option.filter(
    Option.map(yield* GlobalFlags.Token, Redacted.value),
    (token) => token.trim() !== ""
  )
  const token = Option.isSome(given) ? given : yield* Credentials.load(url)
  if (Option.isNone(token)) return yield* missingToken
  return { baseUrl: url.replace(/\/+$/, ""), token: token.value }
})

/** The client of the server at `--url`/QUIRE_URL, sending `--token`/QUIRE_TOKEN as bearer. */
export class QuireClient extends Context.Service<QuireClient, HttpApiClient.ForApi<typeof Api>>()(
  "@quire/cli/QuireClient"
) {
  /** Needs an HttpClient; fails with `missingToken` when no token is configured. */
  static readonly layer = Layer.effect(
    QuireClient,
    Effect.gen(function*() {
      const { baseUrl, token } = yield* connection
      const bearer = HttpApiMiddleware.layerClient(
        Authentication,
        ({ next, request }) => next(HttpClientRequest.bearerToken(request, token))
      )
      const httpClient = yield* HttpClient.HttpClient
      // Each group's client is built when a command first uses it: building all of them (every
      // endpoint's encoders and decoders) was a tenth of a call's start-up, for the one or two a command calls.
      const groups = new Map<string, unknown>()
      const groupOf = (group: string) => {
        const built = groups.get(group) ?? Effect.runSync(
          HttpApiClient.group(lenientQueries, { group: group as never, httpClient, baseUrl }).pipe(Effect.provide(bearer))
        )
        groups.set(group, built)
        return built
      }
      return new Proxy({}, {
        get: (_, group) => (typeof group === "string" && Object.hasOwn(Api.groups, group) ? groupOf(group) : undefined)
      }) as HttpApiClient.ForApi<typeof Api>
    })
  )
}

/**
 * The same server and token as a plain HTTP client, for a body the typed client would check and
 * refuse before sending (a customization file: the server's 400 names the field). Answers are
 * still decoded with the contract (`HttpApiClient.decodeResponse`).
 */
export class QuireHttp extends Context.Service<QuireHttp, {
  readonly baseUrl: string
  readonly httpClient: HttpClient.HttpClient
}>()("@quire/cli/QuireHttp") {
  static readonly layer = Layer.effect(
    QuireHttp,
    Effect.gen(function*() {
      const { baseUrl, token } = yield* connection
      const httpClient = HttpClient.mapRequest(yield* HttpClient.HttpClient, HttpClientRequest.bearerToken(token))
      return { baseUrl, httpClient }
    })
  )
}
