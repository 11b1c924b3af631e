/**
 * The sites use cases over the memory adapters, with content's spaces and memberships the tests
 * choose: permissions, defaults, order after moves and deletes, validation, share links, the
 * reader's side and a purged space leaving its sites.
 */
import { assert, describe } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { AuditLog, AuditLogRepo } from "@quire/audit"
import { Errors, Ids, Transactor } from "@quire/kernel"
import { as, Backends, errorMessage as messageOf, errorTag as tag, memberRoles } from "@quire/testkit"
import { OutboundFetch } from "@quire/outbound"
import { migrations as auditMigrations } from "@quire/audit"
import { BlobStore, ContentLayers, Memberships, migrations as contentMigrations, ParsePool, SpaceContent, Spaces } from "@quire/content"
import { SqlTransactor } from "@quire/db"
import { migrations } from "../src/index.ts"
import { PublishedSites } from "../src/PublishedSites.ts"
import { SiteGrants } from "../src/SiteGrants.ts"
import { ShareLinks } from "../src/ShareLinks.ts"
import { SpaceRedirects } from "../src/SpaceRedirects.ts"
import { SpecOperations } from "../src/SpecOperations.ts"
import { ShareLinksRepo } from "../src/ShareLinksRepo.ts"
import { ServerHostnames, Sites } from "../src/Sites.ts"
import { SiteChanges } from "../src/SiteChanges.ts"
import * as SitesLayers from "../src/SitesLayers.ts"
import { SiteStructure, type SiteStructureView } from "../src/SiteStructure.ts"
import { SiteStructureRepo } from "../src/SiteStructureRepo.ts"
import { SitesRepo } from "../src/SitesRepo.ts"

const org = "org-1"
const otherOrg = "org-2"
/** The listing's own organization: the store is shared by the tests of a backend. */
const listOrg = "org-3"

const roles = memberRoles({
  [org]: { admin: "admin", reader: "read", creator: "create", guest: null, granted: "read", teamer: "comment", bystander: "edit" },
  [otherOrg]: { admin: "admin" },
  [listOrg]: { admin: "admin", reader: "read" }
})

/** The use cases over the given ports and Transactor, with content's use cases and test memberships. */
const servicesOver = <E, R>(ports: Layer.Layer<Layer.Success<typeof SitesLayers.layerReposMemory | typeof ContentLayers.layerReposMemory> | Transactor.Transactor, E, R>) =>
  SitesLayers.layerServices.pipe(
    Layer.provideMerge(SpaceContent.layer.pipe(Layer.provideMerge(ContentLayers.layerServices), Layer.provide(SitesLayers.layerMainObservers))),
    Layer.provideMerge(SitesLayers.layerSpaceDependents),
    Layer.provideMerge(SiteChanges.layer),
    Layer.provideMerge(ports),
    // Site permissions record their changes in the audit log, which the tests read.
    Layer.provideMerge(AuditLog.layer.pipe(Layer.provideMerge(AuditLogRepo.layerMemory))),
    Layer.provide([SpaceRedirects.layerNone, SpecOperations.layerNone, Memberships.layerTest(roles, new Map([[`${org}/team-docs`, ["teamer"]]])), Ids.Ids.layerTest, BlobStore.layerMemory, Layer.orDie(OutboundFetch.layerConfig), ParsePool.layerMainThread])
  )

const backends = Backends.make({
  memory: servicesOver(Layer.mergeAll(ContentLayers.layerReposMemory, SitesLayers.layerReposMemory, Transactor.Transactor.layerMemory)),
  sql: () => servicesOver(Layer.mergeAll(ContentLayers.layerReposSql, SitesLayers.layerReposSql, SqlTransactor.layer)),
  migrations: [auditMigrations, contentMigrations, migrations]
})

const space = (title: string, organizationId = org) =>
  Effect.map(Effect.flatMap(Effect.service(Spaces), (s) => s.create(organizationId, { title })), (a) => a.space).pipe(as("admin"))

/** The structure as titles: sections (with `*` for the default) and groups with theirs. */
const outline = (view: SiteStructureView): ReadonlyArray<string> =>
  view.type === "siteSpaces"
    ? view.structure.map((s) => `${s.default ? "*" : ""}${s.siteSpace.path}`)
    : view.structure.map((item) =>
      item.type === "section"
        ? `${item.section.default ? "*" : ""}${item.section.section.title}`
        : item.type === "link"
        ? `->${item.link.title}`
        : `[${item.group.group.title}: ${item.group.sections.map((s) => `${s.default ? "*" : ""}${s.section.title}`).join(", ")}]`
    )

