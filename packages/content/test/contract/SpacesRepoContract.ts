/** The behaviour every SpacesRepo adapter must have. */
import { assert, describe } from "@effect/vitest"
import { Effect } from "effect"
import { allPages, assertNone, at, some } from "@quire/testkit"
import type { Space } from "../../src/domain/Space.ts"
import { type SpaceQuery, SpacesRepo } from "../../src/SpacesRepo.ts"
import { makeSpace, type ReposTest, shortIds } from "./Fixtures.ts"

/**
 * Seeds `${p}-org` with spaces whose order is not their insertion order, ties on position
 * broken by creation then id, and one space of `${p}-other`:
 *
 *   a  root  position 1024          created 10
 *   b  root  position 512.5         created 20
 *   c  col   position 1024          created 5
 *   d  root  position 1024          created 10   (same position and instant as a: id decides)
 *   e  col   position 1.7e12        created 30
 *   f  root  position 0             created 40   in the trash
 */
const seedSpaces = Effect.fnUntraced(function*(p: string) {
  const spaces = yield* SpacesRepo
  const org = `${p}-org`
  const space = (id: string, overrides: Partial<Space>) => makeSpace(`${p}-${id}`, org, overrides)
  yield* spaces.insert(space("e", { parentId: `${p}-col`, position: 1.7e12, createdAt: at(30) }))
  yield* spaces.insert(space("d", { position: 1024, createdAt: at(10) }))
  yield* spaces.insert(space("a", { position: 1024, createdAt: at(10) }))
  yield* spaces.insert(space("f", { position: 0, createdAt: at(40), deletedAt: at(50) }))
  yield* spaces.insert(space("c", { parentId: `${p}-col`, position: 1024, createdAt: at(5) }))
  yield* spaces.insert(space("b", { position: 512.5, createdAt: at(20) }))
  yield* spaces.insert(makeSpace(`${p}-x`, `${p}-other`))
  return {
    list: (query: Omit<SpaceQuery, "organizationId">) =>
      Effect.map(spaces.list({ organizationId: org, ...query }, undefined, 100), (page) => shortIds(p, page.items)),
    pages: (query: Omit<SpaceQuery, "organizationId">, limit: number) =>
      allPages((after) => spaces.list({ organizationId: org, ...query }, after, limit))
  }
})

/** Far in the past, so that other tests' trashed spaces (deleted in 2024) come after. */
const old = (ms: number) => new Date(Date.UTC(2000, 0, 1) + ms)

