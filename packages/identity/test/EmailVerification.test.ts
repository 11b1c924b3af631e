/**
 * Proving an email (issue 34, finding 2), over the memory and the SQL adapters, with mail kept in
 * a memory outbox: a squatter who signed up with someone's address through an invite link is
 * offered nothing addressed to it, and the mailbox's owner claims the address through the
 * invitation's mailed link; verification links prove an email once, before they expire.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { layerMailerMemory, Outbox } from "@quire/outbound"
import { as, asInstanceAdmin, errorMessage, errorTag, some } from "@quire/testkit"
import { AccountMail, EmailVerification, IdentityLayers, InviteSignUp, inviteToken, MemberInvites, MembersRepo, Organizations, PasswordSignIn, SignInSessions, Users, UsersRepo } from "../src/index.ts"
import { makeUser } from "./contract/Fixtures.ts"
import { backends, dependencies } from "./support/Services.ts"

const mail = AccountMail.layer("http://quire.test").pipe(Layer.provideMerge(layerMailerMemory))
const services = IdentityLayers.layerServices.pipe(
  Layer.provideMerge(mail),
  Layer.provide(dependencies())
)
const client = (address: string) => ({ address, userAgent: "Mozilla/5.0 Test" })

/** The link in the last message to `to`, and that message. */
const lastLinkTo = Effect.fnUntraced(function*(to: string) {
  const sent = (yield* (yield* Outbox).sent).filter((m) => m.to === to)
  const message = sent[sent.length - 1]
  assert.isDefined(message, `no mail to ${to}`)
  const link = /http:\/\/quire\.test\/\S+/.exec(message!.text)?.[0]
  assert.isDefined(link, message!.text)
  return { message: message!, url: new URL(link!) }
})

