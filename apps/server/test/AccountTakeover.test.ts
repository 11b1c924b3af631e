/**
 * Issue 18's reproductions, on every backend, through the real server: an organization cannot
 * take over an account by inviting it and signing it in with its own identity provider, a
 * sign-in through one organization's IdP makes a member of that organization only, and what
 * such a sign-in yields (session, token) reaches that organization alone. Also `quire login
 * --sso` end to end, with its PKCE-bound code.
 */
import { assert, layer } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient, HttpApiMiddleware } from "effect/http-api"
import { Api, Authentication } from "@quire/api"
import { generateKeyPairSync } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Idp from "../../../packages/identity/test/support/TestIdp.ts"
import { selfSignedCertificate } from "../../../packages/identity/src/SpCertificate.ts"
import { ssoLogin } from "../../cli/src/commands/LoginCommand.ts"
import { acceptInvite, backends, baseUrl, client, type Client, errorCode, newUser } from "./Harness.ts"
import { path, providerPaths, request, sessionCookieOf, setup, signInThroughIdp } from "./SsoFixtures.ts"

const attackerKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString()
const attackerCertificate = selfSignedCertificate(attackerKey, "Attacker IdP")

/** A token minted by a single sign-on session (its cookie), as the signed-in page's form does. */
const sessionToken = Effect.fnUntraced(function*(cookie: string) {
  const created = yield* request("/sso/session/tokens", { method: "POST", headers: { cookie, accept: "application/json", origin: "http://quire.test" } })
  return { status: created.status, token: created.status === 201 ? (JSON.parse(created.text) as { token: string }).token : undefined }
})

/** A typed client sending the session cookie (and our own Origin), as the browser app calls /v1. */
const cookieClient = (cookie: string) =>
  HttpApiClient.make(Api, {
    transformClient: HttpClient.mapRequest((request) =>
      HttpClientRequest.setHeaders(request, { cookie, origin: "http://quire.test" }))
  }).pipe(Effect.provide(HttpApiMiddleware.layerClient(Authentication, ({ next, request }) => next(request))))

/** 200, or the status code of the API error. */
const status = <A, E>(effect: Effect.Effect<A, E>) => effect.pipe(Effect.as(200), Effect.catch((error) => Effect.succeed(errorCode(error))))

/** The status of each thing of `organizationId` that `api` asks for: its organization, spaces, collections, search, sites. */
const statusesIn = Effect.fnUntraced(function*(api: Client, organizationId: string, spaceId: string) {
  return {
    space: yield* status(api.spaces.getSpaceById({ params: { spaceId }, query: {} })),
    organization: yield* status(api.organizations.getOrganizationById({ params: { organizationId } })),
    spaces: yield* status(api.spaces.listSpacesInOrganizationById({ params: { organizationId }, query: {} })),
    collections: yield* status(api.collections.listCollectionsInOrganizationById({ params: { organizationId }, query: {} })),
    search: yield* status(api.search.searchOrganizationContent({ params: { organizationId }, query: { query: "secret" } })),
    sites: yield* status(api.sites.listSites({ params: { organizationId }, query: {} }))
  }
})

