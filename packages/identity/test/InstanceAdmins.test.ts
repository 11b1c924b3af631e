/**
 * Granting and withdrawing instance administration (issue 34, finding 1: after first-run setup it
 * is granted only by an instance administrator), over the memory and the SQL adapters: only an
 * instance administrator may list or change it, the last one cannot be withdrawn (also when two
 * withdrawals run at once), a user that does not exist is NotFound, and a change is what the
 * user's token acts with at once.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { Actor } from "@quire/kernel"
import { as, asInstanceAdmin, some } from "@quire/testkit"
import { Users, UsersRepo } from "../src/index.ts"
import { makeUser } from "./contract/Fixtures.ts"
import { backends, servicesWith } from "./support/Services.ts"

const services = servicesWith()

/** The ids of the instance administrators, sorted (the fixtures' users are all made at the same instant). */
const adminIds = Effect.map(Effect.flatMap(Effect.service(Users), (users) => users.listInstanceAdmins.pipe(asInstanceAdmin("root"))), (admins) => admins.map((admin) => admin.id).toSorted())

for (const backend of backends) {
  layer(Layer.provideMerge(services, backend.layer), { timeout: "60 seconds" })(`instance administrators on ${backend.name}`, (it) => {
    it.effect("an instance administrator grants and withdraws it; a member is refused; the last one stays", () =>
      Effect.gen(function*() {
        const users = yield* Users
        const repo = yield* UsersRepo
        yield* Effect.orDie(repo.insert(makeUser("root", { instanceAdmin: true })))
        yield* Effect.orDie(repo.insert(makeUser("member")))
        const secret = (yield* users.createToken("member", { label: "cli" }).pipe(as("member"))).secret
        assert.isFalse(some(yield* users.caller(secret)).actor.instanceAdmin)

        // A member (or an administrator's token scoped to an organization) can neither list nor grant.
        const listed = yield* Effect.flip(users.listInstanceAdmins.pipe(as("member")))
        assert.strictEqual(listed._tag, "Forbidden")
        const selfGrant = yield* Effect.flip(users.setInstanceAdmin("member", true).pipe(as("member")))
        assert.strictEqual(selfGrant._tag, "Forbidden")
        const scoped = yield* Effect.flip(
          users.setInstanceAdmin("member", true).pipe(Effect.provideService(Actor.Actor, { userId: "root", instanceAdmin: false, scope: "org" }))
        )
        assert.strictEqual(scoped._tag, "Forbidden")
        assert.isFalse(some(yield* repo.findById("member")).instanceAdmin)

        // The administrator grants it: stored, listed, and the member's token acts with it at once.
        const granted = yield* users.setInstanceAdmin("member", true).pipe(asInstanceAdmin("root"))
        assert.isTrue(granted.instanceAdmin)
        assert.isTrue(some(yield* repo.findById("member")).instanceAdmin)
        assert.deepStrictEqual(yield* adminIds, ["member", "root"])
        assert.isTrue(some(yield* users.caller(secret)).actor.instanceAdmin)
        // Granting again changes nothing.
        assert.isTrue((yield* users.setInstanceAdmin("member", true).pipe(asInstanceAdmin("root"))).instanceAdmin)

        // The new administrator withdraws the first; the last one left cannot withdraw itself.
        assert.isFalse((yield* users.setInstanceAdmin("root", false).pipe(asInstanceAdmin("member"))).instanceAdmin)
        assert.deepStrictEqual(yield* adminIds, ["member"])
        const last = yield* Effect.flip(users.setInstanceAdmin("member", false).pipe(asInstanceAdmin("member")))
        assert.strictEqual(last._tag, "Conflict")
        assert.isTrue(some(yield* repo.findById("member")).instanceAdmin)
        assert.deepStrictEqual(yield* adminIds, ["member"])

        // A user that does not exist.
        const missing = yield* Effect.flip(users.setInstanceAdmin("nobody", true).pipe(asInstanceAdmin("member")))
        assert.strictEqual(missing._tag, "NotFound")
        assert.isTrue(Option.isNone(yield* repo.findById("nobody")))

        // Withdrawn: the token of the former administrator acts as a member again.
        yield* users.setInstanceAdmin("root", true).pipe(asInstanceAdmin("member"))
        yield* users.setInstanceAdmin("member", false).pipe(asInstanceAdmin("root"))
        assert.isFalse(some(yield* users.caller(secret)).actor.instanceAdmin)
        assert.deepStrictEqual(yield* adminIds, ["root"])
      }))

    it.effect("two administrators withdrawing each other at once leave one of them", () =>
      Effect.gen(function*() {
        const users = yield* Users
        const repo = yield* UsersRepo
        yield* Effect.orDie(repo.insert(makeUser("second", { instanceAdmin: true })))
        assert.deepStrictEqual(yield* adminIds, ["root", "second"])
        const outcomes = yield* Effect.all([
          Effect.exit(users.setInstanceAdmin("second", false).pipe(asInstanceAdmin("root"))),
          Effect.exit(users.setInstanceAdmin("root", false).pipe(asInstanceAdmin("second")))
        ], { concurrency: "unbounded" })
        assert.strictEqual(outcomes.filter((exit) => exit._tag === "Success").length, 1)
        assert.strictEqual((yield* adminIds).length, 1)
      }))
  })
}
