/**
 * OpenID Connect sign-in end to end, on every backend, against oidc-provider started on 127.0.0.1
 * by the test (packages/identity/test/support/TestOidcProvider.ts): the admin endpoints (the
 * secret never answered, field-named 400s, admins only), the authorization-code flow with PKCE,
 * state and nonce, provisioning as SAML's, the refusals, the sign-in screen's lookup, and the
 * enforcement of single sign-on on password sign-in and invitations.
 */
import { afterAll, assert, beforeAll, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Provider from "../../../packages/identity/test/support/TestOidcProvider.ts"
import { adminEmail, backends, baseUrl, errorCode, errorMessage, inviteAndAccept, newUser } from "./Harness.ts"
import { path, request, sessionCookieOf } from "./SsoFixtures.ts"

const redirectURL = "http://quire.test/sso/oidc/callback"
let idp: Provider.TestOidcProvider
beforeAll(async () => {
  idp = await Provider.start([redirectURL])
})
afterAll(() => idp.close())

/** An organization of Alice's (with a team "Staff") and an OIDC provider defaulting to `edit` in it. */
const setup = (emailDomains: ReadonlyArray<string> = []) =>
  Effect.gen(function*() {
    const alice = yield* newUser("Alice")
    const org = yield* alice.api.organizations.createOrganization({ payload: { title: "Acme", emailDomains: [...emailDomains] } })
    const organizationId = org.id
    const team = yield* alice.api.teams.createOrganizationTeam({ params: { organizationId }, payload: { title: "Staff" } })
    const provider = yield* alice.api.sso.createOrganizationOIDCProvider({
      params: { organizationId },
      payload: { label: "Test OIDC", discoveryURL: idp.issuer, clientId: Provider.clientId, clientSecret: Provider.clientSecret, defaultRole: "edit", defaultTeam: team.id }
    })
    return { alice, organizationId, team, provider }
  })

/** Start (as a browser: the state cookie kept), sign in at the provider as `email`; the callback's path and the cookie. */
const throughProvider = Effect.fnUntraced(function*(startURL: string, email: string, relay = "/o/here") {
  const started = yield* request(`${path(startURL)}?RelayState=${encodeURIComponent(relay)}`)
  assert.strictEqual(started.status, 302, started.text)
  const setState = started.headers.get("set-cookie") ?? ""
  assert.match(setState, /^quire_oidc_state=[^;]+;.*HttpOnly/i)
  const location = started.headers.get("location") ?? ""
  assert.isTrue(location.startsWith(`${idp.issuer}/auth?`), location)
  const params = new URL(location).searchParams
  assert.strictEqual(params.get("code_challenge_method"), "S256")
  assert.isNotNull(params.get("nonce"))
  assert.strictEqual(params.get("redirect_uri"), redirectURL)
  const callback = yield* Effect.promise(() => Provider.signIn(location, email))
  assert.strictEqual(`${callback.origin}${callback.pathname}`, redirectURL)
  return { callbackPath: `${callback.pathname}${callback.search}`, stateCookie: setState.split(";")[0]! }
})

const complete = (callbackPath: string, stateCookie?: string) =>
  request(callbackPath, stateCookie === undefined ? {} : { headers: { cookie: stateCookie } })

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`OpenID Connect on ${backend.name}`, (it) => {
    it.effect("the audit log records a provider set up, changed and removed, with the fields changed and never the secret", () =>
      Effect.gen(function*() {
        const { alice, organizationId, provider } = yield* setup()
        const params = { organizationId, oidcProviderId: provider.id }
        yield* alice.api.sso.updateOrganizationOIDCProvider({ params, payload: { label: "Renamed OIDC" } })
        const refused = yield* Effect.flip(alice.api.sso.updateOrganizationOIDCProvider({ params, payload: { clientId: "another-client" } }))
        assert.strictEqual(errorCode(refused), 400)
        yield* alice.api.sso.deleteOrganizationOIDCProvider({ params })
        const events = yield* alice.api.auditEvents.listOrganizationAuditEvents({ params: { organizationId }, query: {} })
        const sso = events.items.filter((e) => e.action.startsWith("sso."))
        assert.deepStrictEqual(sso.map((e) => [e.action, e.actor.id, e.target.id]), [
          ["sso.provider-removed", alice.user.id, provider.id],
          ["sso.provider-changed", alice.user.id, provider.id],
          ["sso.provider-created", alice.user.id, provider.id]
        ])
        assert.deepStrictEqual(sso.map((e) => e.payload), [{ protocol: "oidc" }, { protocol: "oidc", fields: "label" }, { protocol: "oidc" }])
        assert.notInclude(JSON.stringify(events), Provider.clientSecret)
      }))

    it.effect("admins configure providers: the secret is never answered, bad fields are 400s naming them", () =>
      Effect.gen(function*() {
        const { alice, organizationId, provider } = yield* setup()
        assert.strictEqual(provider.object, "oidc-provider")
        assert.strictEqual(provider.clientSecretSet, true)
        assert.strictEqual(provider.service.redirectURL, redirectURL)
        assert.notInclude(JSON.stringify(provider), Provider.clientSecret)
        const listed = yield* alice.api.sso.listOIDCProvidersInOrganizationById({ params: { organizationId }, query: {} })
        assert.deepStrictEqual(listed.items.map((p) => p.id), [provider.id])
        assert.notInclude(JSON.stringify(listed), Provider.clientSecret)
        const logins = yield* alice.api.sso.listSSOProviderLoginsInOrganization({ params: { organizationId } })
        assert.deepStrictEqual(logins.items.map((l) => [l.label, l.startURL]), [["Test OIDC", provider.service.startURL]])

        const base = { label: "X", discoveryURL: idp.issuer, clientId: Provider.clientId, clientSecret: Provider.clientSecret }
        const refused = (payload: typeof base) =>
          Effect.flip(alice.api.sso.createOrganizationOIDCProvider({ params: { organizationId }, payload }))
        const plainHttp = yield* refused({ ...base, discoveryURL: "http://idp.example.com" })
        assert.strictEqual(errorCode(plainHttp), 400)
        assert.match(errorMessage(plainHttp), /^discoveryURL: must be an https URL/)
        const nothingThere = yield* refused({ ...base, discoveryURL: `${idp.issuer}/nowhere` })
        assert.match(errorMessage(nothingThere), /^discoveryURL: could not read the provider's OpenID configuration/)
        // A private address (a cloud's metadata service, an internal host) is never asked, as for Quire's other outbound requests.
        for (const inside of ["https://10.1.2.3/.well-known/openid-configuration", "https://169.254.169.254/latest"]) {
          const refusedInside = yield* refused({ ...base, discoveryURL: inside })
          assert.strictEqual(errorCode(refusedInside), 400, inside)
          assert.match(errorMessage(refusedInside), /^discoveryURL: could not read the provider's OpenID configuration: .*is not a public address; QUIRE_FETCH_ALLOW can allow it/, inside)
        }
        const update = yield* Effect.flip(alice.api.sso.updateOrganizationOIDCProvider({
          params: { organizationId, oidcProviderId: provider.id },
          payload: { clientId: "another" }
        }))
        assert.match(errorMessage(update), /^clientSecret: is required when discoveryURL or clientId changes/)
        const renamed = yield* alice.api.sso.updateOrganizationOIDCProvider({ params: { organizationId, oidcProviderId: provider.id }, payload: { label: "Renamed", scopes: ["groups"] } })
        assert.deepStrictEqual([renamed.label, renamed.scopes], ["Renamed", ["groups"]])

        const bob = yield* newUser("Bob")
        yield* inviteAndAccept(alice.api, organizationId, bob, "edit")
        const notAdmin = yield* Effect.flip(bob.api.sso.listOIDCProvidersInOrganizationById({ params: { organizationId }, query: {} }))
        assert.strictEqual(errorCode(notAdmin), 403)
        const outsider = yield* newUser("Eve")
        const hidden = yield* Effect.flip(outsider.api.sso.getOrganizationOIDCProviderById({ params: { organizationId, oidcProviderId: provider.id } }))
        assert.strictEqual(errorCode(hidden), 404)

        yield* alice.api.sso.deleteOrganizationOIDCProvider({ params: { organizationId, oidcProviderId: provider.id } })
        const gone = yield* Effect.flip(alice.api.sso.getOrganizationOIDCProviderById({ params: { organizationId, oidcProviderId: provider.id } }))
        assert.strictEqual(errorCode(gone), 404)
      }))

    it.effect("signs a new person in through the provider, provisions them as SAML does, and answers each callback once", () =>
      Effect.gen(function*() {
        const { alice, organizationId, team, provider } = yield* setup()
        const email = `carol.${Date.now()}@example.com`
        const { callbackPath, stateCookie } = yield* throughProvider(provider.service.startURL, email)
        // Another browser (no state cookie: a callback link pushed to a victim) is refused first.
        const elsewhere = yield* complete(callbackPath)
        assert.strictEqual(elsewhere.status, 400)
        assert.include(elsewhere.text, "not begun in this browser")
        const signed = yield* complete(callbackPath, stateCookie)
        assert.strictEqual(signed.status, 303, signed.text)
        assert.strictEqual(signed.headers.get("location"), "http://quire.test/o/here")
        const cookie = sessionCookieOf(signed)
        const session = yield* request("/auth/session", { headers: { cookie } })
        const body = JSON.parse(session.text) as { user: { id: string; email: string; displayName: string }; session: { method: string; organizationId: string } }
        assert.deepStrictEqual([body.user.email, body.user.displayName, body.session.method, body.session.organizationId], [email, `Person ${email.split("@")[0]}`, "oidc", organizationId])
        const member = yield* alice.api.members.getMemberInOrganizationById({ params: { organizationId, userId: body.user.id } })
        assert.deepStrictEqual([member.role, member.sso], ["edit", true])
        const teams = yield* alice.api.members.listTeamsForOrganizationMember({ params: { organizationId, userId: body.user.id }, query: {} })
        assert.deepStrictEqual(teams.items.map((t) => t.team.id), [team.id])
        // The organization's audit log has the new member and their sign-in, from the browser's address.
        const audited = yield* alice.api.auditEvents.listOrganizationAuditEvents({ params: { organizationId }, query: { actor: body.user.id } })
        assert.deepStrictEqual(audited.items.map((e) => [e.action, e.source]), [["auth.oidc.signed-in", "ui"], ["member.joined", "ui"]])
        assert.isString(audited.items[0]!.client?.address)
        // The same callback again: its sign-in was used up.
        const replay = yield* complete(callbackPath, stateCookie)
        assert.strictEqual(replay.status, 400)
        assert.include(replay.text, "expired or was already used")

        // Existing accounts: an outsider's email and the instance administrator's are refused.
        const dave = yield* newUser("Dave")
        const outsider = yield* throughProvider(provider.service.startURL, dave.email)
        const refusedOutsider = yield* complete(outsider.callbackPath, outsider.stateCookie)
        assert.strictEqual(refusedOutsider.status, 400)
        assert.include(refusedOutsider.text, "not an SSO member of this organization")
        const admin = yield* throughProvider(provider.service.startURL, adminEmail)
        assert.include((yield* complete(admin.callbackPath, admin.stateCookie)).text, "instance administrators")
        // An email the provider does not say is verified.
        const unverifiedEmail = `unverified.${Date.now()}@example.com`
        idp.unverified.add(unverifiedEmail)
        const unverified = yield* throughProvider(provider.service.startURL, unverifiedEmail)
        const refusedUnverified = yield* complete(unverified.callbackPath, unverified.stateCookie)
        assert.strictEqual(refusedUnverified.status, 400)
        assert.include(refusedUnverified.text, "is verified")
      }))

    // Issue 34: the ID token's signature was never checked; each of these signed its email in.
    it.effect("accepts only ID tokens signed by a key of the provider's JWKS: alg none, HS256 with the client secret and a foreign key are refused", () =>
      Effect.gen(function*() {
        const { provider } = yield* setup()
        const forged = (mode: Provider.Forgery) =>
          Effect.gen(function*() {
            const through = yield* throughProvider(provider.service.startURL, `${mode}.${Date.now()}@example.com`)
            idp.forge.mode = mode
            return yield* complete(through.callbackPath, through.stateCookie).pipe(Effect.ensuring(Effect.sync(() => (idp.forge.mode = undefined))))
          })
        const reasons: Record<Provider.Forgery, RegExp> = {
          none: /unexpected JWT &quot;alg&quot; header parameter|unsupported JWS/,
          hs256: /unexpected JWT &quot;alg&quot; header parameter|unsupported JWS algorithm/,
          "foreign-key": /JWT signature verification failed/
        }
        for (const mode of ["none", "hs256", "foreign-key"] as const) {
          const answer = yield* forged(mode)
          assert.strictEqual(answer.status, 400, `${mode}: ${answer.text}`)
          assert.include(answer.text, "the provider&#39;s answer was refused", mode)
          assert.match(answer.text, reasons[mode], mode)
          assert.isNull(answer.headers.get("set-cookie")?.match(/quire_session=[^;]/) ?? null, mode)
        }
        // The provider's own signature, with the keys fetched before, still signs in.
        const own = yield* throughProvider(provider.service.startURL, `own.${Date.now()}@example.com`)
        assert.strictEqual((yield* complete(own.callbackPath, own.stateCookie)).status, 303)
      }))

    it.effect("an organization claiming email domains signs in only their addresses; the sign-in screen finds it by domain or id", () =>
      Effect.gen(function*() {
        const domain = `acme${Date.now()}.example`
        const { organizationId, provider } = yield* setup([domain])
        const foreign = yield* throughProvider(provider.service.startURL, `mallory.${Date.now()}@elsewhere.example`)
        const refused = yield* complete(foreign.callbackPath, foreign.stateCookie)
        assert.strictEqual(refused.status, 400)
        assert.include(refused.text, "email domains")
        const own = yield* throughProvider(provider.service.startURL, `erin.${Date.now()}@${domain}`)
        assert.strictEqual((yield* complete(own.callbackPath, own.stateCookie)).status, 303)

        const byEmail = JSON.parse((yield* request(`/sso/logins?email=${encodeURIComponent(`someone@${domain.toUpperCase()}`)}`)).text)
        assert.deepStrictEqual(byEmail, {
          items: [{ organization: { id: organizationId, title: "Acme" }, providers: [{ id: provider.id, label: "Test OIDC", protocol: "oidc", startURL: provider.service.startURL }] }]
        })
        const byId = JSON.parse((yield* request(`/sso/logins?org=${organizationId}`)).text)
        assert.deepStrictEqual(byId, byEmail)
        assert.deepStrictEqual(JSON.parse((yield* request("/sso/logins?email=nobody@unclaimed.example")).text), { items: [] })
        assert.strictEqual((yield* request("/sso/logins")).status, 400)
      }))

    it.effect("an organization enforcing single sign-on refuses its members' passwords and password sign-ups, not its admins'", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* setup()
        const base = yield* baseUrl
        const post = (route: string, body: unknown) =>
          Effect.promise(async () => {
            const response = await fetch(`${base}${route}`, { method: "POST", headers: { "content-type": "application/json", origin: "http://quire.test" }, body: JSON.stringify(body) })
            return { status: response.status, body: await response.json() as any }
          })
        const password = "correct horse battery"
        yield* alice.api.organizations.updateOrganizationById({ params: { organizationId }, payload: { inviteLinks: true } })
        const link = yield* alice.api.organizations.createOrganizationInvite({ params: { organizationId }, payload: { role: "edit" } })
        const memberEmail = `frank.${Date.now()}@example.com`
        const joined = yield* post(`/auth/invites/${organizationId}.${link.id}/accept`, { displayName: "Frank", email: memberEmail, password })
        assert.strictEqual(joined.status, 200, JSON.stringify(joined.body))
        const adminLink = yield* alice.api.organizations.createOrganizationInvite({ params: { organizationId }, payload: { role: "admin" } })
        const adminEmailAddress = `grace.${Date.now()}@example.com`
        assert.strictEqual((yield* post(`/auth/invites/${organizationId}.${adminLink.id}/accept`, { displayName: "Grace", email: adminEmailAddress, password })).status, 200)

        yield* alice.api.organizations.updateOrganizationById({ params: { organizationId }, payload: { sso: true } })
        const refused = yield* post("/auth/sign-in", { email: memberEmail, password })
        assert.strictEqual(refused.status, 403)
        assert.deepStrictEqual(refused.body.error.sso, { organizationId, organizationTitle: "Acme" })
        assert.include(refused.body.error.message, "Acme requires single sign-on")
        // A wrong password still says only that.
        assert.strictEqual((yield* post("/auth/sign-in", { email: memberEmail, password: "wrong password!" })).status, 401)
        assert.strictEqual((yield* post("/auth/sign-in", { email: adminEmailAddress, password })).status, 200)
        const signUp = yield* post(`/auth/invites/${organizationId}.${link.id}/accept`, { displayName: "Heidi", email: `heidi.${Date.now()}@example.com`, password })
        assert.strictEqual(signUp.status, 403)
        assert.include(signUp.body.error.message, "requires single sign-on")
      }))
  })
}
