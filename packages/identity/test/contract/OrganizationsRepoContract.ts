/** The behaviour every OrganizationsRepo adapter must have. */
import { assert, describe } from "@effect/vitest"
import { Effect, Option } from "effect"
import { allPages, assertNone, at, some } from "@quire/testkit"
import type { LinkInvite } from "../../src/domain/Identity.ts"
import type { EmailInviteRow } from "../../src/IdentityMemory.ts"
import { MembersRepo } from "../../src/MembersRepo.ts"
import { OrganizationsRepo } from "../../src/OrganizationsRepo.ts"
import { insertUsers, makeOrganization, type ReposTest } from "./Fixtures.ts"

const byOrganization = (invites: ReadonlyArray<EmailInviteRow>) =>
  invites.toSorted((a, b) => (a.organizationId < b.organizationId ? -1 : 1))

export const organizationsRepoContract = (it: ReposTest) =>
  describe("OrganizationsRepo", () => {
    it.effect("stores every field of a new organization and makes its creator an admin", () =>
      Effect.gen(function*() {
        const organizations = yield* OrganizationsRepo
        const members = yield* MembersRepo
        yield* insertUsers("o-insert-admin", "o-insert-other")
        const organization = makeOrganization("o-insert", at(100), {
          title: "Acme",
          emailDomains: ["acme.test", "acme.example"],
          hostname: "docs.acme.test",
          defaultRole: "edit",
          defaultContentSite: "site-1",
          logo: "https://acme.test/logo.png",
          sso: true,
          ai: true,
          inviteLinks: true,
          mergeRules: { type: "rules", rules: [{ rule: "require_specific_reviewers", users: ["o-insert-other"] }] }
        })
        yield* organizations.insert(organization, "o-insert-admin")

        assert.deepStrictEqual(some(yield* organizations.findAccess("o-insert", "o-insert-admin")), {
          organization,
          membership: { role: "admin" }
        })
        const admin = some(yield* members.find("o-insert", "o-insert-admin"))
        assert.strictEqual(admin.role, "admin")
        assert.deepStrictEqual(admin.joinedAt, organization.createdAt)
        assert.strictEqual(yield* members.countAdmins("o-insert"), 1)
      }))

    it.effect("gives no access to non-members or to an unknown organization, and a null role to guests", () =>
      Effect.gen(function*() {
        const organizations = yield* OrganizationsRepo
        const members = yield* MembersRepo
        yield* insertUsers("o-access-admin", "o-access-stranger", "o-access-guest")
        const organization = makeOrganization("o-access", at(200))
        yield* organizations.insert(organization, "o-access-admin")
        yield* members.add({ organizationId: "o-access", userId: "o-access-guest", role: null, joinedAt: at(201), sso: false })

        assertNone(yield* organizations.findAccess("o-access", "o-access-stranger"))
        assertNone(yield* organizations.findAccess("o-unknown", "o-access-admin"))
        assert.deepStrictEqual(some(yield* organizations.findAccess("o-access", "o-access-guest")), {
          organization,
          membership: { role: null }
        })
      }))

    it.effect("lists a user's organizations by creation then id, each once across pages", () =>
      Effect.gen(function*() {
        const organizations = yield* OrganizationsRepo
        const members = yield* MembersRepo
        yield* insertUsers("l-me", "l-other")
        // Inserted out of order; three share a creation instant, so their ids break the tie.
        const mine: ReadonlyArray<readonly [string, number]> = [
          ["l-org-e", 305],
          ["l-org-c", 302],
          ["l-org-b", 302],
          ["l-org-a", 301],
          ["l-org-d", 302],
          ["l-org-f", 306],
          ["l-org-g", 300]
        ]
        for (const [id, ms] of mine) yield* organizations.insert(makeOrganization(id, at(ms)), "l-me")
        // Not a member of these, even though they sit among the others in the sort order.
        yield* organizations.insert(makeOrganization("l-org-bb", at(302)), "l-other")
        yield* organizations.insert(makeOrganization("l-org-x", at(303)), "l-other")
        // A membership other than the creator's shows its role.
        yield* organizations.insert(makeOrganization("l-org-h", at(304)), "l-other")
        yield* members.add({ organizationId: "l-org-h", userId: "l-me", role: "read", joinedAt: at(400), sso: false })

        const expected = ["l-org-g", "l-org-a", "l-org-b", "l-org-c", "l-org-d", "l-org-h", "l-org-e", "l-org-f"]
        const whole = yield* organizations.listForUser("l-me", undefined, 100)
        assert.deepStrictEqual(whole.items.map((a) => a.organization.id), expected)
        assert.isUndefined(whole.next)
        assert.deepStrictEqual(
          whole.items.map((a) => a.membership.role),
          ["admin", "admin", "admin", "admin", "admin", "read", "admin", "admin"]
        )
        assert.deepStrictEqual(whole.items[0]!.organization, makeOrganization("l-org-g", at(300)))

        const exact = yield* organizations.listForUser("l-me", undefined, expected.length)
        assert.strictEqual(exact.items.length, expected.length)
        assert.isUndefined(exact.next)

        for (const limit of [1, 2, 3]) {
          const pages = yield* allPages((after) => organizations.listForUser("l-me", after, limit))
          assert.deepStrictEqual(pages.flat().map((a) => a.organization.id), expected, `pages of ${limit}`)
          assert.strictEqual(pages.length, Math.ceil(expected.length / limit))
          assert.isTrue(pages.every((page) => page.length <= limit))
        }

        const nothing = yield* organizations.listForUser("l-nobody", undefined, 10)
        assert.deepStrictEqual(nothing.items, [])
        assert.isUndefined(nothing.next)
      }))

    it.effect("lists the organizations claiming an email domain, with the caller's role if any", () =>
      Effect.gen(function*() {
        const organizations = yield* OrganizationsRepo
        yield* insertUsers("d-admin", "d-caller")
        yield* organizations.insert(makeOrganization("d-org-2", at(502), { emailDomains: ["domain.test"] }), "d-caller")
        yield* organizations.insert(makeOrganization("d-org-1", at(501), { emailDomains: ["other.test", "domain.test"] }), "d-admin")
        yield* organizations.insert(makeOrganization("d-org-3", at(503), { emailDomains: ["sub.domain.test"] }), "d-admin")
        yield* organizations.insert(makeOrganization("d-org-4", at(500)), "d-caller")

        const found = yield* organizations.listByEmailDomain("domain.test", "d-caller")
        assert.deepStrictEqual(found.map((a) => [a.organization.id, a.membership.role]), [["d-org-1", null], ["d-org-2", "admin"]])
        assert.deepStrictEqual(found[0]!.organization.emailDomains, ["other.test", "domain.test"])

        const shouted = yield* organizations.listByEmailDomain("DOMAIN.Test", "d-caller")
        assert.deepStrictEqual(shouted.map((a) => a.organization.id), ["d-org-1", "d-org-2"])
        assert.deepStrictEqual(yield* organizations.listByEmailDomain("nowhere.test", "d-caller"), [])
      }))

    it.effect("updates only the fields of the patch", () =>
      Effect.gen(function*() {
        const organizations = yield* OrganizationsRepo
        yield* insertUsers("p-admin")
        const original = makeOrganization("p-org", at(600), {
          title: "Before",
          emailDomains: ["before.test"],
          hostname: "before.test",
          logo: "https://before.test/logo.png",
          ai: true
        })
        yield* organizations.insert(original, "p-admin")

        const retitled = yield* organizations.update("p-org", { title: "After" })
        assert.deepStrictEqual(retitled, { ...original, title: "After" })

        const patched = yield* organizations.update("p-org", {
          emailDomains: ["after.test", "after.example"],
          hostname: null,
          defaultRole: "comment",
          defaultContentSite: "site-9",
          logo: null,
          sso: true,
          ai: false,
          inviteLinks: true
        })
        const expected = {
          ...original,
          title: "After",
          emailDomains: ["after.test", "after.example"],
          hostname: null,
          defaultRole: "comment" as const,
          defaultContentSite: "site-9",
          logo: null,
          sso: true,
          ai: false,
          inviteLinks: true
        }
        assert.deepStrictEqual(patched, expected)
        assert.deepStrictEqual(yield* organizations.update("p-org", { defaultRole: null }), { ...expected, defaultRole: null })
        assert.deepStrictEqual(yield* organizations.update("p-org", {}), { ...expected, defaultRole: null })
        assert.deepStrictEqual(some(yield* organizations.findAccess("p-org", "p-admin")).organization, { ...expected, defaultRole: null })
      }))

    it.effect("keeps an organization's merge rules (none until set), each organization its own", () =>
      Effect.gen(function*() {
        const organizations = yield* OrganizationsRepo
        yield* insertUsers("mrules-admin")
        yield* organizations.insert(makeOrganization("mrules-org-a", at(700)), "mrules-admin")
        yield* organizations.insert(makeOrganization("mrules-org-b", at(701)), "mrules-admin")
        assert.deepStrictEqual(some(yield* organizations.find("mrules-org-a")).mergeRules, { type: "none" })

        const rules = {
          type: "rules" as const,
          rules: [{ rule: "require_at_least_one_approved_review" as const }, { rule: "allow_bypass" as const, users: ["mrules-admin"] }]
        }
        assert.deepStrictEqual((yield* organizations.update("mrules-org-a", { mergeRules: rules })).mergeRules, rules)
        assert.deepStrictEqual(some(yield* organizations.find("mrules-org-a")).mergeRules, rules)
        assert.deepStrictEqual(some(yield* organizations.findAccess("mrules-org-a", "mrules-admin")).organization.mergeRules, rules)
        assert.deepStrictEqual(some(yield* organizations.find("mrules-org-b")).mergeRules, { type: "none" })
        // Another setting's update leaves them as they are; `none` turns them off.
        assert.deepStrictEqual((yield* organizations.update("mrules-org-a", { title: "Renamed" })).mergeRules, rules)
        assert.deepStrictEqual((yield* organizations.update("mrules-org-a", { mergeRules: { type: "none" } })).mergeRules, { type: "none" })
      }))

    it.effect("keeps link invitations per organization, oldest first", () =>
      Effect.gen(function*() {
        const organizations = yield* OrganizationsRepo
        yield* insertUsers("i-admin")
        yield* organizations.insert(makeOrganization("i-org-a", at(700)), "i-admin")
        yield* organizations.insert(makeOrganization("i-org-b", at(700)), "i-admin")
        const later: LinkInvite = { id: "i-link-1", sealedId: "v1.sealed-1", organizationId: "i-org-a", role: "read", createdAt: at(712), expiresAt: null }
        const earlier: LinkInvite = { id: "i-link-2", sealedId: "v1.sealed-2", organizationId: "i-org-a", role: null, createdAt: at(711), expiresAt: at(5_000) }
        const elsewhere: LinkInvite = { id: "i-link-3", sealedId: "v1.sealed-3", organizationId: "i-org-b", role: "admin", createdAt: at(710), expiresAt: null }
        yield* organizations.insertLinkInvite(later)
        yield* organizations.insertLinkInvite(earlier)
        yield* organizations.insertLinkInvite(elsewhere)

        assert.deepStrictEqual(yield* organizations.listLinkInvites("i-org-a"), [earlier, later])
        assert.deepStrictEqual(yield* organizations.listLinkInvites("i-org-b"), [elsewhere])

        // Deleting through another organization leaves the invitation alone.
        yield* organizations.deleteLinkInvite("i-org-b", "i-link-1")
        assert.deepStrictEqual(yield* organizations.listLinkInvites("i-org-a"), [earlier, later])

        yield* organizations.deleteLinkInvite("i-org-a", "i-link-1")
        assert.deepStrictEqual(yield* organizations.listLinkInvites("i-org-a"), [earlier])
        assert.deepStrictEqual(yield* organizations.listLinkInvites("i-org-b"), [elsewhere])
        yield* organizations.deleteLinkInvite("i-org-a", "i-link-missing")
        assert.deepStrictEqual(yield* organizations.listLinkInvites("i-org-c"), [])
      }))

    it.effect("finds and changes a link invitation's role and expiry only through its organization", () =>
      Effect.gen(function*() {
        const organizations = yield* OrganizationsRepo
        yield* insertUsers("lu-admin")
        yield* organizations.insert(makeOrganization("lu-org-a", at(700)), "lu-admin")
        yield* organizations.insert(makeOrganization("lu-org-b", at(700)), "lu-admin")
        const invite: LinkInvite = { id: "lu-link", sealedId: "v1.sealed-lu", organizationId: "lu-org-a", role: "read", createdAt: at(720), expiresAt: null }
        yield* organizations.insertLinkInvite(invite)

        assert.deepStrictEqual(some(yield* organizations.findLinkInvite("lu-org-a", "lu-link")), invite)
        assertNone(yield* organizations.findLinkInvite("lu-org-b", "lu-link"))
        assertNone(yield* organizations.findLinkInvite("lu-org-a", "lu-missing"))

        assertNone(yield* organizations.updateLinkInvite("lu-org-b", "lu-link", { role: "admin" }))
        assert.deepStrictEqual(some(yield* organizations.findLinkInvite("lu-org-a", "lu-link")), invite)

        const edited = { ...invite, role: "edit" as const, expiresAt: at(9_000) }
        assert.deepStrictEqual(some(yield* organizations.updateLinkInvite("lu-org-a", "lu-link", { role: "edit", expiresAt: at(9_000) })), edited)
        assert.deepStrictEqual(some(yield* organizations.updateLinkInvite("lu-org-a", "lu-link", {})), edited)
        const guest = { ...edited, role: null, expiresAt: null }
        assert.deepStrictEqual(some(yield* organizations.updateLinkInvite("lu-org-a", "lu-link", { role: null, expiresAt: null })), guest)
        assert.deepStrictEqual(yield* organizations.listLinkInvites("lu-org-a"), [guest])
        assertNone(yield* organizations.updateLinkInvite("lu-org-a", "lu-missing", { role: "read" }))
      }))

    it.effect("seals the links stored before their secrets were hashed, each once, and leaves the others", () =>
      Effect.gen(function*() {
        const organizations = yield* OrganizationsRepo
        yield* insertUsers("ls-admin")
        yield* organizations.insert(makeOrganization("ls-org", at(700)), "ls-admin")
        const legacy: LinkInvite = { id: "ls-old-secret", sealedId: null, organizationId: "ls-org", role: "admin", createdAt: at(730), expiresAt: null }
        const current: LinkInvite = { id: "ls-new-hash", sealedId: "v1.kept", organizationId: "ls-org", role: null, createdAt: at(731), expiresAt: null }
        yield* organizations.insertLinkInvite(legacy)
        yield* organizations.insertLinkInvite(current)
        const seen: Array<string> = []
        const seal = (id: string) => {
          seen.push(id)
          return { id: `hash-of-${id}`, sealedId: `sealed-${id}` }
        }
        assert.strictEqual(yield* organizations.sealLegacyLinkInvites(seal), 1)
        assert.deepStrictEqual(seen, ["ls-old-secret"])
        assertNone(yield* organizations.findLinkInvite("ls-org", "ls-old-secret"))
        assert.deepStrictEqual(some(yield* organizations.findLinkInvite("ls-org", "hash-of-ls-old-secret")), {
          ...legacy,
          id: "hash-of-ls-old-secret",
          sealedId: "sealed-ls-old-secret"
        })
        assert.deepStrictEqual(some(yield* organizations.findLinkInvite("ls-org", "ls-new-hash")), current)
        assert.strictEqual(yield* organizations.sealLegacyLinkInvites(seal), 0)
      }))

    it.effect("finds an organization for anyone, members or not", () =>
      Effect.gen(function*() {
        const organizations = yield* OrganizationsRepo
        yield* insertUsers("of-admin")
        const organization = makeOrganization("of-org", at(730), { inviteLinks: true })
        yield* organizations.insert(organization, "of-admin")
        assert.deepStrictEqual(some(yield* organizations.find("of-org")), organization)
        assertNone(yield* organizations.find("of-missing"))
      }))

    it.effect("replaces an email invitation to the same organization, lists, finds and hands each over once", () =>
      Effect.gen(function*() {
        const organizations = yield* OrganizationsRepo
        yield* insertUsers("e-admin")
        yield* organizations.insert(makeOrganization("e-org-a", at(800)), "e-admin")
        yield* organizations.insert(makeOrganization("e-org-b", at(801)), "e-admin")
        yield* organizations.insertEmailInvite({ id: "ei-1", sealedId: "sealed-ei-1", organizationId: "e-org-a", email: "new@example.com", role: "read", sso: false, createdAt: at(900) })
        yield* organizations.insertEmailInvite({ id: "ei-2", sealedId: "sealed-ei-2", organizationId: "e-org-b", email: "new@example.com", role: null, sso: true, createdAt: at(901) })
        yield* organizations.insertEmailInvite({ id: "ei-3", sealedId: "sealed-ei-3", organizationId: "e-org-a", email: "new@example.com", role: "edit", sso: true, createdAt: at(902) })
        yield* organizations.insertEmailInvite({ id: "ei-4", sealedId: "sealed-ei-4", organizationId: "e-org-a", email: "else@example.com", role: "read", sso: false, createdAt: at(900) })
        const renewed = { id: "ei-3", sealedId: "sealed-ei-3", organizationId: "e-org-a", email: "new@example.com", role: "edit" as const, sso: true, createdAt: at(902) }
        const toB = { id: "ei-2", sealedId: "sealed-ei-2", organizationId: "e-org-b", email: "new@example.com", role: null, sso: true, createdAt: at(901) }
        const other = { id: "ei-4", sealedId: "sealed-ei-4", organizationId: "e-org-a", email: "else@example.com", role: "read" as const, sso: false, createdAt: at(900) }

        assert.deepStrictEqual(yield* organizations.listEmailInvites({ email: "new@example.com" }), [toB, renewed])
        assert.deepStrictEqual(yield* organizations.listEmailInvites({ organizationId: "e-org-a" }), [other, renewed])
        // The replaced invitation's id no longer answers; ids are per organization.
        assertNone(yield* organizations.findEmailInvite("e-org-a", "ei-1"))
        assertNone(yield* organizations.findEmailInvite("e-org-b", "ei-3"))
        assert.deepStrictEqual(some(yield* organizations.findEmailInvite("e-org-a", "ei-3")), renewed)

        assert.deepStrictEqual(byOrganization([some(yield* organizations.takeEmailInvite("e-org-a", "new@example.com"))]), [renewed])
        assertNone(yield* organizations.takeEmailInvite("e-org-a", "new@example.com"))
        // Taking one organization's invitation leaves the others' pending.
        assert.deepStrictEqual(yield* organizations.listEmailInvites({ email: "new@example.com" }), [toB])
        assertNone(yield* organizations.takeEmailInvite("e-org-a", "nobody@example.com"))
        assert.deepStrictEqual(some(yield* organizations.takeEmailInvite("e-org-b", "new@example.com")), toB)
        assert.deepStrictEqual(some(yield* organizations.takeEmailInvite("e-org-a", "else@example.com")), other)
        assert.deepStrictEqual(yield* organizations.listEmailInvites({ organizationId: "e-org-a" }), [])
      }))

    it.effect("purges the email invitations created before a cutoff, and only those", () =>
      Effect.gen(function*() {
        const organizations = yield* OrganizationsRepo
        yield* insertUsers("stale-admin")
        yield* organizations.insert(makeOrganization("stale-org", at(950)), "stale-admin")
        yield* organizations.insertEmailInvite({ id: "st-1", sealedId: "sealed-st-1", organizationId: "stale-org", email: "purge-old@example.com", role: "read", sso: false, createdAt: at(1_000) })
        yield* organizations.insertEmailInvite({ id: "st-2", sealedId: "sealed-st-2", organizationId: "stale-org", email: "purge-new@example.com", role: "read", sso: false, createdAt: at(3_000) })
        assert.strictEqual(yield* organizations.purgeEmailInvites(at(2_000)), 1)
        assertNone(yield* organizations.takeEmailInvite("stale-org", "purge-old@example.com"))
        assert.isTrue(Option.isSome(yield* organizations.takeEmailInvite("stale-org", "purge-new@example.com")))
      }))

    it.effect("seals the email invitations stored before their ids were hashed, each once, and leaves the others", () =>
      Effect.gen(function*() {
        const organizations = yield* OrganizationsRepo
        yield* insertUsers("es-admin")
        yield* organizations.insert(makeOrganization("es-org", at(700)), "es-admin")
        const legacy: EmailInviteRow = { id: "es-old-id", sealedId: null, organizationId: "es-org", email: "old@example.com", role: "admin", sso: false, createdAt: at(730) }
        const current: EmailInviteRow = { id: "es-new-hash", sealedId: "v1.kept", organizationId: "es-org", email: "new@example.com", role: null, sso: true, createdAt: at(731) }
        yield* organizations.insertEmailInvite(legacy)
        yield* organizations.insertEmailInvite(current)
        const seen: Array<string> = []
        const seal = (id: string) => {
          seen.push(id)
          return { id: `hash-of-${id}`, sealedId: `sealed-${id}` }
        }
        assert.strictEqual(yield* organizations.sealLegacyEmailInvites(seal), 1)
        assert.deepStrictEqual(seen, ["es-old-id"])
        assertNone(yield* organizations.findEmailInvite("es-org", "es-old-id"))
        const sealed = { ...legacy, id: "hash-of-es-old-id", sealedId: "sealed-es-old-id" }
        assert.deepStrictEqual(some(yield* organizations.findEmailInvite("es-org", "hash-of-es-old-id")), sealed)
        assert.deepStrictEqual(some(yield* organizations.findEmailInvite("es-org", "es-new-hash")), current)
        assert.deepStrictEqual(yield* organizations.listEmailInvites({ organizationId: "es-org" }), [sealed, current])
        assert.strictEqual(yield* organizations.sealLegacyEmailInvites(seal), 0)
      }))
  })
