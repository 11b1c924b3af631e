/**
 * The spaces and collections use cases over the memory adapters, with a clock the tests move
 * (the trash's 7 days) and memberships the tests choose.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { Errors, Ids, Transactor } from "@quire/kernel"
import { as, errorMessage as messageOf, errorTag as tag, memberRoles } from "@quire/testkit"
import { Collections, ContentLayers, MainObservers, Memberships, ParsePool, RevisionsRepo, SpaceDependents, Spaces, SpacesRepo } from "../src/index.ts"
import type { Revision } from "../src/domain/Revision.ts"

const org = "org-1"
const otherOrg = "org-2"

/** Who is who: `admin` administers both organizations, `lead` edits in org-1 and administers org-2. */
const roles = memberRoles({
  [org]: { admin: "admin", editor: "edit", reader: "read", creator: "create", guest: null, lead: "edit" },
  [otherOrg]: { admin: "admin", creator: "create", lead: "admin" }
})

/** Counts how often the organization role is looked up. */
let lookups = 0
const countingMemberships = Layer.effect(
  Memberships,
  Effect.map(Effect.service(Memberships), (inner) =>
    Memberships.of({
      ...inner,
      roleOf: (organizationId, userId) => Effect.andThen(Effect.sync(() => lookups++), inner.roleOf(organizationId, userId))
    }))
).pipe(Layer.provide(Memberships.layerTest(roles)))

const layer = ContentLayers.layerServices.pipe(
  Layer.provideMerge(ContentLayers.layerReposMemory),
  // Sequential ids: records created at the same (test clock) instant are listed in creation order.
  Layer.provide([countingMemberships, SpaceDependents.layerNone, MainObservers.layerNone, Ids.Ids.layerTest, Transactor.Transactor.layerMemory, ParsePool.layerMainThread])
)


