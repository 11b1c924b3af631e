/** `quire tokens` against a real server (memory backend): list, create and revoke, as a user sees them. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { ApiToken, Schemas, UserApiToken } from "@quire/api"
import { memory, newUser } from "@quire/server/test/Harness"
import { admin, decodeJson, lines, quireAs, rowWith } from "./Quire.ts"

const decodeList = decodeJson(Schemas.ListOf(UserApiToken))

layer(memory.layer, { timeout: 120_000, excludeTestServices: true })("quire tokens on a memory server", (it) => {
  it.effect("creates a prefixed token shown once, lists tokens without secrets, and revokes one", () =>
    Effect.gen(function*() {
      const tess = yield* newUser("Tess")
      const as = quireAs(tess.token)

      const created = yield* as("tokens", "create", "--label", "ci", "--expires-at", "2099-01-31T00:00:00Z", "--json").pipe(
        Effect.flatMap(decodeJson(ApiToken))
      )
      assert.match(created.token, /^quire_pat_/)
      assert.strictEqual(created.label, "ci")
      assert.strictEqual(created.expiresAt, "2099-01-31T00:00:00.000Z")

      const people = yield* as("tokens", "create", "--label", "laptop")
      assert.strictEqual(people.status, 0)
      assert.match(people.stdout, /^token:\s+quire_pat_\w+$/m)
      assert.include(people.stdout, "shown only now")

      const table = yield* as("tokens", "list")
      assert.strictEqual(table.status, 0)
      assert.match(lines(table.stdout)[0]!, /^ID\s+LABEL\s+CREATED\s+LAST USED\s+EXPIRES$/)
      assert.match(rowWith(table.stdout, created.id), /ci\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+never\s+2099-01-31 00:00$/)
      // The harness's token made these requests: its last use shows.
      assert.match(rowWith(table.stdout, "test"), /test\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+never$/)
      assert.notInclude(table.stdout, "quire_pat_")

      const listed = yield* as("tokens", "list", "--json").pipe(Effect.flatMap(decodeList))
      assert.deepStrictEqual(listed.items.map((token) => token.label), ["test", "ci", "laptop"])
      assert.notInclude(JSON.stringify(listed), created.token)

      const revoked = yield* as("tokens", "revoke", created.id)
      assert.strictEqual(revoked.status, 0)
      assert.include(revoked.stdout, `Revoked token ${created.id}`)
      const withRevoked = yield* quireAs(created.token)("whoami")
      assert.strictEqual(withRevoked.status, 1)
      assert.match(withRevoked.stderr, /401|token/i)
      const after = yield* as("tokens", "list", "--json").pipe(Effect.flatMap(decodeList))
      assert.deepStrictEqual(after.items.map((token) => token.label), ["test", "laptop"])
    }))

  it.effect("acts on another user's tokens only as the administrator", () =>
    Effect.gen(function*() {
      const uma = yield* newUser("Uma")
      const victor = yield* newUser("Victor")
      const denied = yield* quireAs(victor.token)("tokens", "list", "--user", uma.user.id)
      assert.strictEqual(denied.status, 1)
      assert.match(denied.stderr, /not found/i)

      const listed = yield* admin("tokens", "list", "--user", uma.user.id, "--json").pipe(Effect.flatMap(decodeList))
      assert.strictEqual(listed.items.length, 1)
      const revoked = yield* admin("tokens", "revoke", "--user", uma.user.id, listed.items[0]!.id)
      assert.strictEqual(revoked.status, 0)
      assert.strictEqual((yield* quireAs(uma.token)("whoami")).status, 1)
    }))

  it.effect("users token takes --expires-at as tokens create does", () =>
    Effect.gen(function*() {
      const yara = yield* newUser("Yara")
      const issued = yield* admin("users", "token", yara.user.id, "--label", "ci", "--expires-at", "2099-01-31T00:00:00Z", "--json").pipe(
        Effect.flatMap(decodeJson(ApiToken))
      )
      assert.strictEqual(issued.expiresAt, "2099-01-31T00:00:00.000Z")
      const shown = yield* admin("users", "token", yara.user.id, "--expires-at", "2099-02-01T00:00:00Z")
      assert.strictEqual(shown.status, 0)
      assert.match(shown.stdout, /^expires:\s+2099-02-01 00:00$/m)
      const listed = yield* quireAs(yara.token)("tokens", "list", "--json").pipe(Effect.flatMap(decodeList))
      assert.deepStrictEqual(listed.items.map((token) => token.expiresAt ?? null), [null, "2099-01-31T00:00:00.000Z", "2099-02-01T00:00:00.000Z"])
      const refused = yield* admin("users", "token", yara.user.id, "--expires-at", "2001-01-01T00:00:00Z")
      assert.strictEqual(refused.status, 1)
      assert.include(refused.stderr, "expiresAt")
    }))

  it.effect("refuses a past expiry with the field named", () =>
    Effect.gen(function*() {
      const wes = yield* newUser("Wes")
      const refused = yield* quireAs(wes.token)("tokens", "create", "--expires-at", "2001-01-01T00:00:00Z")
      assert.strictEqual(refused.status, 1)
      assert.include(refused.stderr, "expiresAt")
    }))
})
