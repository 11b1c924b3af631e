/**
 * Limits on making accounts and organizations (issue 34, finding 11), over the memory and the SQL
 * adapters: sign-ups through invitations per address, organizations per creator (each has its
 * own storage quota, so the cap keeps one person from multiplying it), and the instance setting
 * that lets only instance administrators create organizations.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { as, asInstanceAdmin, errorMessage, errorTag } from "@quire/testkit"
import { InviteSignUp, inviteToken, Organizations, UsersRepo } from "../src/index.ts"
import { makeUser } from "./contract/Fixtures.ts"
import { backends, servicesWith } from "./support/Services.ts"

const password = "correct horse battery"

for (const backend of backends) {
  const services = servicesWith({ QUIRE_SIGN_UP_LIMIT: 3, QUIRE_SIGN_UP_WINDOW: 600, QUIRE_ORGS_PER_USER: 2 })
  layer(Layer.provideMerge(services, backend.layer), { timeout: "60 seconds" })(`account limits on ${backend.name}`, (it) => {
    it.effect("limits the accounts one address creates through invite links, not another address's", () =>
      Effect.gen(function*() {
        const organizations = yield* Organizations
        const invites = yield* InviteSignUp
        yield* Effect.orDie((yield* UsersRepo).insert(makeUser("lim-owner")))
        const { organization } = yield* organizations.create({ title: "Open door" }).pipe(as("lim-owner"))
        yield* organizations.update(organization.id, { inviteLinks: true }).pipe(as("lim-owner"))
        const { invite } = yield* organizations.createLinkInvite(organization.id, { role: "read" }).pipe(as("lim-owner"))
        const token = inviteToken(organization.id, invite.id)
        const signUp = (n: number, address: string) =>
          invites.signUp(token, { displayName: `Bot ${n}`, email: `bot${n}@example.com`, password }, { address })
        for (let n = 0; n < 3; n++) yield* signUp(n, "10.7.0.1")
        const refused = yield* Effect.flip(signUp(3, "10.7.0.1"))
        assert.strictEqual(refused._tag, "TooManyAttempts")
        assert.match(refused.message, /^Too many accounts created from this address; try again in \d+ seconds\.$/)
        assert.isTrue(refused._tag === "TooManyAttempts" && refused.retryAfterSeconds > 0 && refused.retryAfterSeconds <= 600)
        // Nothing was created by the refused attempt.
        assert.isTrue((yield* (yield* UsersRepo).findByEmail("bot3@example.com"))._tag === "None")
        yield* signUp(4, "10.7.0.2")
        yield* TestClock.adjust("600 seconds")
        yield* signUp(5, "10.7.0.1")
      }))

    it.effect("caps the organizations one person creates; instance administrators have no cap", () =>
      Effect.gen(function*() {
        const organizations = yield* Organizations
        yield* Effect.orDie((yield* UsersRepo).insert(makeUser("cap-member")))
        yield* Effect.orDie((yield* UsersRepo).insert(makeUser("cap-admin", { instanceAdmin: true })))
        yield* organizations.create({ title: "One" }).pipe(as("cap-member"))
        assert.deepStrictEqual(yield* organizations.mayCreate.pipe(as("cap-member")), { allowed: true })
        yield* organizations.create({ title: "Two" }).pipe(as("cap-member"))
        // What the app is told before offering the form: the refusal's own words.
        assert.deepStrictEqual(yield* organizations.mayCreate.pipe(as("cap-member")), {
          allowed: false,
          reason: "You have created 2 organizations, the most one person may (QUIRE_ORGS_PER_USER); ask an instance administrator"
        })
        assert.strictEqual(
          yield* errorMessage(organizations.create({ title: "Three" }).pipe(as("cap-member"))),
          "You have created 2 organizations, the most one person may (QUIRE_ORGS_PER_USER); ask an instance administrator"
        )
        // Concurrent creations count one after the other.
        yield* Effect.orDie((yield* UsersRepo).insert(makeUser("cap-racer")))
        const raced = yield* Effect.all(
          Array.from({ length: 4 }, (_, n) => Effect.result(organizations.create({ title: `Race ${n}` }).pipe(as("cap-racer")))),
          { concurrency: 4 }
        )
        assert.strictEqual(raced.filter((r) => r._tag === "Success").length, 2)
        const listed = yield* organizations.list({}).pipe(as("cap-racer"))
        assert.strictEqual(listed.items.length, 2)
        for (let n = 0; n < 3; n++) yield* organizations.create({ title: `Admin's ${n}` }).pipe(asInstanceAdmin("cap-admin"))
      }))
  })

  layer(Layer.provideMerge(servicesWith({ QUIRE_ORG_CREATION: "admins" }), backend.layer), { timeout: "60 seconds" })(
    `organization creation by admins only on ${backend.name}`,
    (it) => {
      it.effect("refuses a member and lets an instance administrator create organizations", () =>
        Effect.gen(function*() {
          const organizations = yield* Organizations
          yield* Effect.orDie((yield* UsersRepo).insert(makeUser("only-member")))
          yield* Effect.orDie((yield* UsersRepo).insert(makeUser("only-admin", { instanceAdmin: true })))
          assert.strictEqual(yield* errorTag(organizations.create({ title: "Mine" }).pipe(as("only-member"))), "Forbidden")
          assert.strictEqual(
            yield* errorMessage(organizations.create({ title: "Mine" }).pipe(as("only-member"))),
            "Only an instance administrator can create organizations on this instance (QUIRE_ORG_CREATION=admins)"
          )
          assert.deepStrictEqual(yield* organizations.mayCreate.pipe(as("only-member")), {
            allowed: false,
            reason: "Only an instance administrator can create organizations on this instance (QUIRE_ORG_CREATION=admins)"
          })
          assert.deepStrictEqual(yield* organizations.mayCreate.pipe(asInstanceAdmin("only-admin")), { allowed: true })
          const { organization } = yield* organizations.create({ title: "Operator's" }).pipe(asInstanceAdmin("only-admin"))
          assert.strictEqual(organization.title, "Operator's")
        }))
    }
  )
}