describe("Spaces", () => {
  it.effect("creates a space on an empty first revision, for callers who may create content", () =>
    Effect.gen(function*() {
      const spaces = yield* Spaces
      const revisions = yield* RevisionsRepo
      const created = yield* spaces.create(org, { title: "Handbook", emoji: "📘", language: "fr" }).pipe(as("creator"))
      assert.strictEqual(created.space.title, "Handbook")
      assert.strictEqual(created.space.defaultLevel, "inherit")
      assert.strictEqual(created.role, "create")
      const revision = Option.getOrThrow(yield* revisions.find(created.space.revisionId))
      assert.deepStrictEqual([revision.pages, revision.files, revision.variables, revision.parents, revision.type], [[], [], {}, [], "edits"])
      assert.strictEqual(revision.spaceId, created.space.id)
      assert.strictEqual(yield* tag(spaces.create(org, { title: "No" }).pipe(as("editor"))), "Forbidden")
      assert.strictEqual(yield* tag(spaces.create(org, { title: "No" }).pipe(as("outsider"))), "NotFound")
      assert.strictEqual(yield* tag(spaces.create(org, { title: "No", parent: "nope" }).pipe(as("admin"))), "InvalidInput")
    }).pipe(Effect.provide(layer)))

  it.effect("restores a deleted space within 7 days, and refuses after", () =>
    Effect.gen(function*() {
      const spaces = yield* Spaces
      const { space } = yield* spaces.create(org, { title: "Old" }).pipe(as("admin"))
      yield* spaces.remove(space.id).pipe(as("admin"))
      assert.strictEqual(yield* tag(spaces.get(space.id).pipe(as("admin"))), "NotFound")
      yield* TestClock.adjust("6 days")
      const restored = yield* spaces.restore(space.id).pipe(as("admin"))
      assert.isNull(restored.space.deletedAt)
      yield* spaces.remove(space.id).pipe(as("admin"))
      yield* TestClock.adjust("7 days")
      yield* TestClock.adjust("1 minute")
      const refused = yield* Effect.flip(spaces.restore(space.id).pipe(as("admin")))
      assert.instanceOf(refused, Errors.InvalidInput)
      assert.match(refused.message, /more than 7 days ago and can no longer be restored/)
    }).pipe(Effect.provide(layer)))

  it.effect("purges spaces deleted more than 7 days ago with their revisions, and keeps the others", () =>
    Effect.gen(function*() {
      const spaces = yield* Spaces
      const repo = yield* SpacesRepo
      const revisions = yield* RevisionsRepo
      const old = yield* spaces.create(org, { title: "Old" }).pipe(as("admin"))
      const recent = yield* spaces.create(org, { title: "Recent" }).pipe(as("admin"))
      const live = yield* spaces.create(org, { title: "Live" }).pipe(as("admin"))
      yield* spaces.remove(old.space.id).pipe(as("admin"))
      yield* TestClock.adjust("5 days")
      yield* spaces.remove(recent.space.id).pipe(as("admin"))
      yield* TestClock.adjust("3 days")
      assert.strictEqual(yield* spaces.purgeDeleted, 1)
      assert.isTrue(Option.isNone(yield* repo.find(old.space.id)))
      assert.isTrue(Option.isNone(yield* revisions.find(old.space.revisionId)))
      assert.isTrue(Option.isSome(yield* repo.find(recent.space.id)))
      assert.isTrue(Option.isSome(yield* revisions.find(recent.space.revisionId)))
      assert.isTrue(Option.isSome(yield* repo.find(live.space.id)))
      assert.strictEqual(yield* tag(spaces.restore(old.space.id).pipe(as("admin"))), "NotFound")
    }).pipe(Effect.provide(layer)))

  it.effect("decides roles by precedence: the space's level, then its collections', nearest first, then the organization's", () =>
    Effect.gen(function*() {
      const spaces = yield* Spaces
      const collections = yield* Collections
      const outer = yield* collections.create(org, { title: "Outer" }).pipe(as("admin"))
      const inner = yield* collections.create(org, { title: "Inner", parent: outer.collection.id }).pipe(as("admin"))
      const { space } = yield* spaces.create(org, { title: "Deep", parent: inner.collection.id }).pipe(as("admin"))
      const roleOf = (user: string) => Effect.map(spaces.get(space.id).pipe(as(user)), (a) => a.role)

      assert.strictEqual(yield* roleOf("editor"), "edit")
      yield* collections.update(outer.collection.id, { defaultLevel: "read" }).pipe(as("admin"))
      assert.strictEqual(yield* roleOf("editor"), "read")
      assert.strictEqual(yield* roleOf("creator"), "read")
      yield* collections.update(inner.collection.id, { defaultLevel: "comment" }).pipe(as("admin"))
      assert.strictEqual(yield* roleOf("editor"), "comment")
      yield* spaces.update(space.id, { defaultLevel: "review" }).pipe(as("admin"))
      assert.strictEqual(yield* roleOf("reader"), "review")
      yield* spaces.update(space.id, { defaultLevel: null }).pipe(as("admin"))
      assert.strictEqual(yield* tag(spaces.get(space.id).pipe(as("editor"))), "NotFound")
      assert.strictEqual(yield* roleOf("admin"), "admin")
      assert.strictEqual(yield* tag(spaces.get(space.id).pipe(as("guest"))), "NotFound")
    }).pipe(Effect.provide(layer)))

  it.effect("lists only what the caller can see, looking their role up once per listing", () =>
    Effect.gen(function*() {
      const spaces = yield* Spaces
      const collections = yield* Collections
      const hidden = yield* collections.create(org, { title: "Hidden" }).pipe(as("admin"))
      yield* collections.update(hidden.collection.id, { defaultLevel: null }).pipe(as("admin"))
      const titles: Array<string> = []
      for (let i = 0; i < 6; i++) {
        const parent = i % 2 === 0 ? {} : { parent: hidden.collection.id }
        titles.push((yield* spaces.create(org, { title: `S${i}`, ...parent }).pipe(as("admin"))).space.title)
      }
      lookups = 0
      const first = yield* spaces.list(org, { limit: 2 }).pipe(as("reader"))
      assert.strictEqual(lookups, 1)
      assert.deepStrictEqual(first.items.map((a) => a.space.title), ["S0", "S2"])
      const second = yield* spaces.list(org, { limit: 2, page: first.next! }).pipe(as("reader"))
      assert.deepStrictEqual(second.items.map((a) => a.space.title), ["S4"])
      assert.isUndefined(second.next)
      const all = yield* spaces.list(org, {}).pipe(as("admin"))
      assert.deepStrictEqual(all.items.map((a) => a.space.title), titles)
    }).pipe(Effect.provide(layer)))

  it.effect("moves spaces before and after siblings, and refuses a move that changes nothing", () =>
    Effect.gen(function*() {
      const spaces = yield* Spaces
      // The test clock stands still: every space is created at the same instant.
      const ids: Record<string, string> = {}
      for (const title of ["A", "B", "C", "D"]) ids[title] = (yield* spaces.create(org, { title }).pipe(as("admin"))).space.id
      const order = Effect.map(spaces.list(org, {}).pipe(as("admin")), (page) =>
        page.items.map((a) => a.space.title).filter((t) => t.length === 1))
      const initial = yield* order
      const [first, second, , last] = initial
      yield* spaces.move(ids[last!]!, { position: { before: { type: "space", space: ids[first!]! } } }).pipe(as("admin"))
      assert.deepStrictEqual(yield* order, [last, ...initial.slice(0, 3)])
      yield* spaces.move(ids[last!]!, { position: { after: { type: "space", space: ids[second!]! } } }).pipe(as("admin"))
      assert.deepStrictEqual(yield* order, [first, second, last, initial[2]])
      const nothing = yield* Effect.flip(
        spaces.move(ids[last!]!, { position: { after: { type: "space", space: ids[second!]! } } }).pipe(as("admin"))
      )
      assert.match(nothing.message, /would change nothing/)
      assert.strictEqual(
        yield* tag(spaces.move(ids[last!]!, { position: { before: { type: "space", space: "elsewhere" } } }).pipe(as("admin"))),
        "InvalidInput"
      )
    }).pipe(Effect.provide(layer)))

  it.effect("duplicates a space with a new revision sharing the source's pages and documents", () =>
    Effect.gen(function*() {
      const spaces = yield* Spaces
      const repo = yield* SpacesRepo
      const revisions = yield* RevisionsRepo
      const { space } = yield* spaces.create(org, { title: "A title that is exactly fifty characters long!!!!!" }).pipe(as("admin"))
      const content: Revision = {
        id: "rev-content",
        spaceId: space.id,
        parents: [space.revisionId],
        type: "edits",
        pages: [{ id: "p1", type: "document", title: "Intro", slug: "intro", document: "hash-1", createdAt: "2024-01-01T00:00:00.000Z", updatedAt: "2024-01-01T00:00:00.000Z", pages: [] }],
        files: [],
        variables: { v: "1" },
        git: null,
        createdAt: new Date(0)
      }
      yield* revisions.insert(content, new Map([["hash-1", "# Intro"]]))
      assert.isTrue(yield* repo.setRevision(space.id, space.revisionId, content.id, new Date(0)))
      const copy = yield* spaces.duplicate(space.id).pipe(as("admin"))
      assert.notStrictEqual(copy.space.id, space.id)
      assert.strictEqual(copy.space.title, "A title that is exactly fifty characters lo (copy)")
      const copied = Option.getOrThrow(yield* revisions.find(copy.space.revisionId))
      assert.strictEqual(copied.spaceId, copy.space.id)
      assert.deepStrictEqual(copied.pages, content.pages)
      assert.deepStrictEqual(copied.variables, content.variables)
      assert.deepStrictEqual(yield* revisions.documents(["hash-1"]), new Map([["hash-1", "# Intro"]]))
    }).pipe(Effect.provide(layer)))

  it.effect("transfers a space to an organization where the caller is an admin, and nowhere else", () =>
    Effect.gen(function*() {
      const spaces = yield* Spaces
      const { space } = yield* spaces.create(org, { title: "Moving" }).pipe(as("admin"))
      assert.strictEqual(yield* tag(spaces.transfer(space.id, org).pipe(as("admin"))), "InvalidInput")
      const mine = yield* spaces.create(org, { title: "Mine" }).pipe(as("creator"))
      yield* spaces.update(mine.space.id, { defaultLevel: "admin" }).pipe(as("admin"))
      assert.strictEqual(yield* tag(spaces.transfer(mine.space.id, otherOrg).pipe(as("creator"))), "InvalidInput")
      const moved = yield* spaces.transfer(space.id, otherOrg).pipe(as("admin"))
      assert.strictEqual(moved.space.organizationId, otherOrg)
      assert.isNull(moved.space.parentId)
    }).pipe(Effect.provide(layer)))
})

