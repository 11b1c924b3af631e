/**
 * SAML sign-in end to end, on every backend: a test IdP (packages/identity/test/support) signs
 * responses; start, ACS, session, token creation, metadata, and each refusal.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { generateKeyPairSync, verify, X509Certificate } from "node:crypto"
import * as Idp from "../../../packages/identity/test/support/TestIdp.ts"
import { adminEmail, backends, client, inviteAndAccept, newUser } from "./Harness.ts"
import { pkcePair } from "../../cli/src/commands/LoginCommand.ts"
import { begin, postAcs, providerPaths, request, setup, signInThroughIdp } from "./SsoFixtures.ts"
import { publishedSite } from "./SiteFixtures.ts"

/** The `name=value` of the session cookie an answer sets. */
const sessionCookie = (answer: { readonly headers: Headers }) =>
  (answer.headers.getSetCookie().find((line) => line.startsWith("quire_session=")) ?? "").split(";")[0]!

const otherKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString()

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`SAML sign-in on ${backend.name}`, (it) => {
    it.effect("signs a new person in, provisions them, and lets the session create a token", () =>
      Effect.gen(function*() {
        const { alice, organizationId, team, acsPath, startPath, service } = yield* setup
        const started = yield* request(`${startPath}?RelayState=${encodeURIComponent("/sso/signed-in")}`)
        assert.strictEqual(started.status, 302)
        // The browser keeps the request's id, for the ACS only, and for the IdP's cross-site POST.
        const requestCookie = started.headers.get("set-cookie") ?? ""
        assert.match(requestCookie, /^quire_saml_request=_[0-9a-f]{40};/)
        assert.match(requestCookie, /HttpOnly/i)
        assert.match(requestCookie, /Path=\/sso\/saml/i)
        const location = started.headers.get("location") ?? ""
        assert.isTrue(location.startsWith(`${Idp.idpSsoURL}?`), location)
        const redirect = new URL(location)
        assert.strictEqual(redirect.searchParams.get("SigAlg"), "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256")
        assert.isNotNull(redirect.searchParams.get("Signature"))
        assert.strictEqual(redirect.searchParams.get("RelayState"), "http://quire.test/sso/signed-in")
        const requestId = yield* Effect.promise(() => Idp.requestIdOf(location))

        const email = `carol.${Date.now()}@example.com`
        assert.strictEqual(requestCookie.split(";")[0], `quire_saml_request=${requestId}`)
        const signed = yield* postAcs(acsPath, Idp.response({ email, audience: service.entityID, destination: service.acsURL, inResponseTo: requestId, displayName: "Carol" }), "http://quire.test/sso/signed-in", requestCookie.split(";")[0])
        assert.strictEqual(signed.status, 303, signed.text)
        assert.strictEqual(signed.headers.get("location"), "http://quire.test/sso/signed-in")
        const setCookie = signed.headers.getSetCookie().find((line) => line.startsWith("quire_session=")) ?? ""
        assert.isTrue(signed.headers.getSetCookie().some((line) => /^quire_saml_request=;.*Max-Age=0/i.test(line)), "the request cookie is cleared")
        assert.match(setCookie, /^quire_session=/)
        assert.match(setCookie, /HttpOnly/i)
        assert.match(setCookie, /SameSite=Lax/i)
        const cookie = setCookie.split(";")[0]!

        const page = yield* request("/sso/signed-in", { headers: { cookie } })
        assert.strictEqual(page.status, 200)
        assert.include(page.text, email)
        assert.include(page.headers.get("content-security-policy") ?? "", "form-action 'self'")
        assert.strictEqual((yield* request("/sso/signed-in")).status, 401)
        assert.strictEqual((yield* request("/sso/session/tokens", { method: "POST" })).status, 401)
        // The page's form: an HTML answer showing the new token once.
        const fromForm = yield* request("/sso/session/tokens", {
          method: "POST",
          headers: { cookie, origin: "http://quire.test", "content-type": "application/x-www-form-urlencoded" },
          body: ""
        })
        assert.strictEqual(fromForm.status, 201)
        assert.match(fromForm.text, /<pre>quire_pat_\w+<\/pre>/)

        // It is a stored session like a password's: listed with its method and organization.
        const listed = yield* request("/auth/sessions", { headers: { cookie } })
        const items = (JSON.parse(listed.text) as { items: Array<{ method: string; organizationId?: string; current: boolean }> }).items
        assert.deepStrictEqual(items.map((item) => [item.method, item.organizationId, item.current]), [["saml", organizationId, true]])
        // The session reads the API of its organization, as the browser app does (docs/sign-in.md)...
        const apiWithCookie = yield* request(`/v1/orgs/${organizationId}/members`, { headers: { cookie } })
        assert.strictEqual(apiWithCookie.status, 200, apiWithCookie.text)
        // ...but creates no token from another origin.
        const crossSite = yield* request("/sso/session/tokens", { method: "POST", headers: { cookie, origin: "https://evil.example" } })
        assert.strictEqual(crossSite.status, 403)
        const created = yield* request("/sso/session/tokens", { method: "POST", headers: { cookie, accept: "application/json", origin: "http://quire.test" } })
        assert.strictEqual(created.status, 201, created.text)
        const token = (JSON.parse(created.text) as { token: string }).token
        const carol = yield* client(token)
        const me = yield* carol.users.getAuthenticatedUser()
        assert.strictEqual(me.email, email)
        assert.strictEqual(me.displayName, "Carol")

        const member = yield* alice.api.members.getMemberInOrganizationById({ params: { organizationId, userId: me.id } })
        assert.strictEqual(member.role, "edit")
        assert.strictEqual(member.sso, true)
        const teams = yield* alice.api.members.listTeamsForOrganizationMember({ params: { organizationId, userId: me.id }, query: {} })
        assert.deepStrictEqual(teams.items.map((t) => t.team.id), [team.id])
      }))

    it.effect("signs an existing user in by email, and refuses bad responses with a 4xx page", () =>
      Effect.gen(function*() {
        const provider = yield* setup
        const { alice, organizationId, acsPath, service } = provider
        const bob = yield* newUser("Bob")
        // Not a member yet: the IdP cannot sign an existing account in by naming its email.
        const outsider = yield* signInThroughIdp(provider, bob.email)
        assert.strictEqual(outsider.status, 400)
        assert.include(outsider.text, "not an SSO member of this organization")
        const admin = yield* signInThroughIdp(provider, adminEmail)
        assert.strictEqual(admin.status, 400)
        assert.include(admin.text, "instance administrators")
        // Issue 18: an invitation, even accepted, does not let the IdP speak for Bob; being made an
        // SSO member after accepting does (this test used to sign him in right after the invitation).
        yield* inviteAndAccept(alice.api, organizationId, bob, "review")
        const accepted = yield* signInThroughIdp(provider, bob.email)
        assert.strictEqual(accepted.status, 400)
        assert.include(accepted.text, "not an SSO member")
        yield* alice.api.members.setUserAsSSOMemberForOrganization({ params: { organizationId, userId: bob.user.id } })
        const ok = yield* signInThroughIdp(provider, bob.email.toUpperCase())
        assert.strictEqual(ok.status, 303, ok.text)
        assert.strictEqual(ok.headers.get("location"), "http://quire.test/sso/signed-in")
        const member = yield* alice.api.members.getMemberInOrganizationById({ params: { organizationId, userId: bob.user.id } })
        assert.strictEqual(member.sso, true)
        assert.strictEqual(member.role, "review")

        const sessionOf = (r: { readonly headers: Headers }) => r.headers.getSetCookie().find((line) => line.startsWith("quire_session=")) ?? null
        const refused = (overrides: Partial<Idp.ResponseOptions>) =>
          Effect.map(signInThroughIdp(provider, base.email, overrides), (r) => ({ status: r.status, text: r.text, cookie: sessionOf(r) }))
        const base = { email: `dave.${Date.now()}@example.com`, audience: service.entityID, destination: service.acsURL }
        const cases: Record<string, readonly [Partial<Idp.ResponseOptions>, string]> = {
          unsigned: [{ key: null }, "Invalid signature"],
          wronglySigned: [{ key: otherKey }, "Invalid signature"],
          // node-saml finds no subject confirmation still valid when the assertion answers a request.
          expired: [{ issuedAt: new Date(Date.now() - 3600_000) }, "No valid subject confirmation"],
          wrongAudience: [{ audience: "https://someone-else.example/sp" }, "audience mismatch"],
          wrongDestination: [{ destination: "https://someone-else.example/acs" }, "Destination must be"],
          unknownRequest: [{ inResponseTo: "_never_sent" }, "not begun in this browser"]
        }
        for (const [name, [overrides, reason]] of Object.entries(cases)) {
          const answer = yield* refused(overrides)
          assert.include(answer.text, reason, name)
          assert.strictEqual(answer.status, 400, `${name}: ${answer.text}`)
          assert.include(answer.text, "Sign-in refused", name)
          assert.isNull(answer.cookie, name)
        }
        // A request is answered once; an assertion is used once, even in the answer to another request.
        const begun = yield* begin(provider.startPath)
        const once = Idp.response({ ...base, inResponseTo: begun.requestId })
        assert.strictEqual((yield* postAcs(acsPath, once, undefined, begun.cookie)).status, 303)
        const replayed = yield* postAcs(acsPath, once, undefined, begun.cookie)
        assert.strictEqual(replayed.status, 400)
        assert.include(replayed.text, "InResponseTo is not valid")
        const assertionId = /ID="(_a[^"]+)"/.exec(Buffer.from(once, "base64").toString("utf8"))?.[1]
        assert.isDefined(assertionId)
        const reused = yield* refused({ assertionId: assertionId! })
        assert.strictEqual(reused.status, 400)
        assert.include(reused.text, "already used")
        const missing = yield* request(acsPath, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" })
        assert.strictEqual(missing.status, 400)
      }))

    // Issue 34: the ACS took any signed response, so a page of an attacker's could post one of
    // theirs from the victim's browser and sign the victim in as the attacker (login CSRF).
    it.effect("signs in only the browser that began the sign-in: unsolicited responses and responses to another browser's request are refused", () =>
      Effect.gen(function*() {
        const provider = yield* setup
        const { acsPath, service } = provider
        const email = `ivy.${Date.now()}@example.com`
        const answerTo = (inResponseTo?: string) => Idp.response({ email, audience: service.entityID, destination: service.acsURL, inResponseTo })
        const noSession = (answer: { readonly status: number; readonly text: string; readonly headers: Headers }, reason: string, what: string) => {
          assert.strictEqual(answer.status, 400, `${what}: ${answer.text}`)
          assert.include(answer.text, reason, what)
          assert.strictEqual(sessionCookie(answer), "", what)
        }
        // IdP-initiated: a signed response answering no request, from a browser with or without a sign-in of its own under way.
        const victim = yield* begin(provider.startPath)
        noSession(yield* postAcs(acsPath, answerTo()), "answers no sign-in request", "unsolicited")
        noSession(yield* postAcs(acsPath, answerTo(), undefined, victim.cookie), "answers no sign-in request", "unsolicited, in a browser signing in")
        // The attacker's own sign-in, answered by the IdP, posted from the victim's browser.
        const attacker = yield* begin(provider.startPath)
        noSession(yield* postAcs(acsPath, answerTo(attacker.requestId)), "not begun in this browser", "no request cookie")
        noSession(yield* postAcs(acsPath, answerTo(attacker.requestId), undefined, victim.cookie), "not begun in this browser", "another request's cookie")
        // The browser that began it signs in, with the response it was given.
        const signed = yield* postAcs(acsPath, answerTo(attacker.requestId), attacker.relayState, attacker.cookie)
        assert.strictEqual(signed.status, 303, signed.text)
        assert.notStrictEqual(sessionCookie(signed), "")
      }))

    it.effect("a member's session opens the organization's share-link and visitor-auth sites", () =>
      Effect.gen(function*() {
        for (const visibility of ["share-link", "visitor-auth"] as const) {
          const { api, organizationId, path } = yield* publishedSite(visibility)
          const provider = yield* api.sso.createOrganizationSAMLProvider({
            params: { organizationId },
            payload: { label: "Test IdP", defaultRole: "read", ssoURL: Idp.idpSsoURL, entityID: Idp.idpEntityID, certificate: Idp.idpCertificate }
          })
          const signed = yield* signInThroughIdp(providerPaths(provider), `gina.${Date.now()}@example.com`)
          const cookie = sessionCookie(signed)
          assert.strictEqual((yield* request(path)).status, 401, visibility)
          const read = yield* request(path, { headers: { cookie } })
          assert.strictEqual(read.status, 200, `${visibility}: ${read.text.slice(0, 200)}`)
          assert.include(read.text, "Welcome to the handbook", visibility)
          // A session of another organization opens nothing here.
          const other = yield* setup
          const elsewhere = yield* signInThroughIdp(other, `hal.${Date.now()}@example.com`)
          const otherCookie = sessionCookie(elsewhere)
          assert.strictEqual((yield* request(path, { headers: { cookie: otherCookie } })).status, 401, visibility)
        }
      }))

    // Issue 18: the CLI's code used to ride in the loopback redirect's URL and be exchanged alone.
    it.effect("validates RelayState, hands the CLI a PKCE-bound code in a form body, and serves SP metadata", () =>
      Effect.gen(function*() {
        const { organizationId, acsPath, startPath, service } = yield* setup
        const foreign = yield* request(`${startPath}?RelayState=${encodeURIComponent("https://evil.example/steal")}`)
        assert.strictEqual(new URL(foreign.headers.get("location") ?? "").searchParams.get("RelayState"), "http://quire.test/sso/signed-in")

        const callback = "http://127.0.0.1:49152/callback?state=xyz"
        const { challenge, verifier } = pkcePair()
        // A loopback callback needs an S256 code challenge.
        const bare = yield* request(`${startPath}?RelayState=${encodeURIComponent(callback)}`)
        assert.strictEqual(bare.status, 400)
        assert.include(bare.text, "code_challenge_method")
        const plain = yield* request(`${startPath}?RelayState=${encodeURIComponent(callback)}&code_challenge=${challenge}&code_challenge_method=plain`)
        assert.strictEqual(plain.status, 400)
        const started = yield* request(`/sso/orgs/${organizationId}/start?RelayState=${encodeURIComponent(callback)}&code_challenge=${challenge}&code_challenge_method=S256`)
        assert.strictEqual(started.status, 302)
        // The organization's start passes the challenge on to its provider's start...
        const providerStart = new URL(started.headers.get("location") ?? "")
        assert.strictEqual(providerStart.pathname, startPath)
        assert.strictEqual(providerStart.searchParams.get("code_challenge"), challenge)
        // ...which seals the callback and the challenge into the RelayState the IdP hands back.
        const cliStart = yield* begin(`${providerStart.pathname}${providerStart.search}`)
        const sealedRelay = cliStart.relayState ?? ""
        assert.notStrictEqual(sealedRelay, "")
        assert.notStrictEqual(sealedRelay, callback)

        const email = `erin.${Date.now()}@example.com`
        // A loopback RelayState that `start` did not seal gets no code: the browser goes to the signed-in page.
        const plainStart = yield* begin(startPath)
        const unsealed = yield* postAcs(acsPath, Idp.response({ email: `x${email}`, audience: service.entityID, destination: service.acsURL, inResponseTo: plainStart.requestId }), callback, plainStart.cookie)
        assert.strictEqual(unsealed.status, 303)
        assert.strictEqual(unsealed.headers.get("location"), "http://quire.test/sso/signed-in")

        const signed = yield* postAcs(acsPath, Idp.response({ email, audience: service.entityID, destination: service.acsURL, inResponseTo: cliStart.requestId }), sealedRelay, cliStart.cookie)
        // No redirect carries the code: a page POSTs it to the loopback listener.
        assert.strictEqual(signed.status, 200, signed.text)
        assert.isNull(signed.headers.get("location"))
        assert.include(signed.headers.get("content-security-policy") ?? "", "form-action http://127.0.0.1:49152")
        assert.strictEqual(signed.headers.get("referrer-policy"), "no-referrer")
        const form = /<form method="post" action="([^"]+)"><input type="hidden" name="code" value="([^"]+)">/.exec(signed.text)
        assert.isNotNull(form, signed.text)
        assert.strictEqual(form![1]!.replaceAll("&amp;", "&"), callback)
        const code = form![2]!
        assert.notInclude(code, "quire_pat_")
        const exchange = (body: Record<string, string>) =>
          request("/sso/cli/token", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
        const noVerifier = yield* exchange({ code })
        assert.strictEqual(noVerifier.status, 400)
        assert.include(JSON.parse(noVerifier.text).error.message, "code_verifier")
        const wrongVerifier = yield* exchange({ code, code_verifier: pkcePair().verifier })
        assert.strictEqual(wrongVerifier.status, 400)
        assert.include(JSON.parse(wrongVerifier.text).error.message, "code_verifier: does not match")
        const first = yield* exchange({ code, code_verifier: verifier })
        assert.strictEqual(first.status, 200, first.text)
        const answer = JSON.parse(first.text) as { token: string; user: { email: string }; organization: string }
        assert.strictEqual(answer.user.email, email)
        assert.strictEqual(answer.organization, organizationId)
        const erin = yield* client(answer.token)
        const me = yield* erin.users.getAuthenticatedUser()
        assert.strictEqual(me.email, email)
        // The token reaches the organization it signed in to, and says so.
        const tokens = yield* erin.users.listUserTokens({ params: { userId: me.id }, query: {} })
        assert.deepStrictEqual(tokens.items.map((t) => t.organization), [organizationId])
        assert.strictEqual((yield* exchange({ code, code_verifier: verifier })).status, 400)

        const metadata = yield* request(new URL(service.metadataURL).pathname)
        assert.strictEqual(metadata.status, 200)
        assert.include(metadata.text, `entityID="${service.entityID}"`)
        assert.include(metadata.text, `Location="${service.acsURL}"`)
        assert.include(metadata.text, "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST")
        assert.match(metadata.text, /^<\?xml[^>]*\?>\s*<EntityDescriptor[\s\S]*<\/EntityDescriptor>\s*$/)
        assert.include(metadata.text, `AuthnRequestsSigned="true"`)
        // The AuthnRequest redirect is signed by the key whose certificate the metadata publishes.
        const certificate = /<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/.exec(metadata.text)?.[1] ?? ""
        const publicKey = new X509Certificate(Buffer.from(certificate, "base64")).publicKey
        const start = new URL((yield* request(new URL(service.startURL).pathname)).headers.get("location") ?? "")
        const query = start.search.slice(1)
        const signedPart = query.split("&").filter((pair) => !pair.startsWith("Signature=")).join("&")
        assert.isTrue(verify("sha256", Buffer.from(signedPart), publicKey, Buffer.from(start.searchParams.get("Signature") ?? "", "base64")))
      }))
  })
}
