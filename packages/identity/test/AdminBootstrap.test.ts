/**
 * The administrator bootstrap at every start, over the memory and the SQL adapters: it creates
 * the administrator on a fresh instance only, and never promotes an existing account because it
 * holds `QUIRE_ADMIN_EMAIL` (issue 34: a member signed that email up through an invitation and
 * was instance administrator after the next restart).
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { as, asInstanceAdmin, some } from "@quire/testkit"
import { InviteSignUp, inviteToken, MemberInvites, Organizations, PasswordSignIn, Users, UsersRepo } from "../src/index.ts"
import { makeUser } from "./contract/Fixtures.ts"
import { backends, servicesWith } from "./support/Services.ts"

const services = servicesWith()
const password = "correct horse battery"
const client = { address: "10.9.0.1", userAgent: "Mozilla/5.0 Test" }

for (const backend of backends) {
  layer(Layer.provideMerge(services, backend.layer), { timeout: "60 seconds" })(`admin bootstrap on ${backend.name}`, (it) => {
    it.effect("a member who signs up with the configured admin email is not administrator after a restart", () =>
      Effect.gen(function*() {
        const users = yield* Users
        const signIn = yield* PasswordSignIn
        const first = yield* users.bootstrapAdmin("admin@localhost", undefined)
        // First-run setup: the real administrator chooses another email, so the configured one is free.
        yield* signIn.setup({ setupCode: first.generated!, displayName: "Ada", email: "ada@example.com", password }, client)

        // A member makes an organization, invites the configured email and signs it up themselves.
        yield* Effect.orDie((yield* UsersRepo).insert(makeUser("mallory")))
        const { organization } = yield* (yield* Organizations).create({ title: "Mallory's" }).pipe(as("mallory"))
        yield* (yield* Organizations).invite(organization.id, { emails: ["admin@localhost"], role: "admin", sso: false }).pipe(as("mallory"))
        const pending = yield* (yield* MemberInvites).listForOrganization(organization.id).pipe(as("mallory"))
        const token = inviteToken(organization.id, pending[0]!.invite.id)
        const squat = yield* (yield* InviteSignUp).signUp(token, { displayName: "Admin", email: undefined, password: "mallory's password" }, client)
        assert.isFalse(some(yield* (yield* UsersRepo).findById(squat.session.userId)).instanceAdmin)

        // The next start (with or without a configured token) keeps the administrator it had.
        for (const secret of [undefined, "quire_pat_configured_after_setup"]) {
          const again = yield* users.bootstrapAdmin("admin@localhost", secret)
          assert.strictEqual(again.user.id, first.user.id)
          assert.isUndefined(again.generated)
          const holder = some(yield* (yield* UsersRepo).findById(squat.session.userId))
          assert.strictEqual(holder.email, "admin@localhost")
          assert.isFalse(holder.instanceAdmin)
        }
        assert.strictEqual(Option.getOrUndefined(yield* users.authenticate("quire_pat_configured_after_setup"))?.id, first.user.id)
        const grant = yield* signIn.signIn("admin@localhost", "mallory's password", client)
        assert.isFalse(grant.session.instanceAdmin === true)
      }))

    it.effect("an instance with an administrator but no bootstrap token promotes nobody by email", () =>
      Effect.gen(function*() {
        const repo = yield* UsersRepo
        const users = yield* Users
        // The first administrator revoked the bootstrap token; the earliest administrator stays the one.
        const first = some(yield* repo.findBootstrapAdmin)
        const tokens = yield* users.listTokens(first.id, {}).pipe(asInstanceAdmin(first.id))
        for (const token of tokens.items) yield* users.revokeToken(first.id, token.id).pipe(asInstanceAdmin(first.id))
        assert.isTrue(Option.isNone(yield* repo.findBootstrapAdmin))
        yield* Effect.orDie(repo.insert(makeUser("holder", { email: "configured@example.com" })))
        const again = yield* users.bootstrapAdmin("configured@example.com", "quire_pat_after_revoking")
        assert.strictEqual(again.user.id, first.id)
        assert.isFalse(some(yield* repo.findById("holder")).instanceAdmin)
      }))
  })
}
