/** The behaviour every PermissionsRepo adapter must have. */
import type { Vitest } from "@effect/vitest"
import { assert, describe } from "@effect/vitest"
import { Effect } from "effect"
import { allPages, at } from "@quire/testkit"
import { type Grant, PermissionsRepo, type Principal, type Target } from "../../src/PermissionsRepo.ts"
import type { Repos } from "./Fixtures.ts"

const user = (id: string): Principal => ({ kind: "user", id })
const team = (id: string): Principal => ({ kind: "team", id })
const space = (id: string): Target => ({ kind: "space", id })
const collection = (id: string): Target => ({ kind: "collection", id })

/** What a grant says, without its organization (the tests of one case share it). */
const brief = (g: Grant) => `${g.target.kind}:${g.target.id} ${g.principal.kind}:${g.principal.id} ${g.role}`
const sorted = (grants: ReadonlyArray<Grant>) => grants.map(brief).toSorted()

export const permissionsRepoContract = (it: Vitest.MethodsNonLive<Repos | PermissionsRepo>) =>
  describe("PermissionsRepo", () => {
    it.effect("grants roles, replaces a principal's role on the same target and keeps when they were invited", () =>
      Effect.gen(function*() {
        const repo = yield* PermissionsRepo
        const org = "pg-org"
        yield* repo.put(org, space("pg-s"), [user("pg-u1"), team("pg-t1")], "edit", at(1))
        yield* repo.put(org, space("pg-s"), [user("pg-u1")], "admin", at(5))
        yield* repo.put(org, space("pg-s"), [], "read", at(6))
        const users = yield* repo.list(space("pg-s"), "user", undefined, 10)
        assert.deepStrictEqual(users.items, [
          { organizationId: org, target: space("pg-s"), principal: user("pg-u1"), role: "admin", createdAt: at(1) }
        ])
        const teams = yield* repo.list(space("pg-s"), "team", undefined, 10)
        assert.deepStrictEqual(teams.items.map(brief), ["space:pg-s team:pg-t1 edit"])
        // A collection with the same id is another target.
        assert.deepStrictEqual((yield* repo.list(collection("pg-s"), "user", undefined, 10)).items, [])
      }))

    it.effect("lists a target's grants in invitation order, page by page", () =>
      Effect.gen(function*() {
        const repo = yield* PermissionsRepo
        const org = "pl-org"
        yield* repo.put(org, collection("pl-c"), [user("pl-c")], "read", at(3))
        yield* repo.put(org, collection("pl-c"), [user("pl-b"), user("pl-a")], "comment", at(2))
        yield* repo.put(org, collection("pl-c"), [user("pl-d")], "edit", at(1))
        yield* repo.put(org, collection("pl-c"), [team("pl-t")], "edit", at(0))
        for (const limit of [1, 2, 3, 4]) {
          const pages = yield* allPages((after) => repo.list(collection("pl-c"), "user", after, limit))
          assert.deepStrictEqual(pages.flat().map((g) => g.principal.id), ["pl-d", "pl-a", "pl-b", "pl-c"], `pages of ${limit}`)
          assert.strictEqual(pages.length, Math.ceil(4 / limit))
        }
      }))

    it.effect("answers the grants on given targets and those of given principals in one organization", () =>
      Effect.gen(function*() {
        const repo = yield* PermissionsRepo
        yield* repo.put("pp-org", space("pp-s"), [user("pp-u"), team("pp-t")], "edit", at(1))
        yield* repo.put("pp-org", collection("pp-c"), [team("pp-t")], "review", at(1))
        yield* repo.put("pp-org", space("pp-s2"), [user("pp-other")], "read", at(1))
        yield* repo.put("pp-org-2", space("pp-x"), [user("pp-u")], "admin", at(1))
        assert.deepStrictEqual(sorted(yield* repo.onTargets([space("pp-s"), collection("pp-c")])), [
          "collection:pp-c team:pp-t review",
          "space:pp-s team:pp-t edit",
          "space:pp-s user:pp-u edit"
        ])
        assert.deepStrictEqual(yield* repo.onTargets([]), [])
        assert.deepStrictEqual(sorted(yield* repo.ofPrincipals("pp-org", [user("pp-u"), team("pp-t")])), [
          "collection:pp-c team:pp-t review",
          "space:pp-s team:pp-t edit",
          "space:pp-s user:pp-u edit"
        ])
        // A user id is not a team id.
        assert.deepStrictEqual(yield* repo.ofPrincipals("pp-org", [team("pp-u")]), [])
        assert.deepStrictEqual(yield* repo.ofPrincipals("pp-org", []), [])
        assert.deepStrictEqual(sorted(yield* repo.ofPrincipals("pp-org-2", [user("pp-u")])), ["space:pp-x user:pp-u admin"])
      }))

    it.effect("removes one grant, a target's grants, and a principal's grants in one organization", () =>
      Effect.gen(function*() {
        const repo = yield* PermissionsRepo
        yield* repo.put("pr-org", space("pr-s"), [user("pr-u"), user("pr-v"), team("pr-t")], "edit", at(1))
        yield* repo.put("pr-org", space("pr-s2"), [user("pr-u"), team("pr-t")], "read", at(1))
        yield* repo.put("pr-org-2", space("pr-x"), [user("pr-u")], "read", at(1))
        assert.isTrue(yield* repo.remove(space("pr-s"), user("pr-v")))
        assert.isFalse(yield* repo.remove(space("pr-s"), user("pr-v")))
        yield* repo.removePrincipal("pr-org", user("pr-u"))
        assert.deepStrictEqual(sorted(yield* repo.onTargets([space("pr-s"), space("pr-s2"), space("pr-x")])), [
          "space:pr-s team:pr-t edit",
          "space:pr-s2 team:pr-t read",
          "space:pr-x user:pr-u read"
        ])
        yield* repo.removeTarget(space("pr-s"))
        assert.deepStrictEqual(sorted(yield* repo.onTargets([space("pr-s"), space("pr-s2")])), ["space:pr-s2 team:pr-t read"])
        yield* repo.removePrincipal("pr-org", team("pr-t"))
        assert.deepStrictEqual(yield* repo.onTargets([space("pr-s2")]), [])
      }))

    it.effect("counts the spaces each principal was invited to, not the collections", () =>
      Effect.gen(function*() {
        const repo = yield* PermissionsRepo
        yield* repo.put("pc-org", space("pc-s1"), [user("pc-u"), team("pc-t")], "edit", at(1))
        yield* repo.put("pc-org", space("pc-s2"), [user("pc-u")], "read", at(1))
        yield* repo.put("pc-org", collection("pc-c"), [user("pc-u"), team("pc-t")], "read", at(1))
        yield* repo.put("pc-org-2", space("pc-s3"), [user("pc-u")], "read", at(1))
        const users = yield* repo.countSpaces("pc-org", "user", ["pc-u", "pc-nobody"])
        assert.deepStrictEqual(Array.from(users), [["pc-u", 2]])
        assert.deepStrictEqual(Array.from(yield* repo.countSpaces("pc-org", "team", ["pc-t", "pc-u"])), [["pc-t", 1]])
        assert.strictEqual((yield* repo.countSpaces("pc-org", "team", [])).size, 0)
      }))
  })
