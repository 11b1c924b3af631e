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

/** The IdP's POST of a response to the ACS, as the browser relays it. */
export const postAcs = (acsPath: string, samlResponse: string, relayState?: string) =>
  request(acsPath, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ SAMLResponse: samlResponse, ...(relayState === undefined ? {} : { RelayState: relayState }) }).toString()
  })

export const path = (url: string) => new URL(url).pathname

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
