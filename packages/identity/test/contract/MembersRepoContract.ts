/** The behaviour every MembersRepo adapter must have. */
import { assert, describe } from "@effect/vitest"
import { Effect } from "effect"
import type { Roles } from "@quire/kernel"
import { allPages, assertNone, at, some } from "@quire/testkit"
import type { Member, MemberQuery, MemberSort } from "../../src/domain/Identity.ts"
import { MembersRepo } from "../../src/MembersRepo.ts"
import { OrganizationsRepo } from "../../src/OrganizationsRepo.ts"
import { TeamsRepo } from "../../src/TeamsRepo.ts"
import { UsersRepo } from "../../src/UsersRepo.ts"
import { insertUsers, makeOrganization, makeUser, type ReposTest } from "./Fixtures.ts"

const ids = (members: ReadonlyArray<Member>) => members.map((m) => m.user.id)

interface Seeded {
  readonly id: string
  readonly displayName: string
  /** The email, after a prefix of the organization. */
  readonly email?: string
  readonly role: Roles.MemberRole | null
  readonly joinedAt: number
  readonly lastSeenAt: number | null
}

/**
 * The members of a listed organization, besides its creator `admin` ("Zed", joined at 1000,
 * seen at 1050). Names differ in case, two share a name, two joined at the same instant and
 * two were last seen at the same instant, so ties fall back on the user id.
 */
const listed: ReadonlyArray<Seeded> = [
  { id: "u4", displayName: "Carol", email: "joANNe@example.com", role: "admin", joinedAt: 1002, lastSeenAt: 1052 },
  { id: "u1", displayName: "anna", role: "edit", joinedAt: 1001, lastSeenAt: null },
  { id: "u3", displayName: "bob", role: null, joinedAt: 1003, lastSeenAt: 1051 },
  { id: "u2", displayName: "Bob", email: "bob@corp.test", role: null, joinedAt: 1003, lastSeenAt: 1052 },
  { id: "u5", displayName: "Dave_%", role: "read", joinedAt: 1004, lastSeenAt: null },
  { id: "u6", displayName: "Hanna", email: "hanna@example.com", role: "edit", joinedAt: 1005, lastSeenAt: 1049 }
]

/** The expected order of every sort, ascending. */
const ascending: Record<MemberSort, ReadonlyArray<string>> = {
  joinedAt: ["admin", "u1", "u4", "u2", "u3", "u5", "u6"],
  lastSeenAt: ["u6", "admin", "u3", "u2", "u4"],
  name: ["u1", "u2", "u3", "u4", "u5", "u6", "admin"]
}

/** Seeds the organization `${prefix}-org`, whose members are `${prefix}-admin` and `listed` under ids `${prefix}-<id>`. */
const seedListed = Effect.fnUntraced(function*(prefix: string) {
  const users = yield* UsersRepo
  const organizations = yield* OrganizationsRepo
  const members = yield* MembersRepo
  const organizationId = `${prefix}-org`
  yield* users.insert(makeUser(`${prefix}-admin`, { displayName: "Zed" }))
  yield* organizations.insert(makeOrganization(organizationId, at(1000)), `${prefix}-admin`)
  yield* members.touch(organizationId, `${prefix}-admin`, at(1050))
  for (const m of listed) {
    const userId = `${prefix}-${m.id}`
    yield* users.insert(makeUser(userId, { displayName: m.displayName, email: m.email === undefined ? `${userId}@example.com` : `${prefix}.${m.email}` }))
    yield* members.add({ organizationId, userId, role: m.role, joinedAt: at(m.joinedAt), sso: false })
    if (m.lastSeenAt !== null) yield* members.touch(organizationId, userId, at(m.lastSeenAt))
  }
  // A member of another organization, who must never show up in this one.
  yield* users.insert(makeUser(`${prefix}-outsider`, { displayName: "Anne Outsider", email: `${prefix}-anne@example.com` }))
  yield* organizations.insert(makeOrganization(`${prefix}-org-2`, at(1001)), `${prefix}-outsider`)
  return {
    organizationId,
    /** The ids of members without the prefix. */
    short: (items: ReadonlyArray<Member>) => ids(items).map((id) => id.slice(prefix.length + 1))
  }
})

