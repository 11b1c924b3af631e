/** Steps of a SAML sign-in as a browser takes them, against the test server (see SsoSignIn.test.ts). */
import { Effect } from "effect"
import * as Idp from "../../../packages/identity/test/support/TestIdp.ts"
import { baseUrl, newUser } from "./Harness.ts"

/** A raw request that does not follow redirects. */
export const request = (path: string, init: RequestInit = {}) =>
  Effect.flatMap(baseUrl, (base) =>
    Effect.promise(async () => {
      const response = await fetch(`${base}${path}`, { redirect: "manual", ...init })
      return { status: response.status, headers: response.headers, text: await response.text() }
    }))

/** The IdP's POST of a response to the ACS, as the browser relays it (with the browser's `cookie`, if any). */
export const postAcs = (acsPath: string, samlResponse: string, relayState?: string, cookie?: string) =>
  request(acsPath, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie === undefined ? {} : { cookie }) },
    body: new URLSearchParams({ SAMLResponse: samlResponse, ...(relayState === undefined ? {} : { RelayState: relayState }) }).toString()
  })

export const path = (url: string) => new URL(url).pathname

/**
 * A SAML sign-in begun as a browser begins it, at `startPath` (with its query): the IdP redirect,
 * the AuthnRequest id it carries, the RelayState it hands the IdP, and the request cookie the
 * browser keeps for the ACS.
 */
export const begin = (startPath: string) =>
  Effect.gen(function*() {
    const started = yield* request(startPath)
    const location = started.headers.get("location") ?? ""
    const requestId = yield* Effect.promise(() => Idp.requestIdOf(location))
    const cookie = (started.headers.get("set-cookie") ?? "").split(";")[0]!
    return { status: started.status, text: started.text, location, requestId, cookie, relayState: new URL(location).searchParams.get("RelayState") ?? undefined }
  })

/** A whole sign-in as `email`, begun, answered by the test IdP and posted by one browser (`overrides` change the response). */
export const signInThroughIdp = (
  provider: { readonly startPath: string; readonly acsPath: string; readonly service: { readonly entityID: string; readonly acsURL: string } },
  email: string,
  overrides: Partial<Idp.ResponseOptions> = {}
) =>
  Effect.gen(function*() {
    const begun = yield* begin(provider.startPath)
    const samlResponse = Idp.response({ email, audience: provider.service.entityID, destination: provider.service.acsURL, inResponseTo: begun.requestId, ...overrides })
    return yield* postAcs(provider.acsPath, samlResponse, begun.relayState, begun.cookie)
  })

/** `signInThroughIdp` for a provider as the API answers it. */
export const providerPaths = (provider: { readonly service: { readonly startURL: string; readonly acsURL: string; readonly entityID: string } }) => ({
  startPath: path(provider.service.startURL),
  acsPath: path(provider.service.acsURL),
  service: provider.service
})

/** The `name=value` part of a response's session cookie. */
export const sessionCookieOf = (response: { readonly headers: Headers }) => (response.headers.get("set-cookie") ?? "").split(";")[0]!

/** An organization with an active provider (default role `edit`, default team "Staff"). */
export const setup = Effect.gen(function*() {
  const alice = yield* newUser("Alice")
  const org = yield* alice.api.organizations.createOrganization({ payload: { title: "Acme" } })
  const organizationId = org.id
  const team = yield* alice.api.teams.createOrganizationTeam({ params: { organizationId }, payload: { title: "Staff" } })
  const provider = yield* alice.api.sso.createOrganizationSAMLProvider({
    params: { organizationId },
    payload: { label: "Test IdP", defaultRole: "edit", defaultTeam: team.id, ssoURL: Idp.idpSsoURL, entityID: Idp.idpEntityID, certificate: Idp.idpCertificate }
  })
  return { alice, organizationId, team, provider, acsPath: path(provider.service.acsURL), startPath: path(provider.service.startURL), service: provider.service }
})
