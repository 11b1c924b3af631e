/** A user's API tokens through the real router: list, revoke, expiry, prefix and bootstrap rotation. */
import { assert, it as plain, layer } from "@effect/vitest"
import { Context, Duration, Effect, Layer } from "effect"
import { HttpServer } from "effect/http"
import { TokenCacheTtl, Users } from "@quire/identity"
import { Services } from "@quire/platform"
import { Backends } from "@quire/testkit"
import { adminEmail, adminToken, backends, client, errorCode, errorMessage, newUser, raw, serverOn } from "./Harness.ts"

const status = (token: string) => Effect.map(raw("GET", "/v1/user", { token }), (response) => response.status)

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`tokens API on ${backend.name}`, (it) => {
    it.effect("issues tokens with a recognisable prefix and lists them without their secrets", () =>
      Effect.gen(function*() {
        const alice = yield* newUser("Alice")
        const ci = yield* alice.api.users.createUserToken({ params: { userId: alice.user.id }, payload: { label: "ci" } })
        assert.match(ci.token, /^quire_pat_[0-9A-Za-z]{40}$/)
        assert.strictEqual(ci.label, "ci")

        const listed = yield* raw("GET", `/v1/users/${alice.user.id}/tokens`, { token: alice.token })
        assert.strictEqual(listed.status, 200)
        const text = JSON.stringify(listed.body)
        assert.notInclude(text, ci.token)
        assert.notInclude(text, alice.token)
        const { items } = yield* alice.api.users.listUserTokens({ params: { userId: alice.user.id }, query: {} })
        assert.deepStrictEqual(items.map((token) => token.label), ["test", "ci"])
        assert.deepStrictEqual(items[1], { object: "api-token", id: ci.id, label: "ci", createdAt: ci.createdAt })
        for (const token of items) assert.notProperty(token, "token")
        // The token behind these requests was used: its last use shows, to the minute.
        assert.isString(items[0]!.lastUsedAt)
      }))

    it.effect("pages a user's tokens oldest first with next.page, and refuses a cursor of another listing", () =>
      Effect.gen(function*() {
        const hal = yield* newUser("Hal")
        for (const label of ["a", "b", "c"]) {
          yield* hal.api.users.createUserToken({ params: { userId: hal.user.id }, payload: { label } })
        }
        const first = yield* hal.api.users.listUserTokens({ params: { userId: hal.user.id }, query: { limit: 3 } })
        assert.deepStrictEqual(first.items.map((token) => token.label), ["test", "a", "b"])
        assert.isString(first.next?.page)
        const second = yield* hal.api.users.listUserTokens({
          params: { userId: hal.user.id },
          query: { limit: 3, page: first.next!.page }
        })
        assert.deepStrictEqual(second.items.map((token) => token.label), ["c"])
        assert.isUndefined(second.next)

        const orgs = yield* hal.api.organizations.createOrganization({ payload: { title: "One" } }).pipe(
          Effect.andThen(hal.api.organizations.createOrganization({ payload: { title: "Two" } })),
          Effect.andThen(hal.api.organizations.listOrganizationsForAuthenticatedUser({ query: { limit: 1 } }))
        )
        const foreign = yield* raw("GET", `/v1/users/${hal.user.id}/tokens?page=${encodeURIComponent(orgs.next!.page)}`, {
          token: hal.token
        })
        assert.strictEqual(foreign.status, 400)
        assert.match(errorMessage(foreign.body), /page/)
      }))

    it.effect("records a token's last use at most once a minute, not on every request", () =>
      Effect.gen(function*() {
        const gus = yield* newUser("Gus")
        const cli = yield* gus.api.users.createUserToken({ params: { userId: gus.user.id }, payload: { label: "cli" } })
        const lastUse = Effect.map(
          gus.api.users.listUserTokens({ params: { userId: gus.user.id }, query: {} }),
          ({ items }) => items.find((token) => token.id === cli.id)?.lastUsedAt
        )
        assert.isUndefined(yield* lastUse)
        const before = Date.now()
        assert.strictEqual(yield* status(cli.token), 200)
        const first = yield* lastUse
        assert.isString(first)
        assert.isAtLeast(Date.parse(first!), before - 1000)
        for (let i = 0; i < 5; i++) assert.strictEqual(yield* status(cli.token), 200)
        assert.strictEqual(yield* lastUse, first)
      }))

    it.effect("revokes a token: it gets a 401 at once, the others keep working", () =>
      Effect.gen(function*() {
        const bob = yield* newUser("Bob")
        const laptop = yield* bob.api.users.createUserToken({ params: { userId: bob.user.id }, payload: { label: "laptop" } })
        assert.strictEqual(yield* status(laptop.token), 200)
        yield* bob.api.users.deleteUserTokenById({ params: { userId: bob.user.id, tokenId: laptop.id } })
        assert.strictEqual(yield* status(laptop.token), 401)
        assert.strictEqual(yield* status(bob.token), 200)
        const { items } = yield* bob.api.users.listUserTokens({ params: { userId: bob.user.id }, query: {} })
        assert.deepStrictEqual(items.map((token) => token.label), ["test"])
        const again = yield* bob.api.users.deleteUserTokenById({ params: { userId: bob.user.id, tokenId: laptop.id } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(again), 404)
      }))

    it.effect("hides a user's tokens from everyone but the user and the administrator", () =>
      Effect.gen(function*() {
        const carol = yield* newUser("Carol")
        const mallory = yield* newUser("Mallory")
        const listing = yield* mallory.api.users.listUserTokens({ params: { userId: carol.user.id }, query: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(listing), 404)
        const [own] = (yield* carol.api.users.listUserTokens({ params: { userId: carol.user.id }, query: {} })).items
        const revoking = yield* mallory.api.users.deleteUserTokenById({ params: { userId: carol.user.id, tokenId: own!.id } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(revoking), 404)
        // Nor through her own path: the token is not Mallory's.
        const sideways = yield* mallory.api.users.deleteUserTokenById({ params: { userId: mallory.user.id, tokenId: own!.id } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(sideways), 404)
        assert.strictEqual(yield* status(carol.token), 200)

        const admin = yield* client(adminToken)
        const seen = yield* admin.users.listUserTokens({ params: { userId: carol.user.id }, query: {} })
        assert.deepStrictEqual(seen.items.map((token) => token.id), [own!.id])
        yield* admin.users.deleteUserTokenById({ params: { userId: carol.user.id, tokenId: own!.id } })
        assert.strictEqual(yield* status(carol.token), 401)
      }))

    it.effect("refuses an expired token with a 401", () =>
      Effect.gen(function*() {
        const dan = yield* newUser("Dan")
        const expiresAt = new Date(Date.now() + 1500).toISOString()
        const brief = yield* dan.api.users.createUserToken({ params: { userId: dan.user.id }, payload: { expiresAt } })
        assert.strictEqual(brief.expiresAt, expiresAt)
        assert.strictEqual(yield* status(brief.token), 200)
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 1600)))
        assert.strictEqual(yield* status(brief.token), 401)
        assert.strictEqual(yield* status(dan.token), 200)
        const { items } = yield* dan.api.users.listUserTokens({ params: { userId: dan.user.id }, query: {} })
        assert.strictEqual(items.find((token) => token.id === brief.id)?.expiresAt, expiresAt)
      }))

    it.effect("answers 400 naming expiresAt for a past or malformed expiry, and creates nothing", () =>
      Effect.gen(function*() {
        const erin = yield* newUser("Erin")
        const path = `/v1/users/${erin.user.id}/tokens`
        for (const expiresAt of ["2001-01-01T00:00:00Z", "tomorrow", "2030-02-31T00:00:00Z", 12]) {
          const refused = yield* raw("POST", path, { token: erin.token, body: JSON.stringify({ expiresAt }) })
          assert.strictEqual(refused.status, 400, String(expiresAt))
          assert.strictEqual(errorCode(refused.body), 400)
          assert.match(errorMessage(refused.body), /expiresAt/)
        }
        const { items } = yield* erin.api.users.listUserTokens({ params: { userId: erin.user.id }, query: {} })
        assert.strictEqual(items.length, 1)
      }))

    it.effect("keeps tokens issued before the prefix working", () =>
      Effect.gen(function*() {
        // The harness's administrator token predates `quire_pat_`.
        assert.isFalse(adminToken.startsWith("quire_pat_"))
        assert.strictEqual(yield* status(adminToken), 200)
      }))

    it.effect("rotates the bootstrap token when the configured one changes", () =>
      Effect.gen(function*() {
        const users = yield* Users
        assert.strictEqual(yield* status(adminToken), 200)
        const admin = yield* client(adminToken)
        const me = yield* admin.users.getAuthenticatedUser()
        const personal = yield* admin.users.createUserToken({ params: { userId: me.id }, payload: { label: "bootstrap" } })

        const rotated = yield* users.bootstrapAdmin(adminEmail, "quire_test_rotated_admin_token_0123")
        // What the server logs at startup: one previous bootstrap token revoked.
        assert.strictEqual(rotated.revoked, 1)
        assert.strictEqual(yield* status(adminToken), 401)
        assert.strictEqual(yield* status("quire_test_rotated_admin_token_0123"), 200)
        // A token the administrator made, even labelled "bootstrap", is theirs and stays.
        assert.strictEqual(yield* status(personal.token), 200)
        // Restarting with the same configuration changes nothing.
        assert.strictEqual((yield* users.bootstrapAdmin(adminEmail, "quire_test_rotated_admin_token_0123")).revoked, 0)
        assert.strictEqual(yield* status("quire_test_rotated_admin_token_0123"), 200)

        // Back to the harness's token, which the other suites of this backend use.
        yield* users.bootstrapAdmin(adminEmail, adminToken)
        assert.strictEqual(yield* status(adminToken), 200)
        assert.strictEqual(yield* status("quire_test_rotated_admin_token_0123"), 401)
      }))
  })
}

