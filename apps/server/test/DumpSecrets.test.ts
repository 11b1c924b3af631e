/**
 * Issue 34, finding 4: a dump alone yields nothing that signs anyone in or opens a credential. An
 * instance with sessions (the administrator's and a member's), an invite link, API tokens, a Git
 * repository URL with credentials and its webhook secret, a site's visitor key and share link and
 * an OIDC client secret is dumped (`InstanceDump.write`, as `quire db dump` does); the dump holds none of those
 * values, nor the instance secret. A cookie forged from the dump's session rows is refused, even
 * signed with the instance secret itself. Restored, with the instance secret carried separately,
 * the instance works: the cookies of before still open their sessions, the link is listed and
 * joins, the visitor key and the Git credentials still open. On PostgreSQL and PGlite.
 */
import { afterAll, assert, beforeAll, layer } from "@effect/vitest"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { createHash } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { InstanceDump } from "@quire/db"
import { SignedToken } from "@quire/kernel"
import * as Provider from "../../../packages/identity/test/support/TestOidcProvider.ts"
import { Services } from "@quire/platform"
import { adminEmail, adminToken, backends, baseUrl, newUser, withSettings } from "./Harness.ts"

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

const sqlBackends = backends.filter((backend) => backend.name !== "memory")

for (const backend of sqlBackends) {
  // The SQL backends' servers also provide their SqlClient (Harness), which the memory one's type does not say.
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
          yield* alice.api.sso.createOrganizationOIDCProvider({
            params: { organizationId },
            payload: { label: "Test OIDC", discoveryURL: idp.issuer, clientId: Provider.clientId, clientSecret: Provider.clientSecret }
          })

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
            "an API token": alice.token,
            "the bootstrap token": adminToken,
            "the Git password": gitPassword,
            "the webhook secret": webhook.secret,
            "the visitor key": visitorKey,
            "the share link's secret": shareSecretOf(shareLink),
            "the OIDC client secret": Provider.clientSecret
          }
          for (const [what, value] of Object.entries(plain)) {
            assert.isAbove(value.length, 15, what)
            assert.notInclude(dumped, value, `the dump holds ${what}`)
          }
          assert.notInclude(dumped, "gitsync_instance_key\"]\n{", "the dump holds no Git sync key")

          // Cookies forged from the dump's session rows: refused, even signed with the instance secret.
          const sql = yield* SqlClient.SqlClient
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
          assert.strictEqual((yield* alice.api.sites.getSitePublishingAuthById({ params: siteParams })).privateKey, visitorKey)
          const shareLinks = yield* alice.api.siteShareLinks.listSiteShareLinks({ params: siteParams, query: {} })
          assert.deepStrictEqual(shareLinks.items.map(shareSecretOf), [shareSecretOf(shareLink)])
          assert.strictEqual((yield* alice.api.git.getSpaceGitWebhook({ params: { spaceId: space.id } })).secret, webhook.secret)
          const info = yield* alice.api.git.connectSpaceGitRepository({
            params: { spaceId: space.id },
            payload: { url: "https://127.0.0.1:9/acme/docs.git", ref: "refs/heads/main", keepCredentials: true }
          })
          assert.isTrue(info.credentials, "the stored credentials still open under the instance secret")
        }).pipe(Effect.scoped))
    }
  )
}
