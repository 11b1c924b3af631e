/**
 * The team membership and invite use cases (Teams, Organizations, Users) over the memory and the
 * SQL adapters: who may do what, the rules of joining with a link, and all-or-nothing changes.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { Actor, Ids } from "@quire/kernel"
import { migrations as auditMigrations } from "@quire/audit"
import { as, asInstanceAdmin, assertNone, at, Backends, errorMessage, errorTag, some } from "@quire/testkit"
import { EmailVerificationRepo, IdentityLayers, MemberInvites, MembersRepo, MembershipDependents, migrations, Organizations, Teams, TeamsRepo, Users, UsersRepo } from "../src/index.ts"
import { makeUser } from "./contract/Fixtures.ts"

const services = Layer.mergeAll(Teams.layer, Users.layer, MemberInvites.layer).pipe(
  Layer.provideMerge(Organizations.layer),
  Layer.provide([Ids.Ids.layer, MembershipDependents.layerNone])
)

const backends = Backends.ports({ memory: IdentityLayers.layerReposMemory, sql: IdentityLayers.layerReposSql, migrations: [auditMigrations, migrations] })

const insertUser = (userId: string) => Effect.flatMap(Effect.service(UsersRepo), (users) => users.insert(makeUser(userId)).pipe(Effect.orDie))

/** Users `${p}-admin`, `${p}-owner`, `${p}-member`, `${p}-reader` in a new organization, `${p}-out` outside it, and a team. */
const seed = Effect.fnUntraced(function*(p: string) {
  const users = yield* UsersRepo
  const members = yield* MembersRepo
  const organizations = yield* Organizations
  const teams = yield* Teams
  for (const name of ["admin", "owner", "member", "reader", "out"]) {
    yield* users.insert(makeUser(`${p}-${name}`, { displayName: name })).pipe(Effect.orDie)
  }
  const { organization } = yield* organizations.create({ title: "Acme" }).pipe(as(`${p}-admin`))
  for (const [name, role] of [["owner", "read"], ["member", "edit"], ["reader", "read"]] as const) {
    yield* members.add({ organizationId: organization.id, userId: `${p}-${name}`, role, joinedAt: at(0), sso: false })
  }
  const { team } = yield* teams.create(organization.id, { title: "Writers", members: [`${p}-owner`] }).pipe(as(`${p}-admin`))
  yield* teams.addMember(organization.id, team.id, `${p}-owner`, "owner").pipe(as(`${p}-admin`))
  return { organizationId: organization.id, teamId: team.id, id: (name: string) => `${p}-${name}` }
})

