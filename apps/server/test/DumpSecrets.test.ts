/**
 * Issue 34, finding 4: a dump alone yields nothing that signs anyone in or opens a credential. An
 * instance with sessions (the administrator's and a member's), an invite link, a pending email
 * invitation (its id, `<organizationId>.<id>`, signs the invited email up), API tokens, a Git
 * repository URL with credentials and its webhook secret, a site's visitor key and share link,
 * an OIDC client secret, the SAML SP key and an OIDC sign-in in flight is dumped (`InstanceDump.write`,
 * as `quire db dump` does); the dump holds none of those values (nor the SP key's PEM, nor the
 * sign-in's state or PKCE verifier), nor the instance secret. A cookie forged from the dump's session rows is refused, even
 * signed with the instance secret itself, and the stored ids of the link and of the invitation open
 * neither. Restored, with the instance secret carried separately, the instance works: the cookies
 * of before still open their sessions, the link is listed and joins, the invitation is listed with
 * its id, which still opens it, the visitor key and the Git credentials still open, the SP key is the same and the OIDC
 * sign-in in flight completes. On PostgreSQL and PGlite.
 */
import { afterAll, assert, beforeAll, layer } from "@effect/vitest"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { createHash, createPublicKey, X509Certificate } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { InstanceDump } from "@quire/db"
import { Sealed, SignedToken } from "@quire/kernel"
import * as Idp from "../../../packages/identity/test/support/TestIdp.ts"
import * as Provider from "../../../packages/identity/test/support/TestOidcProvider.ts"
import { Services } from "@quire/platform"
import { adminEmail, adminToken, everyBackend, baseUrl, newUser, withSettings } from "./Harness.ts"

const instanceSecret = "dump-secrets-instance-secret-0123456789abcdef0123"
const password = "correct horse battery"
const gitPassword = "ghp_dumpTestCredential0123456789"
const ownOrigin = "http://quire.test"

let idp: Provider.TestOidcProvider
beforeAll(async () => {
  idp = await Provider.start(["http://quire.test/sso/oidc/callback"])
})
afterAll(() => idp.close())

interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: any
}

const call = (method: string, path: string, init: { readonly cookie?: string; readonly body?: unknown } = {}) =>
  Effect.flatMap(baseUrl, (base) =>
    Effect.promise(async (): Promise<Answer> => {
      const response = await fetch(`${base}${path}`, {
        method,
        redirect: "manual",
        headers: {
          origin: ownOrigin,
          ...(init.body === undefined ? {} : { "content-type": "application/json" }),
          ...(init.cookie === undefined ? {} : { cookie: init.cookie })
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
      })
      const text = await response.text()
      return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) }
    }))

/** A browser's GET (not followed), with its text. */
const browse = (path: string, cookie?: string) =>
  Effect.flatMap(baseUrl, (base) =>
    Effect.promise(async () => {
      const response = await fetch(`${base}${path}`, { redirect: "manual", headers: cookie === undefined ? {} : { cookie } })
      return { status: response.status, headers: response.headers, text: await response.text() }
    }))

const cookieOf = (answer: Answer) => {
  const set = answer.headers.get("set-cookie") ?? ""
  assert.match(set, /^quire_session=/)
  return set.split(";")[0]!
}

/** The session id a cookie's signed token carries (its payload is readable, only its signature is secret). */
const sidOf = (cookie: string) => {
  const token = decodeURIComponent(cookie.slice("quire_session=".length))
  const payload = JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString("utf8")) as { readonly sid: string }
  return payload.sid
}

/** The secret in a share link's published URL (`?share=<secret>`). */
const shareSecretOf = (link: { readonly urls: { readonly published?: string } }) => {
  const secret = new URL(link.urls.published ?? "http://none").searchParams.get("share")
  assert.isString(secret)
  return secret!
}

const SessionToken = Schema.Struct({ sid: Schema.String })

/** base64url(SHA-256(verifier)): the PKCE S256 challenge of `verifier`. */
const challengeOf = (verifier: string) => createHash("sha256").update(verifier, "ascii").digest("base64url")

const sqlBackends = everyBackend.filter((backend) => backend.name !== "memory")

