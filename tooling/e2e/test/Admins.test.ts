/**
 * `quire admins list|grant|revoke` against a real server (memory backend), issue 34 finding 1:
 * after first-run setup only an instance administrator grants or withdraws instance
 * administration; a member is refused with the server's message; the last one stays. Each for
 * people and with `--json`.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { adminEmail, memory, newUser } from "@quire/server/test/Harness"
import { admin, decodeJson, lines, quireAs } from "./Quire.ts"

const Admin = Schema.Struct({ id: Schema.String, displayName: Schema.String, email: Schema.String })
const Admins = Schema.Struct({ items: Schema.Array(Admin) })
const Changed = Schema.Struct({ ...Admin.fields, instanceAdmin: Schema.Boolean })

layer(memory.layer, { timeout: 120_000, excludeTestServices: true })("quire admins on a memory server", (it) => {
  it.effect("an administrator lists, grants and revokes; a member is refused; the last one is never revoked", () =>
    Effect.gen(function*() {
      const bob = yield* newUser("Bob")
      const asBob = quireAs(bob.token)

      const listed = yield* admin("admins", "list")
      assert.strictEqual(listed.status, 0, listed.stderr)
      assert.include(listed.stdout, adminEmail)
      assert.notInclude(listed.stdout, bob.email)
      const first = (yield* admin("admins", "list", "--json").pipe(Effect.flatMap(decodeJson(Admins)))).items
      assert.deepStrictEqual(first.map((user) => user.email), [adminEmail])

      // A member can neither list nor grant itself.
      const refused = yield* asBob("admins", "grant", bob.user.id)
      assert.strictEqual(refused.status, 1)
      assert.strictEqual(lines(refused.stderr).length, 1)
      assert.include(refused.stderr, "Only an instance administrator can manage instance administrators")
      assert.strictEqual((yield* asBob("admins", "list")).status, 1)

      const granted = yield* admin("admins", "grant", bob.user.id)
      assert.strictEqual(granted.status, 0, granted.stderr)
      assert.include(granted.stdout, `Bob (${bob.email}) is an instance administrator.`)
      const asBobList = yield* asBob("admins", "list", "--json").pipe(Effect.flatMap(decodeJson(Admins)))
      assert.deepStrictEqual(asBobList.items.map((user) => user.email), [adminEmail, bob.email])

      // Bob withdraws the first administrator, then cannot withdraw himself, the last one.
      const revoked = yield* asBob("admins", "revoke", first[0]!.id, "--json").pipe(Effect.flatMap(decodeJson(Changed)))
      assert.deepStrictEqual([revoked.id, revoked.instanceAdmin], [first[0]!.id, false])
      const last = yield* asBob("admins", "revoke", bob.user.id)
      assert.strictEqual(last.status, 1)
      assert.include(last.stderr, "The last instance administrator cannot be withdrawn")
      const missing = yield* asBob("admins", "grant", "no-such-user")
      assert.strictEqual(missing.status, 1)
      assert.match(missing.stderr, /no-such-user|not found/i)

      // Put back as it was, for the harness's administrator token.
      assert.strictEqual((yield* asBob("admins", "grant", first[0]!.id)).status, 0)
      const back = yield* admin("admins", "revoke", bob.user.id)
      assert.strictEqual(back.status, 0, back.stderr)
      assert.include(back.stdout, `Bob (${bob.email}) is no longer an instance administrator.`)
      assert.deepStrictEqual((yield* admin("admins", "list", "--json").pipe(Effect.flatMap(decodeJson(Admins)))).items.map((user) => user.email), [adminEmail])
    }))
})
