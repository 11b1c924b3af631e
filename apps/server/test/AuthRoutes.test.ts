/**
 * The browser app's sign-in surface (`/auth/*`, docs/sign-in.md) end to end, on every backend:
 * first-run setup behind the setup code, sign-in and its one answer for a wrong email or
 * password, the cookie's attributes, sessions listed and revoked, sign-out, invitations, password
 * changes, the sign-in limit, and the rule that a page of another site can never act with the
 * cookie (a cross-origin form post and fetch both refused, the same-origin call accepted).
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Redacted } from "effect"
import { Cookies, HttpServerResponse } from "effect/http"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { passwordLogin } from "../../cli/src/commands/LoginCommand.ts"
import { call, cookieOf } from "./AuthCalls.ts"
import { adminEmail, adminToken, backends, baseUrl, memory, newUser, withSettings } from "./Harness.ts"
import * as SessionCookie from "../src/SessionCookie.ts"

const password = "correct horse battery"

/** A new person with a password, signed up as an admin through an invite link of a new organization of Alice's; their cookie. */
const signedUpMember = Effect.fnUntraced(function*(name: string) {
  const alice = yield* newUser("Alice")
  const organization = yield* alice.api.organizations.createOrganization({ payload: { title: `${name}'s team` } })
  yield* alice.api.organizations.updateOrganizationById({ params: { organizationId: organization.id }, payload: { inviteLinks: true } })
  const invite = yield* alice.api.organizations.createOrganizationInvite({ params: { organizationId: organization.id }, payload: { role: "admin" } })
  const email = `${name.toLowerCase()}.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`
  const joined = yield* call("POST", `/auth/invites/${organization.id}.${invite.id}/accept`, { body: { displayName: name, email, password } })
  assert.strictEqual(joined.status, 200, JSON.stringify(joined.body))
  return { alice, organizationId: organization.id, email, cookie: cookieOf(joined), user: joined.body.user, session: joined.body.session }
})

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`sign-in routes on ${backend.name}`, (it) => {
    it.effect("first-run setup: open until the administrator sets a password with the printed setup code, then closed", () =>
      Effect.gen(function*() {
        const anonymous = yield* call("GET", "/auth/session")
        assert.strictEqual(anonymous.status, 401)
        assert.deepStrictEqual(anonymous.body, { error: { code: 401, message: "Not signed in" }, setupNeeded: true })
        // The app's probe at each load: signed out is an answer, not a refusal the browser logs.
        const probe = yield* call("GET", "/auth/session?probe=1")
        assert.deepStrictEqual([probe.status, probe.body, probe.headers.get("cache-control")], [200, { signedIn: false, setupNeeded: true }, "no-store"])
        const input = { setupCode: adminToken, displayName: "Ada Admin", email: adminEmail, password }
        const wrongCode = yield* call("POST", "/auth/setup", { body: { ...input, setupCode: "quire_pat_guessed" } })
        assert.deepStrictEqual([wrongCode.status, wrongCode.body.error.message], [403, "setupCode: not the setup code the server printed in its log at first start"])
        const noCode = yield* call("POST", "/auth/setup", { body: { ...input, setupCode: undefined } })
        assert.deepStrictEqual([noCode.status, noCode.body.error.message], [400, "setupCode: required: the setup code the server printed in its log at first start"])
        const short = yield* call("POST", "/auth/setup", { body: { ...input, password: "too short" } })
        assert.deepStrictEqual(short.body, { error: { code: 400, message: "password: must be at least 10 characters", field: "password" } })
        const badEmail = yield* call("POST", "/auth/setup", { body: { ...input, email: "admin" } })
        assert.deepStrictEqual([badEmail.status, badEmail.body.error.message], [400, "email: must be an email address (name@example.com)"])
        const notJson = yield* call("POST", "/auth/setup", { body: "{" })
        assert.deepStrictEqual([notJson.status, notJson.body.error.message], [400, "request body: must be a JSON object"])

        const done = yield* call("POST", "/auth/setup", { body: input })
        assert.strictEqual(done.status, 200, JSON.stringify(done.body))
        assert.strictEqual(done.body.user.email, adminEmail)
        assert.strictEqual(done.body.user.displayName, "Ada Admin")
        assert.isFalse(done.body.setupNeeded)
        assert.isString(done.body.session.id)
        assert.isTrue(new Date(done.body.session.expiresAt).getTime() > Date.now())
        // The cookie: HttpOnly, SameSite=Lax, Path=/, not Secure over http.
        const setCookie = done.headers.get("set-cookie") ?? ""
        assert.match(setCookie, /HttpOnly/i)
        assert.match(setCookie, /SameSite=Lax/i)
        assert.match(setCookie, /Path=\//)
        assert.notMatch(setCookie, /Secure/i)
        assert.strictEqual(done.headers.get("cache-control"), "no-store")
        const cookie = cookieOf(done)

        const session = yield* call("GET", "/auth/session", { cookie })
        assert.deepStrictEqual(session.body.user, done.body.user)
        assert.deepStrictEqual((yield* call("GET", "/auth/session?probe=1", { cookie })).body, session.body)
        // The cookie opens the API as the administrator.
        const me = yield* call("GET", "/v1/user", { cookie })
        assert.deepStrictEqual([me.status, me.body.email], [200, adminEmail])
        const again = yield* call("POST", "/auth/setup", { body: input })
        assert.deepStrictEqual([again.status, again.body.error.message], [403, "Setup is done: sign in instead"])
        assert.isFalse((yield* call("GET", "/auth/session")).body.setupNeeded)
        // The administrator signs in with the password now.
        assert.strictEqual((yield* call("POST", "/auth/sign-in", { body: { email: adminEmail, password } })).status, 200)
      }))

    it.effect("quire login with a password: an API token for the right password, the one answer otherwise, never from another site", () =>
      Effect.gen(function*() {
        const member = yield* signedUpMember("Cleo")
        const cli = { origin: null, headers: { "user-agent": "quire-cli" } } as const
        const wrong = yield* call("POST", "/auth/cli/token", { ...cli, body: { email: member.email, password: "not the password" } })
        assert.deepStrictEqual([wrong.status, wrong.body], [401, { error: { code: 401, message: "Wrong email or password." } }])
        const missing = yield* call("POST", "/auth/cli/token", { ...cli, body: "[]" })
        assert.deepStrictEqual([missing.status, missing.body.error.message], [400, "request body: must be a JSON object"])
        const fromSite = yield* call("POST", "/auth/cli/token", { origin: "https://evil.example", body: { email: member.email, password } })
        assert.strictEqual(fromSite.status, 403)

        const sessionsBefore = (yield* call("GET", "/auth/sessions", { cookie: member.cookie })).body.items.length
        const signedIn = yield* call("POST", "/auth/cli/token", { ...cli, body: { email: member.email, password } })
        assert.strictEqual(signedIn.status, 201, JSON.stringify(signedIn.body))
        assert.deepStrictEqual(signedIn.body.user, { id: member.user.id, email: member.email, displayName: "Cleo" })
        assert.isNull(signedIn.headers.get("set-cookie"))
        // The token opens the API as the person; the sign-in it came from is not left behind as a session.
        const me = yield* call("GET", "/v1/user", { origin: null, headers: { authorization: `Bearer ${signedIn.body.token}` } })
        assert.deepStrictEqual([me.status, me.body.id], [200, member.user.id])
        assert.strictEqual((yield* call("GET", "/auth/sessions", { cookie: member.cookie })).body.items.length, sessionsBefore)

        // The CLI's side: the token stored for the server's URL; a wrong password a failure in words.
        const base = yield* baseUrl
        const dir = mkdtempSync(join(tmpdir(), "quire-cli-login-"))
        const inDir = Effect.provide(ConfigProvider.layer(ConfigProvider.fromUnknown({ QUIRE_CONFIG_DIR: dir })))
        try {
          const stored = yield* passwordLogin(base, member.email, Redacted.make(password)).pipe(inDir)
          assert.strictEqual(stored.email, member.email)
          const credentials = JSON.parse(readFileSync(join(dir, "credentials.json"), "utf8"))
          assert.match(credentials[base], /\S{20,}/)
          const refused = yield* Effect.flip(passwordLogin(base, member.email, Redacted.make("wrong")).pipe(inDir))
          assert.strictEqual(refused.message, "Sign-in refused: Wrong email or password.")
        } finally {
          rmSync(dir, { recursive: true, force: true })
        }
      }))

    it.effect("signs in with an email and a password, one answer for either mistake; lists, revokes and signs out sessions", () =>
      Effect.gen(function*() {
        const member = yield* signedUpMember("Bea")
        const unknown = yield* call("POST", "/auth/sign-in", { body: { email: "nobody@example.com", password } })
        const wrong = yield* call("POST", "/auth/sign-in", { body: { email: member.email, password: "not the password" } })
        assert.deepStrictEqual(unknown.body, { error: { code: 401, message: "Wrong email or password." } })
        assert.deepStrictEqual([wrong.status, wrong.body], [401, unknown.body])
        assert.isNull(wrong.headers.get("set-cookie"))

        const laptop = yield* call("POST", "/auth/sign-in", { body: { email: member.email, password }, headers: { "user-agent": "Laptop/1" } })
        assert.strictEqual(laptop.status, 200)
        assert.strictEqual(laptop.body.user.id, member.user.id)
        const laptopCookie = cookieOf(laptop)
        const listed = yield* call("GET", "/auth/sessions", { cookie: laptopCookie })
        assert.strictEqual(listed.status, 200)
        const items = listed.body.items as Array<Record<string, unknown>>
        assert.strictEqual(items.length, 2)
        const current = items.find((item) => item["current"] === true)!
        assert.deepStrictEqual([current["id"], current["method"], current["userAgent"]], [laptop.body.session.id, "password", "Laptop/1"])
        for (const field of ["createdAt", "lastSeenAt", "expiresAt"]) assert.isString(current[field])
        assert.isTrue(items.some((item) => item["id"] === member.session.id && item["current"] === false))

        // Another person's session is not theirs to revoke; their own other one is.
        const other = yield* signedUpMember("Cy")
        assert.strictEqual((yield* call("DELETE", `/auth/sessions/${other.session.id}`, { cookie: laptopCookie })).status, 404)
        assert.strictEqual((yield* call("GET", "/auth/session", { cookie: other.cookie })).status, 200)
        assert.strictEqual((yield* call("DELETE", `/auth/sessions/${member.session.id}`, { cookie: laptopCookie })).status, 204)
        assert.strictEqual((yield* call("GET", "/auth/session", { cookie: member.cookie })).status, 401)
        assert.strictEqual((yield* call("GET", "/v1/user", { cookie: member.cookie })).status, 401)
        assert.strictEqual((yield* call("GET", "/auth/sessions")).status, 401)

        const out = yield* call("POST", "/auth/sign-out", { cookie: laptopCookie })
        assert.strictEqual(out.status, 204)
        assert.match(out.headers.get("set-cookie") ?? "", /^quire_session=;.*Max-Age=0/i)
        assert.strictEqual((yield* call("GET", "/auth/session", { cookie: laptopCookie })).status, 401)
        assert.strictEqual((yield* call("GET", "/v1/user", { cookie: laptopCookie })).status, 401)
      }))

    it.effect("shows an invitation by its token and joins with a new account or as oneself, never over an existing account", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        const organization = yield* alice.api.organizations.createOrganization({ payload: { title: "Invited Co" } })
        const organizationId = organization.id
        const invite = yield* alice.api.organizations.createOrganizationInvite({ params: { organizationId }, payload: { role: "comment" } })
        const token = `${organizationId}.${invite.id}`
        // Links are off until the organization turns them on.
        assert.strictEqual((yield* call("GET", `/auth/invites/${token}`)).status, 404)
        yield* alice.api.organizations.updateOrganizationById({ params: { organizationId }, payload: { inviteLinks: true } })
        const shown = yield* call("GET", `/auth/invites/${token}`)
        assert.deepStrictEqual(shown.body, { organization: { id: organizationId, title: "Invited Co" }, role: "comment", kind: "link", proof: false })
        const unknown = yield* call("GET", `/auth/invites/${organizationId}.nope`)
        assert.deepStrictEqual([unknown.status, unknown.body.error.code], [404, 404])

        const taken = yield* call("POST", `/auth/invites/${token}/accept`, { body: { displayName: "Impostor", email: alice.email, password } })
        assert.strictEqual(taken.status, 409)
        const noName = yield* call("POST", `/auth/invites/${token}/accept`, { body: { email: "dora@example.com", password } })
        assert.deepStrictEqual([noName.status, noName.body.error.message], [400, "displayName: required, a name to show"])
        const email = `dora.${Date.now()}@example.com`
        const dora = yield* call("POST", `/auth/invites/${token}/accept`, { body: { displayName: "Dora", email, password } })
        assert.strictEqual(dora.status, 200)
        assert.deepStrictEqual([dora.body.user.email, dora.body.user.displayName], [email, "Dora"])
        const cookie = cookieOf(dora)
        const membership = yield* call("GET", `/v1/orgs/${organizationId}/members/${dora.body.user.id}`, { cookie })
        assert.deepStrictEqual([membership.status, membership.body.role], [200, "comment"])

        // A signed-in member accepts a better link as themselves, with an empty body.
        const better = yield* alice.api.organizations.createOrganizationInvite({ params: { organizationId }, payload: { role: "edit" } })
        const accepted = yield* call("POST", `/auth/invites/${organizationId}.${better.id}/accept`, { cookie, body: {} })
        assert.deepStrictEqual([accepted.status, accepted.body.user.id, accepted.headers.get("set-cookie")], [200, dora.body.user.id, null])
        const upgraded = yield* call("GET", `/v1/orgs/${organizationId}/members/${dora.body.user.id}`, { cookie })
        assert.strictEqual(upgraded.body.role, "edit")

        // An email invitation of someone without an account: they sign up with its email.
        const edEmail = `ed.${Date.now()}@example.com`
        yield* alice.api.organizations.inviteUsersToOrganization({ params: { organizationId }, payload: { emails: [edEmail], role: "review" } })
        const pending = yield* alice.api.organizations.listOrganizationMemberInvites({ params: { organizationId } })
        const emailToken = `${organizationId}.${pending.items.find((item) => item.email === edEmail)!.id}`
        assert.deepStrictEqual((yield* call("GET", `/auth/invites/${emailToken}`)).body, {
          organization: { id: organizationId, title: "Invited Co" },
          email: edEmail,
          role: "review",
          kind: "email",
          proof: false
        })
        const otherEmail = yield* call("POST", `/auth/invites/${emailToken}/accept`, { body: { displayName: "Ed", email: "someone@example.com", password } })
        assert.deepStrictEqual([otherEmail.status, otherEmail.body.error.message], [400, `email: this invitation is for ${edEmail}`])
        const ed = yield* call("POST", `/auth/invites/${emailToken}/accept`, { body: { displayName: "Ed", password } })
        assert.deepStrictEqual([ed.status, ed.body.user.email], [200, edEmail])
        const edMember = yield* call("GET", `/v1/orgs/${organizationId}/members/${ed.body.user.id}`, { cookie: cookieOf(ed) })
        assert.strictEqual(edMember.body.role, "review")
        assert.strictEqual((yield* call("GET", `/auth/invites/${emailToken}`)).status, 404)
      }))

    it.effect("changes a password given the current one", () =>
      Effect.gen(function*() {
        const member = yield* signedUpMember("Eve")
        assert.strictEqual((yield* call("POST", "/auth/password", { body: { currentPassword: password, newPassword: "a new password" } })).status, 401)
        const wrong = yield* call("POST", "/auth/password", { cookie: member.cookie, body: { currentPassword: "not it at all", newPassword: "a new password" } })
        assert.deepStrictEqual(wrong.body, { error: { code: 400, message: "currentPassword: is not your current password", field: "currentPassword" } })
        const short = yield* call("POST", "/auth/password", { cookie: member.cookie, body: { currentPassword: password, newPassword: "short" } })
        assert.deepStrictEqual([short.status, short.body.error.message], [400, "newPassword: must be at least 10 characters"])
        assert.strictEqual((yield* call("POST", "/auth/password", { cookie: member.cookie, body: { currentPassword: password, newPassword: "a new password" } })).status, 204)
        assert.strictEqual((yield* call("POST", "/auth/sign-in", { body: { email: member.email, password } })).status, 401)
        assert.strictEqual((yield* call("POST", "/auth/sign-in", { body: { email: member.email, password: "a new password" } })).status, 200)
      }))

    it.effect("never lets another site act with the cookie: a cross-origin form post and fetch fail, the same-origin call succeeds", () =>
      Effect.gen(function*() {
        const member = yield* signedUpMember("Fay")
        const { cookie, organizationId } = member
        const spacesPath = `/v1/orgs/${organizationId}/spaces`
        const count = Effect.map(call("GET", spacesPath, { cookie }), (answer) => (answer.body.items as Array<unknown>).length)
        assert.strictEqual(yield* count, 0)

        // A form on another site posting to the API: no custom header, form-encoded, its own Origin.
        const formPost = yield* call("POST", spacesPath, {
          cookie,
          origin: "https://evil.example",
          headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "cross-site" },
          body: "title=Pwned"
        })
        assert.deepStrictEqual(formPost.body, { error: { code: 403, message: "Cross-origin requests cannot act with the session cookie" } })
        // Another site's fetch with credentials.
        const crossFetch = yield* call("POST", spacesPath, { cookie, origin: "https://evil.example", body: { title: "Pwned" } })
        assert.strictEqual(crossFetch.status, 403)
        assert.isNull(crossFetch.headers.get("access-control-allow-credentials"))
        // A request that says nothing of where it comes from, or a null origin, is refused too.
        assert.strictEqual((yield* call("POST", spacesPath, { cookie, origin: null, body: { title: "Pwned" } })).status, 403)
        assert.strictEqual((yield* call("POST", spacesPath, { cookie, origin: "null", body: { title: "Pwned" } })).status, 403)
        // An Authorization header that is not a bearer token leaves the cookie in charge: refused too.
        const basic = yield* call("POST", spacesPath, { cookie, origin: "https://evil.example", headers: { authorization: "Basic eDp5" }, body: { title: "Pwned" } })
        assert.strictEqual(basic.status, 403)
        assert.strictEqual((yield* call("DELETE", `/auth/sessions/${member.session.id}`, { cookie, origin: "https://evil.example" })).status, 403)
        assert.strictEqual((yield* call("POST", "/auth/sign-out", { cookie, origin: "https://evil.example" })).status, 403)
        assert.strictEqual((yield* call("POST", "/auth/sign-in", { origin: "https://evil.example", body: { email: member.email, password } })).status, 403)
        assert.strictEqual(yield* count, 0)
        assert.strictEqual((yield* call("GET", "/auth/session", { cookie })).status, 200)

        // The app itself, on our origin (by Origin, or by Sec-Fetch-Site without one).
        const own = yield* call("POST", spacesPath, { cookie, body: { title: "Handbook" } })
        assert.strictEqual(own.status, 201, JSON.stringify(own.body))
        const fetchMeta = yield* call("POST", spacesPath, { cookie, origin: null, headers: { "sec-fetch-site": "same-origin" }, body: { title: "Runbook" } })
        assert.strictEqual(fetchMeta.status, 201, JSON.stringify(fetchMeta.body))
        assert.strictEqual(yield* count, 2)
        assert.isNull(own.headers.get("access-control-allow-credentials"))
        // A bearer token is not a cookie: it is sent on purpose, from wherever.
        const bearer = yield* call("GET", "/v1/user", { origin: "https://evil.example", headers: { authorization: `Bearer ${adminToken}` } })
        assert.strictEqual(bearer.status, 200)
      }))
  })
}

