/** The behaviour every TeamsRepo adapter must have. */
import { assert, describe } from "@effect/vitest"
import { Effect } from "effect"
import { allPages, assertNone, at, some } from "@quire/testkit"
import type { Team } from "../../src/domain/Identity.ts"
import { OrganizationsRepo } from "../../src/OrganizationsRepo.ts"
import { MembersRepo } from "../../src/MembersRepo.ts"
import { type TeamFilter, type TeamMembership, TeamsRepo } from "../../src/TeamsRepo.ts"
import { UsersRepo } from "../../src/UsersRepo.ts"
import { insertUsers, makeOrganization, makeUser, type ReposTest } from "./Fixtures.ts"

/**
 * Seeds `${p}-org` (admin `${p}-admin`, members `${p}-u1..3`) with four teams, two created at
 * the same instant, and `${p}-org-2` with a team of the same title.
 *
 *   a "Docs writers"  2001  u1 owner, u2 member
 *   b "Engineering"   2002  admin member, u2 owner, u3 member
 *   c "Design"        2002  admin owner, u1 member
 *   d "design ops"    2003  nobody
 */
const seedTeams = Effect.fnUntraced(function*(p: string) {
  const organizations = yield* OrganizationsRepo
  const members = yield* MembersRepo
  const teams = yield* TeamsRepo
  yield* insertUsers(`${p}-admin`, `${p}-u1`, `${p}-u2`, `${p}-u3`)
  yield* organizations.insert(makeOrganization(`${p}-org`, at(2000)), `${p}-admin`)
  yield* organizations.insert(makeOrganization(`${p}-org-2`, at(2000)), `${p}-u1`)
  for (const user of ["u1", "u2", "u3"]) {
    yield* members.add({ organizationId: `${p}-org`, userId: `${p}-${user}`, role: "read", joinedAt: at(2000), sso: false })
  }
  const team = (id: string, title: string, ms: number) => ({ id: `${p}-${id}`, organizationId: `${p}-org`, title, createdAt: at(ms) })
  yield* teams.insert(team("c", "Design", 2002), [
    { userId: `${p}-admin`, role: "owner" },
    { userId: `${p}-u1`, role: "member" }
  ])
  yield* teams.insert(team("a", "Docs writers", 2001), [
    { userId: `${p}-u1`, role: "owner" },
    { userId: `${p}-u2`, role: "member" }
  ])
  yield* teams.insert(team("d", "design ops", 2003), [])
  yield* teams.insert(team("b", "Engineering", 2002), [
    { userId: `${p}-admin`, role: "member" },
    { userId: `${p}-u2`, role: "owner" },
    { userId: `${p}-u3`, role: "member" }
  ])
  yield* teams.insert({ id: `${p}-x`, organizationId: `${p}-org-2`, title: "Design", createdAt: at(2001) }, [
    { userId: `${p}-u1`, role: "owner" }
  ])
  const strip = (id: string) => id.slice(p.length + 1)
  return {
    organizationId: `${p}-org`,
    otherOrganizationId: `${p}-org-2`,
    id: (short: string) => `${p}-${short}`,
    /** Team ids without the prefix. */
    short: (items: ReadonlyArray<Team>) => items.map((t) => strip(t.id)),
    /** Team ids without the prefix, with the member's role. */
    roles: (items: ReadonlyArray<TeamMembership>) => items.map((m) => [strip(m.team.id), m.role])
  }
})

