/** The behaviour every SitePermissionsRepo adapter must have. */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect } from "effect"
import { assertNone, at, some } from "@quire/testkit"
import { SitePermissionsRepo } from "../../src/SitePermissionsRepo.ts"

const user = (id: string) => ({ kind: "user" as const, id })
const team = (id: string) => ({ kind: "team" as const, id })

export const sitePermissionsRepoContract = (it: Vitest.MethodsNonLive<SitePermissionsRepo>) =>
  describe("SitePermissionsRepo", () => {
    it.effect("grants a role, changes it keeping the invitation time, and removes it once", () =>
      Effect.gen(function*() {
        const repo = yield* SitePermissionsRepo
        yield* repo.put("spr-org", "spr-site", user("u1"), "edit", at(1))
        yield* repo.put("spr-org", "spr-site", user("u1"), "admin", at(5))
        assert.deepStrictEqual(some(yield* repo.find("spr-site", user("u1"))), {
          organizationId: "spr-org",
          siteId: "spr-site",
          principal: user("u1"),
          role: "admin",
          createdAt: at(1)
        })
        // A team of the same id is another principal.
        assertNone(yield* repo.find("spr-site", team("u1")))
        assert.isTrue(yield* repo.remove("spr-site", user("u1")))
        assert.isFalse(yield* repo.remove("spr-site", user("u1")))
        assertNone(yield* repo.find("spr-site", user("u1")))
      }))

    it.effect("lists a site's users or teams oldest first, page by page, and nothing of other sites", () =>
      Effect.gen(function*() {
        const repo = yield* SitePermissionsRepo
        yield* repo.put("spl-org", "spl-site", user("b"), "read", at(2))
        yield* repo.put("spl-org", "spl-site", user("a"), "edit", at(3))
        yield* repo.put("spl-org", "spl-site", user("c"), "admin", at(1))
        yield* repo.put("spl-org", "spl-site", team("t"), "edit", at(1))
        yield* repo.put("spl-org", "spl-other", user("d"), "edit", at(1))
        const first = yield* repo.list("spl-site", "user", undefined, 2)
        assert.deepStrictEqual(first.items.map((g) => [g.principal.id, g.role]), [["c", "admin"], ["b", "read"]])
        assert.isDefined(first.next)
        const second = yield* repo.list("spl-site", "user", [at(2).toISOString(), "b"], 2)
        assert.deepStrictEqual(second.items.map((g) => g.principal.id), ["a"])
        assert.isUndefined(second.next)
        assert.deepStrictEqual((yield* repo.list("spl-site", "team", undefined, 10)).items.map((g) => g.principal.id), ["t"])
        assert.deepStrictEqual((yield* repo.onSite("spl-site")).map((g) => `${g.principal.kind}/${g.principal.id}`).toSorted(), [
          "team/t",
          "user/a",
          "user/b",
          "user/c"
        ])
      }))

    it.effect("finds a member's and their teams' grants in one organization, and forgets a principal or a site", () =>
      Effect.gen(function*() {
        const repo = yield* SitePermissionsRepo
        yield* repo.put("spp-org", "spp-s1", user("m"), "edit", at(1))
        yield* repo.put("spp-org", "spp-s2", team("tm"), "admin", at(1))
        yield* repo.put("spp-org", "spp-s2", user("x"), "read", at(1))
        yield* repo.put("spp-org2", "spp-s3", user("m"), "admin", at(1))
        const held = yield* repo.ofPrincipals("spp-org", [user("m"), team("tm")])
        assert.deepStrictEqual(held.map((g) => `${g.siteId}:${g.role}`).toSorted(), ["spp-s1:edit", "spp-s2:admin"])
        assert.deepStrictEqual(yield* repo.ofPrincipals("spp-org", []), [])
        yield* repo.removePrincipal("spp-org", user("m"))
        assertNone(yield* repo.find("spp-s1", user("m")))
        // The same user's grant in another organization stays.
        assert.strictEqual(some(yield* repo.find("spp-s3", user("m"))).role, "admin")
        yield* repo.removeSite("spp-s2")
        assert.deepStrictEqual(yield* repo.onSite("spp-s2"), [])
      }))
  })
