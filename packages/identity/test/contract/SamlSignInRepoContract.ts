/** The behaviour every SamlSignInRepo adapter must have, and TeamsRepo.addMember that sign-in uses. */
import { assert, describe } from "@effect/vitest"
import { Effect, Option } from "effect"
import { at } from "@quire/testkit"
import { OrganizationsRepo } from "../../src/OrganizationsRepo.ts"
import { SamlSignInRepo } from "../../src/SamlSignInRepo.ts"
import { TeamsRepo } from "../../src/TeamsRepo.ts"
import { insertUsers, makeOrganization, type ReposTest } from "./Fixtures.ts"

export const samlSignInRepoContract = (it: ReposTest) =>
  describe("SamlSignInRepo", () => {
    it.effect("consumes an id once until it expires, remembers AuthnRequest ids, and keeps the first SP key", () =>
      Effect.gen(function*() {
        const repo = yield* SamlSignInRepo
        assert.isTrue(yield* repo.consumeOnce("sso-once-a", at(10_000), at(1000)))
        assert.isFalse(yield* repo.consumeOnce("sso-once-a", at(10_000), at(2000)))
        assert.isTrue(yield* repo.consumeOnce("sso-once-b", at(10_000), at(2000)))
        // Expired ids are forgotten.
        assert.isTrue(yield* repo.consumeOnce("sso-once-a", at(30_000), at(20_000)))
        yield* repo.saveRequest("sso-request-a", at(50_000))
        assert.deepStrictEqual(yield* repo.findRequest("sso-request-a", at(40_000)), Option.some(at(50_000)))
        assert.isTrue(Option.isNone(yield* repo.findRequest("sso-request-a", at(50_000))))
        assert.isTrue(Option.isNone(yield* repo.findRequest("sso-request-b", at(40_000))))
        yield* repo.removeRequest("sso-request-a")
        assert.isTrue(Option.isNone(yield* repo.findRequest("sso-request-a", at(40_000))))
        const first = yield* repo.spKey("key-one")
        assert.strictEqual(yield* repo.spKey("key-two"), first)
      }))

    it.effect("replaces the stored SP key only when the reseal answers one", () =>
      Effect.gen(function*() {
        const repo = yield* SamlSignInRepo
        const stored = yield* repo.spKey("key-three")
        assert.isFalse(yield* repo.resealSpKey(() => Option.none()))
        assert.strictEqual(yield* repo.spKey("key-four"), stored)
        assert.isTrue(yield* repo.resealSpKey((current) => current === stored ? Option.some(`resealed ${current}`) : Option.none()))
        assert.strictEqual(yield* repo.spKey("key-five"), `resealed ${stored}`)
      }))

    it.effect("adds a member to a team of the organization once", () =>
      Effect.gen(function*() {
        const organizations = yield* OrganizationsRepo
        const teams = yield* TeamsRepo
        yield* insertUsers("sso-admin", "sso-new")
        yield* organizations.insert(makeOrganization("sso-org", at(5000)), "sso-admin")
        yield* teams.insert({ id: "sso-team", organizationId: "sso-org", title: "Staff", createdAt: at(5000) }, [])
        yield* teams.addMember("sso-org", "sso-team", "sso-new")
        yield* teams.addMember("sso-org", "sso-team", "sso-new")
        yield* teams.addMember("other-org", "sso-team", "sso-admin")
        const joined = yield* teams.listForMember("sso-org", "sso-new", undefined, undefined, 10)
        assert.deepStrictEqual(joined.items.map((m) => [m.team.id, m.role, m.team.members]), [["sso-team", "member", 1]])
      }))
  })