for (const backend of sqlBackends) {
  // The SQL everyBackend' servers also provide their SqlClient (Harness), which the memory one's type does not say.
  const server = withSettings(backend.layer, { QUIRE_SECRET: instanceSecret }) as Layer.Layer<Layer.Success<typeof backend.layer> | SqlClient.SqlClient>
  layer(server, { timeout: 120_000, excludeTestServices: true })(
    `a dump of an instance on ${backend.name}`,
    (it) => {
      it.effect("holds nothing that signs anyone in or opens a credential; restored with the secret, it works", () =>
        Effect.gen(function*() {
          // The administrator's session (first-run setup) and a member's (through an invite link).
          const setup = yield* call("POST", "/auth/setup", { body: { setupCode: adminToken, displayName: "Ada Admin", email: adminEmail, password } })
          assert.strictEqual(setup.status, 200, JSON.stringify(setup.body))
          const adminCookie = cookieOf(setup)
          const alice = yield* newUser("Alice")
          const organization = yield* alice.api.organizations.createOrganization({ payload: { title: "Dumped" } })
          const organizationId = organization.id
          yield* alice.api.organizations.updateOrganizationById({ params: { organizationId }, payload: { inviteLinks: true } })
          const invite = yield* alice.api.organizations.createOrganizationInvite({ params: { organizationId }, payload: { role: "admin" } })
          const joined = yield* call("POST", `/auth/invites/${organizationId}.${invite.id}/accept`, {
            body: { displayName: "Mallory", email: `member.${Date.now()}@example.com`, password }
          })
          assert.strictEqual(joined.status, 200, JSON.stringify(joined.body))
          const memberCookie = cookieOf(joined)

          // Git credentials and the webhook secret; a site's visitor key; an OIDC client secret.
          const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Synced" } })
          yield* alice.api.git.connectSpaceGitRepository({
            params: { spaceId: space.id },
            payload: { url: `https://quire-bot:${gitPassword}@127.0.0.1:9/acme/docs.git`, ref: "refs/heads/main" }
          })
          const webhook = yield* alice.api.git.getSpaceGitWebhook({ params: { spaceId: space.id } })
          const site = yield* alice.api.sites.createSite({ params: { organizationId }, payload: { title: "Visitors" } })
          const siteParams = { organizationId, siteId: site.id }
          const visitorKey = (yield* alice.api.sites.getSitePublishingAuthById({ params: siteParams })).privateKey
          const shareLink = yield* alice.api.siteShareLinks.createSiteShareLink({ params: siteParams, payload: { name: "Partners" } })
          const oidcProvider = yield* alice.api.sso.createOrganizationOIDCProvider({
            params: { organizationId },
            payload: { label: "Test OIDC", discoveryURL: idp.issuer, clientId: Provider.clientId, clientSecret: Provider.clientSecret }
          })
          // The SAML SP key (made when its metadata is first asked for); an OIDC sign-in in flight.
          const samlProvider = yield* alice.api.sso.createOrganizationSAMLProvider({
            params: { organizationId },
            payload: { label: "Test IdP", ssoURL: Idp.idpSsoURL, entityID: Idp.idpEntityID, certificate: Idp.idpCertificate }
          })
          const metadata = (yield* browse(new URL(samlProvider.service.metadataURL).pathname)).text
          const spCertificate = /<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/.exec(metadata)?.[1] ?? ""
          assert.isAbove(spCertificate.length, 100, metadata)
          const started = yield* browse(new URL(oidcProvider.service.startURL).pathname)
          assert.strictEqual(started.status, 302, started.text)
          const oidcLocation = started.headers.get("location") ?? ""
          const oidcState = new URL(oidcLocation).searchParams.get("state") ?? ""
          const oidcChallenge = new URL(oidcLocation).searchParams.get("code_challenge") ?? ""
          const stateCookie = (started.headers.get("set-cookie") ?? "").split(";")[0]!
          assert.match(stateCookie, /^quire_oidc_state=/)

          // A pending email invitation (an admin's role): its id signs the invited email up.
          const invitedEmail = `invited.${Date.now()}@example.com`
          yield* alice.api.organizations.inviteUsersToOrganization({ params: { organizationId }, payload: { emails: [invitedEmail], role: "admin" } })
          const pending = yield* alice.api.organizations.listOrganizationMemberInvites({ params: { organizationId } })
          assert.deepStrictEqual(pending.items.map((i) => i.email), [invitedEmail])
          const emailInviteId = pending.items[0]!.id
          assert.strictEqual((yield* call("GET", `/auth/invites/${organizationId}.${emailInviteId}`)).status, 200)

          const outsider = yield* newUser("Outsider")

          const dir = mkdtempSync(join(tmpdir(), "quire-dump-secrets-"))
          yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
          const path = join(dir, "instance.dump")
          const blobs = { get: () => Effect.succeed(Option.none()), put: (bytes: Uint8Array) => Effect.succeed(createHash("sha256").update(bytes).digest("hex")) }
          const migrationTables = Services.migrations.map((pkg) => pkg.table)
          yield* InstanceDump.write(path, { source: backend.name, migrationTables, blobs })
          const dumped = gunzipSync(readFileSync(path)).toString("utf8")

          const plain: Record<string, string> = {
            "the instance secret": instanceSecret,
            "the administrator's session id": sidOf(adminCookie),
            "a member's session id": sidOf(memberCookie),
            "the invite link's secret": invite.id,
            "the email invitation's id": emailInviteId,
            "an API token": alice.token,
            "the bootstrap token": adminToken,
            "the Git password": gitPassword,
            "the webhook secret": webhook.secret,
            "the visitor key": visitorKey,
            "the share link's secret": shareSecretOf(shareLink),
            "the OIDC client secret": Provider.clientSecret,
            "the state of an OIDC sign-in in flight": oidcState
          }
          for (const [what, value] of Object.entries(plain)) {
            assert.isAbove(value.length, 15, what)
            assert.notInclude(dumped, value, `the dump holds ${what}`)
          }
          assert.notInclude(dumped, "gitsync_instance_key\"]\n{", "the dump holds no Git sync key")
          // No string of the dump is the PKCE verifier of the sign-in in flight.
          assert.strictEqual(oidcChallenge.length, 43)
          for (const word of dumped.match(/[A-Za-z0-9._~-]{43,128}/g) ?? []) {
            assert.notStrictEqual(challengeOf(word), oidcChallenge, "the dump holds the PKCE verifier of a sign-in in flight")
          }
          // The SP key is stored sealed: it opens under the instance secret alone, to the key of the published certificate.
          const sql = yield* SqlClient.SqlClient
          const spRows = yield* sql<{ readonly private_key: string }>`SELECT private_key FROM identity_saml_sp_key`
          assert.strictEqual(spRows.length, 1)
          assert.include(dumped, spRows[0]!.private_key)
          const spKey = Sealed.open(Sealed.deriveKey(instanceSecret, "quire/sealed", "quire/identity/saml-sp-key/v1"), spRows[0]!.private_key)
          assert.isTrue(Option.isSome(spKey), "the SP key is sealed under the instance secret")
          const spPem = Option.getOrThrow(spKey)
          const certified = new X509Certificate(Buffer.from(spCertificate, "base64")).publicKey
          assert.isTrue(createPublicKey(spPem).equals(certified), "the sealed key is the SP key")
          assert.notInclude(dumped, "PRIVATE KEY", "the dump holds a PEM private key")
          for (const line of spPem.split("\n").filter((l) => l.length >= 40)) assert.notInclude(dumped, line, "the dump holds the SP key")

          // Cookies forged from the dump's session rows: refused, even signed with the instance secret.
          const rows = yield* sql<{ readonly id: string }>`SELECT id FROM identity_sessions`
          assert.isAtLeast(rows.length, 2)
          const key = SignedToken.deriveKey(instanceSecret, "sign-in-session")
          for (const { id } of rows) {
            assert.include(dumped, id)
            const forged = yield* SignedToken.issue(key, SessionToken, { sid: id }, { expiresIn: 3600 })
            const answer = yield* call("GET", "/auth/session", { cookie: `quire_session=${forged}` })
            assert.strictEqual(answer.status, 401, `a cookie forged from session row ${id}`)
          }
          // ...and the invite link's stored id does not join.
          const stored = yield* sql<{ readonly id: string }>`SELECT id FROM identity_link_invites WHERE organization_id = ${organizationId}`
          const refused = yield* Effect.flip(outsider.api.organizations.joinOrganizationWithInvite({ params: { organizationId, inviteId: stored[0]!.id } }))
          assert.strictEqual((refused as { readonly error?: { readonly code?: number } }).error?.code, 404)
          // ...nor does the email invitation's stored id sign its email up, or show the invitation.
          const storedInvite = yield* sql<{ readonly id: string }>`SELECT id FROM identity_email_invites WHERE organization_id = ${organizationId}`
          assert.deepStrictEqual(storedInvite.map((row) => row.id), [Sealed.bearerHash(emailInviteId)])
          assert.include(dumped, storedInvite[0]!.id)
          const storedToken = `${organizationId}.${storedInvite[0]!.id}`
          assert.strictEqual((yield* call("GET", `/auth/invites/${storedToken}`)).status, 404)
          const squat = yield* call("POST", `/auth/invites/${storedToken}/accept`, { body: { displayName: "Squatter", password } })
          assert.strictEqual(squat.status, 404, JSON.stringify(squat.body))

          // Restored (over the same database), with the secret carried separately: everything works as before.
          const restored = yield* InstanceDump.restore(path, { migrationTables, migrate: Services.migrate, blobs, force: true })
          assert.isAbove(restored.trailer.rows, 0)
          const adminSession = yield* call("GET", "/auth/session", { cookie: adminCookie })
          assert.strictEqual(adminSession.status, 200, JSON.stringify(adminSession.body))
          assert.isTrue(adminSession.body.user.instanceAdmin === true || adminSession.body.user.email === adminEmail)
          assert.strictEqual((yield* call("GET", "/auth/session", { cookie: memberCookie })).status, 200)
          const links = yield* alice.api.organizations.listOrganizationInviteLinks({ params: { organizationId }, query: {} })
          assert.deepStrictEqual(links.items.map((link) => link.id), [invite.id])
          yield* outsider.api.organizations.joinOrganizationWithInvite({ params: { organizationId, inviteId: invite.id } })
          const invitesAfter = yield* alice.api.organizations.listOrganizationMemberInvites({ params: { organizationId } })
          assert.deepStrictEqual(invitesAfter.items.map((i) => [i.id, i.email]), [[emailInviteId, invitedEmail]])
          const shown = yield* call("GET", `/auth/invites/${organizationId}.${emailInviteId}`)
          assert.strictEqual(shown.status, 200, JSON.stringify(shown.body))
          const signedUp = yield* call("POST", `/auth/invites/${organizationId}.${emailInviteId}/accept`, { body: { displayName: "Invited", email: invitedEmail, password } })
          assert.strictEqual(signedUp.status, 200, JSON.stringify(signedUp.body))
          const invited = yield* call("GET", "/auth/session", { cookie: cookieOf(signedUp) })
          assert.strictEqual(invited.body.user.email, invitedEmail)
          assert.strictEqual((yield* alice.api.sites.getSitePublishingAuthById({ params: siteParams })).privateKey, visitorKey)
          const shareLinks = yield* alice.api.siteShareLinks.listSiteShareLinks({ params: siteParams, query: {} })
          assert.deepStrictEqual(shareLinks.items.map(shareSecretOf), [shareSecretOf(shareLink)])
          assert.strictEqual((yield* alice.api.git.getSpaceGitWebhook({ params: { spaceId: space.id } })).secret, webhook.secret)
          const info = yield* alice.api.git.connectSpaceGitRepository({
            params: { spaceId: space.id },
            payload: { url: "https://127.0.0.1:9/acme/docs.git", ref: "refs/heads/main", keepCredentials: true }
          })
          assert.isTrue(info.credentials, "the stored credentials still open under the instance secret")
          // The SP key is the one of before; the OIDC sign-in in flight completes in the browser that began it.
          const metadataAfter = (yield* browse(new URL(samlProvider.service.metadataURL).pathname)).text
          assert.include(metadataAfter, spCertificate)
          const callback = yield* Effect.promise(() => Provider.signIn(oidcLocation, `oidc.${Date.now()}@example.com`))
          const completed = yield* browse(`${callback.pathname}${callback.search}`, stateCookie)
          assert.strictEqual(completed.status, 303, completed.text)
          assert.match(completed.headers.get("set-cookie") ?? "", /quire_session=/)
        }).pipe(Effect.scoped))
    }
  )
}
