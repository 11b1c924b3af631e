/**
 * Sign-in sessions on the memory layers: a session and its expiry, the CLI's PKCE hand-off (a
 * code bound to its challenge, redeemed once with the verifier, before it expires), and the
 * organization scope a session carries onto the tokens it makes.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { createHash } from "node:crypto"
import { Actor, Ids, Transactor } from "@quire/kernel"
import { assertNone, at, errorMessage, some } from "@quire/testkit"
import { IdentityLayers, MembersRepo, sessionSeconds, type SignInSession, SignInSessions, Users, UsersRepo } from "../src/index.ts"
import { makeUser } from "./contract/Fixtures.ts"

const services = SignInSessions.layer.pipe(
  Layer.provideMerge(Users.layer),
  Layer.provideMerge(IdentityLayers.layerReposMemory),
  Layer.provide([Ids.Ids.layer, Transactor.Transactor.layerMemory])
)

const verifier = "v".repeat(43)
const challenge = createHash("sha256").update(verifier).digest("base64url")
const callback = new URL("http://127.0.0.1:4567/callback")

/** The session of `userId`, an edit member of `organizationId` who signed in through its identity provider. */
const signedIn = Effect.fnUntraced(function*(userId: string, organizationId: string) {
  yield* Effect.orDie((yield* UsersRepo).insert(makeUser(userId)))
  yield* (yield* MembersRepo).add({ organizationId, userId, role: "edit", joinedAt: at(0), sso: true })
  return (yield* (yield* SignInSessions).begin({ userId, organizationId, method: "saml", userAgent: "Test/1" })).session
})

/** The code a CLI's loopback listener receives after `session` signed in from its sealed request. */
const cliCode = Effect.fnUntraced(function*(session: SignInSession) {
  const sessions = yield* SignInSessions
  const state = yield* sessions.sealCliRequest({ callback, challenge, challengeMethod: "S256" })
  const handoff = some(yield* sessions.cliHandoff(session, state))
  assert.strictEqual(handoff.callback.href, callback.href)
  return handoff.code
})

