/**
 * Access precedence with explicit grants (Access.effectiveRole), and the permissions use cases over
 * the memory adapters, with memberships and teams the tests choose.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { Ids, Transactor } from "@quire/kernel"
import { as, errorMessage, errorTag as tag, memberRoles } from "@quire/testkit"
import { Access, Collections, ContentLayers, ContentPermissions, MainObservers, Memberships, ParsePool, SpaceDependents, Spaces } from "../src/index.ts"

const org = "org-1"
const otherOrg = "org-2"

const roles = memberRoles({
  [org]: { admin: "admin", editor: "edit", reader: "read", creator: "create", guest: null, writer: "read", lead: "comment" },
  [otherOrg]: { admin: "admin", stranger: "edit" }
})

/** `writers` holds writer and guest; `leads` holds lead. */
const teams = new Map([[`${org}/writers`, ["writer", "guest"]], [`${org}/leads`, ["lead"]], [`${otherOrg}/others`, ["stranger"]]])

/** Counts how often the organization role and the teams of a user are looked up. */
let lookups = { roles: 0, teams: 0 }
const countingMemberships = Layer.effect(
  Memberships,
  Effect.map(Effect.service(Memberships), (inner) =>
    Memberships.of({
      ...inner,
      roleOf: (organizationId, userId) => Effect.andThen(Effect.sync(() => lookups.roles++), inner.roleOf(organizationId, userId)),
      teamsOf: (organizationId, userId) => Effect.andThen(Effect.sync(() => lookups.teams++), inner.teamsOf(organizationId, userId))
    }))
).pipe(Layer.provide(Memberships.layerTest(roles, teams)))

const layer = ContentLayers.layerServices.pipe(
  Layer.provideMerge(ContentLayers.layerReposMemory),
  Layer.provide([countingMemberships, SpaceDependents.layerNone, MainObservers.layerNone, Ids.Ids.layerTest, Transactor.Transactor.layerMemory, ParsePool.layerMainThread])
)

const space = (id: string) => ({ kind: "space" as const, id })
const collection = (id: string) => ({ kind: "collection" as const, id })

describe("Access.effectiveRole", () => {
  it("lets organization admins administer everything, grants or not", () => {
    assert.strictEqual(Access.effectiveRole("admin", [null], []), "admin")
    assert.strictEqual(Access.effectiveRole("admin", ["read"], ["read"]), "admin")
  })

  it("takes the highest of the inherited level and the grants", () => {
    assert.strictEqual(Access.effectiveRole("edit", ["read"], []), "read")
    assert.strictEqual(Access.effectiveRole("read", ["read"], ["edit"]), "edit")
    assert.strictEqual(Access.effectiveRole("edit", ["inherit", "review"], ["comment"]), "review")
    assert.strictEqual(Access.effectiveRole("read", ["inherit"], ["comment", "admin", "edit"]), "admin")
    assert.strictEqual(Access.effectiveRole("edit", [null], ["read"]), "read")
    assert.strictEqual(Access.effectiveRole("edit", [null], []), null)
  })

  it("gives guests only what they were granted", () => {
    assert.strictEqual(Access.effectiveRole(null, ["edit"], []), null)
    assert.strictEqual(Access.effectiveRole(null, ["inherit"], ["comment"]), "comment")
  })
})

