/**
 * `GET /admin/users?instanceAdmin=true` and `PUT /admin/users/{userId}/instance-admin` through the
 * real server (issue 34, finding 1: after first-run setup, instance administration is granted only
 * by an instance administrator): a member is refused, the administrator grants it by token or by
 * session (never from another site), the granted person then acts as one (`/auth/session`,
 * instance-only routes), a bad body is a 400 naming the field, and the last administrator stays.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminEmail, adminToken, baseUrl, memory, newUser } from "./Harness.ts"

const ownOrigin = "http://quire.test"
const password = "correct horse battery"

/** A request with a bearer `token` or a `cookie` (sent from `origin`, ours by default), and a JSON `body`. */
const call = (
  method: string,
  path: string,
  init: { readonly token?: string; readonly cookie?: string; readonly body?: unknown; readonly origin?: string } = {}
) =>
  Effect.flatMap(baseUrl, (base) =>
    Effect.promise(async () => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          ...(init.body === undefined ? {} : { "content-type": "application/json" }),
          ...(init.token === undefined ? {} : { authorization: `Bearer ${init.token}` }),
          ...(init.cookie === undefined ? {} : { cookie: init.cookie, origin: init.origin ?? ownOrigin })
        },
        ...(init.body === undefined ? {} : { body: typeof init.body === "string" ? init.body : JSON.stringify(init.body) })
      })
      const text = await response.text()
      return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) as any }
    }))

const cookieOf = (answer: { readonly headers: Headers }) => (answer.headers.get("set-cookie") ?? "").split(";")[0]!

const grant = (userId: string, instanceAdmin: unknown, init: { readonly token?: string; readonly cookie?: string; readonly origin?: string }) =>
  call("PUT", `/admin/users/${userId}/instance-admin`, { ...init, body: { instanceAdmin } })

const listed = (init: { readonly token?: string; readonly cookie?: string }) =>
  Effect.map(call("GET", "/admin/users?instanceAdmin=true", init), (answer) => ({ status: answer.status, ids: (answer.body?.items ?? []).map((user: { id: string }) => user.id) as Array<string>, body: answer.body }))