layer(services)("sign-in sessions", (it) => {
  it.effect("open while they last, and never from a token of another purpose", () =>
    Effect.gen(function*() {
      const sessions = yield* SignInSessions
      const session = yield* signedIn("ss-alice", "ss-org")
      const grant = yield* sessions.begin({ userId: session.userId, organizationId: session.organizationId, method: "saml" })
      assert.strictEqual(grant.maxAgeSeconds, sessionSeconds)
      assert.deepStrictEqual(some(yield* sessions.open(grant.token)), grant.session)
      assertNone(yield* sessions.open(yield* cliCode(session)))
      assertNone(yield* sessions.open(`${grant.token}x`))
      yield* TestClock.adjust(`${sessionSeconds} seconds`)
      assertNone(yield* sessions.open(grant.token))
    }))

  it.effect("seal a CLI's request only with an S256 challenge and a loopback callback", () =>
    Effect.gen(function*() {
      const sessions = yield* SignInSessions
      assert.strictEqual(
        yield* errorMessage(sessions.sealCliRequest({ callback, challenge, challengeMethod: "plain" })),
        "code_challenge_method must be S256 for a loopback RelayState"
      )
      assert.strictEqual(
        yield* errorMessage(sessions.sealCliRequest({ callback, challenge: "short", challengeMethod: "S256" })),
        "code_challenge must be the base64url SHA-256 of the code_verifier (43 characters)"
      )
      assert.strictEqual(
        yield* errorMessage(sessions.sealCliRequest({ callback: new URL("https://example.com:443/x"), challenge, challengeMethod: "S256" })),
        "the callback must be a loopback http URL with a port"
      )
    }))

  it.effect("hand a code only to a request they sealed, within its ten minutes", () =>
    Effect.gen(function*() {
      const sessions = yield* SignInSessions
      const session = yield* signedIn("ss-bob", "ss-org")
      assertNone(yield* sessions.cliHandoff(session, undefined))
      assertNone(yield* sessions.cliHandoff(session, callback.href))
      const state = yield* sessions.sealCliRequest({ callback, challenge, challengeMethod: "S256" })
      assertNone(yield* sessions.cliHandoff(session, (yield* sessions.begin({ userId: session.userId, organizationId: session.organizationId, method: "saml" })).token))
      yield* TestClock.adjust("10 minutes")
      assertNone(yield* sessions.cliHandoff(session, state))
    }))

  it.effect("redeem a code with the right verifier only, once, before it expires", () =>
    Effect.gen(function*() {
      const sessions = yield* SignInSessions
      const session = yield* signedIn("ss-carol", "ss-org")
      const code = yield* cliCode(session)
      assert.strictEqual(
        yield* errorMessage(sessions.redeemCliCode(code, "w".repeat(43))),
        "code_verifier: does not match the code_challenge the sign-in started with"
      )
      assert.strictEqual(
        yield* errorMessage(sessions.redeemCliCode(code, "short")),
        "code_verifier: required, 43 to 128 characters of A-Z, a-z, 0-9, '-', '.', '_', '~'"
      )
      assert.strictEqual(yield* errorMessage(sessions.redeemCliCode("forged.code", verifier)), "code: invalid or expired sign-in code")
      const redeemed = yield* sessions.redeemCliCode(code, verifier)
      assert.strictEqual(redeemed.user.id, "ss-carol")
      assert.strictEqual(redeemed.organizationId, "ss-org")
      assert.strictEqual(yield* errorMessage(sessions.redeemCliCode(code, verifier)), "code: this sign-in code was already used")

      const late = yield* cliCode(session)
      yield* TestClock.adjust("2 minutes")
      assert.strictEqual(yield* errorMessage(sessions.redeemCliCode(late, verifier)), "code: invalid or expired sign-in code")
    }))

  it.effect("carry the organization they signed in to onto every token they make", () =>
    Effect.gen(function*() {
      const sessions = yield* SignInSessions
      const users = yield* Users
      const session = yield* signedIn("ss-dan", "ss-org")
      const fromCli = yield* sessions.redeemCliCode(yield* cliCode(session), verifier)
      const fromSession = yield* sessions.createToken(session, "single sign-on")
      for (const secret of [fromCli.secret, fromSession.secret]) {
        const caller = some(yield* users.caller(secret))
        assert.deepStrictEqual(caller.actor, { userId: "ss-dan", instanceAdmin: false, scope: "ss-org" })
      }
      assert.strictEqual(fromSession.token.organizationId, "ss-org")
      assert.strictEqual(fromSession.token.label, "single sign-on")
      assert.strictEqual((yield* sessions.user(session)).email, "ss-dan@example.com")
    }))

  it.effect("end with the tokens their sessions made when the person changes their password or signs out everywhere; tokens made with a token stay", () =>
    Effect.gen(function*() {
      const sessions = yield* SignInSessions
      const users = yield* Users
      const session = yield* signedIn("ss-fay", "ss-org")
      const other = yield* sessions.begin({ userId: "ss-fay", organizationId: "ss-org", method: "saml" })
      const inBrowser = yield* sessions.createToken(session, "browser")
      const fromCli = yield* sessions.redeemCliCode(yield* cliCode(session), verifier)
      assert.isTrue(inBrowser.token.fromSession)
      // A program holding a token makes one: tied to no session.
      const program = some(yield* users.caller(inBrowser.secret)).actor
      const withToken = yield* users.createToken("ss-fay", { label: "ci" }).pipe(Effect.provideService(Actor.Actor, program))
      assert.isFalse(withToken.token.fromSession)
      const live = Effect.fnUntraced(function*(secret: string) {
        return (yield* users.caller(secret))._tag === "Some"
      })

      // A password change: the other sessions end, and every token a session made, this one's too (a thief's cookie is this session).
      assert.strictEqual(yield* sessions.revokeOthers("ss-fay", session.id), 1)
      assertNone(yield* sessions.open(other.token))
      assert.deepStrictEqual([yield* live(inBrowser.secret), yield* live(fromCli.secret), yield* live(withToken.secret)], [false, false, true])

      // Signing out everywhere: this session too, and what it made since.
      const again = yield* sessions.createToken(session, "browser again")
      assert.strictEqual(yield* sessions.revokeOthers("ss-fay", undefined), 1)
      assert.deepStrictEqual([yield* live(again.secret), yield* live(withToken.secret)], [false, true])
      assert.deepStrictEqual((yield* (yield* UsersRepo).listTokens("ss-fay")).map((t) => t.label), ["ci"])
    }))

  it.effect("reach members' sites only of the organization they signed in to, while a member with a role", () =>
    Effect.gen(function*() {
      const sessions = yield* SignInSessions
      const members = yield* MembersRepo
      const session = yield* signedIn("ss-erin", "ss-org")
      yield* members.add({ organizationId: "ss-other", userId: "ss-erin", role: "edit", joinedAt: at(0), sso: false })
      assert.isTrue(yield* sessions.isMember(session, "ss-org"))
      assert.isFalse(yield* sessions.isMember(session, "ss-other"))
      assert.isFalse(yield* sessions.isMember({ userId: "ss-nobody", organizationId: "ss-org" }, "ss-org"))
      yield* members.setRole("ss-org", "ss-erin", null)
      assert.isFalse(yield* sessions.isMember(session, "ss-org"))
    }))
})