for (const backend of backends) {
  layer(Layer.provideMerge(services, backend.layer), { timeout: "60 seconds" })(`email verification on ${backend.name}`, (it) => {
    it.effect("a squatter of alice@bigcorp.example is offered nothing of BigCorp's; the real Alice claims her address through her mailed link", () =>
      Effect.gen(function*() {
        const organizations = yield* Organizations
        const invites = yield* InviteSignUp
        const memberInvites = yield* MemberInvites
        const verification = yield* EmailVerification
        const sessions = yield* SignInSessions
        const repo = yield* UsersRepo
        yield* Effect.orDie(repo.insert(makeUser("bc-owner")))
        yield* Effect.orDie(repo.insert(makeUser("mallory")))
        const { organization: bigcorp } = yield* organizations.create({ title: "BigCorp", emailDomains: ["bigcorp.example"] }).pipe(as("bc-owner"))

        // The squatter registers alice@bigcorp.example through an invite link of their own organization.
        const { organization: trap } = yield* organizations.create({ title: "Trap" }).pipe(as("mallory"))
        yield* organizations.update(trap.id, { inviteLinks: true }).pipe(as("mallory"))
        const { invite: link } = yield* organizations.createLinkInvite(trap.id, { role: "read" }).pipe(as("mallory"))
        const squat = yield* invites.signUp(inviteToken(trap.id, link.id), { displayName: "Alice?", email: "alice@bigcorp.example", password: "squatter's password" }, client("10.8.0.1"))
        const squatter = squat.session.userId
        assert.isFalse(yield* verification.isVerified(squatter))
        // An email invitation to themselves, through their own organization, proves nothing either.
        const { organization: trap2 } = yield* organizations.create({ title: "Trap 2" }).pipe(as("mallory"))
        yield* organizations.invite(trap2.id, { emails: ["alice@bigcorp.example"], role: "admin", sso: false }).pipe(as("mallory"))
        const own = (yield* memberInvites.listForOrganization(trap2.id).pipe(as("mallory")))[0]!
        assert.strictEqual(yield* errorTag(invites.signUp(inviteToken(trap2.id, own.invite.id), { displayName: "A", email: undefined, password: "squatter's password" }, client("10.8.0.1"))), "Conflict")
        assert.isFalse(yield* verification.isVerified(squatter))

        // Even the operator's invitation, which adds a proven account at once, only offers it to an unproven one.
        const operator = yield* organizations.invite(bigcorp.id, { emails: ["alice@bigcorp.example"], role: "admin", sso: false }).pipe(asInstanceAdmin("bc-owner"))
        assert.deepStrictEqual(operator, { users: [], invited: 1 })
        assertNoMember(yield* (yield* MembersRepo).find(bigcorp.id, squatter))

        // BigCorp invites Alice: the invitation goes to her mailbox, with its own link.
        const answer = yield* organizations.invite(bigcorp.id, { emails: ["alice@bigcorp.example"], role: "admin", sso: false }).pipe(as("bc-owner"))
        assert.deepStrictEqual(answer, { users: [], invited: 1 })
        const { message, url } = yield* lastLinkTo("alice@bigcorp.example")
        assert.strictEqual(message.subject, "You are invited to BigCorp on Quire")
        assert.strictEqual(url.pathname.split("/")[1], "invite")
        const pending = (yield* memberInvites.listForOrganization(bigcorp.id).pipe(as("bc-owner")))[0]!
        // The link is not the id the admins see: that one proves nothing.
        assert.notStrictEqual(url.pathname, `/invite/${inviteToken(bigcorp.id, pending.invite.id)}`)

        // The squatter is offered nothing: not listed, not accepted by id, not in BigCorp's domain.
        assert.deepStrictEqual(yield* memberInvites.listForCaller.pipe(as(squatter)), [])
        assert.strictEqual(
          yield* errorMessage(memberInvites.accept(bigcorp.id, pending.invite.id).pipe(as(squatter))),
          "Confirm your email first: invitations are offered to an account that proved its email, or through the link the invitation came with"
        )
        assert.deepStrictEqual((yield* organizations.listByEmailDomain("bigcorp.example").pipe(as(squatter))).map((o) => o.organization.id), [])
        assertNoMember(yield* (yield* MembersRepo).find(bigcorp.id, squatter))

        // The real Alice opens her link: it proves the mailbox, so the unproven account is hers to claim.
        const token = url.pathname.slice("/invite/".length)
        const found = yield* invites.find(token)
        assert.deepStrictEqual([found.kind, found.email, found.proof, found.organization.title], ["email", "alice@bigcorp.example", true, "BigCorp"])
        const alice = yield* invites.signUp(token, { displayName: "Alice", email: undefined, password: "alice's own password" }, client("10.8.0.2"))
        assert.strictEqual(alice.session.userId, squatter)
        assert.strictEqual(some(yield* repo.findById(squatter)).displayName, "Alice")
        assert.isTrue(yield* verification.isVerified(squatter))
        assert.strictEqual(some(yield* (yield* MembersRepo).find(bigcorp.id, squatter)).role, "admin")
        // The squatter keeps no way in: their session ended and their password is gone.
        assert.isTrue(Option.isNone(yield* sessions.open(squat.token)))
        const signIn = yield* PasswordSignIn
        assert.strictEqual(yield* errorMessage(signIn.signIn("alice@bigcorp.example", "squatter's password", client("10.8.0.1"))), "Wrong email or password.")
        assert.strictEqual((yield* signIn.signIn("alice@bigcorp.example", "alice's own password", client("10.8.0.2"))).session.userId, squatter)
        // The link is used up; BigCorp's domain is now offered to the proven address.
        assert.strictEqual(yield* errorTag(invites.find(token)), "NotFound")
        assert.deepStrictEqual((yield* organizations.listByEmailDomain("bigcorp.example").pipe(as(squatter))).map((o) => o.organization.id), [bigcorp.id])
      }))

    it.effect("a verification link proves the email once, before it expires; a signed-in person accepting another's invitation is told why not", () =>
      Effect.gen(function*() {
        const verification = yield* EmailVerification
        const organizations = yield* Organizations
        const invites = yield* InviteSignUp
        const memberInvites = yield* MemberInvites
        const repo = yield* UsersRepo
        yield* Effect.orDie(repo.insert(makeUser("ver-bob")))
        yield* Effect.orDie(repo.insert(makeUser("ver-owner")))
        assert.strictEqual((yield* verification.request("ver-bob")).email, "ver-bob@example.com")
        const { message, url } = yield* lastLinkTo("ver-bob@example.com")
        assert.strictEqual(message.subject, "Confirm your email for Quire")
        assert.strictEqual(url.pathname, "/verify-email")
        const secret = url.searchParams.get("token")!
        assert.strictEqual(yield* errorMessage(verification.confirm("quire_verify_guessed")), "token: this link is unknown, used or expired: ask for a new one")
        assert.deepStrictEqual(yield* verification.confirm(secret), { userId: "ver-bob", email: "ver-bob@example.com" })
        assert.isTrue(yield* verification.isVerified("ver-bob"))
        assert.strictEqual(yield* errorTag(verification.confirm(secret)), "InvalidInput")
        assert.strictEqual(yield* errorTag(verification.request("ver-bob")), "Conflict")

        // A link used after 24 hours proves nothing.
        yield* Effect.orDie(repo.insert(makeUser("ver-late")))
        yield* verification.request("ver-late")
        const late = (yield* lastLinkTo("ver-late@example.com")).url.searchParams.get("token")!
        yield* TestClock.adjust("25 hours")
        assert.strictEqual(yield* errorTag(verification.confirm(late)), "InvalidInput")
        assert.isFalse(yield* verification.isVerified("ver-late"))

        // Bob, proven, sees his invitations; opening someone else's mailed link, he is told why he cannot accept it.
        const { organization } = yield* organizations.create({ title: "Owner's" }).pipe(as("ver-owner"))
        yield* organizations.invite(organization.id, { emails: ["ver-bob@example.com", "someone@example.com"], role: "edit", sso: false }).pipe(as("ver-owner"))
        assert.deepStrictEqual((yield* memberInvites.listForCaller.pipe(as("ver-bob"))).map((v) => v.organization.id), [organization.id])
        const other = (yield* lastLinkTo("someone@example.com")).url.pathname.slice("/invite/".length)
        const bob = yield* sessions(yield* SignInSessions, "ver-bob")
        assert.strictEqual(
          yield* errorMessage(invites.accept(other, bob)),
          "This invitation is for someone@example.com, and you are signed in as ver-bob@example.com: sign out, then open the link again"
        )
        const mine = (yield* lastLinkTo("ver-bob@example.com")).url.pathname.slice("/invite/".length)
        yield* invites.accept(mine, bob)
        assert.strictEqual(some(yield* (yield* MembersRepo).find(organization.id, "ver-bob")).role, "edit")
      }))

    it.effect("tells a person at their email that their password changed", () =>
      Effect.gen(function*() {
        const signIn = yield* PasswordSignIn
        yield* Effect.orDie((yield* UsersRepo).insert(makeUser("note-cy")))
        yield* signIn.setPassword("note-cy", "the first password")
        const grant = yield* signIn.signIn("note-cy@example.com", "the first password", client("10.8.1.1"))
        yield* signIn.changePassword(grant.session, "the first password", "the second password")
        const notices = (yield* (yield* Outbox).sent).filter((m) => m.to === "note-cy@example.com")
        assert.deepStrictEqual(notices.map((m) => m.subject), ["Your Quire password was changed"])
        assert.include(notices[0]!.text, "your other sessions were signed out")
      }))

    it.effect("tells the administrator's configured address when first-run setup changes the sign-in email", () =>
      Effect.gen(function*() {
        const { generated } = yield* (yield* Users).bootstrapAdmin("operator@old.example", undefined)
        yield* (yield* PasswordSignIn).setup({ setupCode: generated!, displayName: "Ada", email: "ada@new.example", password: "the admin's password" }, client("10.8.2.1"))
        const notices = (yield* (yield* Outbox).sent).filter((m) => m.to === "operator@old.example")
        assert.deepStrictEqual(notices.map((m) => m.subject), ["The Quire administrator's sign-in email was changed"])
        assert.include(notices[0]!.text, "to ada@new.example")
      }))
  })
}

const assertNoMember = (found: Option.Option<unknown>) => assert.isTrue(Option.isNone(found))

/** A password session of `userId`. */
const sessions = (signIn: SignInSessions["Service"], userId: string) =>
  Effect.map(signIn.begin({ userId, method: "password" }), (grant) => grant.session)
