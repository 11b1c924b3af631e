/** The behaviour every SignInRepo adapter must have: passwords, sessions, attempts. */
import { assert, describe } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { Transactor } from "@quire/kernel"
import { assertNone, at, some } from "@quire/testkit"
import { type SessionRow, SignInRepo } from "../../src/signin/SignInRepo.ts"
import { UsersRepo } from "../../src/UsersRepo.ts"
import { insertUsers, makeUser, type ReposTest } from "./Fixtures.ts"

const session = (id: string, userId: string, createdAt: number, overrides: Partial<SessionRow> = {}): SessionRow => ({
  id,
  userId,
  organizationId: null,
  method: "password",
  createdAt: at(createdAt),
  lastSeenAt: at(createdAt),
  expiresAt: at(createdAt + 100_000),
  userAgent: "Firefox",
  revokedAt: null,
  ...overrides
})

export const signInRepoContract = (it: ReposTest) =>
  describe("SignInRepo", () => {
    it.effect("keeps one password hash per user, the last one set, and says whether an administrator has one", () =>
      Effect.gen(function*() {
        const repo = yield* SignInRepo
        yield* insertUsers("si-pw")
        assertNone(yield* repo.findPassword("si-pw"))
        yield* repo.setPassword("si-pw", "$argon2id$one", at(1000))
        yield* repo.setPassword("si-pw", "$argon2id$two", at(2000))
        assert.strictEqual(some(yield* repo.findPassword("si-pw")), "$argon2id$two")
        // Other suites share the store: an administrator with a password appears only when set here.
        yield* Effect.orDie((yield* UsersRepo).insert(makeUser("si-admin", { instanceAdmin: true })))
        yield* repo.setPassword("si-admin", "$argon2id$admin", at(3000))
        assert.isTrue(yield* repo.adminHasPassword)
      }))

    it.effect("stores sessions, lists a person's live ones newest first, and revokes them", () =>
      Effect.gen(function*() {
        const repo = yield* SignInRepo
        yield* insertUsers("si-ann", "si-ben")
        yield* repo.insertSession(session("si-s1", "si-ann", 1000))
        yield* repo.insertSession(session("si-s2", "si-ann", 2000, { method: "saml", userAgent: null }))
        yield* repo.insertSession(session("si-s3", "si-ann", 3000, { expiresAt: at(4000) }))
        yield* repo.insertSession(session("si-s4", "si-ben", 3000))
        assert.deepStrictEqual(some(yield* repo.findSession("si-s2")), session("si-s2", "si-ann", 2000, { method: "saml", userAgent: null }))
        assertNone(yield* repo.findSession("si-none"))
        assert.deepStrictEqual((yield* repo.listSessions("si-ann", at(3500))).map((s) => s.id), ["si-s3", "si-s2", "si-s1"])
        assert.deepStrictEqual((yield* repo.listSessions("si-ann", at(4000))).map((s) => s.id), ["si-s2", "si-s1"])
        // Another person's session, or one already revoked, is not theirs to revoke.
        assert.isFalse(yield* repo.revokeSession("si-ann", "si-s4", at(5000)))
        assert.isTrue(yield* repo.revokeSession("si-ann", "si-s2", at(5000)))
        assert.isFalse(yield* repo.revokeSession("si-ann", "si-s2", at(5001)))
        assert.deepStrictEqual(some(yield* repo.findSession("si-s2")).revokedAt, at(5000))
        yield* repo.insertSession(session("si-s5", "si-ann", 6000))
        assert.strictEqual(yield* repo.revokeOtherSessions("si-ann", "si-s5", at(7000)), 1)
        assert.deepStrictEqual((yield* repo.listSessions("si-ann", at(7000))).map((s) => s.id), ["si-s5"])
        assert.deepStrictEqual((yield* repo.listSessions("si-ben", at(7000))).map((s) => s.id), ["si-s4"])
      }))

    it.effect("records a session's use at most once per interval, and forgets a person's expired sessions", () =>
      Effect.gen(function*() {
        const repo = yield* SignInRepo
        yield* insertUsers("si-cat")
        yield* repo.insertSession(session("si-t1", "si-cat", 1000, { expiresAt: at(2000) }))
        yield* repo.insertSession(session("si-t2", "si-cat", 1000))
        yield* repo.touchSession("si-t2", at(5000), at(1000))
        assert.deepStrictEqual(some(yield* repo.findSession("si-t2")).lastSeenAt, at(1000))
        yield* repo.touchSession("si-t2", at(5000), at(4000))
        assert.deepStrictEqual(some(yield* repo.findSession("si-t2")).lastSeenAt, at(5000))
        yield* repo.insertSession(session("si-t3", "si-cat", 3000))
        assertNone(yield* repo.findSession("si-t1"))
      }))

    it.effect("counts attempts per key in fixed windows", () =>
      Effect.gen(function*() {
        const repo = yield* SignInRepo
        assert.deepStrictEqual(yield* repo.countAttempts("si-key", at(1000)), { count: 0, resetAt: at(1000) })
        assert.deepStrictEqual(yield* repo.addAttempt("si-key", at(1000), 60_000), { count: 1, resetAt: at(61_000) })
        assert.deepStrictEqual(yield* repo.addAttempt("si-key", at(2000), 60_000), { count: 2, resetAt: at(61_000) })
        assert.deepStrictEqual(yield* repo.countAttempts("si-key", at(3000)), { count: 2, resetAt: at(61_000) })
        assert.strictEqual((yield* repo.countAttempts("si-other", at(3000))).count, 0)
        // The window ended: counting starts again.
        assert.strictEqual((yield* repo.countAttempts("si-key", at(61_000))).count, 0)
        assert.deepStrictEqual(yield* repo.addAttempt("si-key", at(61_000), 60_000), { count: 1, resetAt: at(121_000) })
        yield* repo.clearAttempts("si-key")
        assert.strictEqual((yield* repo.countAttempts("si-key", at(61_500))).count, 0)
      }))

    it.effect("purges sessions that expired or were revoked long enough ago, and ended attempt windows", () =>
      Effect.gen(function*() {
        const repo = yield* SignInRepo
        yield* insertUsers("si-pg")
        yield* repo.insertSession(session("si-p1", "si-pg", 900_000, { expiresAt: at(901_000) }))
        yield* repo.insertSession(session("si-p2", "si-pg", 900_000, { revokedAt: at(900_500) }))
        yield* repo.insertSession(session("si-p3", "si-pg", 900_000, { revokedAt: at(902_500) }))
        yield* repo.insertSession(session("si-p4", "si-pg", 900_000))
        yield* repo.addAttempt("si-purge-key", at(900_000), 1000)
        // Other suites' rows may go too: only these are checked.
        assert.isAtLeast(yield* repo.purge(at(903_000), at(901_000)), 2)
        assertNone(yield* repo.findSession("si-p1"))
        assertNone(yield* repo.findSession("si-p2"))
        assert.strictEqual(some(yield* repo.findSession("si-p3")).id, "si-p3")
        assert.strictEqual(some(yield* repo.findSession("si-p4")).id, "si-p4")
        assert.strictEqual((yield* repo.addAttempt("si-purge-key", at(903_000), 1000)).count, 1)
      }))

    it.effect("rolls a password and a session back with the transaction", () =>
      Effect.gen(function*() {
        const repo = yield* SignInRepo
        const transactor = yield* Transactor.Transactor
        yield* insertUsers("si-rb")
        const exit = yield* Effect.exit(transactor.transaction(Effect.gen(function*() {
          yield* repo.setPassword("si-rb", "$argon2id$rb", at(1000))
          yield* repo.insertSession(session("si-rb1", "si-rb", 1000))
          return yield* Effect.fail("boom")
        })))
        assert.isTrue(Exit.isFailure(exit))
        assertNone(yield* repo.findPassword("si-rb"))
        assertNone(yield* repo.findSession("si-rb1"))
      }))
  })
