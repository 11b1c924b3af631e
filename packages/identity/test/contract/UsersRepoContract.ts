/** The behaviour every UsersRepo adapter must have. */
import { assert, describe } from "@effect/vitest"
import { Effect } from "effect"
import { Errors } from "@quire/kernel"
import { assertNone, at, some } from "@quire/testkit"
import type { ApiToken } from "../../src/domain/Identity.ts"
import { UsersRepo } from "../../src/UsersRepo.ts"
import { makeUser, type ReposTest } from "./Fixtures.ts"

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

    it.effect("finds a token and its owner by the token's hash", () =>
      Effect.gen(function*() {
        const users = yield* UsersRepo
        const owner = makeUser("u-token-owner")
        const other = makeUser("u-token-other")
        yield* users.insert(owner)
        yield* users.insert(other)
        const labelled: ApiToken = { id: "t-1", userId: owner.id, label: "ci", createdAt: at(10) }
        const unlabelled: ApiToken = { id: "t-2", userId: other.id, label: null, createdAt: at(11) }
        yield* users.insertToken(labelled, "hash-1")
        yield* users.insertToken(unlabelled, "hash-2")

        assert.deepStrictEqual(some(yield* users.findTokenByHash("hash-1")), labelled)
        assert.deepStrictEqual(some(yield* users.findTokenByHash("hash-2")), unlabelled)
        assert.deepStrictEqual(some(yield* users.findUserByTokenHash("hash-1")), owner)
        assert.deepStrictEqual(some(yield* users.findUserByTokenHash("hash-2")), other)
        assertNone(yield* users.findTokenByHash("hash-unknown"))
        assertNone(yield* users.findUserByTokenHash("hash-unknown"))
      }))
  })
