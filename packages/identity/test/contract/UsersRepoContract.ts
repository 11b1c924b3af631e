/** The behaviour every UsersRepo adapter must have. */
import { assert, describe } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Errors, Transactor } from "@quire/kernel"
import { assertNone, at, some } from "@quire/testkit"
import type { ApiToken } from "../../src/domain/Identity.ts"
import { OrganizationsRepo } from "../../src/OrganizationsRepo.ts"
import { UsersRepo } from "../../src/UsersRepo.ts"
import { makeOrganization, makeUser, type ReposTest } from "./Fixtures.ts"

export const usersRepoContract = (it: ReposTest) =>
  describe("UsersRepo", () => {
    it.effect("finds an inserted user by id with every field", () =>
      Effect.gen(function*() {
        const users = yield* UsersRepo
        const ada = makeUser("u-find", { displayName: "Ada", photoURL: "https://example.com/ada.png", instanceAdmin: true, createdAt: at(17) })
        yield* users.insert(ada)
        assert.deepStrictEqual(some(yield* users.findById("u-find")), ada)
        assertNone(yield* users.findById("u-missing"))
      }))

    it.effect("looks emails up regardless of case", () =>
      Effect.gen(function*() {
        const users = yield* UsersRepo
        const grace = makeUser("u-case", { email: "grace@example.com" })
        yield* users.insert(grace)
        assert.deepStrictEqual(some(yield* users.findByEmail("grace@example.com")), grace)
        assert.deepStrictEqual(some(yield* users.findByEmail("Grace@EXAMPLE.com")), grace)
        assertNone(yield* users.findByEmail("grace@example.org"))

        const mixed = makeUser("u-case-mixed", { email: "Mixed.Case@Example.COM" })
        yield* users.insert(mixed)
        assert.deepStrictEqual(some(yield* users.findByEmail("mixed.case@example.com")), mixed)
        assert.deepStrictEqual(some(yield* users.findByEmail("Mixed.Case@Example.COM")), mixed)
      }))

    it.effect("refuses a second user with the same email, in any case, and keeps the first", () =>
      Effect.gen(function*() {
        const users = yield* UsersRepo
        const first = makeUser("u-dup-1", { email: "dup@example.com" })
        yield* users.insert(first)
        const same = yield* Effect.flip(users.insert(makeUser("u-dup-2", { email: "dup@example.com" })))
        assert.instanceOf(same, Errors.Conflict)
        const shouted = yield* Effect.flip(users.insert(makeUser("u-dup-3", { email: "DUP@example.com" })))
        assert.instanceOf(shouted, Errors.Conflict)
        assert.strictEqual(some(yield* users.findByEmail("dup@example.com")).id, "u-dup-1")
        assertNone(yield* users.findById("u-dup-2"))
        assertNone(yield* users.findById("u-dup-3"))
      }))

    it.effect("updates only the fields of the patch", () =>
      Effect.gen(function*() {
        const users = yield* UsersRepo
        const lin = makeUser("u-update", { displayName: "Lin", photoURL: "https://example.com/lin.png", createdAt: at(3) })
        yield* users.insert(lin)

        const renamed = some(yield* users.update("u-update", { displayName: "Lin Y." }))
        assert.deepStrictEqual(renamed, { ...lin, displayName: "Lin Y." })

        const promoted = some(yield* users.update("u-update", { photoURL: null, instanceAdmin: true }))
        assert.deepStrictEqual(promoted, { ...lin, displayName: "Lin Y.", photoURL: null, instanceAdmin: true })
        assert.deepStrictEqual(some(yield* users.findById("u-update")), promoted)

        assert.deepStrictEqual(some(yield* users.update("u-update", {})), promoted)
        assertNone(yield* users.update("u-nobody", { displayName: "Nobody" }))
      }))

    it.effect("lists the instance administrators oldest first (creation instant, then id), as updates leave them", () =>
      Effect.gen(function*() {
        const users = yield* UsersRepo
        yield* users.insert(makeUser("u-adm-b", { instanceAdmin: true, createdAt: at(5) }))
        yield* users.insert(makeUser("u-adm-a", { instanceAdmin: true, createdAt: at(5) }))
        yield* users.insert(makeUser("u-adm-c", { instanceAdmin: true, createdAt: at(2) }))
        yield* users.insert(makeUser("u-adm-no", { createdAt: at(1) }))
        const ours = Effect.map(users.listInstanceAdmins, (admins) => admins.filter((u) => u.id.startsWith("u-adm-")).map((u) => u.id))
        assert.deepStrictEqual(yield* ours, ["u-adm-c", "u-adm-a", "u-adm-b"])
        yield* users.update("u-adm-a", { instanceAdmin: false })
        yield* users.update("u-adm-no", { instanceAdmin: true })
        assert.deepStrictEqual(yield* ours, ["u-adm-no", "u-adm-c", "u-adm-b"])
        assert.isTrue((yield* users.listInstanceAdmins).every((u) => u.instanceAdmin))
      }))

    it.effect("finds a token and its owner by the token's hash", () =>
      Effect.gen(function*() {
        const users = yield* UsersRepo
        const owner = makeUser("u-token-owner")
        const other = makeUser("u-token-other")
        yield* users.insert(owner)
        yield* users.insert(other)
        const labelled = makeToken("t-1", owner.id, { label: "ci", createdAt: at(10), expiresAt: at(99), bootstrap: true })
        const unlabelled = makeToken("t-2", other.id, { createdAt: at(11) })
        yield* users.insertToken(labelled, "hash-1")
        yield* users.insertToken(unlabelled, "hash-2")

        assert.deepStrictEqual(some(yield* users.findTokenByHash("hash-1")), labelled)
        assert.deepStrictEqual(some(yield* users.findTokenByHash("hash-2")), unlabelled)
        assert.deepStrictEqual(some(yield* users.findTokenOwner("hash-1")), { token: labelled, user: owner })
        assert.deepStrictEqual(some(yield* users.findTokenOwner("hash-2")), { token: unlabelled, user: other })
        assertNone(yield* users.findTokenByHash("hash-unknown"))
        assertNone(yield* users.findTokenOwner("hash-unknown"))

        // A second token under a stored hash (two servers bootstrapping at once) leaves the first.
        yield* users.insertToken(makeToken("t-1-again", other.id), "hash-1")
        assert.deepStrictEqual(some(yield* users.findTokenByHash("hash-1")), labelled)
      }))

    it.effect("keeps the organization a single sign-on token is scoped to", () =>
      Effect.gen(function*() {
        const users = yield* UsersRepo
        const organizations = yield* OrganizationsRepo
        const owner = makeUser("u-scoped-owner")
        yield* users.insert(owner)
        yield* organizations.insert(makeOrganization("u-scoped-org", at(5)), owner.id)
        const scoped = makeToken("t-scoped", owner.id, { organizationId: "u-scoped-org" })
        yield* users.insertToken(scoped, "hash-scoped")
        assert.deepStrictEqual(some(yield* users.findTokenOwner("hash-scoped")), { token: scoped, user: owner })
        assert.deepStrictEqual(yield* users.listTokens(owner.id), [scoped])
      }))

    it.effect("lists a user's tokens oldest first, and only theirs", () =>
      Effect.gen(function*() {
        const users = yield* UsersRepo
        yield* users.insert(makeUser("u-list-tokens"))
        yield* users.insert(makeUser("u-list-other"))
        const later = makeToken("t-list-b", "u-list-tokens", { createdAt: at(30) })
        const earlier = makeToken("t-list-c", "u-list-tokens", { createdAt: at(20) })
        const sameInstant = makeToken("t-list-a", "u-list-tokens", { createdAt: at(30) })
        yield* users.insertToken(later, "hash-list-b")
        yield* users.insertToken(earlier, "hash-list-c")
        yield* users.insertToken(sameInstant, "hash-list-a")
        yield* users.insertToken(makeToken("t-list-other", "u-list-other"), "hash-list-other")

        assert.deepStrictEqual(yield* users.listTokens("u-list-tokens"), [earlier, sameInstant, later])
        assert.deepStrictEqual(yield* users.listTokens("u-nobody"), [])
      }))

    it.effect("deletes a token only for its owner, and answers the hash it had", () =>
      Effect.gen(function*() {
        const users = yield* UsersRepo
        yield* users.insert(makeUser("u-del-token"))
        yield* users.insert(makeUser("u-del-other"))
        yield* users.insertToken(makeToken("t-del", "u-del-token"), "hash-del")

        assertNone(yield* users.deleteToken("u-del-other", "t-del"))
        assert.isTrue(Option.isSome(yield* users.findTokenByHash("hash-del")))
        assert.strictEqual(some(yield* users.deleteToken("u-del-token", "t-del")), "hash-del")
        assertNone(yield* users.findTokenOwner("hash-del"))
        assertNone(yield* users.deleteToken("u-del-token", "t-del"))
      }))

    it.effect("deletes the user's other bootstrap tokens and keeps the rest", () =>
      Effect.gen(function*() {
        const users = yield* UsersRepo
        yield* users.insert(makeUser("u-boot"))
        yield* users.insert(makeUser("u-boot-other"))
        yield* users.insertToken(makeToken("t-boot-old", "u-boot", { bootstrap: true }), "hash-boot-old")
        yield* users.insertToken(makeToken("t-boot-new", "u-boot", { bootstrap: true }), "hash-boot-new")
        yield* users.insertToken(makeToken("t-boot-personal", "u-boot"), "hash-boot-personal")
        yield* users.insertToken(makeToken("t-boot-theirs", "u-boot-other", { bootstrap: true }), "hash-boot-theirs")

        assert.deepStrictEqual(yield* users.deleteBootstrapTokens("u-boot", "hash-boot-new"), ["hash-boot-old"])
        assert.deepStrictEqual((yield* users.listTokens("u-boot")).map((t) => t.id).toSorted(), ["t-boot-new", "t-boot-personal"])
        assert.strictEqual((yield* users.listTokens("u-boot-other")).length, 1)
      }))

    it.effect("deletes the user's tokens created through a session, keeps the rest, and undoes it with its transaction", () =>
      Effect.gen(function*() {
        const users = yield* UsersRepo
        const transactor = yield* Transactor.Transactor
        yield* users.insert(makeUser("u-sess"))
        yield* users.insert(makeUser("u-sess-other"))
        yield* users.insertToken(makeToken("t-sess-browser", "u-sess", { fromSession: true }), "hash-sess-browser")
        yield* users.insertToken(makeToken("t-sess-cli", "u-sess", { fromSession: true, createdAt: at(2) }), "hash-sess-cli")
        yield* users.insertToken(makeToken("t-sess-ci", "u-sess"), "hash-sess-ci")
        yield* users.insertToken(makeToken("t-sess-theirs", "u-sess-other", { fromSession: true }), "hash-sess-theirs")
        assert.isTrue(some(yield* users.findTokenByHash("hash-sess-browser")).fromSession)
        assert.isFalse(some(yield* users.findTokenByHash("hash-sess-ci")).fromSession)

        yield* transactor.transaction(Effect.andThen(users.deleteSessionTokens("u-sess"), Effect.fail("boom"))).pipe(Effect.ignore)
        assert.strictEqual((yield* users.listTokens("u-sess")).length, 3)

        assert.deepStrictEqual((yield* users.deleteSessionTokens("u-sess")).toSorted(), ["hash-sess-browser", "hash-sess-cli"])
        assert.deepStrictEqual((yield* users.listTokens("u-sess")).map((t) => t.id), ["t-sess-ci"])
        assert.strictEqual((yield* users.listTokens("u-sess-other")).length, 1)
        assert.deepStrictEqual(yield* users.deleteSessionTokens("u-sess"), [])
      }))

    it.effect("records a token's use unless it was recorded recently", () =>
      Effect.gen(function*() {
        const users = yield* UsersRepo
        yield* users.insert(makeUser("u-touch"))
        yield* users.insertToken(makeToken("t-touch", "u-touch"), "hash-touch")

        yield* users.touchToken("hash-touch", at(100), at(40))
        assert.deepStrictEqual(some(yield* users.findTokenByHash("hash-touch")).lastUsedAt, at(100))
        // Recorded at 100, not before 90: nothing to write.
        yield* users.touchToken("hash-touch", at(130), at(90))
        assert.deepStrictEqual(some(yield* users.findTokenByHash("hash-touch")).lastUsedAt, at(100))
        yield* users.touchToken("hash-touch", at(170), at(110))
        assert.deepStrictEqual(some(yield* users.findTokenByHash("hash-touch")).lastUsedAt, at(170))
        yield* users.touchToken("hash-unknown", at(170), at(110))
      }))

    it.effect("a token deleted in a failed transaction is still there", () =>
      Effect.gen(function*() {
        const users = yield* UsersRepo
        const transactor = yield* Transactor.Transactor
        yield* users.insert(makeUser("u-del-rollback"))
        yield* users.insertToken(makeToken("t-del-rollback", "u-del-rollback"), "hash-del-rollback")
        yield* transactor.transaction(
          Effect.andThen(users.deleteToken("u-del-rollback", "t-del-rollback"), Effect.fail("boom"))
        ).pipe(Effect.ignore)
        assert.strictEqual(some(yield* users.findTokenByHash("hash-del-rollback")).id, "t-del-rollback")
      }))
  })

const makeToken = (id: string, userId: string, overrides: Partial<ApiToken> = {}): ApiToken => ({
  id,
  userId,
  label: null,
  createdAt: at(1),
  lastUsedAt: null,
  expiresAt: null,
  bootstrap: false,
  organizationId: null,
  fromSession: false,
  ...overrides
})
