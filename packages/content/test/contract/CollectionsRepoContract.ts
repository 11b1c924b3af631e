/** The behaviour every CollectionsRepo adapter must have. */
import { assert, describe } from "@effect/vitest"
import { Effect } from "effect"
import { allPages, assertNone, at, some } from "@quire/testkit"
import { CollectionsRepo } from "../../src/CollectionsRepo.ts"
import type { Collection } from "../../src/domain/Space.ts"
import { makeCollection, type ReposTest, shortIds } from "./Fixtures.ts"

/**
 * Seeds `${p}-org` with a tree of collections:
 *
 *   a  root  position 2048   created 1
 *   b  root  position 1024   created 2
 *   c  in a  position 1024   created 3
 *   d  in c  position 1024   created 3
 *   e  in a  position 1024   created 2   (before c: same position, earlier)
 */
const seedTree = Effect.fnUntraced(function*(p: string) {
  const collections = yield* CollectionsRepo
  const org = `${p}-org`
  const collection = (id: string, overrides: Partial<Collection>) => makeCollection(`${p}-${id}`, org, overrides)
  yield* collections.insert(collection("d", { parentId: `${p}-c`, position: 1024, createdAt: at(3), defaultLevel: "read" }))
  yield* collections.insert(collection("c", { parentId: `${p}-a`, position: 1024, createdAt: at(3), defaultLevel: null }))
  yield* collections.insert(collection("a", { position: 2048, createdAt: at(1), defaultLevel: "edit" }))
  yield* collections.insert(collection("b", { position: 1024, createdAt: at(2) }))
  yield* collections.insert(collection("e", { parentId: `${p}-a`, position: 1024, createdAt: at(2) }))
  yield* collections.insert(makeCollection(`${p}-x`, `${p}-other`))
  return { org, id: (short: string) => `${p}-${short}` }
})

export const collectionsRepoContract = (it: ReposTest) =>
  describe("CollectionsRepo", () => {
    it.effect("stores and finds every field of a collection", () =>
      Effect.gen(function*() {
        const collections = yield* CollectionsRepo
        const full = makeCollection("c-store-1", "c-store-org", {
          parentId: "c-store-parent",
          title: "Guides",
          description: "How we work",
          defaultLevel: "review",
          position: 99.5,
          createdAt: at(1),
          updatedAt: at(2)
        })
        const noAccess = makeCollection("c-store-2", "c-store-org", { defaultLevel: null })
        yield* collections.insert(full)
        yield* collections.insert(noAccess)
        assert.deepStrictEqual(some(yield* collections.find("c-store-1")), full)
        assert.deepStrictEqual(some(yield* collections.find("c-store-2")), noAccess)
        assertNone(yield* collections.find("c-store-missing"))
      }))

    it.effect("answers a collection's ancestry, nearest first", () =>
      Effect.gen(function*() {
        const collections = yield* CollectionsRepo
        const { id } = yield* seedTree("ca")
        const chain = yield* collections.ancestry(id("d"))
        assert.deepStrictEqual(chain.map((c) => c.id), [id("d"), id("c"), id("a")])
        assert.deepStrictEqual(chain.map((c) => c.defaultLevel), ["read", null, "edit"])
        assert.deepStrictEqual((yield* collections.ancestry(id("b"))).map((c) => c.id), [id("b")])
        assert.deepStrictEqual(yield* collections.ancestry("ca-missing"), [])
      }))

    it.effect("lists by position, then creation, then id, at every level or under one parent, page by page", () =>
      Effect.gen(function*() {
        const collections = yield* CollectionsRepo
        const { org, id } = yield* seedTree("cl")
        const list = (parentId?: string | null) =>
          Effect.map(
            collections.list({ organizationId: org, ...(parentId === undefined ? {} : { parentId }) }, undefined, 100),
            (page) => shortIds("cl", page.items)
          )
        assert.deepStrictEqual(yield* list(), ["b", "e", "c", "d", "a"])
        assert.deepStrictEqual(yield* list(null), ["b", "a"])
        assert.deepStrictEqual(yield* list(id("a")), ["e", "c"])
        assert.deepStrictEqual(yield* list(id("b")), [])
        for (const limit of [1, 2, 3]) {
          const pages = yield* allPages((after) => collections.list({ organizationId: org }, after, limit))
          assert.deepStrictEqual(shortIds("cl", pages.flat()), ["b", "e", "c", "d", "a"], `pages of ${limit}`)
          assert.strictEqual(pages.length, Math.ceil(5 / limit))
        }
      }))

    it.effect("updates the given fields only, removes, and answers none for an unknown collection", () =>
      Effect.gen(function*() {
        const collections = yield* CollectionsRepo
        const collection = makeCollection("c-update", "c-update-org", { parentId: "c-update-parent", description: "old" })
        yield* collections.insert(collection)
        const changed = some(yield* collections.update("c-update", {
          title: "New",
          description: null,
          defaultLevel: null,
          parentId: null,
          organizationId: "c-update-org-2",
          position: 3.5,
          updatedAt: at(9)
        }))
        const expected: Collection = {
          ...collection,
          title: "New",
          description: null,
          defaultLevel: null,
          parentId: null,
          organizationId: "c-update-org-2",
          position: 3.5,
          updatedAt: at(9)
        }
        assert.deepStrictEqual(changed, expected)
        assert.deepStrictEqual(some(yield* collections.update("c-update", { defaultLevel: "admin" })).defaultLevel, "admin")
        assertNone(yield* collections.update("c-update-missing", { title: "x" }))
        yield* collections.remove("c-update")
        assertNone(yield* collections.find("c-update"))
        yield* collections.remove("c-update-missing")
      }))
  })