describe("Collections", () => {
  it.effect("refuses moves into itself, into a descendant, or that change nothing", () =>
    Effect.gen(function*() {
      const collections = yield* Collections
      const a = (yield* collections.create(org, { title: "A" }).pipe(as("admin"))).collection
      const b = (yield* collections.create(org, { title: "B", parent: a.id }).pipe(as("admin"))).collection
      assert.match(yield* messageOf(collections.move(a.id, { parent: a.id }).pipe(as("admin"))), /^parent: .*into itself/)
      assert.match(yield* messageOf(collections.move(a.id, { parent: b.id }).pipe(as("admin"))), /^parent: .*sub-collections/)
      assert.match(yield* messageOf(collections.move(b.id, { parent: a.id }).pipe(as("admin"))), /would change nothing/)
      assert.match(
        yield* messageOf(collections.move(b.id, { position: { before: { type: "collection", collection: a.id } } }).pipe(as("admin"))),
        /^position.before: /
      )
      const moved = yield* collections.move(b.id, { parent: null, position: { before: { type: "collection", collection: a.id } } }).pipe(
        as("admin")
      )
      assert.isNull(moved.collection.parentId)
      const top = yield* collections.list(org, { nested: false }, {}).pipe(as("admin"))
      assert.deepStrictEqual(top.items.map((c) => c.collection.title).filter((t) => t.length === 1), ["B", "A"])
    }).pipe(Effect.provide(layer)))

  it.effect("deletes a collection, moving its content up with the access it had", () =>
    Effect.gen(function*() {
      const collections = yield* Collections
      const spaces = yield* Spaces
      const parent = (yield* collections.create(org, { title: "Parent" }).pipe(as("admin"))).collection
      const doomed = (yield* collections.create(org, { title: "Doomed", parent: parent.id }).pipe(as("admin"))).collection
      yield* collections.update(doomed.id, { defaultLevel: "read" }).pipe(as("admin"))
      const child = (yield* collections.create(org, { title: "Child", parent: doomed.id }).pipe(as("admin"))).collection
      const { space } = yield* spaces.create(org, { title: "Inside", parent: doomed.id }).pipe(as("admin"))
      assert.strictEqual((yield* spaces.get(space.id).pipe(as("editor"))).role, "read")

      yield* collections.remove(doomed.id).pipe(as("admin"))
      assert.strictEqual(yield* tag(collections.get(doomed.id).pipe(as("admin"))), "NotFound")
      const after = yield* spaces.get(space.id).pipe(as("editor"))
      assert.strictEqual(after.space.parentId, parent.id)
      assert.strictEqual(after.role, "read")
      const movedChild = yield* collections.get(child.id).pipe(as("editor"))
      assert.strictEqual(movedChild.collection.parentId, parent.id)
      assert.strictEqual(movedChild.role, "read")
      yield* collections.remove(doomed.id).pipe(as("admin"))
      assert.strictEqual(yield* tag(collections.remove(parent.id).pipe(as("reader"))), "Forbidden")
    }).pipe(Effect.provide(layer)))

  it.effect("transfers a collection with everything inside, only for admins of all of it", () =>
    Effect.gen(function*() {
      const collections = yield* Collections
      const spaces = yield* Spaces
      const top = (yield* collections.create(org, { title: "Top" }).pipe(as("admin"))).collection
      const sub = (yield* collections.create(org, { title: "Sub", parent: top.id }).pipe(as("admin"))).collection
      const { space } = yield* spaces.create(org, { title: "Inside", parent: sub.id }).pipe(as("admin"))
      assert.strictEqual(yield* tag(collections.transfer(top.id, org).pipe(as("admin"))), "InvalidInput")

      yield* collections.update(top.id, { defaultLevel: "admin" }).pipe(as("admin"))
      yield* spaces.update(space.id, { defaultLevel: "read" }).pipe(as("admin"))
      const notAdminThere = yield* Effect.flip(collections.transfer(top.id, otherOrg).pipe(as("creator")))
      assert.match(notAdminThere.message, /^organization: you must be an admin/)
      const cannot = yield* Effect.flip(collections.transfer(top.id, otherOrg).pipe(as("lead")))
      assert.match(cannot.message, /cannot be moved/)

      const moved = yield* collections.transfer(top.id, otherOrg).pipe(as("admin"))
      assert.strictEqual(moved.collection.organizationId, otherOrg)
      assert.strictEqual((yield* collections.get(sub.id).pipe(as("admin"))).collection.organizationId, otherOrg)
      const inside = yield* spaces.get(space.id).pipe(as("admin"))
      assert.strictEqual(inside.space.organizationId, otherOrg)
      assert.strictEqual(inside.space.parentId, sub.id)
      assert.strictEqual(yield* tag(spaces.get(space.id).pipe(as("editor"))), "NotFound")
    }).pipe(Effect.provide(layer)))
})