for (const backend of backends) {
  layer(Layer.provideMerge(services, backend.layer), { timeout: "60 seconds", excludeTestServices: true })(`team members and invites on ${backend.name}`, (it) => {
    it.effect("lets admins and the team's owners manage its members, and nobody else", () =>
      Effect.gen(function*() {
        const teams = yield* Teams
        const { id, organizationId, teamId } = yield* seed("tm")
        const roster = Effect.map(
          teams.listMembers(organizationId, teamId, {}).pipe(as(id("reader"))),
          ({ page }) => page.items.map((m) => [m.member.user.displayName, m.member.role, m.role])
        )
        yield* teams.addMember(organizationId, teamId, id("member"), undefined).pipe(as(id("owner")))
        assert.deepStrictEqual(yield* roster, [["member", "edit", "member"], ["owner", "read", "owner"]])
        assert.strictEqual(yield* errorTag(teams.addMember(organizationId, teamId, id("reader"), undefined).pipe(as(id("member")))), "Forbidden")
        assert.strictEqual(yield* errorTag(teams.removeMember(organizationId, teamId, id("owner")).pipe(as(id("member")))), "Forbidden")
        assert.strictEqual(yield* errorTag(teams.listMembers(organizationId, teamId, {}).pipe(as(id("out")))), "NotFound")
        assert.strictEqual(yield* errorTag(teams.addMember(organizationId, "nosuchteam", id("member"), undefined).pipe(as(id("admin")))), "NotFound")
        assert.strictEqual(
          yield* errorMessage(teams.addMember(organizationId, teamId, id("out"), "member").pipe(as(id("admin")))),
          `userId: user "${id("out")}" is not a member of the organization`
        )
        assert.isTrue(yield* teams.removeMember(organizationId, teamId, id("member")).pipe(as(id("owner"))))
        assert.isFalse(yield* teams.removeMember(organizationId, teamId, id("member")).pipe(as(id("owner"))))
        assert.deepStrictEqual(yield* roster, [["owner", "read", "owner"]])
      }))

    it.effect("changes several members at once, or nothing when one of them is refused", () =>
      Effect.gen(function*() {
        const teams = yield* Teams
        const repo = yield* TeamsRepo
        const { id, organizationId, teamId } = yield* seed("tb")
        const roster = Effect.map(repo.listMembers(organizationId, teamId, undefined, 100), (page) => page.items.map((m) => [m.userId, m.role]))
        const refused = teams.updateMembers(organizationId, teamId, {
          add: [id("member"), `${id("reader")}@example.com`, id("out")],
          remove: [id("owner")]
        }).pipe(as(id("admin")))
        assert.strictEqual(yield* errorMessage(refused), `add[2]: user "${id("out")}" is not a member of the organization`)
        assert.deepStrictEqual(yield* roster, [[id("owner"), "owner"]])

        yield* teams.updateMembers(organizationId, teamId, {
          add: [id("member"), `${id("reader")}@EXAMPLE.com`],
          memberships: { [id("admin")]: { role: "owner" } },
          remove: [id("member"), "nobody@example.com"]
        }).pipe(as(id("owner")))
        assert.deepStrictEqual(yield* roster, [[id("admin"), "owner"], [id("owner"), "owner"], [id("reader"), "member"]])
      }))

    it.effect("lets anyone holding a link join with its role while the organization allows links and the link lives", () =>
      Effect.gen(function*() {
        const organizations = yield* Organizations
        const members = yield* MembersRepo
        const { id, organizationId } = yield* seed("tj")
        const view = yield* organizations.createLinkInvite(organizationId, { role: "edit", expiresAt: new Date(Date.now() + 3_600_000) })
          .pipe(as(id("admin")))
        const inviteId = view.invite.id
        const join = (name: string) => organizations.joinWithLinkInvite(organizationId, inviteId).pipe(as(id(name)))
        const roleOf = (name: string) => Effect.map(members.find(organizationId, id(name)), Option.match({ onNone: () => "none", onSome: (m) => m.role }))

        assert.strictEqual(yield* errorTag(join("out")), "Forbidden")
        yield* organizations.update(organizationId, { inviteLinks: true }).pipe(as(id("admin")))
        const seen = yield* organizations.getLinkInvite(organizationId, inviteId).pipe(as(id("out")))
        assert.deepStrictEqual([seen.invite.role, seen.redundant], ["edit", false])
        assert.isTrue(yield* join("out"))
        assert.strictEqual(yield* roleOf("out"), "edit")
        assert.isFalse(yield* join("out"))
        assert.isFalse(yield* join("member"))
        assert.isTrue((yield* organizations.getLinkInvite(organizationId, inviteId).pipe(as(id("member")))).redundant)
        assert.isTrue(yield* join("reader"))
        assert.strictEqual(yield* roleOf("reader"), "edit")
        assert.strictEqual(yield* errorTag(organizations.joinWithLinkInvite(organizationId, "nosuchinvite").pipe(as(id("out")))), "NotFound")
        assert.strictEqual(
          yield* errorTag(organizations.updateLinkInvite(organizationId, inviteId, { role: "admin" }).pipe(as(id("member")))),
          "Forbidden"
        )

        // Expired: `at` is in 2024, before this test runs.
        yield* organizations.updateLinkInvite(organizationId, inviteId, { expiresAt: at(60_000) }).pipe(as(id("admin")))
        yield* UsersRepo.use((users) => users.insert(makeUser(id("late"))).pipe(Effect.orDie))
        assert.strictEqual(
          yield* errorMessage(join("late")),
          `inviteId: this invite link expired at ${at(60_000).toISOString()}; ask an administrator of the organization for a new one`
        )
        assert.strictEqual(yield* roleOf("late"), "none")
        // Its admins still see it, and may give it a new life.
        assert.deepStrictEqual((yield* organizations.getLinkInvite(organizationId, inviteId).pipe(as(id("admin")))).invite.expiresAt, at(60_000))
        yield* organizations.updateLinkInvite(organizationId, inviteId, { expiresAt: null, role: null }).pipe(as(id("admin")))
        assert.isTrue(yield* join("late"))
        assert.strictEqual(yield* roleOf("late"), null)
      }))

    it.effect("keeps an invitation of an email pending until its new account accepts it", () =>
      Effect.gen(function*() {
        const organizations = yield* Organizations
        const invites = yield* MemberInvites
        const users = yield* Users
        const members = yield* MembersRepo
        const { id, organizationId } = yield* seed("te")
        const email = `${id("new")}@Example.com`
        const invited = yield* organizations.invite(organizationId, { emails: [email, { email: `${id("reader")}@example.com`, role: "admin" }], role: "comment", sso: false })
          .pipe(as(id("admin")))
        // The reader already was a member: their membership is left as it was.
        assert.deepStrictEqual(invited, { users: [], invited: 2 })
        const created = yield* users.create({ email, displayName: "New" }).pipe(asInstanceAdmin(id("root")))
        // Invitations are offered to an account that proved its email.
        yield* (yield* EmailVerificationRepo).markVerified(created.id, created.email, at(0))
        // Creating the account accepts nothing: the invitation waits for its person.
        assertNone(yield* members.find(organizationId, created.id))
        const pending = yield* invites.listForCaller.pipe(as(created.id))
        assert.deepStrictEqual(pending.map((p) => [p.organization.id, p.invite.email, p.invite.role]), [[organizationId, email.toLowerCase(), "comment"]])
        yield* invites.accept(organizationId, pending[0]!.invite.id).pipe(as(created.id))
        const member = some(yield* members.find(organizationId, created.id))
        assert.deepStrictEqual([member.role, member.user.email], ["comment", email.toLowerCase()])
        assert.strictEqual(some(yield* members.find(organizationId, id("reader"))).role, "read")
        assert.deepStrictEqual(yield* invites.listForCaller.pipe(as(created.id)), [])
      }))

    it.effect("grants an existing account nothing until it accepts, answering as for an unknown email; the operator adds at once", () =>
      Effect.gen(function*() {
        const organizations = yield* Organizations
        const invites = yield* MemberInvites
        const members = yield* MembersRepo
        const { id, organizationId } = yield* seed("ta")
        const invited = yield* organizations.invite(organizationId, { emails: [`${id("out")}@example.com`], role: "edit", sso: true }).pipe(as(id("admin")))
        // The same answer as for an email without an account: nobody is added, nobody named.
        assert.deepStrictEqual(invited, { users: [], invited: 1 })
        const unknown = yield* organizations.invite(organizationId, { emails: [`${id("nobody")}@example.com`], role: "edit", sso: true }).pipe(as(id("admin")))
        assert.deepStrictEqual(unknown, invited)
        yield* invites.decline(organizationId, (yield* invites.listForOrganization(organizationId).pipe(as(id("admin")))).find((p) => p.invite.email.startsWith(id("nobody")))!.invite.id).pipe(as(id("admin")))
        assertNone(yield* members.find(organizationId, id("out")))
        const [pending] = yield* invites.listForOrganization(organizationId).pipe(as(id("admin")))
        // Unproven, the account is offered nothing: it cannot see the invitation, nor accept it.
        assert.deepStrictEqual(yield* invites.listForCaller.pipe(as(id("out"))), [])
        assert.strictEqual(yield* errorTag(invites.accept(organizationId, pending!.invite.id).pipe(as(id("out")))), "Forbidden")
        yield* (yield* EmailVerificationRepo).markVerified(id("out"), `${id("out")}@example.com`, at(0))
        assert.deepStrictEqual([pending?.invite.email, pending?.invite.role, pending?.invite.sso], [`${id("out")}@example.com`, "edit", true])
        assert.strictEqual(yield* errorTag(invites.listForOrganization(organizationId).pipe(as(id("member")))), "Forbidden")
        // Nobody but the invited person accepts it: not an admin, not another member.
        for (const who of ["admin", "member"]) {
          assert.strictEqual(yield* errorTag(invites.accept(organizationId, pending!.invite.id).pipe(as(id(who)))), "NotFound", who)
        }
        // A token scoped to another organization cannot accept it either.
        const scoped = Effect.provideService(Actor.Actor, { userId: id("out"), instanceAdmin: false, scope: "some-other-org" })
        assert.strictEqual(yield* errorTag(invites.accept(organizationId, pending!.invite.id).pipe(scoped)), "NotFound")
        assert.deepStrictEqual(yield* invites.listForCaller.pipe(scoped), [])
        yield* invites.accept(organizationId, pending!.invite.id).pipe(as(id("out")))
        const member = some(yield* members.find(organizationId, id("out")))
        assert.deepStrictEqual([member.role, member.sso], ["edit", true])

        // Declined: forgotten, and nothing granted.
        yield* insertUser(id("later"))
        yield* (yield* EmailVerificationRepo).markVerified(id("later"), `${id("later")}@example.com`, at(0))
        yield* organizations.invite(organizationId, { emails: [`${id("later")}@example.com`], role: "read", sso: false }).pipe(as(id("admin")))
        const [offer] = yield* invites.listForCaller.pipe(as(id("later")))
        yield* invites.decline(organizationId, offer!.invite.id).pipe(as(id("later")))
        assert.deepStrictEqual(yield* invites.listForOrganization(organizationId).pipe(as(id("admin"))), [])
        assertNone(yield* members.find(organizationId, id("later")))

        // The instance administrator, an admin of the organization, adds an existing account at once.
        yield* insertUser(id("root"))
        yield* members.add({ organizationId, userId: id("root"), role: "admin", joinedAt: at(0), sso: false })
        const added = yield* organizations.invite(organizationId, { emails: [`${id("later")}@example.com`], role: "review", sso: false })
          .pipe(asInstanceAdmin(id("root")))
        assert.deepStrictEqual(added, { users: [id("later")], invited: 1 })
        assert.strictEqual(some(yield* members.find(organizationId, id("later"))).role, "review")
      }))
  })
}