layer(withSettings(memory.layer, { QUIRE_SIGN_IN_ATTEMPTS: 2 }), { timeout: 120_000, excludeTestServices: true })("sign-in limit", (it) => {
  it.effect("answers 429 with Retry-After once an email has spent its failed attempts", () =>
    Effect.gen(function*() {
      const member = yield* signedUpMember("Gus")
      for (let n = 0; n < 2; n++) {
        assert.strictEqual((yield* call("POST", "/auth/sign-in", { body: { email: member.email, password: "wrong guess!" } })).status, 401)
      }
      const limited = yield* call("POST", "/auth/sign-in", { body: { email: member.email, password } })
      assert.strictEqual(limited.status, 429)
      assert.match(limited.body.error.message, /^Too many sign-in attempts; try again in \d+ seconds\.$/)
      const retryAfter = Number(limited.headers.get("retry-after"))
      assert.isTrue(retryAfter > 0 && retryAfter <= 900, String(retryAfter))
      // Another email from the same address is still let through.
      assert.strictEqual((yield* call("POST", "/auth/sign-in", { body: { email: adminEmail, password: "wrong guess!" } })).status, 401)
    }))
})

layer(withSettings(memory.layer, { QUIRE_SIGN_UP_LIMIT: 2 }), { timeout: 120_000, excludeTestServices: true })("sign-up limit", (it) => {
  it.effect("answers 429 with Retry-After once an address has created its accounts through invite links", () =>
    Effect.gen(function*() {
      yield* signedUpMember("Una")
      yield* signedUpMember("Vic")
      const alice = yield* newUser("Alice")
      const organization = yield* alice.api.organizations.createOrganization({ payload: { title: "Open door" } })
      yield* alice.api.organizations.updateOrganizationById({ params: { organizationId: organization.id }, payload: { inviteLinks: true } })
      const invite = yield* alice.api.organizations.createOrganizationInvite({ params: { organizationId: organization.id }, payload: { role: "read" } })
      const third = yield* call("POST", `/auth/invites/${organization.id}.${invite.id}/accept`, {
        body: { displayName: "Wes", email: `wes.${Date.now()}@example.com`, password }
      })
      assert.strictEqual(third.status, 429)
      assert.match(third.body.error.message, /^Too many accounts created from this address; try again in \d+ seconds\.$/)
      assert.isTrue(Number(third.headers.get("retry-after")) > 0)
    }))
})

describe("session cookie", () => {
  it.effect("is Secure when the server is reached over https, and cleared with the same attributes", () =>
    Effect.gen(function*() {
      const set = Cookies.toSetCookieHeaders((yield* SessionCookie.set(HttpServerResponse.empty(), { token: "t", maxAgeSeconds: 60 }, true)).cookies)
      assert.deepStrictEqual(set, ["quire_session=t; Max-Age=60; Path=/; HttpOnly; Secure; SameSite=Lax"])
      const cleared = Cookies.toSetCookieHeaders((yield* SessionCookie.clear(HttpServerResponse.empty(), true)).cookies)
      assert.strictEqual(cleared.length, 1)
      assert.match(cleared[0]!, /^quire_session=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax$/)
    }))
})
