/**
 * API tokens made through a sign-in session end with the sessions: a password change and signing
 * out everywhere revoke every token a session of the person created (in the browser with the
 * cookie, or by `quire login`), so a thief of a session keeps nothing it made; tokens made with a
 * token (the CLI's, automation's) are tied to no session and stay. On every backend.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, cookieOf } from "./AuthCalls.ts"
import { adminEmail, adminToken, backends } from "./Harness.ts"

const password = "correct horse battery"
const newPassword = "another horse battery"

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`tokens of sessions on ${backend.name}`, (it) => {
    it.effect("a password change and signing out everywhere revoke the tokens sessions made, not those made with a token", () =>
      Effect.gen(function*() {
        const setup = yield* call("POST", "/auth/setup", { body: { setupCode: adminToken, displayName: "Ada Admin", email: adminEmail, password } })
        assert.strictEqual(setup.status, 200, JSON.stringify(setup.body))
        const browser = cookieOf(setup)
        const userId: string = setup.body.user.id
        const other = cookieOf(yield* call("POST", "/auth/sign-in", { body: { email: adminEmail, password } }))

        const createToken = Effect.fnUntraced(function*(label: string, by: { readonly cookie?: string; readonly token?: string }) {
          const created = yield* call("POST", `/v1/users/${userId}/tokens`, { ...by, body: { label } })
          assert.strictEqual(created.status, 201, JSON.stringify(created.body))
          return created.body.token as string
        })
        const works = Effect.fnUntraced(function*(token: string) {
          return (yield* call("GET", "/v1/user", { token })).status === 200
        })

        // Made in the browser, with the cookie (a thief of the cookie would do the same).
        const inBrowser = yield* createToken("in the browser", { cookie: browser })
        // Made by `quire login` with the password: its sign-in is a session.
        const login = yield* call("POST", "/auth/cli/token", { body: { email: adminEmail, password } })
        assert.strictEqual(login.status, 201, JSON.stringify(login.body))
        const cliLogin: string = login.body.token
        // Made with tokens: the bootstrap token, and the one the browser made.
        const automation = yield* createToken("automation", { token: adminToken })
        const chained = yield* createToken("made with a token", { token: inBrowser })
        assert.deepStrictEqual(
          [yield* works(inBrowser), yield* works(cliLogin), yield* works(automation), yield* works(chained)],
          [true, true, true, true]
        )

        const changed = yield* call("POST", "/auth/password", { cookie: browser, body: { currentPassword: password, newPassword } })
        assert.strictEqual(changed.status, 204, JSON.stringify(changed.body))
        assert.deepStrictEqual(
          [yield* works(inBrowser), yield* works(cliLogin), yield* works(automation), yield* works(chained)],
          [false, false, true, true]
        )
        assert.strictEqual((yield* call("GET", "/auth/session", { cookie: other })).status, 401)
        assert.strictEqual((yield* call("GET", "/auth/session", { cookie: browser })).status, 200)

        // Signing out everywhere: every session, this one too, and the tokens made since.
        const later = yield* createToken("after the change", { cookie: browser })
        assert.strictEqual((yield* call("POST", "/auth/sign-out-everywhere")).status, 401)
        const out = yield* call("POST", "/auth/sign-out-everywhere", { cookie: browser })
        assert.strictEqual(out.status, 204)
        assert.match(out.headers.get("set-cookie") ?? "", /^quire_session=;/)
        assert.strictEqual((yield* call("GET", "/auth/session", { cookie: browser })).status, 401)
        assert.deepStrictEqual([yield* works(later), yield* works(automation), yield* works(chained)], [false, true, true])

        const left = yield* call("GET", `/v1/users/${userId}/tokens`, { token: automation })
        assert.deepStrictEqual(
          (left.body.items as ReadonlyArray<{ label?: string }>).map((token) => token.label).filter((label) => label !== "bootstrap").toSorted(),
          ["automation", "made with a token"]
        )
      }))
  })
}