layer(memory.layer, { timeout: 120_000, excludeTestServices: true })("instance administrators over HTTP", (it) => {
  it.effect("a member is refused; the administrator grants and withdraws, by token or session; the last one stays", () =>
    Effect.gen(function*() {
      const member = yield* newUser("Member")
      const admin = (yield* listed({ token: adminToken })).body.items[0]
      assert.strictEqual(admin.email, adminEmail)
      assert.deepStrictEqual(Object.keys(admin).toSorted(), ["displayName", "email", "id"])

      // Anonymous: 401; a member: 403 for the list, for granting itself, and for a backup.
      const anonymous = yield* call("GET", "/admin/users?instanceAdmin=true")
      assert.deepStrictEqual([anonymous.status, anonymous.body.error.code], [401, 401])
      assert.strictEqual(anonymous.headers.get("www-authenticate"), "Bearer")
      assert.strictEqual((yield* listed({ token: member.token })).status, 403)
      const self = yield* grant(member.user.id, true, { token: member.token })
      assert.deepStrictEqual(self.body, { error: { code: 403, message: "Only an instance administrator can manage instance administrators" } })
      assert.strictEqual((yield* call("POST", "/admin/backup", { token: member.token })).status, 403)

      // Bad requests name what is wrong.
      assert.deepStrictEqual((yield* grant(member.user.id, "yes", { token: adminToken })).body, { error: { code: 400, message: "instanceAdmin: required: true or false", field: "instanceAdmin" } })
      assert.deepStrictEqual((yield* call("PUT", `/admin/users/${member.user.id}/instance-admin`, { token: adminToken, body: {} })).body.error, { code: 400, message: "instanceAdmin: required: true or false", field: "instanceAdmin" })
      assert.deepStrictEqual((yield* call("PUT", `/admin/users/${member.user.id}/instance-admin`, { token: adminToken, body: { instanceAdmin: true, role: "x" } })).body.error, { code: 400, message: "role: unknown field", field: "role" })
      const notJson = yield* call("PUT", `/admin/users/${member.user.id}/instance-admin`, { token: adminToken, body: "{" })
      assert.deepStrictEqual([notJson.status, notJson.body.error.message], [400, "request body: must be a JSON object: {\"instanceAdmin\": true|false}"])
      const noFilter = yield* call("GET", "/admin/users", { token: adminToken })
      assert.deepStrictEqual([noFilter.status, noFilter.body.error.message.startsWith("instanceAdmin: ")], [400, true])
      const missing = yield* grant("no-such-user", true, { token: adminToken })
      assert.deepStrictEqual([missing.status, missing.body.error.code], [404, 404])
      assert.deepStrictEqual((yield* listed({ token: adminToken })).ids, [admin.id])

      // The administrator grants it by token: the member's token then acts as one.
      const granted = yield* grant(member.user.id, true, { token: adminToken })
      assert.deepStrictEqual([granted.status, granted.body], [200, { id: member.user.id, displayName: "Member", email: member.email, instanceAdmin: true }])
      assert.deepStrictEqual((yield* listed({ token: member.token })).ids, [admin.id, member.user.id])
      // Past the administrator check (the memory server has no embedded database to back up: 409).
      assert.strictEqual((yield* call("POST", "/admin/backup", { token: member.token })).status, 409)
      const made = yield* call("POST", "/v1/users", { token: member.token, body: { email: `made.${Date.now()}@example.com`, displayName: "Made" } })
      assert.strictEqual(made.status, 201, JSON.stringify(made.body))

      // By session: first-run setup signs the administrator in; a person signed up through an invite link.
      const setup = yield* call("POST", "/auth/setup", { cookie: "", body: { setupCode: adminToken, displayName: "Ada Admin", email: adminEmail, password } })
      assert.strictEqual(setup.status, 200, JSON.stringify(setup.body))
      const adminCookie = cookieOf(setup)
      const organization = yield* call("POST", "/v1/orgs", { token: member.token, body: { title: "Team" } })
      yield* call("PATCH", `/v1/orgs/${organization.body.id}`, { token: member.token, body: { inviteLinks: true } })
      const link = yield* call("POST", `/v1/orgs/${organization.body.id}/link-invites`, { token: member.token, body: { role: "read" } })
      const joined = yield* call("POST", `/auth/invites/${organization.body.id}.${link.body.id}/accept`, {
        cookie: "",
        body: { displayName: "Nina", email: `nina.${Date.now()}@example.com`, password }
      })
      assert.strictEqual(joined.status, 200, JSON.stringify(joined.body))
      const nina = { id: joined.body.user.id as string, cookie: cookieOf(joined) }
      assert.isFalse((yield* call("GET", "/auth/session", { cookie: nina.cookie })).body.user.instanceAdmin)
      assert.strictEqual((yield* listed({ cookie: nina.cookie })).status, 403)

      // Another site cannot act with the administrator's cookie.
      const forged = yield* grant(nina.id, true, { cookie: adminCookie, origin: "https://evil.example" })
      assert.deepStrictEqual([forged.status, forged.body.error.message], [403, "Cross-origin requests cannot act with the session cookie"])
      assert.isFalse((yield* call("GET", "/auth/session", { cookie: nina.cookie })).body.user.instanceAdmin)

      assert.strictEqual((yield* grant(nina.id, true, { cookie: adminCookie })).status, 200)
      assert.isTrue((yield* call("GET", "/auth/session", { cookie: nina.cookie })).body.user.instanceAdmin)
      assert.deepStrictEqual((yield* listed({ cookie: nina.cookie })).ids, [admin.id, member.user.id, nina.id])

      // Withdrawn from all but one; the last one cannot be withdrawn, by itself or anyone.
      assert.strictEqual((yield* grant(member.user.id, false, { cookie: nina.cookie })).status, 200)
      assert.strictEqual((yield* call("POST", "/admin/backup", { token: member.token })).status, 403)
      assert.strictEqual((yield* grant(admin.id, false, { cookie: nina.cookie })).status, 200)
      const last = yield* grant(nina.id, false, { cookie: nina.cookie })
      assert.deepStrictEqual(last.body, { error: { code: 409, message: "The last instance administrator cannot be withdrawn: grant it to another user first" } })
      assert.deepStrictEqual((yield* listed({ cookie: nina.cookie })).ids, [nina.id])
      // The former administrator's session no longer acts as one.
      assert.isFalse((yield* call("GET", "/auth/session", { cookie: adminCookie })).body.user.instanceAdmin)
      assert.strictEqual((yield* listed({ cookie: adminCookie })).status, 403)
    }))
})