export const membersRepoContract = (it: ReposTest) =>
  describe("MembersRepo", () => {
    it.effect("adds a member once, leaving an existing membership as it was", () =>
      Effect.gen(function*() {
        const organizations = yield* OrganizationsRepo
        const members = yield* MembersRepo
        yield* insertUsers("ma-admin", "ma-user")
        yield* organizations.insert(makeOrganization("ma-org", at(900)), "ma-admin")

        assert.isTrue(yield* members.add({ organizationId: "ma-org", userId: "ma-user", role: "comment", joinedAt: at(901), sso: true }))
        assert.isFalse(yield* members.add({ organizationId: "ma-org", userId: "ma-user", role: "admin", joinedAt: at(950), sso: false }))
        assert.isFalse(yield* members.add({ organizationId: "ma-org", userId: "ma-admin", role: null, joinedAt: at(950), sso: false }))

        const member = some(yield* members.find("ma-org", "ma-user"))
        assert.deepStrictEqual(member, {
          organizationId: "ma-org",
          user: makeUser("ma-user"),
          role: "comment",
          joinedAt: at(901),
          lastSeenAt: null,
          sso: true,
          disabled: false,
          teams: 0,
          spaces: 0
        })
        assert.strictEqual(some(yield* members.find("ma-org", "ma-admin")).role, "admin")
        assertNone(yield* members.find("ma-org", "ma-stranger"))
        assertNone(yield* members.find("ma-other-org", "ma-user"))
      }))

    it.effect("counts the teams of the organization a member belongs to", () =>
      Effect.gen(function*() {
        const organizations = yield* OrganizationsRepo
        const members = yield* MembersRepo
        const teams = yield* TeamsRepo
        yield* insertUsers("mt-admin", "mt-user")
        yield* organizations.insert(makeOrganization("mt-org", at(900)), "mt-admin")
        yield* organizations.insert(makeOrganization("mt-org-2", at(900)), "mt-user")
        yield* members.add({ organizationId: "mt-org", userId: "mt-user", role: "read", joinedAt: at(901), sso: false })
        yield* teams.insert({ id: "mt-team-1", organizationId: "mt-org", title: "One", createdAt: at(902) }, [
          { userId: "mt-admin", role: "owner" },
          { userId: "mt-user", role: "member" }
        ])
        yield* teams.insert({ id: "mt-team-2", organizationId: "mt-org", title: "Two", createdAt: at(903) }, [
          { userId: "mt-user", role: "owner" }
        ])
        yield* teams.insert({ id: "mt-team-3", organizationId: "mt-org", title: "Three", createdAt: at(904) }, [
          { userId: "mt-admin", role: "owner" }
        ])
        yield* teams.insert({ id: "mt-team-4", organizationId: "mt-org-2", title: "Elsewhere", createdAt: at(905) }, [
          { userId: "mt-user", role: "owner" }
        ])

        assert.strictEqual(some(yield* members.find("mt-org", "mt-user")).teams, 2)
        assert.strictEqual(some(yield* members.find("mt-org", "mt-admin")).teams, 2)
        assert.strictEqual(some(yield* members.find("mt-org-2", "mt-user")).teams, 1)
      }))

    it.effect("lists the members of one organization in every sort and order, the same across pages", () =>
      Effect.gen(function*() {
        const members = yield* MembersRepo
        const { organizationId, short } = yield* seedListed("ml")
        for (const sort of ["joinedAt", "lastSeenAt", "name"] as const) {
          for (const order of ["asc", "desc"] as const) {
            const query: MemberQuery = { sort, order }
            const expected = order === "asc" ? ascending[sort] : ascending[sort].toReversed()
            const whole = yield* members.list(organizationId, query, undefined, 100)
            assert.deepStrictEqual(short(whole.items), expected, `${sort} ${order}`)
            assert.isUndefined(whole.next)
            for (const limit of [1, 2, 3]) {
              const pages = yield* allPages((after) => members.list(organizationId, query, after, limit))
              assert.deepStrictEqual(short(pages.flat()), expected, `${sort} ${order} in pages of ${limit}`)
              assert.strictEqual(pages.length, Math.ceil(expected.length / limit), `${sort} ${order} in pages of ${limit}`)
            }
          }
        }

        const [carol] = (yield* members.list(organizationId, { sort: "joinedAt", order: "asc", search: "carol" }, undefined, 10)).items
        assert.deepStrictEqual(carol, {
          organizationId,
          user: makeUser("ml-u4", { displayName: "Carol", email: "ml.joANNe@example.com" }),
          role: "admin",
          joinedAt: at(1002),
          lastSeenAt: at(1052),
          sso: false,
          disabled: false,
          teams: 0,
          spaces: 0
        })
      }))

    it.effect("filters members by role, guests included, and by name or email regardless of case", () =>
      Effect.gen(function*() {
        const members = yield* MembersRepo
        const { organizationId, short } = yield* seedListed("mf")
        const list = (filter: Pick<MemberQuery, "role" | "search">, sort: MemberSort = "joinedAt") =>
          Effect.map(members.list(organizationId, { ...filter, sort, order: "asc" }, undefined, 100), (page) => short(page.items))

        assert.deepStrictEqual(yield* list({ role: "admin" }), ["admin", "u4"])
        assert.deepStrictEqual(yield* list({ role: "edit" }), ["u1", "u6"])
        assert.deepStrictEqual(yield* list({ role: "read" }), ["u5"])
        assert.deepStrictEqual(yield* list({ role: "guest" }), ["u2", "u3"])
        assert.deepStrictEqual(yield* list({ role: "comment" }), [])

        // "anna", "Hanna" by name and "joANNe@…" by email; the other organization's "Anne" stays out.
        assert.deepStrictEqual(yield* list({ search: "ANN" }), ["u1", "u4", "u6"])
        assert.deepStrictEqual(yield* list({ search: "Corp.Test" }), ["u2"])
        assert.deepStrictEqual(yield* list({ search: "BOB" }, "name"), ["u2", "u3"])
        // Wildcards of SQL patterns are plain characters.
        assert.deepStrictEqual(yield* list({ search: "_%" }), ["u5"])
        assert.deepStrictEqual(yield* list({ search: "%" }), ["u5"])
        assert.deepStrictEqual(yield* list({ search: "nobody" }), [])

        assert.deepStrictEqual(yield* list({ role: "edit", search: "hann" }), ["u6"])
        assert.deepStrictEqual(yield* list({ search: "ann" }, "lastSeenAt"), ["u6", "u4"])

        const guests = yield* allPages((after) =>
          members.list(organizationId, { role: "guest", sort: "name", order: "desc" }, after, 1)
        )
        assert.deepStrictEqual(guests.map(short), [["u3"], ["u2"]])
        const searched = yield* allPages((after) =>
          members.list(organizationId, { search: "ann", sort: "name", order: "asc" }, after, 2)
        )
        assert.deepStrictEqual(searched.map(short), [["u1", "u4"], ["u6"]])
      }))

    it.effect("changes a member's role, SSO flag and last-seen time, and counts admins", () =>
      Effect.gen(function*() {
        const organizations = yield* OrganizationsRepo
        const members = yield* MembersRepo
        yield* insertUsers("ms-admin", "ms-user", "ms-other")
        yield* organizations.insert(makeOrganization("ms-org", at(1100)), "ms-admin")
        yield* organizations.insert(makeOrganization("ms-org-2", at(1100)), "ms-other")
        yield* members.add({ organizationId: "ms-org", userId: "ms-user", role: "read", joinedAt: at(1101), sso: false })
        yield* members.add({ organizationId: "ms-org-2", userId: "ms-user", role: "admin", joinedAt: at(1101), sso: false })
        assert.strictEqual(yield* members.countAdmins("ms-org"), 1)

        yield* members.setRole("ms-org", "ms-user", "admin")
        assert.strictEqual(some(yield* members.find("ms-org", "ms-user")).role, "admin")
        assert.strictEqual(yield* members.countAdmins("ms-org"), 2)

        yield* members.setRole("ms-org", "ms-admin", null)
        assert.strictEqual(some(yield* members.find("ms-org", "ms-admin")).role, null)
        assert.strictEqual(yield* members.countAdmins("ms-org"), 1)
        assert.strictEqual(yield* members.countAdmins("ms-org-2"), 2)
        assert.strictEqual(yield* members.countAdmins("ms-nowhere"), 0)

        yield* members.setSso("ms-org", "ms-user", true)
        yield* members.touch("ms-org", "ms-user", at(1150))
        const changed = some(yield* members.find("ms-org", "ms-user"))
        assert.isTrue(changed.sso)
        assert.deepStrictEqual(changed.lastSeenAt, at(1150))
        yield* members.touch("ms-org", "ms-user", at(1160))
        yield* members.setSso("ms-org", "ms-user", false)
        const again = some(yield* members.find("ms-org", "ms-user"))
        assert.isFalse(again.sso)
        assert.deepStrictEqual(again.lastSeenAt, at(1160))
        assert.deepStrictEqual(again.joinedAt, at(1101))

        // The same user's membership elsewhere is untouched.
        const elsewhere = some(yield* members.find("ms-org-2", "ms-user"))
        assert.strictEqual(elsewhere.role, "admin")
        assert.isFalse(elsewhere.sso)
        assert.isNull(elsewhere.lastSeenAt)

        // Changes to someone who is not a member create no membership.
        yield* members.setRole("ms-org", "ms-other", "admin")
        yield* members.setSso("ms-org", "ms-other", true)
        yield* members.touch("ms-org", "ms-other", at(1170))
        assertNone(yield* members.find("ms-org", "ms-other"))
        assert.strictEqual(yield* members.countAdmins("ms-org"), 1)
      }))

    it.effect("removes a member together with their teams in that organization only", () =>
      Effect.gen(function*() {
        const organizations = yield* OrganizationsRepo
        const members = yield* MembersRepo
        const teams = yield* TeamsRepo
        yield* insertUsers("mr-admin", "mr-user")
        yield* organizations.insert(makeOrganization("mr-org", at(1200)), "mr-admin")
        yield* organizations.insert(makeOrganization("mr-org-2", at(1200)), "mr-admin")
        yield* members.add({ organizationId: "mr-org", userId: "mr-user", role: "edit", joinedAt: at(1201), sso: false })
        yield* members.add({ organizationId: "mr-org-2", userId: "mr-user", role: "edit", joinedAt: at(1201), sso: false })
        yield* teams.insert({ id: "mr-team", organizationId: "mr-org", title: "Here", createdAt: at(1202) }, [
          { userId: "mr-admin", role: "owner" },
          { userId: "mr-user", role: "member" }
        ])
        yield* teams.insert({ id: "mr-team-2", organizationId: "mr-org-2", title: "There", createdAt: at(1202) }, [
          { userId: "mr-user", role: "owner" }
        ])

        yield* members.remove("mr-org", "mr-user")
        assertNone(yield* members.find("mr-org", "mr-user"))
        assert.deepStrictEqual(ids((yield* members.list("mr-org", { sort: "joinedAt", order: "asc" }, undefined, 10)).items), ["mr-admin"])
        assert.strictEqual(some(yield* teams.find("mr-org", "mr-team")).members, 1)
        assert.deepStrictEqual((yield* teams.listForMember("mr-org", "mr-user", undefined, undefined, 10)).items, [])
        assert.deepStrictEqual((yield* teams.list("mr-org", { member: "mr-user" }, undefined, 10)).items, [])

        const elsewhere = some(yield* members.find("mr-org-2", "mr-user"))
        assert.strictEqual(elsewhere.teams, 1)
        assert.strictEqual(some(yield* teams.find("mr-org-2", "mr-team-2")).members, 1)

        // Removing someone who is not a member changes nothing.
        yield* members.remove("mr-org", "mr-user")
        assert.strictEqual(some(yield* members.find("mr-org", "mr-admin")).role, "admin")
      }))
  })