export const spacesRepoContract = (it: ReposTest) =>
  describe("SpacesRepo", () => {
    it.effect("stores and finds every field of a space, in the trash or not", () =>
      Effect.gen(function*() {
        const spaces = yield* SpacesRepo
        const full = makeSpace("s-store-1", "s-store-org", {
          parentId: "s-store-col",
          title: "Handbook 📘",
          emoji: "1f4d8",
          visibility: "in-collection",
          editMode: "locked",
          defaultLevel: "comment",
          language: "fr",
          mergeRules: { type: "rules", rules: [{ rule: "require_at_least_one_approved_review" }, { rule: "allow_bypass", users: ["u1"] }] },
          position: 1234.5678,
          createdAt: at(1),
          updatedAt: at(2),
          deletedAt: at(3)
        })
        const noAccess = makeSpace("s-store-2", "s-store-org", { defaultLevel: null })
        yield* spaces.insert(full)
        yield* spaces.insert(noAccess)
        assert.deepStrictEqual(some(yield* spaces.find("s-store-1")), full)
        assert.deepStrictEqual(some(yield* spaces.find("s-store-2")), noAccess)
        assertNone(yield* spaces.find("s-store-missing"))
      }))

    it.effect("lists by position, then creation, then id, within an organization and a parent", () =>
      Effect.gen(function*() {
        const { list } = yield* seedSpaces("sl")
        assert.deepStrictEqual(yield* list({}), ["b", "c", "a", "d", "e"])
        assert.deepStrictEqual(yield* list({ parentId: null }), ["b", "a", "d"])
        assert.deepStrictEqual(yield* list({ parentId: "sl-col" }), ["c", "e"])
        assert.deepStrictEqual(yield* list({ parentId: "sl-nothing" }), [])
        assert.deepStrictEqual(yield* list({ includeDeleted: true }), ["f", "b", "c", "a", "d", "e"])
        assert.deepStrictEqual(yield* list({ parentId: null, includeDeleted: true }), ["f", "b", "a", "d"])
        assert.deepStrictEqual(yield* list({ order: "desc" }), ["e", "d", "a", "c", "b"])
      }))

    it.effect("pages through a listing with cursors, each space once, in both directions", () =>
      Effect.gen(function*() {
        const { pages } = yield* seedSpaces("sp")
        for (const limit of [1, 2, 3]) {
          const asc = yield* pages({}, limit)
          assert.deepStrictEqual(shortIds("sp", asc.flat()), ["b", "c", "a", "d", "e"], `pages of ${limit}`)
          assert.strictEqual(asc.length, Math.ceil(5 / limit))
          const desc = yield* pages({ order: "desc" }, limit)
          assert.deepStrictEqual(shortIds("sp", desc.flat()), ["e", "d", "a", "c", "b"], `pages of ${limit}, descending`)
        }
        const root = yield* pages({ parentId: null }, 2)
        assert.deepStrictEqual(root.map((items) => shortIds("sp", items)), [["b", "a"], ["d"]])
      }))

    it.effect("breaks ties on ids by code point, as PostgreSQL's COLLATE \"C\" does, pages included", () =>
      Effect.gen(function*() {
        const spaces = yield* SpacesRepo
        const org = "su-org"
        // 'Ａ' (U+FF21) is one UTF-16 unit above the surrogates of '😀' (U+1F600): code points put it first.
        for (const id of ["😀", "Ａ", "z"]) yield* spaces.insert(makeSpace(`su-${id}`, org, { position: 1, createdAt: at(1) }))
        const list = (order: "asc" | "desc", limit: number) =>
          Effect.map(allPages((after) => spaces.list({ organizationId: org, order }, after, limit)), (pages) => shortIds("su", pages.flat()))
        for (const limit of [1, 2, 3]) {
          assert.deepStrictEqual(yield* list("asc", limit), ["z", "Ａ", "😀"], `pages of ${limit}`)
          assert.deepStrictEqual(yield* list("desc", limit), ["😀", "Ａ", "z"], `pages of ${limit}, descending`)
        }
      }))

    it.effect("updates the given fields only, and answers none for an unknown space", () =>
      Effect.gen(function*() {
        const spaces = yield* SpacesRepo
        const space = makeSpace("s-update", "s-update-org", { parentId: "s-update-col", language: "en", defaultLevel: "edit" })
        yield* spaces.insert(space)
        const changed = some(yield* spaces.update("s-update", {
          title: "Renamed",
          emoji: "🎉",
          editMode: "locked",
          defaultLevel: null,
          language: null,
          parentId: null,
          position: 42.25,
          deletedAt: at(7),
          updatedAt: at(8)
        }))
        const expected: Space = {
          ...space,
          title: "Renamed",
          emoji: "🎉",
          editMode: "locked",
          defaultLevel: null,
          language: null,
          parentId: null,
          position: 42.25,
          deletedAt: at(7),
          updatedAt: at(8)
        }
        assert.deepStrictEqual(changed, expected)
        assert.deepStrictEqual(some(yield* spaces.find("s-update")), expected)
        const moved = some(yield* spaces.update("s-update", {
          organizationId: "s-update-org-2",
          visibility: "public",
          defaultLevel: "inherit",
          deletedAt: null
        }))
        assert.deepStrictEqual(moved, { ...expected, organizationId: "s-update-org-2", visibility: "public", defaultLevel: "inherit", deletedAt: null })
        assert.deepStrictEqual(some(yield* spaces.update("s-update", {})), moved)
        const ruled = some(yield* spaces.update("s-update", { mergeRules: { type: "rules", rules: [{ rule: "require_specific_reviewers", users: ["a", "b"] }] } }))
        assert.deepStrictEqual(ruled, { ...moved, mergeRules: { type: "rules", rules: [{ rule: "require_specific_reviewers", users: ["a", "b"] }] } })
        assert.deepStrictEqual(some(yield* spaces.update("s-update", { mergeRules: { type: "none" } })), { ...moved, mergeRules: { type: "none" } })
        assertNone(yield* spaces.update("s-update-missing", { title: "x" }))
      }))

    it.effect("moves the revision pointer only from the expected revision", () =>
      Effect.gen(function*() {
        const spaces = yield* SpacesRepo
        yield* spaces.insert(makeSpace("s-rev", "s-rev-org", { revisionId: "r1" }))
        assert.isTrue(yield* spaces.setRevision("s-rev", "r1", "r2", at(5)))
        assert.isFalse(yield* spaces.setRevision("s-rev", "r1", "r3", at(6)))
        const space = some(yield* spaces.find("s-rev"))
        assert.strictEqual(space.revisionId, "r2")
        assert.deepStrictEqual(space.updatedAt, at(5))
        assert.isFalse(yield* spaces.setRevision("s-rev-missing", "r1", "r2", at(5)))
      }))

    it.effect("lists spaces deleted before an instant, oldest deletion first, and removes them", () =>
      Effect.gen(function*() {
        const spaces = yield* SpacesRepo
        yield* spaces.insert(makeSpace("s-purge-b", "s-purge-org", { deletedAt: old(2) }))
        yield* spaces.insert(makeSpace("s-purge-a", "s-purge-org", { deletedAt: old(1) }))
        yield* spaces.insert(makeSpace("s-purge-c", "s-purge-org", { deletedAt: old(3) }))
        yield* spaces.insert(makeSpace("s-purge-live", "s-purge-org"))
        const before = (limit: number) =>
          Effect.map(spaces.listDeletedBefore(old(3), limit), (items) => items.map((s) => s.id))
        assert.deepStrictEqual(yield* before(10), ["s-purge-a", "s-purge-b"])
        assert.deepStrictEqual(yield* before(1), ["s-purge-a"])
        yield* spaces.remove("s-purge-a")
        assertNone(yield* spaces.find("s-purge-a"))
        assert.deepStrictEqual(yield* before(10), ["s-purge-b"])
        yield* spaces.remove("s-purge-missing")
      }))
  })
