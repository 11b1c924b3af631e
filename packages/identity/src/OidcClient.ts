/**
 * The edge of openid-client (v6): a provider's configuration by discovery, the authorization URL
 * (PKCE S256, state, nonce) and the code exchange with its ID token checks. Nothing else in Quire
 * calls openid-client.
 */
import { Config, Effect } from "effect"
import { lookup } from "node:dns/promises"
import { isIP } from "node:net"
import * as client from "openid-client"
import { Errors } from "@quire/kernel"
import { type AllowList, parseAllowList, permittedAddresses } from "@quire/outbound"
import { SignInRefused } from "./domain/SignIn.ts"

/** Loopback hosts, where a provider may answer over plain http (a local IdP, the tests' provider). */
const loopbackHosts = new Set(["127.0.0.1", "[::1]", "localhost"])

/** Why `url` cannot be a discovery URL, if it cannot: https, or http on a loopback host. */
export const discoveryUrlProblem = (url: string): string | undefined => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return "must be an absolute URL"
  }
  if (parsed.protocol === "https:") return undefined
  if (parsed.protocol === "http:" && loopbackHosts.has(parsed.hostname)) return undefined
  return "must be an https URL (plain http only on 127.0.0.1, [::1] or localhost)"
}

/** An error's words; openid-client's own wrapper ("something went wrong") gives way to its cause's. */
const describe = (error: unknown): string =>
  error instanceof Error ? (error.cause instanceof Error ? describe(error.cause) : error.message) : String(error)

const isLoopback = (address: string) => address === "::1" || address.startsWith("127.")

/**
 * openid-client's requests (discovery, keys, token, UserInfo) to the hosts Quire may reach: public
 * addresses, loopback (a local IdP, as `discoveryUrlProblem` allows), and `QUIRE_FETCH_ALLOW`'s;
 * a provider's document naming a private address (a cloud's metadata service, an internal host)
 * is refused, as Quire's other outbound requests are (`@quire/outbound`). The address is checked
 * when the request is made; the connection is not pinned to it.
 */
const guardedFetch = (allow: AllowList): client.CustomFetch => async (url, options) => {
  const hostname = new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase()
  const addresses = isIP(hostname) !== 0
    ? [{ address: hostname }]
    : (await lookup(hostname, { all: true })).map((found) => ({ address: found.address }))
  const refused = addresses.filter((found) => !isLoopback(found.address) && permittedAddresses(hostname, [found], allow).length === 0)
  if (addresses.length === 0 || refused.length > 0) {
    throw new Error(`${hostname} (${refused.map((found) => found.address).join(", ")}) is not a public address; QUIRE_FETCH_ALLOW can allow it`)
  }
  return fetch(url, options as RequestInit)
}

/** The provider's signing keys as last fetched (its `jwks_uri`), kept between sign-ins by the caller. */
export type JwksCache = client.ExportedJWKSCache

/**
 * The client configuration of a provider, from its discovery document; every later request of it
 * goes through the same guard. ID tokens are verified against the provider's own keys (its
 * `jwks_uri`): openid-client's non-repudiation checks, which accept only an asymmetric algorithm
 * the provider declares (`id_token_signing_alg_values_supported`, RS256 when it declares none) and
 * refuse `none` and the HS* algorithms keyed by the client secret, which Quire holds too. `jwks`,
 * when given, is the key set fetched by an earlier sign-in: openid-client uses it for up to five
 * minutes and fetches the keys again for a `kid` it does not hold (once the set is a minute old).
 */
export const configure = (discoveryURL: string, clientId: string, clientSecret: string, jwks?: JwksCache) =>
  Effect.gen(function*() {
    const allowed = yield* Config.String("QUIRE_FETCH_ALLOW").pipe(Config.withDefault(""), Effect.orDie)
    const guard = guardedFetch(parseAllowList(allowed.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "")))
    const config = yield* Effect.tryPromise({
      try: () =>
        client.discovery(new URL(discoveryURL), clientId, clientSecret, client.ClientSecretPost(clientSecret), {
          timeout: 10,
          [client.customFetch]: guard,
          execute: new URL(discoveryURL).protocol === "http:" ? [client.allowInsecureRequests] : []
        }),
      catch: (error) => new Errors.InvalidInput({ field: "discoveryURL", reason: `could not read the provider's OpenID configuration: ${describe(error)}` })
    })
    config[client.customFetch] = guard
    client.enableNonRepudiationChecks(config)
    if (jwks !== undefined) client.setJwksCache(config, jwks)
    return config
  })

/** What a sign-in must remember until its callback. */
export interface AuthorizationChecks {
  readonly state: string
  readonly nonce: string
  readonly codeVerifier: string
}

/** Fresh random state, nonce and PKCE verifier. */
export const newChecks = (): AuthorizationChecks => ({
  state: client.randomState(),
  nonce: client.randomNonce(),
  codeVerifier: client.randomPKCECodeVerifier()
})

/** The provider's authorization URL for a sign-in with `checks`. */
export const authorizationUrl = (config: client.Configuration, redirectURL: string, scopes: ReadonlyArray<string>, checks: AuthorizationChecks) =>
  Effect.promise(async () =>
    client.buildAuthorizationUrl(config, {
      redirect_uri: redirectURL,
      scope: ["openid", "email", "profile", ...scopes.filter((s) => !["openid", "email", "profile"].includes(s))].join(" "),
      code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: "S256",
      state: checks.state,
      nonce: checks.nonce
    }).href
  )

/** The provider's keys as `config` last fetched them, to hand to the next `configure`. */
export const jwksCacheOf = (config: client.Configuration): JwksCache | undefined => client.getJwksCache(config)

/**
 * The ID token's claims (with UserInfo's email when the ID token has none) after exchanging the callback's code (state, nonce, PKCE, issuer, audience,
 * and the signature, by a key of the provider's JWKS, checked). `callbackURL` is the redirect URL with the callback's query: openid-client
 * sends it, without the query, as the token request's `redirect_uri`.
 */
export const exchange = (config: client.Configuration, callbackURL: URL, checks: AuthorizationChecks) =>
  Effect.tryPromise({
    try: async () => {
      const tokens = await client.authorizationCodeGrant(config, callbackURL, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true
      })
      const claims = tokens.claims()
      if (claims === undefined) throw new Error("the provider answered no ID token")
      if (typeof claims["email"] === "string") return claims as Record<string, unknown>
      // Many providers put the scopes' claims in the UserInfo answer only (OIDC Core 5.4): ask it, for the ID token's subject.
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub)
      return { ...info, ...claims, email: info.email, email_verified: info.email_verified } as Record<string, unknown>
    },
    catch: (error) => new SignInRefused({ reason: `the provider's answer was refused: ${describe(error)}` })
  })
