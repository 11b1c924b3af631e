/** The behaviour every ShareLinksRepo adapter must have. */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect } from "effect"
import { allIds, assertNone, at, some } from "@quire/testkit"
import type { ShareLink } from "../../src/domain/ShareLink.ts"
import { previewKey } from "../../src/ShareLinks.ts"
import { ShareLinksRepo } from "../../src/ShareLinksRepo.ts"

const link = (id: string, siteId: string, overrides: Partial<ShareLink> = {}): ShareLink => ({
  id,
  siteId,
  name: `Link ${id}`,
  active: true,
  secret: `secret-${id}`,
  sealedSecret: `v1.sealed-${id}`,
  createdAt: at(0),
  ...overrides
})

export const shareLinksRepoContract = (it: Vitest.MethodsNonLive<ShareLinksRepo>) =>
  describe("ShareLinksRepo", () => {
    it.effect("stores and finds a link, by id and by its site and secret", () =>
      Effect.gen(function*() {
        const repo = yield* ShareLinksRepo
        const full = link("lf-1", "lf-site", { name: "Partners «β»", active: false, createdAt: at(4) })
        yield* repo.insert(full)
        assert.deepStrictEqual(some(yield* repo.find("lf-1")), full)
        assert.deepStrictEqual(some(yield* repo.findBySecret("lf-site", "secret-lf-1")), full)
        assertNone(yield* repo.findBySecret("lf-other-site", "secret-lf-1"))
        assertNone(yield* repo.findBySecret("lf-site", "secret-lf-2"))
        assertNone(yield* repo.find("lf-missing"))
      }))

    it.effect("lists a site's links oldest first, page by page", () =>
      Effect.gen(function*() {
        const repo = yield* ShareLinksRepo
        yield* repo.insert(link("ll-c", "ll-site", { createdAt: at(3) }))
        yield* repo.insert(link("ll-b", "ll-site", { createdAt: at(1) }))
        yield* repo.insert(link("ll-a", "ll-site", { createdAt: at(1) }))
        yield* repo.insert(link("ll-x", "ll-other-site"))
        assert.deepStrictEqual(yield* allIds((after) => repo.list("ll-site", after, 2)), ["ll-a", "ll-b", "ll-c"])
        assert.deepStrictEqual(yield* allIds((after) => repo.list("ll-site", after, 1)), ["ll-a", "ll-b", "ll-c"])
      }))

    it.effect("updates name and active, and removes one link or a site's", () =>
      Effect.gen(function*() {
        const repo = yield* ShareLinksRepo
        yield* repo.insert(link("lu-1", "lu-site"))
        yield* repo.insert(link("lu-2", "lu-site"))
        yield* repo.insert(link("lu-3", "lu-other-site"))
        assert.deepStrictEqual(some(yield* repo.update("lu-1", { active: false })), link("lu-1", "lu-site", { active: false }))
        assert.deepStrictEqual(some(yield* repo.update("lu-1", { name: "Renamed" })), link("lu-1", "lu-site", { active: false, name: "Renamed" }))
        assertNone(yield* repo.update("lu-missing", { active: false }))
        yield* repo.remove("lu-2")
        assertNone(yield* repo.find("lu-2"))
        yield* repo.removeSite("lu-site")
        assertNone(yield* repo.find("lu-1"))
        some(yield* repo.find("lu-3"))
      }))

    it.effect("seals the links stored with their secret in clear, each once", () =>
      Effect.gen(function*() {
        const repo = yield* ShareLinksRepo
        yield* repo.insert(link("ls-old", "ls-site", { secret: "clear-secret", sealedSecret: null }))
        yield* repo.insert(link("ls-new", "ls-site"))
        const seen: Array<string> = []
        const seal = (secret: string) => {
          seen.push(secret)
          return { secret: `hash-${secret}`, sealedSecret: `v1.sealed-${secret}` }
        }
        assert.strictEqual(yield* repo.sealLegacy(seal), 1)
        assert.deepStrictEqual(seen, ["clear-secret"])
        assertNone(yield* repo.findBySecret("ls-site", "clear-secret"))
        assert.deepStrictEqual(some(yield* repo.findBySecret("ls-site", "hash-clear-secret")), link("ls-old", "ls-site", { secret: "hash-clear-secret", sealedSecret: "v1.sealed-clear-secret" }))
        assert.deepStrictEqual(some(yield* repo.find("ls-new")), link("ls-new", "ls-site"))
        assert.strictEqual(yield* repo.sealLegacy(seal), 0)
        yield* repo.removeSite("ls-site")
      }))
    it.effect("removing a site removes its change requests' preview links, and no other site's", () =>
      Effect.gen(function*() {
        const repo = yield* ShareLinksRepo
        yield* repo.insert(link("lp-1", previewKey("lp-site", "cr-1")))
        yield* repo.insert(link("lp-2", previewKey("lp-site-2", "cr-1")))
        yield* repo.insert(link("lp-3", "lp-site~other"))
        yield* repo.removeSite("lp-site")
        assertNone(yield* repo.find("lp-1"))
        some(yield* repo.find("lp-2"))
        some(yield* repo.find("lp-3"))
        yield* repo.removeSite("lp-site-2")
        yield* repo.removeSite("lp-site~other")
      }))
  })