const call = (base: string, method: string, path: string, token: string, body?: unknown) =>
  Effect.promise(async () => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) as Record<string, unknown> }
  })

/** Two servers (two processes' worth of layers) over one PostgreSQL database. */
plain.live("a token revoked through one server is refused at once by another on the same database", () =>
  Effect.scoped(Effect.gen(function*() {
    const database = yield* Layer.build(Backends.layerPostgresTest)
    const start = Effect.fnUntraced(function*() {
      // Owners cached for minutes: only the notification can make the second server refuse the token in the test's time.
      const server = yield* Layer.build(serverOn(Services.layerSql, "postgres").pipe(Layer.provide(Layer.succeedContext(database)))).pipe(
        Effect.provideService(TokenCacheTtl, Duration.minutes(10))
      )
      const { address } = Context.get(server, HttpServer.HttpServer)
      return "port" in address ? `http://127.0.0.1:${address.port}` : ""
    })
    const first = yield* start()
    const second = yield* start()
    const me = yield* call(first, "GET", "/v1/user", adminToken)
    const userId = me.body!["id"] as string
    const created = yield* call(first, "POST", `/v1/users/${userId}/tokens`, adminToken, { label: "shared" })
    const token = created.body!["token"] as string
    // The second server caches the token's owner.
    assert.strictEqual((yield* call(second, "GET", "/v1/user", token)).status, 200)
    assert.strictEqual((yield* call(second, "GET", "/v1/user", token)).status, 200)

    const revoked = yield* call(first, "DELETE", `/v1/users/${userId}/tokens/${created.body!["id"] as string}`, adminToken)
    assert.strictEqual(revoked.status, 204)
    // The notification reaches the second server when the revocation commits (milliseconds on a
    // quiet machine); without it the second server would accept the token for its cache's ten minutes.
    const revokedAt = Date.now()
    let status = 200
    while (status === 200 && Date.now() - revokedAt < 20_000) {
      status = (yield* call(second, "GET", "/v1/user", token)).status
      if (status === 200) yield* Effect.sleep("5 millis")
    }
    assert.strictEqual(status, 401, "the second server still accepts the revoked token 20 s later")
    assert.strictEqual((yield* call(first, "GET", "/v1/user", token)).status, 401)
    assert.strictEqual((yield* call(second, "GET", "/v1/user", adminToken)).status, 200)
  })), 120_000)
