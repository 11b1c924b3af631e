/** The behaviour every SiteStructureRepo adapter must have. */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { Transactor } from "@quire/kernel"
import { assertNone, at, some } from "@quire/testkit"
import type { SiteSection, SiteSectionGroup, SiteSpace } from "../../src/domain/Structure.ts"
import { SiteStructureRepo } from "../../src/SiteStructureRepo.ts"

const section = (id: string, siteId: string, overrides: Partial<SiteSection> = {}): SiteSection => ({
  id,
  siteId,
  title: `Section ${id}`,
  description: null,
  path: id,
  condition: null,
  icon: null,
  groupId: null,
  position: 1024,
  defaultSiteSpaceId: null,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

const group = (id: string, siteId: string, overrides: Partial<SiteSectionGroup> = {}): SiteSectionGroup => ({
  id,
  siteId,
  title: `Group ${id}`,
  icon: null,
  position: 1024,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

const siteSpace = (id: string, siteId: string, overrides: Partial<SiteSpace> = {}): SiteSpace => ({
  id,
  siteId,
  sectionId: null,
  spaceId: `space-${id}`,
  path: id,
  condition: null,
  position: 1024,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

const ids = (items: ReadonlyArray<{ readonly id: string }>) => items.map((i) => i.id)

export const siteStructureRepoContract = (it: Vitest.MethodsNonLive<SiteStructureRepo | Transactor.Transactor>) =>
  describe("SiteStructureRepo", () => {
    it.effect("stores every field of sections, groups and site spaces, and lists a site's in order", () =>
      Effect.gen(function*() {
        const repo = yield* SiteStructureRepo
        const full = section("ca-full", "ca-site", {
          title: "Guides «all»",
          description: "Everything",
          path: "guides",
          condition: "visitor.claims.beta",
          icon: "book",
          groupId: "ca-g",
          position: 512.5,
          defaultSiteSpaceId: "ca-ss",
          createdAt: at(1),
          updatedAt: at(2)
        })
        yield* repo.insertSection(full)
        yield* repo.insertSection(section("ca-b", "ca-site", { position: 2048 }))
        yield* repo.insertSection(section("ca-a", "ca-site", { position: 2048 }))
        yield* repo.insertSection(section("ca-other", "ca-other-site"))
        assert.deepStrictEqual(ids(yield* repo.sections("ca-site")), ["ca-full", "ca-a", "ca-b"])
        assert.deepStrictEqual((yield* repo.sections("ca-site"))[0], full)
        const g = group("ca-g", "ca-site", { icon: "star", position: 3000, createdAt: at(4), updatedAt: at(5) })
        yield* repo.insertGroup(g)
        yield* repo.insertGroup(group("ca-g0", "ca-site", { position: 1 }))
        assert.deepStrictEqual(yield* repo.groups("ca-site"), [group("ca-g0", "ca-site", { position: 1 }), g])
        const s = siteSpace("ca-ss", "ca-site", { sectionId: "ca-full", condition: "true", position: 7, createdAt: at(6), updatedAt: at(7) })
        yield* repo.insertSiteSpace(s)
        yield* repo.insertSiteSpace(siteSpace("ca-root", "ca-site", { position: 1 }))
        assert.deepStrictEqual(ids(yield* repo.siteSpaces("ca-site")), ["ca-root", "ca-ss"])
        assert.deepStrictEqual((yield* repo.siteSpaces("ca-site"))[1], s)
      }))

    it.effect("updates the fields of a patch only, nulls included, and answers none for missing records", () =>
      Effect.gen(function*() {
        const repo = yield* SiteStructureRepo
        yield* repo.insertSection(section("cu-s", "cu-site", { condition: "true", groupId: "g" }))
        const updated = some(yield* repo.updateSection("cu-s", { condition: null, groupId: null, title: "T", updatedAt: at(9) }))
        assert.deepStrictEqual(updated, section("cu-s", "cu-site", { title: "T", updatedAt: at(9) }))
        assert.deepStrictEqual((yield* repo.sections("cu-site"))[0], updated)
        yield* repo.insertGroup(group("cu-g", "cu-site"))
        assert.strictEqual(some(yield* repo.updateGroup("cu-g", { icon: "x" })).icon, "x")
        yield* repo.insertSiteSpace(siteSpace("cu-ss", "cu-site"))
        assert.deepStrictEqual(some(yield* repo.updateSiteSpace("cu-ss", { sectionId: "cu-s", spaceId: "other", path: "p" })), siteSpace("cu-ss", "cu-site", {
          sectionId: "cu-s",
          spaceId: "other",
          path: "p"
        }))
        assertNone(yield* repo.updateSection("cu-missing", { title: "x" }))
        assertNone(yield* repo.updateGroup("cu-missing", { title: "x" }))
        assertNone(yield* repo.updateSiteSpace("cu-missing", { path: "x" }))
      }))

    it.effect("removes records one by one and a whole site's at once", () =>
      Effect.gen(function*() {
        const repo = yield* SiteStructureRepo
        yield* repo.insertSection(section("cr-s1", "cr-site"))
        yield* repo.insertSection(section("cr-s2", "cr-site"))
        yield* repo.insertGroup(group("cr-g", "cr-site"))
        yield* repo.insertSiteSpace(siteSpace("cr-ss1", "cr-site", { sectionId: "cr-s1" }))
        yield* repo.insertSiteSpace(siteSpace("cr-ss2", "cr-site", { sectionId: "cr-s2" }))
        yield* repo.insertSection(section("cr-keep", "cr-other-site"))
        yield* repo.removeSection("cr-s2")
        yield* repo.removeSiteSpace("cr-ss2")
        assert.deepStrictEqual(ids(yield* repo.sections("cr-site")), ["cr-s1"])
        assert.deepStrictEqual(ids(yield* repo.siteSpaces("cr-site")), ["cr-ss1"])
        yield* repo.removeSite("cr-site")
        assert.deepStrictEqual(ids(yield* repo.sections("cr-site")), [])
        assert.deepStrictEqual(ids(yield* repo.groups("cr-site")), [])
        assert.deepStrictEqual(ids(yield* repo.siteSpaces("cr-site")), [])
        assert.deepStrictEqual(ids(yield* repo.sections("cr-other-site")), ["cr-keep"])
        yield* repo.removeGroup("cr-missing")
      }))

    it.effect("finds the site spaces of a space in every site, and counts site spaces per site", () =>
      Effect.gen(function*() {
        const repo = yield* SiteStructureRepo
        yield* repo.insertSiteSpace(siteSpace("cs-1", "cs-site-a", { spaceId: "cs-space" }))
        yield* repo.insertSiteSpace(siteSpace("cs-2", "cs-site-b", { spaceId: "cs-space", position: 2000 }))
        yield* repo.insertSiteSpace(siteSpace("cs-3", "cs-site-b", { spaceId: "cs-other" }))
        assert.deepStrictEqual(ids(yield* repo.siteSpacesOfSpace("cs-space")), ["cs-1", "cs-2"])
        const counts = yield* repo.countSiteSpaces(["cs-site-a", "cs-site-b", "cs-site-none"])
        assert.deepStrictEqual(Object.fromEntries(counts), { "cs-site-a": 1, "cs-site-b": 2, "cs-site-none": 0 })
        assert.strictEqual((yield* repo.countSiteSpaces([])).size, 0)
      }))

    it.effect("rolls back the writes of a failed transaction", () =>
      Effect.gen(function*() {
        const repo = yield* SiteStructureRepo
        const transactor = yield* Transactor.Transactor
        yield* repo.insertSection(section("ct-s", "ct-site"))
        const exit = yield* Effect.exit(transactor.transaction(Effect.gen(function*() {
          yield* repo.insertSiteSpace(siteSpace("ct-ss", "ct-site"))
          yield* repo.updateSection("ct-s", { title: "Changed" })
          yield* repo.removeSite("ct-site")
          return yield* Effect.fail("boom")
        })))
        assert.isTrue(Exit.isFailure(exit))
        assert.deepStrictEqual(yield* repo.sections("ct-site"), [section("ct-s", "ct-site")])
        assert.deepStrictEqual(yield* repo.siteSpaces("ct-site"), [])
      }))
  })