Backends.each(backends, (it) => {
  describe("Sites", () => {
    it.effect("members read sites, admins change them, outsiders learn nothing", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const created = yield* sites.create(org, { title: "Handbook" }).pipe(as("admin"))
        assert.deepStrictEqual(
          [created.site.type, created.site.visibility, created.site.published, created.siteSpaces, created.permissions.admin],
          ["basic", "public", false, 0, true]
        )
        const read = yield* sites.get(org, created.site.id).pipe(as("reader"))
        assert.deepStrictEqual([read.permissions.view, read.permissions.admin, read.permissions.editAdaptiveSchema], [true, false, false])
        assert.strictEqual(yield* tag(sites.get(org, created.site.id).pipe(as("outsider"))), "NotFound")
        assert.strictEqual(yield* tag(sites.list(org, {}, {}).pipe(as("outsider"))), "NotFound")
      assert.strictEqual(yield* tag(sites.get(org, created.site.id).pipe(as("guest"))), "NotFound")
        // Another organization's id in the path: not found, even for its admin.
        assert.strictEqual(yield* tag(sites.get(otherOrg, created.site.id).pipe(as("admin"))), "NotFound")
        assert.strictEqual(yield* tag(sites.create(org, { title: "No" }).pipe(as("creator"))), "Forbidden")
        assert.strictEqual(yield* tag(sites.update(org, created.site.id, { title: "No" }).pipe(as("reader"))), "Forbidden")
        assert.strictEqual(yield* tag(sites.publish(org, created.site.id).pipe(as("reader"))), "Forbidden")
        assert.strictEqual(yield* tag(sites.remove(org, created.site.id).pipe(as("reader"))), "Forbidden")
        assert.strictEqual(yield* tag(sites.getPublishingAuth(org, created.site.id).pipe(as("reader"))), "Forbidden")
        // Deleting what an outsider cannot see answers like a missing site.
        yield* sites.remove(org, created.site.id).pipe(as("outsider"))
        assert.strictEqual((yield* sites.publish(org, created.site.id).pipe(as("admin"))).site.published, true)
        assert.strictEqual((yield* sites.unpublish(org, created.site.id).pipe(as("admin"))).site.published, false)
        assert.strictEqual(yield* tag(sites.create(org, { title: "x" }).pipe(as("admin"))), "InvalidInput")
      }))

    it.effect("a site grant lets a member change that site only; a team's grant counts; revoking takes it back; each change is audited", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const grants = yield* SiteGrants
        const audit = yield* AuditLog
        const site = (yield* sites.create(org, { title: "Granted" }).pipe(as("admin"))).site
        const other = (yield* sites.create(org, { title: "Not granted" }).pipe(as("admin"))).site
        // An organization editor is no site editor: the organization gives its non-admins read.
        assert.strictEqual(yield* tag(sites.update(org, site.id, { title: "No" }).pipe(as("bystander"))), "Forbidden")
        yield* grants.invite(org, site.id, { role: "edit", users: ["granted"] }).pipe(as("admin"))
        const changed = yield* sites.update(org, site.id, { title: "Renamed" }).pipe(as("granted"))
        assert.deepStrictEqual([changed.site.title, changed.siteRole, changed.permissions.edit, changed.permissions.admin], ["Renamed", "edit", true, false])
        assert.strictEqual(yield* tag(sites.update(org, other.id, { title: "No" }).pipe(as("granted"))), "Forbidden")
        // An editor changes the site but not who may.
        assert.strictEqual(yield* tag(grants.invite(org, site.id, { role: "admin", users: ["bystander"] }).pipe(as("granted"))), "Forbidden")
        assert.strictEqual(yield* tag(sites.remove(org, site.id).pipe(as("granted"))), "Forbidden")
        const listed = yield* sites.list(org, {}, {}).pipe(as("granted"))
        assert.deepStrictEqual(listed.items.filter((a) => a.site.organizationId === org && [site.id, other.id].includes(a.site.id)).map((a) => [a.site.title, a.permissions.edit]).toSorted(), [["Not granted", false], ["Renamed", true]])
        yield* grants.invite(org, site.id, { role: "admin", teams: ["team-docs"] }).pipe(as("admin"))
        assert.strictEqual((yield* sites.publish(org, site.id).pipe(as("teamer"))).site.published, true)
        const everyone = yield* grants.aggregate(org, site.id, {}, {}).pipe(as("reader"))
        const byUser = new Map(everyone.page.items.map((m) => [m.userId, [m.role, m.origin.kind]]))
        assert.deepStrictEqual(
          [byUser.get("admin"), byUser.get("granted"), byUser.get("teamer"), byUser.get("reader"), byUser.get("guest")],
          [["admin", "organization"], ["edit", "member"], ["admin", "team"], ["read", "default"], undefined]
        )
        assert.deepStrictEqual((yield* grants.aggregate(org, site.id, { role: "edit" }, {}).pipe(as("reader"))).page.items.map((m) => m.userId), ["granted"])
        assert.deepStrictEqual((yield* grants.aggregate(org, site.id, { team: "team-docs" }, {}).pipe(as("reader"))).page.items.map((m) => m.userId), ["teamer"])
        yield* grants.update(org, site.id, { kind: "user", id: "granted" }, "read").pipe(as("teamer"))
        assert.strictEqual(yield* tag(sites.update(org, site.id, { title: "No" }).pipe(as("granted"))), "Forbidden")
        assert.isTrue(yield* grants.remove(org, site.id, { kind: "team", id: "team-docs" }).pipe(as("admin")))
        assert.isFalse(yield* grants.remove(org, site.id, { kind: "team", id: "team-docs" }).pipe(as("admin")))
        assert.strictEqual(yield* tag(sites.unpublish(org, site.id).pipe(as("teamer"))), "Forbidden")
        const events = yield* audit.list({ organizationId: org, target: site.id }, {})
        // The site's other events (the team's publishing) are in its log too; here, who may do what.
        const granting = events.items.filter((e) => e.action.startsWith("site.permission-"))
        assert.deepStrictEqual(events.items.filter((e) => e.action === "site.published").map((e) => e.actor.id), ["teamer"])
        assert.deepStrictEqual(granting.map((e) => [e.action, e.payload["principalId"], e.payload["to"]]).toReversed(), [
          ["site.permission-granted", "granted", "edit"],
          ["site.permission-granted", "team-docs", "admin"],
          ["site.permission-changed", "granted", "read"],
          ["site.permission-revoked", "team-docs", null]
        ])
      }))

    it.effect("site invitations name the field at fault, and other organizations' sites stay unknown", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const grants = yield* SiteGrants
        const site = (yield* sites.create(org, { title: "Checked" }).pipe(as("admin"))).site
        const invalid = (invitation: Parameters<typeof grants.invite>[2]) =>
          Effect.map(Effect.flip(grants.invite(org, site.id, invitation).pipe(as("admin"))), (e) => (e instanceof Errors.InvalidInput ? e.field : "not InvalidInput"))
        assert.strictEqual(yield* invalid({ role: null, users: ["reader"] }), "role")
        assert.strictEqual(yield* invalid({ role: "edit" }), "users")
        assert.strictEqual(yield* invalid({ role: "edit", users: ["reader", "outsider"] }), "users[1]")
        assert.strictEqual(yield* invalid({ role: "edit", users: ["guest"] }), "users[0]")
        assert.strictEqual(yield* invalid({ role: "edit", teams: ["team-none"] }), "teams[0]")
        assert.strictEqual(yield* tag(grants.aggregate(otherOrg, site.id, {}, {}).pipe(as("admin"))), "NotFound")
        assert.strictEqual(yield* tag(grants.list(org, site.id, "user", {}).pipe(as("outsider"))), "NotFound")
        assert.strictEqual(yield* tag(grants.update(org, site.id, { kind: "user", id: "outsider" }, "edit").pipe(as("admin"))), "NotFound")
      }))

    it.effect("creates a site with spaces as its root site spaces, the first as default, and a new space on request", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const structure = yield* SiteStructure
        const a = yield* space("Getting started")
        const b = yield* space("Getting started")
        const foreign = yield* space("Theirs", otherOrg).pipe(as("admin"))
        const site = yield* sites.create(org, { title: "Docs", spaces: [a.id, b.id], emptySpace: true }).pipe(as("admin"))
        assert.strictEqual(site.siteSpaces, 3)
        const view = yield* structure.structure(org, site.site.id).pipe(as("reader"))
        assert.deepStrictEqual(outline(view), ["*getting-started", "getting-started-2", "docs"])
        assert.strictEqual(view.type === "siteSpaces" && view.structure[2]!.space.space.title, "Docs")
        assert.strictEqual(
          yield* messageOf(sites.create(org, { spaces: [a.id, foreign.id] }).pipe(as("admin"))),
          `spaces[1]: ${JSON.stringify(foreign.id)} is not a space of this organization`
        )
        assert.strictEqual(yield* messageOf(sites.create(org, { spaces: [a.id, a.id] }).pipe(as("admin"))), "spaces[1]: is listed twice")
      }))

    it.effect("lists sites with filters by space, title and published status, page by page", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const s = yield* space("Filtered", listOrg)
        const one = yield* sites.create(listOrg, { title: "Alpha API", spaces: [s.id] }).pipe(as("admin"))
        const two = yield* sites.create(listOrg, { title: "Beta guide" }).pipe(as("admin"))
        yield* sites.publish(listOrg, two.site.id).pipe(as("admin"))
        const titles = (filter: Parameters<typeof sites.list>[1]) =>
          Effect.map(sites.list(listOrg, filter, { limit: 1000 }).pipe(as("reader")), (p) => p.items.map((i) => i.site.title))
        assert.deepStrictEqual(yield* titles({ spaceId: s.id }), ["Alpha API"])
        assert.deepStrictEqual(yield* titles({ title: "api" }), ["Alpha API"])
        assert.deepStrictEqual(yield* titles({ published: true }), ["Beta guide"])
        const first = yield* sites.list(listOrg, { title: "a" }, { limit: 1 }).pipe(as("reader"))
        assert.strictEqual(first.items.length, 1)
        assert.isDefined(first.next)
        const second = yield* sites.list(listOrg, { title: "a" }, { limit: 1, page: first.next }).pipe(as("reader"))
        assert.notStrictEqual(second.items[0]!.site.id, first.items[0]!.site.id)
        assert.strictEqual((yield* sites.get(listOrg, one.site.id).pipe(as("reader"))).siteSpaces, 1)
      }))

    it.effect("checks every setting: hostname, proxy, title, basename, defaults", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const a = yield* space("A")
        const b = yield* space("B")
        const { site } = yield* sites.create(org, { title: "Settings", spaces: [a.id, b.id] }).pipe(as("admin"))
        const update = (input: Parameters<typeof sites.update>[2]) => sites.update(org, site.id, input).pipe(as("admin"))
        assert.strictEqual(yield* messageOf(update({ hostname: "docs.example" })), "hostname: must be a hostname of at least three lowercase labels (docs.example.com)")
        assert.strictEqual(yield* tag(update({ hostname: "Docs.Example.com" })), "InvalidInput")
        // No IP address in any form, and none of the server's own names (issue 18).
        for (const hostname of ["10.0.0.12", "0x7f.0.0.12", "0177.0.0.12", "1.2.3.0x04"]) {
          assert.strictEqual(yield* messageOf(update({ hostname })), "hostname: must be a name, not an IP address", hostname)
        }
        assert.match(yield* messageOf(update({ hostname: "docs.app.localhost" })), /^hostname: is a name of this Quire server itself/)
        const own = update({ hostname: "docs.quire.example.com" }).pipe(Effect.provideService(ServerHostnames, ["docs.quire.example.com"]))
        assert.match(yield* messageOf(own), /^hostname: is a name of this Quire server itself/)
        assert.strictEqual(yield* tag(update({ proxy: "https://example.com/docs" })), "InvalidInput")
        assert.strictEqual(yield* tag(update({ proxy: "example.com" })), "InvalidInput")
        assert.strictEqual(yield* messageOf(update({ title: "x" })), "title: must be 2 to 128 characters")
        assert.strictEqual(yield* tag(update({ basename: "" })), "InvalidInput")
        const changed = yield* update({
          hostname: "docs.settings.example.com",
          proxy: "example.com/docs/v2",
          basename: "api",
          visibility: "share-link",
          adaptiveContent: { enabled: true },
          agentsContext: "excluded",
          title: "Renamed"
        })
        assert.deepStrictEqual(
          [changed.site.hostname, changed.site.proxy, changed.site.basename, changed.site.visibility, changed.site.adaptiveContent, changed.site.agentsContext, changed.site.title],
          ["docs.settings.example.com", "example.com/docs/v2", "api", "share-link", true, "excluded", "Renamed"]
        )
        assert.strictEqual((yield* update({ proxy: null })).site.proxy, null)
        const other = yield* sites.create(org, { title: "Other" }).pipe(as("admin"))
        assert.strictEqual(yield* tag(sites.update(org, other.site.id, { hostname: "docs.settings.example.com" }).pipe(as("admin"))), "Conflict")
        // The default site space of a site without sections is the root's.
        const view = yield* sites.structure(org, site.id).pipe(as("admin"))
        const second = view.type === "siteSpaces" ? view.structure[1]!.siteSpace.id : ""
        yield* update({ defaultSiteSpace: second })
        assert.deepStrictEqual(outline(yield* sites.structure(org, site.id).pipe(as("admin"))), ["a", "*b"])
        assert.strictEqual(yield* tag(update({ defaultSiteSpace: "nope" })), "InvalidInput")
        assert.strictEqual(yield* messageOf(update({ defaultSiteSection: "nope" })), `defaultSiteSection: "nope" is not a section of this site`)
      }))

    it.effect("validates and stores the adaptive schema; a site without one has none", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const { site } = yield* sites.create(org, { title: "Adaptive" }).pipe(as("admin"))
        assert.strictEqual(yield* tag(sites.getAdaptiveSchema(org, site.id).pipe(as("reader"))), "NotFound")
        assert.deepStrictEqual(yield* sites.templateConditions(org, site.id).pipe(as("reader")), [])
        const bad = yield* Effect.flip(sites.putAdaptiveSchema(org, site.id, { type: "object", properties: { plan: { type: 3 } }, additionalProperties: false }).pipe(as("admin")))
        assert.instanceOf(bad, Errors.InvalidInput)
        assert.match(bad.message, /^jsonSchema/)
        const jsonSchema = {
          type: "object",
          properties: {
            unsigned: { type: "object", description: "Unsigned", properties: {}, additionalProperties: false },
            beta: { type: "boolean", description: "Beta testers" }
          },
          additionalProperties: false
        }
        assert.strictEqual(yield* tag(sites.putAdaptiveSchema(org, site.id, jsonSchema).pipe(as("reader"))), "Forbidden")
        yield* sites.putAdaptiveSchema(org, site.id, jsonSchema).pipe(as("admin"))
        assert.deepStrictEqual((yield* sites.getAdaptiveSchema(org, site.id).pipe(as("reader"))).jsonSchema, jsonSchema)
        assert.deepStrictEqual(yield* sites.templateConditions(org, site.id).pipe(as("reader")), [
          { description: "Beta testers", condition: "visitor.claims.beta" }
        ])
      }))

    it.effect("keeps a visitor key for admins until it is regenerated, and customization for members", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const { site } = yield* sites.create(org, { title: "Keys" }).pipe(as("admin"))
        const first = yield* sites.getPublishingAuth(org, site.id).pipe(as("admin"))
        assert.strictEqual((yield* sites.getPublishingAuth(org, site.id).pipe(as("admin"))).privateKey, first.privateKey)
        const second = yield* sites.regeneratePublishingAuth(org, site.id).pipe(as("admin"))
        assert.notStrictEqual(second.privateKey, first.privateKey)
        assert.deepStrictEqual(yield* sites.getCustomization(org, site.id).pipe(as("reader")), { settings: {}, updatedAt: null })
        const settings = { title: "Styled", styling: { primaryColor: { light: "#ff0000", dark: "#00ff00" } } }
        yield* sites.putCustomization(org, site.id, settings).pipe(as("admin"))
        assert.deepStrictEqual((yield* sites.getCustomization(org, site.id).pipe(as("reader"))).settings, settings)
        const badColor = { styling: { primaryColor: { light: "red;}</style>", dark: "#000" } } }
        assert.strictEqual(yield* tag(sites.putCustomization(org, site.id, badColor as never).pipe(as("admin"))), "InvalidInput")
        const badCondition = { header: { links: [{ title: "x", to: null, links: [], condition: "visitor.claims.(" }] } }
        assert.match(yield* messageOf(sites.putCustomization(org, site.id, badCondition).pipe(as("admin"))), /^header\.links\[0\]\.condition: /)
        const profile = yield* sites.published(org, site.id).pipe(as("reader"))
        assert.deepStrictEqual([profile.customization, profile.structure.type], [settings, "siteSpaces"])
      }))

    it.effect("deleting a site removes its structure and share links in one go", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const structure = yield* SiteStructure
        const links = yield* ShareLinks
        const a = yield* space("Deleted")
        const { site } = yield* sites.create(org, { title: "Doomed", spaces: [a.id] }).pipe(as("admin"))
        yield* structure.addSection(org, site.id, { spaceId: a.id, title: "Second" }).pipe(as("admin"))
        yield* structure.addSectionGroup(org, site.id, { title: "G" }).pipe(as("admin"))
        const link = yield* links.create(org, site.id, { name: "Partners" }).pipe(as("admin"))
        yield* sites.remove(org, site.id).pipe(as("admin"))
        assert.strictEqual(yield* tag(sites.get(org, site.id).pipe(as("admin"))), "NotFound")
        const repo = yield* SiteStructureRepo
        assert.deepStrictEqual([(yield* repo.sections(site.id)).length, (yield* repo.groups(site.id)).length, (yield* repo.siteSpaces(site.id)).length], [0, 0, 0])
        assert.isTrue(Option.isNone(yield* (yield* ShareLinksRepo).find(link.shareLink.id)))
        assert.isFalse(yield* links.check(site.id, link.shareLink.secret))
      }))
  })

  describe("SiteStructure", () => {
    it.effect("the first section becomes default; a site's root content becomes its first section", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const structure = yield* SiteStructure
        const guide = yield* space("Guide")
        const api = yield* space("API reference")
        const { site } = yield* sites.create(org, { title: "Sectioned", spaces: [guide.id] }).pipe(as("admin"))
        const added = yield* structure.addSection(org, site.id, { spaceId: api.id, icon: "code" }).pipe(as("admin"))
        assert.deepStrictEqual([added.section.title, added.section.path, added.section.icon, added.default], ["API reference", "api-reference", "code", false])
        assert.deepStrictEqual(added.siteSpaces.map((s) => [s.space.space.id, s.default]), [[api.id, true]])
        assert.deepStrictEqual(outline(yield* structure.structure(org, site.id).pipe(as("reader"))), ["*Guide", "API reference"])

        const empty = yield* sites.create(org, { title: "Empty" }).pipe(as("admin"))
        const first = yield* structure.addSection(org, empty.site.id, { spaceId: guide.id }).pipe(as("admin"))
        assert.isTrue(first.default)
        assert.strictEqual(yield* tag(structure.addSection(org, empty.site.id, { spaceId: "nope" }).pipe(as("admin"))), "InvalidInput")
        assert.strictEqual(yield* tag(structure.addSection(org, empty.site.id, { spaceId: guide.id }).pipe(as("reader"))), "Forbidden")
        assert.strictEqual(yield* tag(structure.listSections(org, empty.site.id, {}).pipe(as("outsider"))), "NotFound")
      }))

    it.effect("a site space goes to the default section, or to the root without sections; paths are unique in their parent", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const structure = yield* SiteStructure
        const a = yield* space("Variant")
        const b = yield* space("Variant")
        const c = yield* space("Other")
        const { site } = yield* sites.create(org, { title: "Variants" }).pipe(as("admin"))
        const root = yield* structure.addSiteSpace(org, site.id, { spaceId: a.id }).pipe(as("admin"))
        assert.deepStrictEqual([root.siteSpace.sectionId, root.default, root.siteSpace.path], [null, true, "variant"])
        const section = yield* structure.addSection(org, site.id, { spaceId: c.id, title: "Second" }).pipe(as("admin"))
        // The root's variant moved into the first section, which is the default.
        const sections = (yield* structure.listSections(org, site.id, {}).pipe(as("reader"))).items
        assert.deepStrictEqual(sections.map((s) => [s.section.title, s.default]), [["Variant", true], ["Second", false]])
        const toDefault = yield* structure.addSiteSpace(org, site.id, { spaceId: b.id }).pipe(as("admin"))
        assert.deepStrictEqual([toDefault.siteSpace.sectionId, toDefault.default, toDefault.siteSpace.path], [sections[0]!.section.id, false, "variant-2"])
        const inSecond = yield* structure.addSiteSpace(org, site.id, { spaceId: b.id, sectionId: section.section.id }).pipe(as("admin"))
        assert.strictEqual(inSecond.siteSpace.path, "variant")
        assert.strictEqual(
          yield* messageOf(structure.updateSiteSpace(org, site.id, inSecond.siteSpace.id, { path: "other" }).pipe(as("admin"))),
          `path: "other" is already the path of another site space here`
        )
        assert.strictEqual(yield* tag(structure.updateSiteSpace(org, site.id, inSecond.siteSpace.id, { path: "a/b" }).pipe(as("admin"))), "InvalidInput")
        assert.strictEqual(yield* tag(structure.addSiteSpace(org, site.id, { spaceId: b.id, sectionId: "nope" }).pipe(as("admin"))), "InvalidInput")
        assert.strictEqual(yield* tag(structure.addSiteSpace(org, site.id, { spaceId: b.id, sectionId: section.section.id }).pipe(as("admin"))), "InvalidInput")
        const defaults = yield* structure.listSiteSpaces(org, site.id, { default: true }, {}).pipe(as("reader"))
        assert.deepStrictEqual(defaults.items.map((s) => s.space.space.id), [a.id, c.id])
        const others = yield* structure.listSiteSpaces(org, site.id, { default: false }, {}).pipe(as("reader"))
        assert.deepStrictEqual(others.items.map((s) => s.siteSpace.id), [toDefault.siteSpace.id, inSecond.siteSpace.id])
        const paged = yield* structure.listSiteSpaces(org, site.id, {}, { limit: 3 }).pipe(as("reader"))
        const rest = yield* structure.listSiteSpaces(org, site.id, {}, { limit: 3, page: paged.next }).pipe(as("reader"))
        assert.deepStrictEqual([paged.items.length, rest.items.length, rest.next], [3, 1, undefined])
      }))

    it.effect("conditions are parsed when stored; section fields are checked", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const structure = yield* SiteStructure
        const a = yield* space("Conditional")
        const { site } = yield* sites.create(org, { title: "Conditions" }).pipe(as("admin"))
        const { section, siteSpaces } = yield* structure.addSection(org, site.id, { spaceId: a.id }).pipe(as("admin"))
        const update = (input: Parameters<typeof structure.updateSection>[3]) => structure.updateSection(org, site.id, section.id, input).pipe(as("admin"))
        assert.match(yield* messageOf(update({ condition: "visitor.claims.plan ===" })), /^condition: /)
        assert.strictEqual(yield* messageOf(update({ condition: "" })), "condition: must be 1 to 1024 characters")
        assert.strictEqual(yield* messageOf(update({ title: "x" })), "title: must be 2 to 128 characters")
        assert.strictEqual(yield* messageOf(update({ icon: "i".repeat(51) })), "icon: must be at most 50 characters")
        assert.strictEqual(yield* messageOf(update({ description: "d".repeat(257) })), "description: must be at most 256 characters")
        assert.strictEqual(yield* tag(update({ defaultSiteSpace: "nope" })), "InvalidInput")
        const set = yield* update({ condition: `visitor.claims.plan === "pro"`, description: "For pros", path: "pro" })
        assert.deepStrictEqual([set.section.condition, set.section.description, set.section.path], [`visitor.claims.plan === "pro"`, "For pros", "pro"])
        assert.strictEqual((yield* update({ condition: null })).section.condition, null)
        assert.match(
          yield* messageOf(structure.updateSiteSpace(org, site.id, siteSpaces[0]!.siteSpace.id, { condition: "a b" }).pipe(as("admin"))),
          /^condition: /
        )
        const other = yield* structure.addSection(org, site.id, { spaceId: a.id, title: "Other" }).pipe(as("admin"))
        assert.strictEqual(
          yield* messageOf(structure.updateSection(org, site.id, other.section.id, { path: "pro" }).pipe(as("admin"))),
          `path: "pro" is already the path of another section`
        )
      }))

    it.effect("moves and deletes keep the order of the rest; deleting the default section makes the next one default", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const structure = yield* SiteStructure
        const s = yield* space("Ordered")
        const { site } = yield* sites.create(org, { title: "Order" }).pipe(as("admin"))
        const add = (title: string) => Effect.map(structure.addSection(org, site.id, { spaceId: s.id, title }).pipe(as("admin")), (v) => v.section.id)
        const [a, b, c, d] = [yield* add("Aa"), yield* add("Bb"), yield* add("Cc"), yield* add("Dd")]
        const titles = Effect.map(structure.structure(org, site.id).pipe(as("reader")), outline)
        yield* structure.moveSection(org, site.id, d!, { before: { type: "site-section", siteSection: a! } }).pipe(as("admin"))
        assert.deepStrictEqual(yield* titles, ["Dd", "*Aa", "Bb", "Cc"])
        yield* structure.moveSection(org, site.id, d!, { after: { type: "site-section", siteSection: b! } }).pipe(as("admin"))
        assert.deepStrictEqual(yield* titles, ["*Aa", "Bb", "Dd", "Cc"])
        assert.strictEqual(
          yield* tag(structure.moveSection(org, site.id, d!, { after: { type: "site-section", siteSection: d! } }).pipe(as("admin"))),
          "InvalidInput"
        )
        yield* structure.removeSection(org, site.id, a!).pipe(as("admin"))
        assert.deepStrictEqual(yield* titles, ["*Bb", "Dd", "Cc"])
        yield* structure.removeSection(org, site.id, d!).pipe(as("admin"))
        assert.deepStrictEqual(yield* titles, ["*Bb", "Cc"])
        // Removing what is gone, or as an outsider, answers nothing.
        yield* structure.removeSection(org, site.id, a!).pipe(as("admin"))
        yield* structure.removeSection(org, site.id, c!).pipe(as("outsider"))
        assert.strictEqual(yield* tag(structure.removeSection(org, site.id, c!).pipe(as("reader"))), "Forbidden")
        yield* structure.removeSection(org, site.id, b!).pipe(as("admin"))
        yield* structure.removeSection(org, site.id, c!).pipe(as("admin"))
        assert.deepStrictEqual(yield* titles, [])
        assert.strictEqual((yield* sites.get(org, site.id).pipe(as("admin"))).site.defaultSectionId, null)
      }))

    it.effect("site spaces: moving reorders, deleting the default hands over to the next", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const structure = yield* SiteStructure
        const [x, y, z] = [yield* space("Xx"), yield* space("Yy"), yield* space("Zz")]
        const { site } = yield* sites.create(org, { title: "Variants order", spaces: [x.id, y.id, z.id] }).pipe(as("admin"))
        const paths = Effect.map(structure.structure(org, site.id).pipe(as("reader")), outline)
        const ids = Effect.map(structure.listSiteSpaces(org, site.id, {}, {}).pipe(as("reader")), (p) => p.items.map((i) => i.siteSpace.id))
        const [ix, , iz] = yield* ids
        yield* structure.moveSiteSpace(org, site.id, iz!, { before: { type: "site-space", siteSpace: ix! } }).pipe(as("admin"))
        assert.deepStrictEqual(yield* paths, ["zz", "*xx", "yy"])
        yield* structure.removeSiteSpace(org, site.id, ix!).pipe(as("admin"))
        assert.deepStrictEqual(yield* paths, ["zz", "*yy"])
        assert.strictEqual((yield* sites.get(org, site.id).pipe(as("reader"))).siteSpaces, 2)
      }))

    it.effect("section groups: created with sections, moved, emptied; deleting one leaves its sections in its place", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const structure = yield* SiteStructure
        const s = yield* space("Grouped")
        const { site } = yield* sites.create(org, { title: "Groups" }).pipe(as("admin"))
        const add = (title: string) => Effect.map(structure.addSection(org, site.id, { spaceId: s.id, title }).pipe(as("admin")), (v) => v.section.id)
        const [a, b, c, d] = [yield* add("Aa"), yield* add("Bb"), yield* add("Cc"), yield* add("Dd")]
        const titles = Effect.map(structure.structure(org, site.id).pipe(as("reader")), outline)
        assert.strictEqual(yield* messageOf(structure.addSectionGroup(org, site.id, { title: "" }).pipe(as("admin"))), "title: must be 1 to 100 characters")
        assert.strictEqual(
          yield* messageOf(structure.addSectionGroup(org, site.id, { title: "G", sections: [b!, "nope"] }).pipe(as("admin"))),
          `sections[1]: "nope" is not a section of this site`
        )
        // The refused group left nothing behind.
        assert.deepStrictEqual(yield* titles, ["*Aa", "Bb", "Cc", "Dd"])
        const group = yield* structure.addSectionGroup(org, site.id, { title: "G", icon: "folder", sections: [c!, b!] }).pipe(as("admin"))
        assert.deepStrictEqual(group.sections.map((x) => x.section.title), ["Cc", "Bb"])
        assert.deepStrictEqual(yield* titles, ["*Aa", "Dd", "[G: Cc, Bb]"])
        yield* structure.moveSectionGroup(org, site.id, group.group.id, { before: { type: "site-section", id: d! } }).pipe(as("admin"))
        assert.deepStrictEqual(yield* titles, ["*Aa", "[G: Cc, Bb]", "Dd"])
        yield* structure.addSectionToGroup(org, site.id, group.group.id, a!).pipe(as("admin"))
        assert.deepStrictEqual(yield* titles, ["[G: Cc, Bb, *Aa]", "Dd"])
        yield* structure.removeSectionFromGroup(org, site.id, group.group.id, c!).pipe(as("admin"))
        yield* structure.removeSectionFromGroup(org, site.id, group.group.id, d!).pipe(as("admin"))
        assert.deepStrictEqual(yield* titles, ["[G: Bb, *Aa]", "Cc", "Dd"])
        // A section moved beside a grouped one joins its group.
        yield* structure.moveSection(org, site.id, d!, { before: { type: "site-section", siteSection: b! } }).pipe(as("admin"))
        assert.deepStrictEqual(yield* titles, ["[G: Dd, Bb, *Aa]", "Cc"])
        const updated = yield* structure.updateSectionGroup(org, site.id, group.group.id, { title: "Renamed", icon: null }).pipe(as("admin"))
        assert.deepStrictEqual([updated.group.title, updated.group.icon], ["Renamed", null])
        assert.deepStrictEqual((yield* structure.listSectionGroups(org, site.id, {}).pipe(as("reader"))).items.map((g) => g.group.title), ["Renamed"])
        yield* structure.removeSectionGroup(org, site.id, group.group.id).pipe(as("admin"))
        assert.deepStrictEqual(yield* titles, ["Dd", "Bb", "*Aa", "Cc"])
        assert.deepStrictEqual((yield* structure.listSections(org, site.id, {}).pipe(as("reader"))).items.map((x) => x.section.title), ["Dd", "Bb", "Aa", "Cc"])
      }))

    it.effect("a purged space leaves the sites it was in, and its default hands over", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const spaces = yield* Spaces
        const structure = yield* SiteStructure
        const [gone, kept] = [yield* space("Gone"), yield* space("Kept")]
        const { site } = yield* sites.create(org, { title: "Purged", spaces: [gone.id, kept.id] }).pipe(as("admin"))
        yield* spaces.remove(gone.id).pipe(as("admin"))
        yield* TestClock.adjust("8 days")
        yield* spaces.purgeDeleted
        assert.deepStrictEqual(outline(yield* structure.structure(org, site.id).pipe(as("reader"))), ["*kept"])
        assert.strictEqual((yield* sites.get(org, site.id).pipe(as("reader"))).siteSpaces, 1)
      }))
  })

  describe("ShareLinks and PublishedSites", () => {
    it.effect("share links have random secrets; inactive or deleted ones open nothing; only admins manage them", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const links = yield* ShareLinks
        const { site } = yield* sites.create(org, { title: "Shared", visibility: "share-link" }).pipe(as("admin"))
        const one = yield* links.create(org, site.id, { name: "Partners" }).pipe(as("admin"))
        const two = yield* links.create(org, site.id, { name: "" }).pipe(as("admin"))
        assert.match(one.shareLink.secret, /^[A-Za-z0-9_-]{43}$/)
        assert.notStrictEqual(one.shareLink.secret, two.shareLink.secret)
        assert.isTrue(yield* links.check(site.id, one.shareLink.secret))
        assert.isFalse(yield* links.check("other-site", one.shareLink.secret))
        assert.isFalse(yield* links.check(site.id, "made-up"))
        assert.strictEqual(yield* messageOf(links.create(org, site.id, { name: "n".repeat(51) }).pipe(as("admin"))), "name: must be at most 50 characters")
        assert.strictEqual(yield* tag(links.list(org, site.id, {}).pipe(as("reader"))), "Forbidden")
        assert.strictEqual(yield* tag(links.list(org, site.id, {}).pipe(as("outsider"))), "NotFound")
        const off = yield* links.update(org, site.id, one.shareLink.id, { active: false }).pipe(as("admin"))
        assert.isFalse(off.shareLink.active)
        assert.isFalse(yield* links.check(site.id, one.shareLink.secret))
        yield* links.update(org, site.id, one.shareLink.id, { active: true, name: "Back" }).pipe(as("admin"))
        assert.isTrue(yield* links.check(site.id, one.shareLink.secret))
        assert.deepStrictEqual((yield* links.list(org, site.id, {}).pipe(as("admin"))).items.map((l) => l.shareLink.name), ["Back", ""])
        yield* links.remove(org, site.id, one.shareLink.id).pipe(as("admin"))
        yield* links.remove(org, site.id, one.shareLink.id).pipe(as("admin"))
        assert.isFalse(yield* links.check(site.id, one.shareLink.secret))
        assert.strictEqual(yield* tag(links.update(org, site.id, one.shareLink.id, { active: true }).pipe(as("admin"))), "NotFound")
      }))

    it.effect("the reader's side finds published sites by id and hostname, with structure, key and customization", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const structure = yield* SiteStructure
        const published = yield* PublishedSites
        const [guide, v2] = [yield* space("Guide"), yield* space("Guide v2")]
        const { site } = yield* sites.create(org, { title: "Public", spaces: [guide.id] }).pipe(as("admin"))
        const api = yield* structure.addSection(org, site.id, { spaceId: v2.id, title: "API" }).pipe(as("admin"))
        yield* structure.addSiteSpace(org, site.id, { spaceId: guide.id, sectionId: api.section.id }).pipe(as("admin"))
        yield* sites.update(org, site.id, { hostname: "docs.public.example.com" }).pipe(as("admin"))
        assert.isTrue(Option.isNone(yield* published.byId(site.id)))
        yield* sites.publish(org, site.id).pipe(as("admin"))
        const found = Option.getOrThrow(yield* published.byHostname("docs.public.example.com"))
        assert.strictEqual(found.site.id, site.id)
        assert.deepStrictEqual(
          found.sections.map((s) => [s.section.title, s.default, s.siteSpaces.map((v) => [v.space.title, v.default])]),
          [["Guide", true, [["Guide", true]]], ["API", false, [["Guide v2", true], ["Guide", false]]]]
        )
        assert.deepStrictEqual(found.rootSiteSpaces, [])
        const key = (yield* sites.getPublishingAuth(org, site.id).pipe(as("admin"))).privateKey
        assert.strictEqual(found.visitorKey, key)
        // Stored sealed under the instance secret, never in clear.
        const stored = Option.getOrThrow(yield* (yield* SitesRepo).visitorKey(site.id))
        assert.notInclude(stored, key)
        assert.match(stored, /^v1\./)
        assert.isTrue(Option.isSome(yield* published.byId(site.id)))
        assert.isTrue(Option.isNone(yield* published.byHostname("docs.nothing.example.com")))
        // What it keeps follows this process's writes at once, and the spaces' state on every read.
        yield* sites.update(org, site.id, { title: "Public renamed" }).pipe(as("admin"))
        assert.strictEqual(Option.getOrThrow(yield* published.byId(site.id)).site.title, "Public renamed")
        yield* (yield* Spaces).remove(v2.id).pipe(as("admin"))
        assert.deepStrictEqual(
          Option.getOrThrow(yield* published.byId(site.id)).sections[1]!.siteSpaces.map((v) => [v.space.title, v.default]),
          [["Guide", true]]
        )
        yield* sites.unpublish(org, site.id).pipe(as("admin"))
        assert.isTrue(Option.isNone(yield* published.byId(site.id)))
      }))
  })
})
