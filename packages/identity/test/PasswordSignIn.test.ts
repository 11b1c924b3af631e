/**
 * Password sign-in over the memory and the SQL adapters: first-run setup behind the setup code,
 * one answer for an unknown email and a wrong password, attempts limited per email and per
 * address (windows on the TestClock), stored sessions listed and revoked, password changes, and
 * joining through an invitation with a new account or as oneself.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { as, asInstanceAdmin, assertNone, errorMessage, errorTag, some } from "@quire/testkit"
import { InviteSignUp, inviteToken, MemberInvites, MembersRepo, Organizations, PasswordSignIn, SignInRepo, SignInSessions, Users, UsersRepo } from "../src/index.ts"
import { makeUser } from "./contract/Fixtures.ts"
import { backends, servicesWith } from "./support/Services.ts"

const services = servicesWith({ QUIRE_SIGN_IN_ATTEMPTS: 3, QUIRE_SIGN_IN_ADDRESS_ATTEMPTS: 6, QUIRE_SIGN_IN_ACCOUNT_ATTEMPTS: 5, QUIRE_SIGN_IN_WINDOW: 60 })

const password = "correct horse battery"

/** A person `id` (email `${id}@example.com`) with `password`. */
const withPassword = Effect.fnUntraced(function*(id: string) {
  yield* Effect.orDie((yield* UsersRepo).insert(makeUser(id)))
  yield* (yield* PasswordSignIn).setPassword(id, password)
  return `${id}@example.com`
})

/** The tag of the error an effect fails with. */
const tagOf = <A, E extends { readonly _tag: string }, R>(self: Effect.Effect<A, E, R>) => Effect.map(Effect.flip(self), (e) => e._tag)

const client = (address: string) => ({ address, userAgent: "Mozilla/5.0 Test" })