const unreachable = { space: 404, organization: 404, spaces: 404, collections: 404, search: 404, sites: 404 }

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`account takeover on ${backend.name}`, (it) => {
    it.effect("an organization that invites an existing account cannot sign it in with its own IdP, nor reach its spaces", () =>
      Effect.gen(function*() {
        const victim = yield* newUser("Victim")
        const home = yield* victim.api.organizations.createOrganization({ payload: { title: "Victim Co" } })
        const secret = yield* victim.api.spaces.createSpace({ params: { organizationId: home.id }, payload: { title: "Secret plans" } })
        assert.deepStrictEqual(yield* statusesIn(victim.api, home.id, secret.id), { ...unreachable, space: 200, organization: 200, spaces: 200, collections: 200, search: 200, sites: 200 })

        const attacker = yield* newUser("Mallory")
        const trap = yield* attacker.api.organizations.createOrganization({ payload: { title: "Trap" } })
        const organizationId = trap.id
        const invited = yield* attacker.api.organizations.inviteUsersToOrganization({
          params: { organizationId },
          payload: { emails: [victim.email], role: "admin", sso: true }
        })
        // The answer adds nobody and names nobody (the same for an email without an account); the invitation is pending only.
        assert.deepStrictEqual([invited.users, invited.invited], [[], 1])
        const unknown = yield* attacker.api.organizations.inviteUsersToOrganization({
          params: { organizationId },
          payload: { emails: [`nobody.${victim.user.id}@example.com`], role: "admin", sso: true }
        })
        assert.deepStrictEqual(unknown, invited)
        const members = yield* attacker.api.members.listMembersInOrganizationById({ params: { organizationId }, query: {} })
        assert.deepStrictEqual(members.items.map((m) => m.id), [attacker.user.id])
        const offers = yield* victim.api.users.listInvitesForAuthenticatedUser()
        assert.deepStrictEqual(offers.items.map((i) => [i.organization.id, i.role, i.sso]), [[organizationId, "admin", true]])
        // The attacker cannot accept it for the victim.
        const forged = yield* attacker.api.organizations.acceptOrganizationMemberInvite({ params: { organizationId, inviteId: offers.items[0]!.id } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(forged), 404)

        const provider = yield* attacker.api.sso.createOrganizationSAMLProvider({
          params: { organizationId },
          payload: { label: "Mallory's IdP", defaultRole: "admin", ssoURL: Idp.idpSsoURL, entityID: Idp.idpEntityID, certificate: attackerCertificate }
        })
        const signIn = () => signInThroughIdp(providerPaths(provider), victim.email, { key: attackerKey })
        const refused = yield* signIn()
        assert.strictEqual(refused.status, 400, refused.text)
        assert.include(refused.text, "not an SSO member")
        assert.isFalse(refused.headers.getSetCookie().some((line) => line.startsWith("quire_session=")))
        assert.deepStrictEqual(yield* sessionToken(sessionCookieOf(refused)), { status: 401, token: undefined })
        // The attacker's own token reaches nothing of the victim's.
        assert.deepStrictEqual(yield* statusesIn(attacker.api, home.id, secret.id), unreachable)

        // Even once the victim accepts the (SSO) invitation, the attacker's IdP speaks for the
        // attacker's organization only: its session and tokens reach nothing else of the victim's.
        yield* acceptInvite(victim.api, organizationId)
        const signed = yield* signIn()
        assert.strictEqual(signed.status, 303, signed.text)
        const minted = yield* sessionToken(sessionCookieOf(signed))
        assert.strictEqual(minted.status, 201)
        const stolen = yield* client(minted.token!)
        assert.strictEqual((yield* stolen.users.getAuthenticatedUser()).id, victim.user.id)
        assert.deepStrictEqual(yield* statusesIn(stolen, home.id, secret.id), unreachable)
        const listed = yield* stolen.organizations.listOrganizationsForAuthenticatedUser({ query: {} })
        assert.deepStrictEqual(listed.items.map((o) => o.id), [organizationId])
        // Nor can it widen itself: a token it mints, or an organization it creates.
        const again = yield* stolen.users.createUserToken({ params: { userId: victim.user.id }, payload: { label: "wider" } })
        assert.strictEqual(again.organization, organizationId)
        assert.deepStrictEqual(yield* statusesIn(yield* client(again.token), home.id, secret.id), unreachable)
        const created = yield* stolen.organizations.createOrganization({ payload: { title: "Escape" } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(created), 403)
        // The session cookie itself, as the browser app uses it on /v1, reaches no more.
        const cookie = sessionCookieOf(signed)
        const browser = yield* cookieClient(cookie)
        assert.strictEqual((yield* browser.users.getAuthenticatedUser()).id, victim.user.id)
        assert.deepStrictEqual(yield* statusesIn(browser, home.id, secret.id), unreachable)
        assert.strictEqual(errorCode(yield* browser.organizations.createOrganization({ payload: { title: "Escape" } }).pipe(Effect.flip)), 403)
        // Nor can it set a password, which would reach the whole account.
        const password = yield* request("/auth/password", {
          method: "POST",
          headers: { cookie, origin: "http://quire.test", "content-type": "application/json" },
          body: JSON.stringify({ currentPassword: "", newPassword: "the attacker's choice" })
        })
        assert.strictEqual(password.status, 403)
        // The victim's own token is untouched.
        assert.strictEqual((yield* statusesIn(victim.api, home.id, secret.id)).space, 200)
      }))

    it.effect("a sign-in through one organization's IdP makes a new account a member there only; other invitations stay pending", () =>
      Effect.gen(function*() {
        const a = yield* setup
        const b = yield* newUser("Bea")
        const orgB = yield* b.api.organizations.createOrganization({ payload: { title: "Org B" } })
        const email = `newhire.${Date.now()}@example.com`
        yield* b.api.organizations.inviteUsersToOrganization({ params: { organizationId: orgB.id }, payload: { emails: [email], role: "admin" } })

        const signed = yield* signInThroughIdp(a, email)
        assert.strictEqual(signed.status, 303, signed.text)
        const found = yield* a.alice.api.members.listMembersInOrganizationById({ params: { organizationId: a.organizationId }, query: { search: email } })
        assert.deepStrictEqual(found.items.map((m) => [m.user.email, m.role, m.sso]), [[email, "edit", true]])
        const newhireId = found.items[0]!.id
        const inB = yield* b.api.members.getMemberInOrganizationById({ params: { organizationId: orgB.id, userId: newhireId } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(inB), 404)
        const pending = yield* b.api.organizations.listOrganizationMemberInvites({ params: { organizationId: orgB.id } })
        assert.deepStrictEqual(pending.items.map((i) => [i.email, i.role]), [[email, "admin"]])

        // The session's token is org A's: it lists A alone, and cannot see nor accept B's invitation.
        const minted = yield* sessionToken(sessionCookieOf(signed))
        const newhire = yield* client(minted.token!)
        const listed = yield* newhire.organizations.listOrganizationsForAuthenticatedUser({ query: {} })
        assert.deepStrictEqual(listed.items.map((o) => o.id), [a.organizationId])
        assert.strictEqual((yield* newhire.users.listInvitesForAuthenticatedUser()).count, 0)
        const accepted = yield* newhire.organizations.acceptOrganizationMemberInvite({ params: { organizationId: orgB.id, inviteId: pending.items[0]!.id } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(accepted), 404)
        assert.strictEqual((yield* b.api.organizations.listOrganizationMemberInvites({ params: { organizationId: orgB.id } })).count, 1)
      }))

    it.effect("`quire login --sso` signs in through the browser and stores a token of that organization", () =>
      Effect.gen(function*() {
        const { organizationId, service } = yield* setup
        const base = yield* baseUrl
        const email = `cli.${Date.now()}@example.com`
        const seen: Array<string> = []
        // The browser: the start URL, the IdP (here: a signed response), the ACS, then the page's form.
        const browser = (startUrl: string) =>
          Effect.promise(async () => {
            seen.push(startUrl)
            const toProvider = await fetch(startUrl, { redirect: "manual" })
            const providerStart = new URL(toProvider.headers.get("location") ?? "")
            const toIdp = await fetch(`${base}${providerStart.pathname}${providerStart.search}`, { redirect: "manual" })
            const idpUrl = toIdp.headers.get("location") ?? ""
            const relayState = new URL(idpUrl).searchParams.get("RelayState") ?? ""
            const inResponseTo = await Idp.requestIdOf(idpUrl)
            const acs = await fetch(`${base}${path(service.acsURL)}`, {
              method: "POST",
              redirect: "manual",
              headers: { "content-type": "application/x-www-form-urlencoded", cookie: (toIdp.headers.get("set-cookie") ?? "").split(";")[0]! },
              body: new URLSearchParams({ SAMLResponse: Idp.response({ email, audience: service.entityID, destination: service.acsURL, inResponseTo }), RelayState: relayState })
            })
            const page = await acs.text()
            const form = /<form method="post" action="([^"]+)"><input type="hidden" name="code" value="([^"]+)">/.exec(page)
            seen.push(acs.url)
            await fetch(form![1]!.replaceAll("&amp;", "&"), {
              method: "POST",
              headers: { "content-type": "application/x-www-form-urlencoded" },
              body: new URLSearchParams({ code: form![2]! })
            })
          })
        const dir = mkdtempSync(join(tmpdir(), "quire-login-"))
        const signedIn = yield* ssoLogin(base, organizationId, browser, 30_000).pipe(
          // The token is stored for the server, in the configured directory.
          Effect.tap((result) => Effect.sync(() => assert.deepStrictEqual(JSON.parse(readFileSync(result.file, "utf8")), { [base]: result.token }))),
          Effect.provide(ConfigProvider.layer(ConfigProvider.fromUnknown({ QUIRE_CONFIG_DIR: dir }))),
          Effect.ensuring(Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
        )
        assert.strictEqual(signedIn.email, email)
        // The CLI sent an S256 challenge; no URL the browser saw carries the code.
        const start = new URL(seen[0]!)
        assert.strictEqual(start.searchParams.get("code_challenge_method"), "S256")
        assert.match(start.searchParams.get("code_challenge") ?? "", /^[A-Za-z0-9_-]{43}$/)
        assert.isTrue(seen.every((url) => !url.includes("code=")), seen.join("\n"))
        const cli = yield* client(signedIn.token)
        assert.strictEqual((yield* cli.users.getAuthenticatedUser()).email, email)
        const listed = yield* cli.organizations.listOrganizationsForAuthenticatedUser({ query: {} })
        assert.deepStrictEqual(listed.items.map((o) => o.id), [organizationId])
      }))
  })
}
