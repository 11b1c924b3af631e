/**
 * The identity changes the audit log records, over the memory and the SQL adapters: sign-ins and
 * their failures with the client's address, tokens created and revoked, invitations, role changes
 * and removals, instance administration; and a change that fails leaves no event.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { AuditLog, AuditOrigin } from "@quire/audit"
import { as, asInstanceAdmin } from "@quire/testkit"
import { Members, MembersRepo, Organizations, PasswordSignIn, SignInSessions, Users, UsersRepo } from "../src/index.ts"
import { makeUser } from "./contract/Fixtures.ts"
import { backends, servicesWith } from "./support/Services.ts"

const services = servicesWith()
const client = { address: "198.51.100.7", userAgent: "Mozilla/5.0 Audit" }

/** The actions of the events about `target`, oldest first. */
const actionsOn = (target: string, organizationId?: string) =>
  Effect.flatMap(Effect.service(AuditLog), (log) =>
    Effect.map(Effect.orDie(log.list({ target, organizationId }, {})), (page) => page.items.map((e) => e.action).toReversed()))

for (const backend of backends) {
  layer(Layer.provideMerge(services, backend.layer), { timeout: "60 seconds" })(`audit events of identity on ${backend.name}`, (it) => {
    it.effect("a password sign-in and a failed one are recorded with the client's address and user agent", () =>
      Effect.gen(function*() {
        const signIn = yield* PasswordSignIn
        const log = yield* AuditLog
        yield* Effect.orDie((yield* UsersRepo).insert(makeUser("aud-ann")))
        yield* signIn.setPassword("aud-ann", "correct horse battery")
        yield* Effect.flip(signIn.signIn("aud-ann@example.com", "wrong", client))
        yield* signIn.signIn("aud-ann@example.com", "correct horse battery", client)
        const events = (yield* Effect.orDie(log.list({ actor: "aud-ann" }, {}))).items
        assert.deepStrictEqual(events.map((e) => e.action), ["auth.password.signed-in", "auth.password.failed"])
        for (const event of events) {
          assert.strictEqual(event.address, client.address)
          assert.strictEqual(event.userAgent, client.userAgent)
          assert.strictEqual(event.source, "ui")
          assert.isNull(event.organizationId)
        }
      }))

    it.effect("a password change ends the other sessions, and ending a session, are recorded", () =>
      Effect.gen(function*() {
        const signIn = yield* PasswordSignIn
        const sessions = yield* SignInSessions
        yield* Effect.orDie((yield* UsersRepo).insert(makeUser("aud-pat")))
        yield* signIn.setPassword("aud-pat", "correct horse battery")
        const first = yield* signIn.signIn("aud-pat@example.com", "correct horse battery", client)
        const second = yield* signIn.signIn("aud-pat@example.com", "correct horse battery", client)
        yield* signIn.changePassword(second.session, "correct horse battery", "another horse battery")
        // The first session ended with the change: ending it again fails and records nothing.
        yield* Effect.flip(sessions.revoke("aud-pat", first.session.id))
        yield* sessions.revoke("aud-pat", second.session.id)
        const events = (yield* Effect.orDie((yield* AuditLog).list({ actor: "aud-pat" }, {}))).items.toReversed()
        assert.deepStrictEqual(events.map((e) => e.action), [
          "auth.password.signed-in",
          "auth.password.signed-in",
          "auth.password.changed",
          "auth.sessions.ended",
          "auth.session.ended"
        ])
        assert.deepStrictEqual(events[3]!.payload, { sessions: 1, keptCurrent: true })
        assert.strictEqual(events[4]!.target.id, second.session.id)
      }))

    it.effect("every sign-in is recorded where its session begins, a single sign-on's in its organization", () =>
      Effect.gen(function*() {
        const sessions = yield* SignInSessions
        yield* Effect.orDie((yield* UsersRepo).insert(makeUser("aud-sso")))
        const { organization } = yield* (yield* Organizations).create({ title: "Single sign-on" }).pipe(as("aud-sso"))
        yield* sessions.begin({ userId: "aud-sso", organizationId: organization.id, method: "saml", userAgent: "Firefox" })
        yield* sessions.begin({ userId: "aud-sso", organizationId: organization.id, method: "oidc", userAgent: "Firefox" })
        const events = (yield* Effect.orDie((yield* AuditLog).list({ organizationId: organization.id }, {}))).items
        assert.deepStrictEqual(events.map((e) => [e.action, e.actor.id, e.actor.label]), [
          ["auth.oidc.signed-in", "aud-sso", "aud-sso@example.com"],
          ["auth.saml.signed-in", "aud-sso", "aud-sso@example.com"]
        ])
      }))

    it.effect("tokens created and revoked, and instance administration granted and withdrawn, name who did it", () =>
      Effect.gen(function*() {
        const users = yield* Users
        const repo = yield* UsersRepo
        yield* Effect.orDie(repo.insert(makeUser("aud-root", { instanceAdmin: true })))
        yield* Effect.orDie(repo.insert(makeUser("aud-bob")))
        const { token } = yield* users.createToken("aud-bob", { label: "laptop" }).pipe(
          as("aud-bob"),
          Effect.provideService(AuditOrigin, { source: "api", address: "203.0.113.5", userAgent: "quire-cli" })
        )
        yield* users.revokeToken("aud-bob", token.id).pipe(as("aud-bob"))
        // Revoking it again fails and records nothing.
        yield* Effect.flip(users.revokeToken("aud-bob", token.id).pipe(as("aud-bob")))
        assert.deepStrictEqual(yield* actionsOn(token.id), ["token.created", "token.revoked"])
        const created = (yield* Effect.orDie((yield* AuditLog).list({ target: token.id, action: "token.created" }, {}))).items[0]!
        assert.deepStrictEqual(created.actor, { type: "user", id: "aud-bob" })
        assert.strictEqual(created.address, "203.0.113.5")
        assert.strictEqual(created.target.label, "laptop")

        yield* users.setInstanceAdmin("aud-bob", true).pipe(asInstanceAdmin("aud-root"))
        yield* users.setInstanceAdmin("aud-bob", false).pipe(asInstanceAdmin("aud-root"))
        // Granting what is already so changes nothing and records nothing.
        yield* users.setInstanceAdmin("aud-bob", false).pipe(asInstanceAdmin("aud-root"))
        assert.deepStrictEqual(yield* actionsOn("aud-bob"), ["instance.admin-granted", "instance.admin-withdrawn"])
      }))

    it.effect("invitations, role changes and removals are recorded in the organization; a refused change is not", () =>
      Effect.gen(function*() {
        const organizations = yield* Organizations
        const members = yield* Members
        const repo = yield* UsersRepo
        yield* Effect.orDie(repo.insert(makeUser("aud-admin")))
        yield* Effect.orDie(repo.insert(makeUser("aud-cat")))
        const { organization } = yield* organizations.create({ title: "Audited" }).pipe(as("aud-admin"))
        const org = organization.id
        yield* Effect.orDie((yield* MembersRepo).add({ organizationId: org, userId: "aud-cat", role: "read", joinedAt: new Date(0), sso: false }))
        yield* organizations.invite(org, { emails: ["new@example.com"], role: "edit", sso: false }).pipe(as("aud-admin"))
        yield* members.updateRole(org, "aud-cat", "admin").pipe(as("aud-admin"))
        yield* members.remove(org, "aud-cat").pipe(as("aud-admin"))
        // The last admin cannot be demoted: refused, and nothing recorded.
        yield* Effect.flip(members.updateRole(org, "aud-admin", "read").pipe(as("aud-admin")))
        assert.deepStrictEqual(yield* actionsOn("aud-cat", org), ["member.role-changed", "member.removed"])
        assert.deepStrictEqual(yield* actionsOn("new@example.com", org), ["member.invited"])
        assert.deepStrictEqual(yield* actionsOn("aud-admin", org), [])
        const changed = (yield* Effect.orDie((yield* AuditLog).list({ organizationId: org, action: "member.role-changed" }, {}))).items[0]!
        assert.deepStrictEqual(changed.payload, { from: "read", to: "admin" })
        assert.strictEqual(changed.actor.id, "aud-admin")
      }))
  })
}