for (const backend of backends) {
  layer(Layer.provideMerge(services, backend.layer), { timeout: "60 seconds" })(`password sign-in on ${backend.name}`, (it) => {
    it.effect("first-run setup needs the printed setup code, names a bad field, and closes once the administrator has a password", () =>
      Effect.gen(function*() {
        const signIn = yield* PasswordSignIn
        const users = yield* Users
        const { generated, user: admin } = yield* users.bootstrapAdmin("admin@localhost", undefined)
        const setupCode = generated!
        assert.isTrue(yield* signIn.setupOpen)
        const input = { setupCode, displayName: "Ada", email: "Ada@Example.com", password }
        assert.strictEqual(
          yield* errorMessage(signIn.setup({ ...input, setupCode: "quire_pat_guessed" }, client("10.0.0.1"))),
          "setupCode: not the setup code the server printed in its log at first start"
        )
        assert.strictEqual(
          yield* errorMessage(signIn.setup({ ...input, setupCode: "" }, client("10.0.0.1"))),
          "setupCode: required: the setup code the server printed in its log at first start"
        )
        yield* Effect.orDie((yield* UsersRepo).insert(makeUser("setup-other")))
        const other = yield* users.createToken("setup-other", {}).pipe(as("setup-other"), Effect.orDie)
        assert.strictEqual(yield* tagOf(signIn.setup({ ...input, setupCode: other.secret }, client("10.0.0.1"))), "SetupClosed")
        assert.strictEqual(yield* errorMessage(signIn.setup({ ...input, password: "short" }, client("10.0.0.1"))), "password: must be at least 10 characters")
        assert.strictEqual(yield* errorMessage(signIn.setup({ ...input, email: "ada" }, client("10.0.0.1"))), "email: must be an email address (name@example.com)")
        assert.strictEqual(yield* errorMessage(signIn.setup({ ...input, displayName: " " }, client("10.0.0.1"))), "displayName: required, a name to show")

        const grant = yield* signIn.setup(input, client("10.0.0.1"))
        assert.strictEqual(grant.session.userId, admin.id)
        assert.strictEqual(grant.session.method, "password")
        assert.isTrue(grant.session.instanceAdmin)
        const updated = some(yield* (yield* UsersRepo).findById(admin.id))
        assert.strictEqual(updated.email, "ada@example.com")
        assert.strictEqual(updated.displayName, "Ada")
        assert.isFalse(yield* signIn.setupOpen)
        assert.strictEqual(yield* errorMessage(signIn.setup(input, client("10.0.0.1"))), "Setup is done: sign in instead")
        // The next start finds the same administrator under its new email, and generates nothing.
        const again = yield* users.bootstrapAdmin("admin@localhost", undefined)
        assert.strictEqual(again.user.id, admin.id)
        assert.isUndefined(again.generated)
        const signedIn = yield* signIn.signIn("ada@example.com", password, client("10.0.0.1"))
        assert.strictEqual(signedIn.session.userId, admin.id)
      }))

    it.effect("answers an unknown email and a wrong password alike, and limits one address's failures per email until the window ends", () =>
      Effect.gen(function*() {
        const signIn = yield* PasswordSignIn
        const email = yield* withPassword("pw-bea")
        const unknown = yield* errorMessage(signIn.signIn("nobody@example.com", password, client("10.0.1.1")))
        const wrong = yield* errorMessage(signIn.signIn(email, "not the password", client("10.0.1.2")))
        assert.strictEqual(unknown, "Wrong email or password.")
        assert.strictEqual(wrong, unknown)
        const grant = yield* signIn.signIn(" PW-BEA@example.com ", password, client("10.0.1.3"))
        assert.strictEqual(grant.session.userId, "pw-bea")
        assert.strictEqual(grant.session.userAgent, "Mozilla/5.0 Test")

        for (let n = 0; n < 3; n++) {
          assert.strictEqual(yield* tagOf(signIn.signIn(email, "wrong guess!", client("10.0.1.4"))), "SignInFailed")
        }
        // Three failures spent this address's budget for the email: even the right password waits for the window.
        const limited = yield* Effect.flip(signIn.signIn(email, password, client("10.0.1.4")))
        assert.strictEqual(limited._tag, "TooManyAttempts")
        assert.isTrue(limited._tag === "TooManyAttempts" && limited.retryAfterSeconds > 0 && limited.retryAfterSeconds <= 60)
        yield* TestClock.adjust("60 seconds")
        assert.strictEqual((yield* signIn.signIn(email, password, client("10.0.1.4"))).session.userId, "pw-bea")
      }))

    it.effect("never lets a stranger's failures lock the owner out of their own address; the stranger is throttled", () =>
      Effect.gen(function*() {
        const signIn = yield* PasswordSignIn
        const email = yield* withPassword("pw-owner")
        // A stranger guesses from one address until refused, then from others (past the account's ceiling).
        const stranger = [] as Array<string>
        for (let n = 0; n < 4; n++) stranger.push(yield* tagOf(signIn.signIn(email, `wrong guess ${n}`, client("10.0.9.1"))))
        assert.deepStrictEqual(stranger, ["SignInFailed", "SignInFailed", "SignInFailed", "TooManyAttempts"])
        for (const address of ["10.0.9.2", "10.0.9.3", "10.0.9.4"]) {
          assert.strictEqual(yield* tagOf(signIn.signIn(email, "wrong again!", client(address))), "SignInFailed")
        }
        // Six failures: past the ceiling of five, an address that failed waits, with the right password too.
        assert.strictEqual(yield* tagOf(signIn.signIn(email, "wrong again!", client("10.0.9.2"))), "TooManyAttempts")
        assert.strictEqual(yield* tagOf(signIn.signIn(email, password, client("10.0.9.3"))), "TooManyAttempts")
        // The owner, from an address that has not failed, signs in; again and again.
        for (let n = 0; n < 3; n++) {
          assert.strictEqual((yield* signIn.signIn(email, password, client("10.0.9.50"))).session.userId, "pw-owner")
        }
        // A fresh address gets one try past the ceiling, then waits too.
        assert.strictEqual(yield* tagOf(signIn.signIn(email, "one more guess", client("10.0.9.60"))), "SignInFailed")
        assert.strictEqual(yield* tagOf(signIn.signIn(email, "and another!", client("10.0.9.60"))), "TooManyAttempts")
        assert.strictEqual((yield* signIn.signIn(email, password, client("10.0.9.50"))).session.userId, "pw-owner")
      }))

    it.effect("limits the attempts of one address, whichever emails it tries", () =>
      Effect.gen(function*() {
        const signIn = yield* PasswordSignIn
        const email = yield* withPassword("pw-cy")
        for (let n = 0; n < 6; n++) {
          assert.strictEqual(yield* tagOf(signIn.signIn(`guess${n}@example.com`, password, client("10.0.2.1"))), "SignInFailed")
        }
        assert.strictEqual(yield* tagOf(signIn.signIn(email, password, client("10.0.2.1"))), "TooManyAttempts")
        assert.strictEqual((yield* signIn.signIn(email, password, client("10.0.2.2"))).session.userId, "pw-cy")
      }))

    it.effect("stores sessions: open until revoked or expired, listed for their person, revocable by them only", () =>
      Effect.gen(function*() {
        const signIn = yield* PasswordSignIn
        const sessions = yield* SignInSessions
        const email = yield* withPassword("pw-dee")
        yield* withPassword("pw-eve")
        const first = yield* signIn.signIn(email, password, client("10.0.3.1"))
        const second = yield* signIn.signIn(email, password, { address: "10.0.3.1" })
        assert.strictEqual(some(yield* sessions.open(first.token)).id, first.session.id)
        // Both began at the same instant: newest first means by id then.
        const listed = (yield* sessions.list("pw-dee")).map((row) => [row.id, row.method, row.userAgent])
        assert.deepStrictEqual(listed.toSorted(), [[second.session.id, "password", null], [first.session.id, "password", "Mozilla/5.0 Test"]].toSorted())
        assert.strictEqual(yield* errorTag(sessions.revoke("pw-eve", first.session.id)), "NotFound")
        yield* sessions.revoke("pw-dee", first.session.id)
        assertNone(yield* sessions.open(first.token))
        assert.deepStrictEqual((yield* sessions.list("pw-dee")).map((row) => row.id), [second.session.id])
        // A last use is recorded at most once a minute.
        yield* TestClock.adjust("2 minutes")
        assert.isTrue(some(yield* sessions.open(second.token)).lastSeenAt > second.session.lastSeenAt)
        yield* TestClock.adjust("30 days")
        assertNone(yield* sessions.open(second.token))
        assert.deepStrictEqual(yield* sessions.list("pw-dee"), [])
      }))

    it.effect("changes a password given the current one, ending the person's other sessions; never from a SAML session", () =>
      Effect.gen(function*() {
        const signIn = yield* PasswordSignIn
        const sessions = yield* SignInSessions
        const email = yield* withPassword("pw-fay")
        const here = yield* signIn.signIn(email, password, client("10.0.4.1"))
        const elsewhere = yield* signIn.signIn(email, password, client("10.0.4.2"))
        assert.strictEqual(yield* errorMessage(signIn.changePassword(here.session, "wrong one!", "a new password")), "currentPassword: is not your current password")
        assert.strictEqual(yield* errorMessage(signIn.changePassword(here.session, password, "short")), "newPassword: must be at least 10 characters")
        yield* signIn.changePassword(here.session, password, "a new password")
        assert.isTrue(Option.isSome(yield* sessions.open(here.token)))
        assertNone(yield* sessions.open(elsewhere.token))
        assert.strictEqual(yield* tagOf(signIn.signIn(email, password, client("10.0.4.3"))), "SignInFailed")
        assert.strictEqual((yield* signIn.signIn(email, "a new password", client("10.0.4.3"))).session.userId, "pw-fay")
        const { organization } = yield* (yield* Organizations).create({ title: "Fay's" }).pipe(as("pw-fay"))
        const saml = yield* sessions.begin({ userId: "pw-fay", organizationId: organization.id, method: "saml" })
        assert.strictEqual(yield* errorTag(signIn.changePassword(saml.session, "a new password", "another password")), "Forbidden")
      }))

    it.effect("joins through an invite link or an email invitation with a new account, never taking over an existing one", () =>
      Effect.gen(function*() {
        const organizations = yield* Organizations
        const invites = yield* InviteSignUp
        const members = yield* MembersRepo
        yield* Effect.orDie((yield* UsersRepo).insert(makeUser("inv-admin")))
        const { organization } = yield* organizations.create({ title: "Acme" }).pipe(as("inv-admin"))
        const { invite: link } = yield* organizations.createLinkInvite(organization.id, { role: "edit" }).pipe(as("inv-admin"))
        const linkToken = inviteToken(organization.id, link.id)
        // Invite links are off until an administrator turns them on.
        assert.strictEqual(yield* errorTag(invites.find(linkToken)), "NotFound")
        yield* organizations.update(organization.id, { inviteLinks: true }).pipe(as("inv-admin"))
        const found = yield* invites.find(linkToken)
        assert.deepStrictEqual([found.kind, found.organization.title, found.role, found.email], ["link", "Acme", "edit", undefined])
        assert.strictEqual(yield* errorTag(invites.find("nothing.here")), "NotFound")
        assert.strictEqual(yield* errorTag(invites.find("garbage")), "NotFound")

        const input = { displayName: "Gus", email: "gus@example.com", password }
        assert.strictEqual(yield* errorMessage(invites.signUp(linkToken, { ...input, password: "123" }, client("10.0.5.1"))), "password: must be at least 10 characters")
        const gus = yield* invites.signUp(linkToken, input, client("10.0.5.1"))
        assert.strictEqual(some(yield* members.find(organization.id, gus.session.userId)).role, "edit")
        assert.strictEqual(yield* errorTag(invites.signUp(linkToken, { ...input, email: "INV-ADMIN@example.com" }, client("10.0.5.1"))), "Conflict")
        assert.strictEqual((yield* (yield* PasswordSignIn).signIn("gus@example.com", password, client("10.0.5.1"))).session.userId, gus.session.userId)

        yield* organizations.invite(organization.id, { emails: ["hal@example.com"], role: "read", sso: false }).pipe(as("inv-admin"))
        const pending = yield* (yield* MemberInvites).listForOrganization(organization.id).pipe(as("inv-admin"))
        const emailToken = inviteToken(organization.id, pending[0]!.invite.id)
        assert.strictEqual((yield* invites.find(emailToken)).email, "hal@example.com")
        assert.strictEqual(yield* errorMessage(invites.signUp(emailToken, { ...input, email: "other@example.com" }, client("10.0.5.1"))), "email: this invitation is for hal@example.com")
        const hal = yield* invites.signUp(emailToken, { displayName: "Hal", email: undefined, password }, client("10.0.5.1"))
        assert.strictEqual(some(yield* members.find(organization.id, hal.session.userId)).role, "read")
        // The invitation is used up.
        assert.strictEqual(yield* errorTag(invites.find(emailToken)), "NotFound")
      }))

    it.effect("lets a signed-in person accept an invitation as themselves, an email invitation only if it is theirs", () =>
      Effect.gen(function*() {
        const organizations = yield* Organizations
        const invites = yield* InviteSignUp
        const members = yield* MembersRepo
        const signIn = yield* PasswordSignIn
        yield* Effect.orDie((yield* UsersRepo).insert(makeUser("acc-admin")))
        const { organization } = yield* organizations.create({ title: "Beta" }).pipe(as("acc-admin"))
        yield* organizations.update(organization.id, { inviteLinks: true }).pipe(as("acc-admin"))
        const { invite: link } = yield* organizations.createLinkInvite(organization.id, { role: "comment" }).pipe(as("acc-admin"))
        const ivy = yield* signIn.signIn(yield* withPassword("acc-ivy"), password, client("10.0.6.1"))
        yield* invites.accept(inviteToken(organization.id, link.id), ivy.session)
        assert.strictEqual(some(yield* members.find(organization.id, "acc-ivy")).role, "comment")

        yield* organizations.invite(organization.id, { emails: ["someone.else@example.com"], role: "admin", sso: false }).pipe(asInstanceAdmin("acc-admin"))
        const pending = yield* (yield* MemberInvites).listForOrganization(organization.id).pipe(as("acc-admin"))
        const token = inviteToken(organization.id, pending[0]!.invite.id)
        assert.strictEqual(
          yield* errorMessage(invites.accept(token, ivy.session)),
          "This invitation is for someone.else@example.com, and you are signed in as acc-ivy@example.com: sign out, then open the link again"
        )
        assert.strictEqual(some(yield* members.find(organization.id, "acc-ivy")).role, "comment")
      }))

    it.effect("keeps argon2id hashes, never the password", () =>
      Effect.gen(function*() {
        yield* withPassword("pw-hash")
        const stored = some(yield* (yield* SignInRepo).findPassword("pw-hash"))
        assert.match(stored, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
        assert.notInclude(stored, password)
      }))
  })
}

// On a database of its own: the suite above has its administrator already.
for (const backend of backends) {
  layer(Layer.provideMerge(services, backend.layer), { timeout: "60 seconds" })(`first start on ${backend.name}`, (it) => {
    it.effect("servers started together on a new database make one administrator with the configured token", () =>
      Effect.gen(function*() {
        const users = yield* Users
        const token = "quire_pat_two_servers_starting_at_once"
        const [first, second] = yield* Effect.all(
          [users.bootstrapAdmin("admin@together.test", token), users.bootstrapAdmin("admin@together.test", token)],
          { concurrency: 2 }
        )
        assert.strictEqual(first.user.id, second.user.id)
        assert.isTrue(first.user.instanceAdmin && second.user.instanceAdmin)
        const owner = yield* users.authenticate(token)
        assert.strictEqual(Option.getOrUndefined(owner)?.id, first.user.id)
      }))
  })
}