describe("ContentPermissions", () => {
  it.effect("a grant raises a member above the space's default level, and its removal takes effect", () =>
    Effect.gen(function*() {
      const spaces = yield* Spaces
      const permissions = yield* ContentPermissions
      const { space: s } = yield* spaces.create(org, { title: "Guide" }).pipe(as("admin"))
      yield* spaces.update(s.id, { defaultLevel: "read" }).pipe(as("admin"))
      const roleOf = (user: string) => Effect.map(spaces.get(s.id).pipe(as(user)), (a) => a.role)
      assert.strictEqual(yield* roleOf("editor"), "read")
      yield* permissions.invite(space(s.id), { role: "edit", users: ["editor"] }).pipe(as("admin"))
      assert.strictEqual(yield* roleOf("editor"), "edit")
      // A lower grant never lowers the inherited level.
      yield* permissions.invite(space(s.id), { role: "read", users: ["creator"] }).pipe(as("admin"))
      yield* spaces.update(s.id, { defaultLevel: "comment" }).pipe(as("admin"))
      assert.strictEqual(yield* roleOf("creator"), "comment")
      assert.isTrue(yield* permissions.remove(space(s.id), { kind: "user", id: "editor" }).pipe(as("admin")))
      assert.isFalse(yield* permissions.remove(space(s.id), { kind: "user", id: "editor" }).pipe(as("admin")))
      assert.strictEqual(yield* roleOf("editor"), "comment")
    }).pipe(Effect.provide(layer)))

  it.effect("team grants and collection grants apply, the highest grant wins", () =>
    Effect.gen(function*() {
      const spaces = yield* Spaces
      const collections = yield* Collections
      const permissions = yield* ContentPermissions
      const { collection: outer } = yield* collections.create(org, { title: "Outer" }).pipe(as("admin"))
      const { collection: inner } = yield* collections.create(org, { title: "Inner", parent: outer.id }).pipe(as("admin"))
      const { space: s } = yield* spaces.create(org, { title: "Deep", parent: inner.id }).pipe(as("admin"))
      yield* collections.update(outer.id, { defaultLevel: null }).pipe(as("admin"))
      assert.strictEqual(yield* tag(spaces.get(s.id).pipe(as("writer"))), "NotFound")
      yield* permissions.invite(collection(outer.id), { role: "comment", teams: ["writers"] }).pipe(as("admin"))
      assert.strictEqual((yield* spaces.get(s.id).pipe(as("writer"))).role, "comment")
      assert.strictEqual((yield* collections.get(inner.id).pipe(as("writer"))).role, "comment")
      yield* permissions.invite(space(s.id), { role: "review", users: ["writer"] }).pipe(as("admin"))
      yield* permissions.invite(collection(inner.id), { role: "edit", teams: ["writers"] }).pipe(as("admin"))
      assert.strictEqual((yield* spaces.get(s.id).pipe(as("writer"))).role, "review")
      // The collection's grant does not reach its parent.
      assert.strictEqual((yield* collections.get(outer.id).pipe(as("writer"))).role, "comment")
      // Deleting a collection takes its grants: the space keeps only its own.
      yield* collections.remove(inner.id).pipe(as("admin"))
      yield* permissions.remove(space(s.id), { kind: "user", id: "writer" }).pipe(as("admin"))
      assert.strictEqual((yield* spaces.get(s.id).pipe(as("writer"))).role, "comment")
      yield* collections.update(outer.id, { defaultLevel: "inherit" }).pipe(as("admin"))
      yield* permissions.update(collection(outer.id), { kind: "team", id: "writers" }, null).pipe(as("admin"))
      assert.strictEqual((yield* spaces.get(s.id).pipe(as("writer"))).role, "read")
    }).pipe(Effect.provide(layer)))

  it.effect("guests see only what they were invited to, and listings look the caller up once", () =>
    Effect.gen(function*() {
      const spaces = yield* Spaces
      const permissions = yield* ContentPermissions
      const { space: open } = yield* spaces.create(org, { title: "Open" }).pipe(as("admin"))
      const { space: invited } = yield* spaces.create(org, { title: "Invited" }).pipe(as("admin"))
      const { space: viaTeam } = yield* spaces.create(org, { title: "Via team" }).pipe(as("admin"))
      assert.deepStrictEqual((yield* spaces.list(org, {}).pipe(as("guest"))).items, [])
      yield* permissions.invite(space(invited.id), { role: "edit", users: ["guest"] }).pipe(as("admin"))
      yield* permissions.invite(space(viaTeam.id), { role: "read", teams: ["writers"] }).pipe(as("admin"))
      lookups = { roles: 0, teams: 0 }
      const listed = yield* spaces.list(org, {}).pipe(as("guest"))
      assert.deepStrictEqual(lookups, { roles: 1, teams: 1 })
      assert.deepStrictEqual(listed.items.map((a) => [a.space.title, a.role]), [["Invited", "edit"], ["Via team", "read"]])
      assert.strictEqual(yield* tag(spaces.get(open.id).pipe(as("guest"))), "NotFound")
      // The member's spaces, as another member lists them, include those reached by grants.
      const theirs = yield* spaces.listForMember(org, "guest", { order: "asc" }).pipe(as("admin"))
      assert.deepStrictEqual(theirs.items.map((m) => [m.space.space.title, m.permission]), [["Invited", "edit"], ["Via team", "read"]])
    }).pipe(Effect.provide(layer)))

  it.effect("refuses invitations of non-admins, outsiders, strangers and unknown teams, naming the field", () =>
    Effect.gen(function*() {
      const spaces = yield* Spaces
      const permissions = yield* ContentPermissions
      const { space: s } = yield* spaces.create(org, { title: "Guarded" }).pipe(as("admin"))
      const target = space(s.id)
      assert.strictEqual(yield* tag(permissions.invite(target, { role: "read", users: ["reader"] }).pipe(as("editor"))), "Forbidden")
      assert.strictEqual(yield* tag(permissions.invite(target, { role: "read", users: ["reader"] }).pipe(as("stranger"))), "NotFound")
      assert.strictEqual(yield* tag(permissions.listUsers(target, {}).pipe(as("stranger"))), "NotFound")
      const refused = (invitation: Parameters<typeof permissions.invite>[1]) =>
        errorMessage(permissions.invite(target, invitation).pipe(as("admin")))
      assert.match(yield* refused({ role: "read", users: ["reader", "stranger"] }), /users\[1\].*not a member/)
      assert.match(yield* refused({ role: "read", teams: ["others"] }), /teams\[0\].*not a team/)
      assert.match(yield* refused({ role: null, users: ["reader"] }), /role/)
      assert.match(yield* refused({ role: "read" }), /users/)
      // Nothing of a refused invitation was kept.
      assert.deepStrictEqual((yield* permissions.listUsers(target, {}).pipe(as("admin"))).page.items, [])
      // An admin of the space (by grant) manages its permissions.
      yield* permissions.invite(target, { role: "admin", users: ["editor"] }).pipe(as("admin"))
      yield* permissions.invite(target, { role: "comment", users: ["reader"] }).pipe(as("editor"))
      assert.strictEqual((yield* spaces.get(s.id).pipe(as("reader"))).role, "comment")
    }).pipe(Effect.provide(layer)))

  it.effect("lists grants in invitation order, and the aggregate of everyone's effective role", () =>
    Effect.gen(function*() {
      const spaces = yield* Spaces
      const permissions = yield* ContentPermissions
      const { space: s } = yield* spaces.create(org, { title: "Listed" }).pipe(as("admin"))
      yield* spaces.update(s.id, { defaultLevel: null }).pipe(as("admin"))
      yield* permissions.invite(space(s.id), { role: "edit", users: ["reader", "guest"] }).pipe(as("admin"))
      yield* TestClock.adjust("1 second")
      yield* permissions.invite(space(s.id), { role: "review", teams: ["leads"], users: ["creator"] }).pipe(as("admin"))
      yield* permissions.update(space(s.id), { kind: "user", id: "reader" }, "admin").pipe(as("admin"))
      const users = yield* permissions.listUsers(space(s.id), {}).pipe(as("reader"))
      assert.deepStrictEqual(users.page.items, [
        { userId: "guest", role: "edit" },
        { userId: "reader", role: "admin" },
        { userId: "creator", role: "review" }
      ])
      assert.deepStrictEqual((yield* permissions.listTeams(space(s.id), {}).pipe(as("reader"))).page.items, [{ teamId: "leads", role: "review" }])
      const aggregate = (role?: "review") =>
        Effect.map(permissions.aggregate(space(s.id), role, {}).pipe(as("reader")), (l) => l.page.items.map((p) => `${p.userId}:${p.role}`).toSorted())
      assert.deepStrictEqual(yield* aggregate(), ["admin:admin", "creator:review", "guest:edit", "lead:review", "reader:admin"])
      assert.deepStrictEqual(yield* aggregate("review"), ["creator:review", "lead:review"])
      const firstPage = yield* permissions.aggregate(space(s.id), undefined, { limit: 2 }).pipe(as("reader"))
      const secondPage = yield* permissions.aggregate(space(s.id), undefined, { limit: 2, page: firstPage.page.next! }).pipe(as("reader"))
      assert.strictEqual(firstPage.page.items.length + secondPage.page.items.length, 4)
      assert.strictEqual(yield* tag(permissions.update(space(s.id), { kind: "user", id: "stranger" }, "read").pipe(as("admin"))), "NotFound")
    }).pipe(Effect.provide(layer)))

  it.effect("counts the spaces members and teams were invited to; a purged space takes its grants", () =>
    Effect.gen(function*() {
      const spaces = yield* Spaces
      const permissions = yield* ContentPermissions
      const { space: a } = yield* spaces.create(org, { title: "A" }).pipe(as("admin"))
      const { space: b } = yield* spaces.create(org, { title: "B" }).pipe(as("admin"))
      yield* permissions.invite(space(a.id), { role: "read", users: ["reader"], teams: ["writers"] }).pipe(as("admin"))
      yield* permissions.invite(space(b.id), { role: "read", users: ["reader"] }).pipe(as("admin"))
      assert.deepStrictEqual(Array.from(yield* permissions.spaceCounts(org, "user", ["reader", "editor"])), [["reader", 2]])
      assert.deepStrictEqual(Array.from(yield* permissions.spaceCounts(org, "team", ["writers"])), [["writers", 1]])
      yield* spaces.remove(a.id).pipe(as("admin"))
      yield* TestClock.adjust("8 days")
      assert.strictEqual(yield* spaces.purgeDeleted, 1)
      assert.deepStrictEqual(Array.from(yield* permissions.spaceCounts(org, "user", ["reader"])), [["reader", 1]])
      assert.strictEqual((yield* permissions.spaceCounts(org, "team", ["writers"])).size, 0)
    }).pipe(Effect.provide(layer)))

  it.effect("a transferred space or collection leaves its grants behind with the organization's people", () =>
    Effect.gen(function*() {
      const spaces = yield* Spaces
      const collections = yield* Collections
      const permissions = yield* ContentPermissions
      const { space: moving } = yield* spaces.create(org, { title: "Moving" }).pipe(as("admin"))
      const { collection: folder } = yield* collections.create(org, { title: "Folder" }).pipe(as("admin"))
      const { space: inside } = yield* spaces.create(org, { title: "Inside", parent: folder.id }).pipe(as("admin"))
      yield* permissions.invite(space(moving.id), { role: "edit", users: ["reader"] }).pipe(as("admin"))
      yield* permissions.invite(collection(folder.id), { role: "edit", teams: ["writers"] }).pipe(as("admin"))
      yield* permissions.invite(space(inside.id), { role: "review", users: ["reader"] }).pipe(as("admin"))
      yield* spaces.transfer(moving.id, otherOrg).pipe(as("admin"))
      yield* collections.transfer(folder.id, otherOrg).pipe(as("admin"))
      assert.deepStrictEqual((yield* permissions.listUsers(space(moving.id), {}).pipe(as("admin"))).page.items, [])
      assert.deepStrictEqual((yield* permissions.listTeams(collection(folder.id), {}).pipe(as("admin"))).page.items, [])
      assert.deepStrictEqual((yield* permissions.listUsers(space(inside.id), {}).pipe(as("admin"))).page.items, [])
      assert.strictEqual((yield* permissions.spaceCounts(org, "user", ["reader"])).size, 0)
    }).pipe(Effect.provide(layer)))
})