export const teamsRepoContract = (it: ReposTest) =>
  describe("TeamsRepo", () => {
    it.effect("finds a team with its member count, only within its organization", () =>
      Effect.gen(function*() {
        const teams = yield* TeamsRepo
        const { id, organizationId, otherOrganizationId } = yield* seedTeams("tf")
        const engineering: Team = {
          id: id("b"),
          organizationId,
          title: "Engineering",
          createdAt: at(2002),
          members: 3,
          spaces: 0
        }
        assert.deepStrictEqual(some(yield* teams.find(organizationId, id("b"))), engineering)
        assert.strictEqual(some(yield* teams.find(organizationId, id("d"))).members, 0)
        assertNone(yield* teams.find(otherOrganizationId, id("b")))
        assertNone(yield* teams.find(organizationId, id("x")))
        assertNone(yield* teams.find(organizationId, id("missing")))
      }))

    it.effect("lists an organization's teams by creation then id, filtered by title, member and owner", () =>
      Effect.gen(function*() {
        const teams = yield* TeamsRepo
        const { id, organizationId, otherOrganizationId, short } = yield* seedTeams("tl")
        const list = (filter: TeamFilter) =>
          Effect.map(teams.list(organizationId, filter, undefined, 100), (page) => short(page.items))

        assert.deepStrictEqual(yield* list({}), ["a", "b", "c", "d"])
        assert.deepStrictEqual(yield* list({ title: "DESIGN" }), ["c", "d"])
        assert.deepStrictEqual(yield* list({ title: "s w" }), ["a"])
        assert.deepStrictEqual(yield* list({ title: "%" }), [])
        assert.deepStrictEqual(yield* list({ member: id("u1") }), ["a", "c"])
        assert.deepStrictEqual(yield* list({ member: id("admin") }), ["b", "c"])
        assert.deepStrictEqual(yield* list({ owner: id("u1") }), ["a"])
        assert.deepStrictEqual(yield* list({ owner: id("u3") }), [])
        assert.deepStrictEqual(yield* list({ member: id("u2"), title: "eng" }), ["b"])
        assert.deepStrictEqual(yield* list({ member: id("u2"), owner: id("u1") }), ["a"])

        const other = yield* teams.list(otherOrganizationId, {}, undefined, 100)
        assert.deepStrictEqual(other.items.map((t) => t.id), [id("x")])

        const whole = yield* teams.list(organizationId, {}, undefined, 100)
        assert.deepStrictEqual(whole.items.map((t) => t.members), [2, 3, 2, 0])
        assert.isUndefined(whole.next)
        for (const limit of [1, 2, 3]) {
          const pages = yield* allPages((after) => teams.list(organizationId, {}, after, limit))
          assert.deepStrictEqual(short(pages.flat()), ["a", "b", "c", "d"], `pages of ${limit}`)
          assert.strictEqual(pages.length, Math.ceil(4 / limit))
        }
        const designs = yield* allPages((after) => teams.list(organizationId, { title: "design" }, after, 1))
        assert.deepStrictEqual(designs.map(short), [["c"], ["d"]])
      }))

    it.effect("lists the teams of a member with their role in each", () =>
      Effect.gen(function*() {
        const teams = yield* TeamsRepo
        const { id, organizationId, otherOrganizationId, roles } = yield* seedTeams("tm")
        const listFor = (user: string, title?: string) =>
          Effect.map(teams.listForMember(organizationId, id(user), title, undefined, 100), (page) => roles(page.items))

        assert.deepStrictEqual(yield* listFor("u1"), [["a", "owner"], ["c", "member"]])
        assert.deepStrictEqual(yield* listFor("u2"), [["a", "member"], ["b", "owner"]])
        assert.deepStrictEqual(yield* listFor("admin"), [["b", "member"], ["c", "owner"]])
        assert.deepStrictEqual(yield* listFor("u1", "DOCS"), [["a", "owner"]])
        assert.deepStrictEqual(yield* listFor("u3", "docs"), [])
        assert.deepStrictEqual(yield* listFor("nobody"), [])

        const [first] = (yield* teams.listForMember(organizationId, id("u2"), undefined, undefined, 100)).items
        assert.deepStrictEqual(first, {
          team: { id: id("a"), organizationId, title: "Docs writers", createdAt: at(2001), members: 2, spaces: 0 },
          role: "member"
        })

        const elsewhere = yield* teams.listForMember(otherOrganizationId, id("u1"), undefined, undefined, 100)
        assert.deepStrictEqual(elsewhere.items.map((m) => [m.team.id, m.role]), [[id("x"), "owner"]])

        const pages = yield* allPages((after) => teams.listForMember(organizationId, id("admin"), undefined, after, 1))
        assert.deepStrictEqual(pages.map(roles), [[["b", "member"]], [["c", "owner"]]])
      }))

    it.effect("renames and removes a team only through its own organization", () =>
      Effect.gen(function*() {
        const teams = yield* TeamsRepo
        const { id, organizationId, otherOrganizationId, short, roles } = yield* seedTeams("tr")

        yield* teams.rename(otherOrganizationId, id("a"), "Hijacked")
        assert.strictEqual(some(yield* teams.find(organizationId, id("a"))).title, "Docs writers")
        yield* teams.rename(organizationId, id("a"), "Writers")
        assert.strictEqual(some(yield* teams.find(organizationId, id("a"))).title, "Writers")
        assert.deepStrictEqual(short((yield* teams.list(organizationId, { title: "writers" }, undefined, 100)).items), ["a"])
        assert.strictEqual(some(yield* teams.find(otherOrganizationId, id("x"))).title, "Design")

        yield* teams.remove(otherOrganizationId, id("c"))
        assert.strictEqual(some(yield* teams.find(organizationId, id("c"))).title, "Design")
        yield* teams.remove(organizationId, id("c"))
        assertNone(yield* teams.find(organizationId, id("c")))
        assert.deepStrictEqual(short((yield* teams.list(organizationId, {}, undefined, 100)).items), ["a", "b", "d"])
        assert.deepStrictEqual(
          roles((yield* teams.listForMember(organizationId, id("u1"), undefined, undefined, 100)).items),
          [["a", "owner"]]
        )
        assert.strictEqual(some(yield* MembersRepo.use((members) => members.find(organizationId, id("admin")))).teams, 1)
        yield* teams.remove(organizationId, id("c"))
      }))

    it.effect("lists a team's members by name ignoring case, and sets and removes them only through its organization", () =>
      Effect.gen(function*() {
        const teams = yield* TeamsRepo
        const members = yield* MembersRepo
        const { id, organizationId, otherOrganizationId } = yield* seedTeams("tk")
        const team = id("d")
        const people = [["zoe", "zoe"], ["adam", "Adam"], ["bob", "bob"], ["amy", "adam"]] as const
        for (const [short, displayName] of people) {
          yield* UsersRepo.use((users) => users.insert(makeUser(id(short), { displayName }))).pipe(Effect.orDie)
          yield* members.add({ organizationId, userId: id(short), role: "read", joinedAt: at(2000), sso: false })
        }
        const listed = (limit = 100) =>
          Effect.map(
            allPages((after) => teams.listMembers(organizationId, team, after, limit)),
            (pages) => pages.flat().map((m) => [m.userId.slice(3), m.role])
          )

        assert.deepStrictEqual(yield* listed(), [])
        yield* teams.setMember(organizationId, team, id("zoe"), "member")
        yield* teams.setMember(organizationId, team, id("bob"), "owner")
        yield* teams.setMember(organizationId, team, id("adam"), "member")
        yield* teams.setMember(organizationId, team, id("amy"), "member")
        // Two members named "Adam" and "adam": the user id breaks the tie.
        const expected = [["adam", "member"], ["amy", "member"], ["bob", "owner"], ["zoe", "member"]]
        for (const limit of [1, 3, 100]) assert.deepStrictEqual(yield* listed(limit), expected, `pages of ${limit}`)
        assert.strictEqual(some(yield* teams.find(organizationId, team)).members, 4)

        yield* teams.setMember(organizationId, team, id("zoe"), "owner")
        assert.deepStrictEqual(some(yield* teams.findMember(organizationId, team, id("zoe"))), "owner")
        assertNone(yield* teams.findMember(organizationId, team, id("u1")))
        assertNone(yield* teams.findMember(otherOrganizationId, team, id("zoe")))

        // Another organization's id of the team changes nothing.
        yield* teams.setMember(otherOrganizationId, team, id("u1"), "owner")
        assert.isFalse(yield* teams.removeMember(otherOrganizationId, team, id("zoe")))
        assert.deepStrictEqual((yield* teams.listMembers(otherOrganizationId, team, undefined, 100)).items, [])
        assertNone(yield* teams.findMember(organizationId, team, id("u1")))

        assert.isTrue(yield* teams.removeMember(organizationId, team, id("bob")))
        assert.isFalse(yield* teams.removeMember(organizationId, team, id("bob")))
        assert.deepStrictEqual(yield* listed(), [["adam", "member"], ["amy", "member"], ["zoe", "owner"]])
        assert.deepStrictEqual(
          (yield* teams.listForMember(organizationId, id("zoe"), undefined, undefined, 100)).items.map((m) => [m.team.id, m.role]),
          [[team, "owner"]]
        )
        // Leaving the organization takes them out of its teams.
        yield* members.remove(organizationId, id("zoe"))
        assert.deepStrictEqual(yield* listed(), [["adam", "member"], ["amy", "member"]])
      }))
  })
