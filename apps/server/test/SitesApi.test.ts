/** The sites operations (sites, sections, groups, site spaces, share links) through the real router and the typed client, on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, type Client, errorCode, errorMessage, newUser, organizationWith, publicUrl, raw, spaceWith } from "./Harness.ts"

/** A site of Alice's organization holding `spaces` new spaces (named S1, S2...), with the ids of everything. */
const siteWith = Effect.fnUntraced(function*(spaces: number, roles: Parameters<typeof organizationWith>[0] = []) {
  const setup = yield* organizationWith(roles)
  const { alice, organizationId } = setup
  const created = []
  for (let i = 1; i <= spaces; i++) {
    created.push(yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: `S${i}` } }))
  }
  const site = yield* alice.api.sites.createSite({
    params: { organizationId },
    payload: { title: "Handbook", spaces: created.map((s) => s.id) }
  })
  const siteParams = { organizationId, siteId: site.id }
  return { ...setup, spaces: created, site, siteParams }
})

const newSpace = (api: Client, organizationId: string, title: string) =>
  api.spaces.createSpace({ params: { organizationId }, payload: { title } })

/** The status and message of a raw request by `token`. */
const send = (token: string, method: string, path: string, body?: unknown) =>
  raw(method, path, { token, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })

const messageOf = (body: unknown) => errorMessage(body)

const titles = (list: { readonly items: ReadonlyArray<{ readonly title: string }> }) => list.items.map((s) => s.title)

const long = (n: number) => "x".repeat(n)

for (const backend of backends) {
  layer(backend.layer, { timeout: 180_000, excludeTestServices: true })(`sites API on ${backend.name}`, (it) => {
    it.effect("creates, gets, updates, lists and deletes sites", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space } = yield* spaceWith()
        const api = alice.api
        const other = yield* newSpace(api, organizationId, "Other")
        const bare = yield* api.sites.createSite({ params: { organizationId }, payload: { title: "Bare" } })
        assert.strictEqual(bare.object, "site")
        assert.strictEqual(bare.type, "basic")
        assert.strictEqual(bare.appliedType, "basic")
        assert.strictEqual(bare.title, "Bare")
        assert.strictEqual(bare.visibility, "public")
        assert.isFalse(bare.published)
        assert.strictEqual(bare.siteSpaces, 0)
        assert.deepStrictEqual(bare.adaptiveContent, { enabled: false })
        assert.strictEqual(bare.defaultLevel, "inherit")
        assert.deepStrictEqual(bare.features, [])
        assert.strictEqual(bare.urls.location, `${publicUrl}/v1/orgs/${organizationId}/sites/${bare.id}`)
        assert.isUndefined(bare.urls.published)
        assert.isUndefined(bare.hostname)
        assert.isUndefined(bare.proxy)
        assert.isTrue(bare.permissions.admin)
        assert.isTrue(bare.permissions.view)
        assert.isTrue(bare.permissions.editAdaptiveSchema)

        const withSpaces = yield* api.sites.createSite({
          params: { organizationId },
          payload: { title: "With spaces", spaces: [space.id, other.id], visibility: "unlisted", type: "premium" }
        })
        assert.strictEqual(withSpaces.siteSpaces, 2)
        assert.strictEqual(withSpaces.visibility, "unlisted")
        assert.strictEqual(withSpaces.type, "premium")
        const fresh = yield* api.sites.createSite({ params: { organizationId }, payload: { title: "Fresh", emptySpace: true } })
        assert.strictEqual(fresh.siteSpaces, 1)
        const freshSpaces = yield* api.siteSpaces.listSiteSpaces({ params: { organizationId, siteId: fresh.id }, query: {} })
        assert.strictEqual(freshSpaces.items[0]!.space.title, "Fresh")
        const created = yield* send(alice.token, "POST", `/v1/orgs/${organizationId}/sites`, { title: "Third" })
        assert.strictEqual(created.status, 201)
        const untitled = yield* send(alice.token, "POST", `/v1/orgs/${organizationId}/sites`)
        assert.strictEqual(untitled.status, 201)

        const params = { organizationId, siteId: bare.id }
        assert.deepStrictEqual(yield* api.sites.getSiteById({ params }), bare)
        const updated = yield* api.sites.updateSiteById({
          params,
          payload: {
            title: "Renamed",
            visibility: "share-link",
            basename: "api",
            adaptiveContent: { enabled: true },
            agentsContext: "excluded",
            proxy: "acme.com/docs",
            hostname: "docs.acme.com"
          }
        })
        assert.strictEqual(updated.title, "Renamed")
        assert.strictEqual(updated.visibility, "share-link")
        assert.strictEqual(updated.basename, "api")
        assert.deepStrictEqual(updated.adaptiveContent, { enabled: true })
        assert.strictEqual(updated.agentsContext, "excluded")
        assert.strictEqual(updated.hostname, "docs.acme.com")
        assert.deepStrictEqual(updated.proxy, { origin: "acme.com/docs", target: "https://docs.acme.com/" })
        const taken = yield* api.sites.updateSiteById({ params: { organizationId, siteId: fresh.id }, payload: { hostname: "docs.acme.com" } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(taken), 409)
        const cleared = yield* api.sites.updateSiteById({ params, payload: { proxy: null, hostname: null, basename: null } })
        assert.isUndefined(cleared.proxy)
        assert.isUndefined(cleared.hostname)
        assert.isUndefined(cleared.basename)
        assert.strictEqual(cleared.title, "Renamed")

        const all = yield* api.sites.listSites({ params: { organizationId }, query: {} })
        assert.strictEqual(all.items.length, 5)
        assert.deepStrictEqual(titles(all).slice(0, 4), ["Renamed", "With spaces", "Fresh", "Third"])
        assert.deepStrictEqual(titles(yield* api.sites.listSites({ params: { organizationId }, query: { space: other.id } })), ["With spaces"])
        assert.deepStrictEqual(titles(yield* api.sites.listSites({ params: { organizationId }, query: { title: "fre" } })), ["Fresh"])
        yield* api.sites.publishSite({ params: { organizationId, siteId: fresh.id } })
        assert.deepStrictEqual(titles(yield* api.sites.listSites({ params: { organizationId }, query: { published: true } })), ["Fresh"])
        assert.strictEqual((yield* api.sites.listSites({ params: { organizationId }, query: { published: false } })).items.length, 4)
        const viaQuery = yield* send(alice.token, "GET", `/v1/orgs/${organizationId}/sites?published=true&title=Fresh`)
        assert.deepStrictEqual((viaQuery.body as { items: ReadonlyArray<{ title: string }> }).items.map((s) => s.title), ["Fresh"])
        // GitBook's `type` filter is not Quire's (every listing holds all types): it is ignored, not refused.
        const typed = yield* send(alice.token, "GET", `/v1/orgs/${organizationId}/sites?type=basic&type=premium`)
        assert.strictEqual(typed.status, 200)
        assert.strictEqual((typed.body as { count: number }).count, 5)
        const first = yield* api.sites.listSites({ params: { organizationId }, query: { limit: 2 } })
        assert.strictEqual(first.count, 2)
        const second = yield* api.sites.listSites({ params: { organizationId }, query: { limit: 2, page: first.next!.page } })
        assert.deepStrictEqual([...titles(first), ...titles(second)], titles(all).slice(0, 4))

        const deleted = yield* send(alice.token, "DELETE", `/v1/orgs/${organizationId}/sites/${withSpaces.id}`)
        assert.strictEqual(deleted.status, 204)
        const again = yield* send(alice.token, "DELETE", `/v1/orgs/${organizationId}/sites/${withSpaces.id}`)
        assert.strictEqual(again.status, 204)
        const gone = yield* api.sites.getSiteById({ params: { organizationId, siteId: withSpaces.id } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(gone), 404)
        // The spaces stay.
        const kept = yield* api.spaces.getSpaceById({ params: { spaceId: other.id }, query: {} })
        assert.strictEqual(kept.title, "Other")
      }))

    it.effect("publishes and unpublishes; urls.published of sites, sections and site spaces", () =>
      Effect.gen(function*() {
        const { alice, organizationId, site, siteParams, spaces } = yield* siteWith(2)
        const api = alice.api
        const published = yield* api.sites.publishSite({ params: siteParams })
        assert.isTrue(published.published)
        const root = `${publicUrl}/~sites/${site.id}/`
        assert.strictEqual(published.urls.published, root)
        const publishedStatus = yield* send(alice.token, "POST", `/v1/orgs/${organizationId}/sites/${site.id}/publish`)
        assert.strictEqual(publishedStatus.status, 200)

        // Without sections, site spaces are at the root: the first is the default.
        const rootSpaces = yield* api.siteSpaces.listSiteSpaces({ params: siteParams, query: {} })
        assert.deepStrictEqual(rootSpaces.items.map((s) => [s.space.id, s.default, s.section]), [
          [spaces[0]!.id, true, undefined],
          [spaces[1]!.id, false, undefined]
        ])
        assert.strictEqual(rootSpaces.items[0]!.urls.published, root)
        assert.strictEqual(rootSpaces.items[1]!.urls.published, `${root}${rootSpaces.items[1]!.path}/`)
        const structure = yield* api.sites.getSiteStructure({ params: siteParams, query: {} })
        assert.strictEqual(structure.type, "siteSpaces")
        assert.deepStrictEqual(structure.structure.map((s) => s.id), rootSpaces.items.map((s) => s.id))

        // The first section added to a site with site spaces: they become its default section, the new one follows.
        const third = yield* newSpace(api, organizationId, "Third")
        const guides = yield* api.siteSections.addSectionToSite({ params: siteParams, payload: { spaceId: third.id, title: "Guides" } })
        assert.isFalse(guides.default)
        assert.strictEqual(guides.urls.published, `${root}${guides.path}/`)
        assert.strictEqual(guides.siteSpaces[0]!.urls.published, `${root}${guides.path}/`)
        const [first] = (yield* api.siteSections.listSiteSections({ params: siteParams, query: {} })).items
        assert.isTrue(first!.default)
        assert.strictEqual(first!.title, "S1")
        assert.strictEqual(first!.urls.published, root)
        assert.deepStrictEqual(first!.siteSpaces.map((s) => [s.space.id, s.default, s.urls.published]), [
          [spaces[0]!.id, true, root],
          [spaces[1]!.id, false, `${root}${rootSpaces.items[1]!.path}/`]
        ])
        // A site space added without a section goes to the default section.
        const fifth = yield* newSpace(api, organizationId, "Fifth")
        const variant = yield* api.siteSpaces.addSpaceToSite({ params: siteParams, payload: { spaceId: fifth.id } })
        assert.strictEqual(variant.section, first!.id)
        assert.isFalse(variant.default)
        assert.strictEqual(variant.urls.published, `${root}${variant.path}/`)
        const inGuides = yield* api.siteSpaces.addSpaceToSite({ params: siteParams, payload: { spaceId: fifth.id, sectionId: guides.id } })
        assert.strictEqual(inGuides.section, guides.id)
        assert.strictEqual(inGuides.urls.published, `${root}${guides.path}/${inGuides.path}/`)
        const listed = yield* api.siteSpaces.listSiteSpaces({ params: siteParams, query: {} })
        assert.strictEqual(listed.items.find((s) => s.id === inGuides.id)!.urls.published, `${root}${guides.path}/${inGuides.path}/`)
        assert.strictEqual(listed.items.find((s) => s.id === variant.id)!.urls.published, `${root}${variant.path}/`)
        const sectioned = yield* api.sites.getSiteStructure({ params: siteParams, query: {} })
        assert.strictEqual(sectioned.type, "sections")
        assert.deepStrictEqual(sectioned.structure.map((s) => s.id), [first!.id, guides.id])

        // A custom hostname serves the site at its root.
        yield* api.sites.updateSiteById({ params: siteParams, payload: { hostname: "docs.handbook.com" } })
        const sections = yield* api.siteSections.listSiteSections({ params: siteParams, query: {} })
        assert.deepStrictEqual(sections.items.map((s) => s.urls.published), ["https://docs.handbook.com/", `https://docs.handbook.com/${guides.path}/`])
        const shown = yield* api.spaces.getSpaceById({ params: { spaceId: spaces[0]!.id }, query: {} })
        assert.strictEqual(shown.urls.published, "https://docs.handbook.com/")

        const unpublished = yield* api.sites.unpublishSite({ params: siteParams })
        assert.isFalse(unpublished.published)
        assert.isUndefined(unpublished.urls.published)
        const unlisted = yield* api.spaces.getSpaceById({ params: { spaceId: spaces[0]!.id }, query: {} })
        assert.isUndefined(unlisted.urls.published)
        const after = yield* api.siteSections.listSiteSections({ params: siteParams, query: {} })
        assert.isTrue(after.items.every((s) => s.urls.published === undefined && s.siteSpaces.every((v) => v.urls.published === undefined)))
      }))

    it.effect("adds, updates, moves and deletes sections in a stable order", () =>
      Effect.gen(function*() {
        const { alice, organizationId, siteParams } = yield* siteWith(0)
        const api = alice.api
        const made = []
        for (const title of ["Alpha", "Beta", "Gamma", "Delta"]) {
          const space = yield* newSpace(api, organizationId, `${title} space`)
          made.push(yield* api.siteSections.addSectionToSite({ params: siteParams, payload: { spaceId: space.id, title } }))
        }
        const [alpha, beta, gamma, delta] = made as [typeof made[0], typeof made[0], typeof made[0], typeof made[0]]
        assert.strictEqual(alpha.object, "site-section")
        assert.isTrue(alpha.default)
        assert.isFalse(beta.default)
        assert.strictEqual(alpha.siteSpaces.length, 1)
        assert.isTrue(alpha.siteSpaces[0]!.default)
        assert.strictEqual(alpha.siteSpaces[0]!.space.title, "Alpha space")
        assert.strictEqual(alpha.siteSpaces[0]!.section, alpha.id)
        const untitledSpace = yield* newSpace(api, organizationId, "Named by its space")
        const untitled = yield* api.siteSections.addSectionToSite({ params: siteParams, payload: { spaceId: untitledSpace.id } })
        assert.strictEqual(untitled.title, "Named by its space")
        const status = yield* send(alice.token, "POST", `/v1/orgs/${organizationId}/sites/${siteParams.siteId}/sections`, { spaceId: untitledSpace.id, title: "Again" })
        assert.strictEqual(status.status, 201)
        const order = Effect.map(api.siteSections.listSiteSections({ params: siteParams, query: {} }), (l) => l.items.map((s) => s.title))
        assert.deepStrictEqual(yield* order, ["Alpha", "Beta", "Gamma", "Delta", "Named by its space", "Again"])

        const sectionParams = { ...siteParams, siteSectionId: beta.id }
        const changed = yield* api.siteSections.updateSiteSectionById({
          params: sectionParams,
          payload: { title: "Beta 2", path: "beta-two", description: "The second", icon: "book", condition: "visitor.claims.beta === true" }
        })
        assert.strictEqual(changed.title, "Beta 2")
        assert.strictEqual(changed.path, "beta-two")
        assert.strictEqual(changed.description, "The second")
        assert.strictEqual(changed.icon, "book")
        assert.strictEqual(changed.condition, "visitor.claims.beta === true")
        const kept = yield* api.siteSections.updateSiteSectionById({ params: sectionParams, payload: { title: "Beta" } })
        assert.strictEqual(kept.condition, "visitor.claims.beta === true")
        const removed = yield* api.siteSections.updateSiteSectionById({ params: sectionParams, payload: { condition: null, icon: null, description: null } })
        assert.isUndefined(removed.condition)
        assert.isUndefined(removed.icon)
        assert.isUndefined(removed.description)
        const badSyntax = yield* api.siteSections.updateSiteSectionById({ params: sectionParams, payload: { condition: "visitor.claims.(" } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(badSyntax), 400)
        assert.include(errorMessage(badSyntax), "condition")

        // The default site space of a section.
        const extra = yield* newSpace(api, organizationId, "Beta v2")
        const v2 = yield* api.siteSpaces.addSpaceToSite({ params: siteParams, payload: { spaceId: extra.id, sectionId: beta.id } })
        const newDefault = yield* api.siteSections.updateSiteSectionById({ params: sectionParams, payload: { defaultSiteSpace: v2.id } })
        assert.deepStrictEqual(newDefault.siteSpaces.map((s) => [s.id, s.default]), [[beta.siteSpaces[0]!.id, false], [v2.id, true]])

        // Moves.
        const moved = yield* api.siteSections.moveSiteSection({
          params: { ...siteParams, siteSectionId: delta.id },
          payload: { position: { before: { type: "site-section", siteSection: alpha.id } } }
        })
        assert.strictEqual(moved.id, delta.id)
        assert.deepStrictEqual(yield* order, ["Delta", "Alpha", "Beta", "Gamma", "Named by its space", "Again"])
        yield* api.siteSections.moveSiteSection({
          params: { ...siteParams, siteSectionId: delta.id },
          payload: { position: { after: { type: "site-section", siteSection: beta.id } } }
        })
        assert.deepStrictEqual(yield* order, ["Alpha", "Beta", "Delta", "Gamma", "Named by its space", "Again"])
        yield* api.siteSections.moveSiteSection({
          params: { ...siteParams, siteSectionId: alpha.id },
          payload: { position: { after: { type: "site-section", siteSection: untitled.id } } }
        })
        assert.deepStrictEqual(yield* order, ["Beta", "Delta", "Gamma", "Named by its space", "Alpha", "Again"])
        const page = yield* api.siteSections.listSiteSections({ params: siteParams, query: { limit: 4 } })
        const rest = yield* api.siteSections.listSiteSections({ params: siteParams, query: { limit: 4, page: page.next!.page } })
        assert.deepStrictEqual([...page.items, ...rest.items].map((s) => s.title), yield* order)

        // Deleting keeps the order of the rest; the default passes on.
        const deleted = yield* send(alice.token, "DELETE", `/v1/orgs/${organizationId}/sites/${siteParams.siteId}/sections/${gamma.id}`)
        assert.strictEqual(deleted.status, 204)
        yield* api.siteSections.deleteSiteSectionById({ params: { ...siteParams, siteSectionId: gamma.id } })
        assert.deepStrictEqual(yield* order, ["Beta", "Delta", "Named by its space", "Alpha", "Again"])
        // Without a position a section moves to the end, as GitBook's client expects.
        yield* api.siteSections.moveSiteSection({ params: { ...siteParams, siteSectionId: delta.id }, payload: {} })
        assert.deepStrictEqual(yield* order, ["Beta", "Named by its space", "Alpha", "Again", "Delta"])
        yield* api.siteSections.deleteSiteSectionById({ params: { ...siteParams, siteSectionId: alpha.id } })
        const left = yield* api.siteSections.listSiteSections({ params: siteParams, query: {} })
        assert.strictEqual(left.items.filter((s) => s.default).length, 1)
        const missing = yield* api.siteSections.updateSiteSectionById({ params: { ...siteParams, siteSectionId: gamma.id }, payload: { title: "Ghost" } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(missing), 404)
      }))

    it.effect("groups sections, moves groups and keeps sections when a group goes", () =>
      Effect.gen(function*() {
        const { alice, organizationId, siteParams } = yield* siteWith(0)
        const api = alice.api
        const sections = []
        for (const title of ["One", "Two", "Three"]) {
          const space = yield* newSpace(api, organizationId, title)
          sections.push(yield* api.siteSections.addSectionToSite({ params: siteParams, payload: { spaceId: space.id, title } }))
        }
        const [one, two, three] = sections as [typeof sections[0], typeof sections[0], typeof sections[0]]
        const group = yield* api.siteSectionGroups.addSectionGroupToSite({
          params: siteParams,
          payload: { title: "Products", icon: "box", sections: [two.id, one.id] }
        })
        assert.strictEqual(group.object, "site-section-group")
        assert.strictEqual(group.title, "Products")
        assert.strictEqual(group.icon, "box")
        assert.deepStrictEqual(group.sections.map((s) => s.id), [two.id, one.id])
        assert.isTrue(group.sections.every((s) => s.sectionGroup === group.id))
        const groupParams = { ...siteParams, siteSectionGroupId: group.id }
        const status = yield* send(alice.token, "POST", `/v1/orgs/${organizationId}/sites/${siteParams.siteId}/section-groups`, { title: "X" })
        assert.strictEqual(status.status, 201)
        const other = (status.body as { id: string }).id

        const added = yield* send(alice.token, "POST", `/v1/orgs/${organizationId}/sites/${siteParams.siteId}/section-groups/${group.id}/sections`, { sectionId: three.id })
        assert.strictEqual(added.status, 201)
        assert.deepStrictEqual((added.body as { sections: ReadonlyArray<{ id: string }> }).sections.map((s) => s.id), [two.id, one.id, three.id])
        const out = yield* send(alice.token, "DELETE", `/v1/orgs/${organizationId}/sites/${siteParams.siteId}/section-groups/${group.id}/sections/${one.id}`)
        assert.strictEqual(out.status, 204)
        yield* api.siteSectionGroups.removeSectionFromSiteSectionGroup({ params: { ...groupParams, siteSectionId: one.id } })
        const groups = yield* api.siteSectionGroups.listSiteSectionGroups({ params: siteParams, query: {} })
        assert.deepStrictEqual(groups.items.map((g) => g.id), [group.id, other])
        assert.deepStrictEqual(groups.items[0]!.sections.map((s) => s.id), [two.id, three.id])
        const loose = yield* api.siteSections.listSiteSections({ params: siteParams, query: {} })
        assert.isUndefined(loose.items.find((s) => s.id === one.id)!.sectionGroup)

        const renamed = yield* api.siteSectionGroups.updateSiteSectionGroupById({ params: groupParams, payload: { title: "Catalogue", icon: null } })
        assert.strictEqual(renamed.title, "Catalogue")
        assert.isUndefined(renamed.icon)

        const structureOrder = Effect.map(api.sites.getSiteStructure({ params: siteParams, query: {} }), (s) => {
          assert.strictEqual(s.type, "sections")
          return s.structure.map((item) => item.id)
        })
        const before = yield* structureOrder
        assert.include(before, group.id)
        assert.include(before, one.id)
        assert.notInclude(before, two.id)
        yield* api.siteSectionGroups.moveSiteSectionGroup({ params: { ...siteParams, siteSectionGroupId: other }, payload: { position: { before: { type: "site-section-group", id: group.id } } } })
        const afterMove = yield* structureOrder
        assert.isBelow(afterMove.indexOf(other), afterMove.indexOf(group.id))
        yield* api.siteSectionGroups.moveSiteSectionGroup({
          params: { ...siteParams, siteSectionGroupId: other },
          payload: { position: { after: { type: "site-section", id: afterMove.at(-1)! } } }
        })
        const atEnd = yield* structureOrder
        assert.strictEqual(atEnd.at(-1), other)

        const deleted = yield* send(alice.token, "DELETE", `/v1/orgs/${organizationId}/sites/${siteParams.siteId}/section-groups/${group.id}`)
        assert.strictEqual(deleted.status, 204)
        yield* api.siteSectionGroups.deleteSiteSectionGroupById({ params: groupParams })
        const remaining = yield* api.siteSections.listSiteSections({ params: siteParams, query: {} })
        assert.deepStrictEqual(remaining.items.map((s) => s.id).toSorted(), [one.id, two.id, three.id].toSorted())
        assert.isTrue(remaining.items.every((s) => s.sectionGroup === undefined))
        const afterDelete = yield* structureOrder
        // Its sections stay where the group stood, before the group moved to the end.
        assert.deepStrictEqual(afterDelete.toSorted(), [one.id, two.id, three.id, other].toSorted())
        assert.strictEqual(afterDelete.at(-1), other)
        assert.notInclude(afterDelete, group.id)
      }))

    it.effect("adds, lists, updates, moves and removes site spaces", () =>
      Effect.gen(function*() {
        const { alice, organizationId, siteParams, spaces } = yield* siteWith(3)
        const api = alice.api
        const list = (query: { readonly default?: boolean } = {}) => api.siteSpaces.listSiteSpaces({ params: siteParams, query })
        const all = yield* list()
        assert.deepStrictEqual(all.items.map((s) => s.space.id), spaces.map((s) => s.id))
        const [first, second, third] = all.items as unknown as [typeof all.items[0], typeof all.items[0], typeof all.items[0]]
        assert.strictEqual(first.object, "site-space")
        assert.strictEqual(first.space.object, "space")
        assert.strictEqual(first.space.title, "S1")
        assert.strictEqual(first.title, "S1")
        assert.isTrue(first.default)
        assert.isUndefined(first.section)
        assert.deepStrictEqual((yield* list({ default: true })).items.map((s) => s.id), [first.id])
        assert.deepStrictEqual((yield* list({ default: false })).items.map((s) => s.id), [second.id, third.id])
        const viaQuery = yield* send(alice.token, "GET", `/v1/orgs/${organizationId}/sites/${siteParams.siteId}/site-spaces?default=false`)
        assert.strictEqual((viaQuery.body as { count: number }).count, 2)
        const site = yield* api.sites.getSiteById({ params: siteParams })
        assert.strictEqual(site.siteSpaces, 3)

        const fourthSpace = yield* newSpace(api, organizationId, "S4")
        const added = yield* send(alice.token, "POST", `/v1/orgs/${organizationId}/sites/${siteParams.siteId}/site-spaces`, { spaceId: fourthSpace.id })
        assert.strictEqual(added.status, 201)
        const fourth = added.body as { id: string; default: boolean; space: { id: string } }
        assert.isFalse(fourth.default)
        assert.strictEqual(fourth.space.id, fourthSpace.id)

        const p = (id: string) => ({ ...siteParams, siteSpaceId: id })
        const updated = yield* api.siteSpaces.updateSiteSpaceById({ params: p(second.id), payload: { path: "v2", condition: "visitor.claims.plan == \"pro\"" } })
        assert.strictEqual(updated.path, "v2")
        assert.strictEqual(updated.condition, "visitor.claims.plan == \"pro\"")
        const repointed = yield* api.siteSpaces.updateSiteSpaceById({ params: p(second.id), payload: { spaceId: fourthSpace.id } })
        assert.strictEqual(repointed.space.id, fourthSpace.id)
        assert.strictEqual(repointed.condition, "visitor.claims.plan == \"pro\"")
        const uncond = yield* api.siteSpaces.updateSiteSpaceById({ params: p(second.id), payload: { condition: null } })
        assert.isUndefined(uncond.condition)
        const bad = yield* api.siteSpaces.updateSiteSpaceById({ params: p(second.id), payload: { condition: "visitor.claims.plan ===" } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(bad), 400)
        assert.include(errorMessage(bad), "condition")

        const order = Effect.map(list(), (l) => l.items.map((s) => s.id))
        yield* api.siteSpaces.moveSiteSpace({ params: p(third.id), payload: { position: { before: { type: "site-space", siteSpace: first.id } } } })
        assert.deepStrictEqual(yield* order, [third.id, first.id, second.id, fourth.id])
        yield* api.siteSpaces.moveSiteSpace({ params: p(third.id), payload: { position: { after: { type: "site-space", siteSpace: second.id } } } })
        assert.deepStrictEqual(yield* order, [first.id, second.id, third.id, fourth.id])
        yield* api.siteSpaces.moveSiteSpace({ params: p(first.id), payload: { position: { after: { type: "site-space", siteSpace: fourth.id } } } })
        assert.deepStrictEqual(yield* order, [second.id, third.id, fourth.id, first.id])

        const deleted = yield* send(alice.token, "DELETE", `/v1/orgs/${organizationId}/sites/${siteParams.siteId}/site-spaces/${third.id}`)
        assert.strictEqual(deleted.status, 204)
        yield* api.siteSpaces.deleteSiteSpaceById({ params: p(third.id) })
        assert.deepStrictEqual(yield* order, [second.id, fourth.id, first.id])
        assert.strictEqual((yield* api.sites.getSiteById({ params: siteParams })).siteSpaces, 3)
        // Removing the default passes it on to another site space.
        yield* api.siteSpaces.deleteSiteSpaceById({ params: p(first.id) })
        assert.strictEqual((yield* list({ default: true })).items.length, 1)
        const space = yield* api.spaces.getSpaceById({ params: { spaceId: spaces[0]!.id }, query: {} })
        assert.strictEqual(space.title, "S1")
      }))

    it.effect("share links: secrets in urls.published, shareKey on reads, deactivation at once", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId, site, siteParams, spaces } = yield* siteWith(2, ["read"])
        const api = alice.api
        yield* api.sites.updateSiteById({ params: siteParams, payload: { visibility: "share-link" } })
        yield* api.sites.publishSite({ params: siteParams })
        const root = `${publicUrl}/~sites/${site.id}/`

        const created = yield* send(alice.token, "POST", `/v1/orgs/${organizationId}/sites/${site.id}/share-links`, { name: "Partners" })
        assert.strictEqual(created.status, 201)
        const link = created.body as { object: string; id: string; name: string; active: boolean; createdAt: string; urls: { published: string } }
        assert.strictEqual(link.object, "share-link")
        assert.strictEqual(link.name, "Partners")
        assert.isTrue(link.active)
        assert.isString(link.createdAt)
        const secret = new URL(link.urls.published).searchParams.get("share")!
        assert.isTrue(secret.length >= 32, secret)
        assert.strictEqual(link.urls.published, `${root}?share=${encodeURIComponent(secret)}`)
        const second = yield* api.siteShareLinks.createSiteShareLink({ params: siteParams, payload: { name: "Press" } })
        assert.notStrictEqual(new URL(second.urls.published!).searchParams.get("share"), secret)
        const links = yield* api.siteShareLinks.listSiteShareLinks({ params: siteParams, query: {} })
        assert.deepStrictEqual(links.items.map((l) => l.name), ["Partners", "Press"])

        // Without a key (or with a wrong one) published URLs carry no secret; with an active key they do.
        const shared = `${root}?share=${encodeURIComponent(secret)}`
        assert.strictEqual((yield* api.sites.getSiteById({ params: siteParams })).urls.published, root)
        const siteSpaces = (shareKey?: string) =>
          api.siteSpaces.listSiteSpaces({ params: siteParams, query: shareKey === undefined ? {} : { shareKey } })
        assert.strictEqual((yield* siteSpaces()).items[0]!.urls.published, root)
        assert.strictEqual((yield* siteSpaces("not-a-key")).items[0]!.urls.published, root)
        assert.strictEqual((yield* siteSpaces(secret)).items[0]!.urls.published, shared)
        const profile = yield* api.sites.getPublishedContentSite({ params: siteParams, query: { shareKey: secret } })
        assert.strictEqual(profile.site.urls.published, shared)
        const structure = yield* api.sites.getSiteStructure({ params: siteParams, query: { shareKey: secret } })
        assert.strictEqual(structure.type === "siteSpaces" ? structure.structure[0]!.urls.published : undefined, shared)
        const space = yield* newSpace(api, organizationId, "Sectioned")
        yield* api.siteSections.addSectionToSite({ params: siteParams, payload: { spaceId: space.id, title: "Main" } })
        const withKey = yield* api.siteSections.listSiteSections({ params: siteParams, query: { shareKey: secret } })
        assert.strictEqual(withKey.items[0]!.urls.published, shared)
        const withoutKey = yield* api.siteSections.listSiteSections({ params: siteParams, query: {} })
        assert.strictEqual(withoutKey.items[0]!.urls.published, root)
        // getSpaceById: where the published site shows the space.
        const spaceUrl = (spaceId: string, shareKey?: string) =>
          Effect.map(api.spaces.getSpaceById({ params: { spaceId }, query: shareKey === undefined ? {} : { shareKey } }), (s) => s.urls.published)
        assert.strictEqual(yield* spaceUrl(spaces[0]!.id, secret), shared)
        assert.strictEqual(yield* spaceUrl(spaces[0]!.id), root)
        assert.strictEqual(yield* spaceUrl(spaces[0]!.id, "not-a-key"), root)
        const secondPath = (yield* siteSpaces()).items.find((v) => v.space.id === spaces[1]!.id)!.path
        assert.strictEqual(yield* spaceUrl(spaces[1]!.id, secret), `${root}${secondPath}/?share=${encodeURIComponent(secret)}`)
        const sectionSpaceUrl = yield* spaceUrl(space.id, secret)
        assert.isTrue(sectionSpaceUrl?.startsWith(root) && sectionSpaceUrl.endsWith(`/?share=${encodeURIComponent(secret)}`), sectionSpaceUrl)
        const elsewhere = yield* newSpace(api, organizationId, "In no site")
        assert.isUndefined(yield* spaceUrl(elsewhere.id, secret))
        const readerView = yield* members.read!.api.spaces.getSpaceById({ params: { spaceId: spaces[0]!.id }, query: { shareKey: secret } })
        assert.strictEqual(readerView.urls.published, shared)

        // Deactivated: the same key gets nothing more than no key.
        const off = yield* api.siteShareLinks.updateSiteShareLinkById({ params: { ...siteParams, shareLinkId: link.id }, payload: { active: false } })
        assert.isFalse(off.active)
        assert.strictEqual(off.name, "Partners")
        assert.strictEqual(off.urls.published, link.urls.published)
        assert.strictEqual((yield* api.siteSections.listSiteSections({ params: siteParams, query: { shareKey: secret } })).items[0]!.urls.published, root)
        assert.strictEqual(yield* spaceUrl(spaces[0]!.id, secret), root)
        const renamed = yield* api.siteShareLinks.updateSiteShareLinkById({ params: { ...siteParams, shareLinkId: link.id }, payload: { name: "Old partners", active: true } })
        assert.strictEqual(renamed.name, "Old partners")
        assert.isTrue(renamed.active)
        assert.strictEqual((yield* api.siteSections.listSiteSections({ params: siteParams, query: { shareKey: secret } })).items[0]!.urls.published, shared)

        const deleted = yield* send(alice.token, "DELETE", `/v1/orgs/${organizationId}/sites/${site.id}/share-links/${link.id}`)
        assert.strictEqual(deleted.status, 204)
        yield* api.siteShareLinks.deleteSiteShareLinkById({ params: { ...siteParams, shareLinkId: link.id } })
        assert.strictEqual((yield* api.siteSections.listSiteSections({ params: siteParams, query: { shareKey: secret } })).items[0]!.urls.published, root)
        assert.deepStrictEqual((yield* api.siteShareLinks.listSiteShareLinks({ params: siteParams, query: {} })).items.map((l) => l.name), ["Press"])
        // A revoked key resolves nothing on a space either.
        assert.strictEqual(yield* spaceUrl(spaces[0]!.id, secret), root)
      }))

    it.effect("adaptive schema, template conditions, the published profile, the visitor key and the customization", () =>
      Effect.gen(function*() {
        const { alice, organizationId, site, siteParams } = yield* siteWith(1)
        const api = alice.api
        const none = yield* api.sites.getSiteAdaptiveSchema({ params: siteParams }).pipe(Effect.flip)
        assert.strictEqual(errorCode(none), 404)
        assert.deepStrictEqual(yield* api.sites.listSiteAdaptiveTemplateConditions({ params: siteParams }), { items: [] })

        const malformed = yield* api.sites.updateSiteAdaptiveSchema({
          params: siteParams,
          payload: { jsonSchema: { type: "object", properties: { plan: { type: 12 } }, additionalProperties: false } }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(malformed), 400)
        assert.include(errorMessage(malformed), "jsonSchema")
        const jsonSchema = {
          type: "object",
          properties: {
            unsigned: {
              type: "object",
              description: "Unsigned claims of the site visitor.",
              properties: { plan: { type: "string", description: "The plan", enum: ["free", "pro"] } },
              additionalProperties: false
            },
            beta: { type: "boolean", description: "Beta tester" }
          },
          additionalProperties: false
        }
        const stored = yield* api.sites.updateSiteAdaptiveSchema({ params: siteParams, payload: { jsonSchema } })
        assert.strictEqual(stored.object, "site-adaptive-schema")
        assert.deepStrictEqual(stored.jsonSchema, jsonSchema)
        assert.isString(stored.updatedAt)
        assert.deepStrictEqual(yield* api.sites.getSiteAdaptiveSchema({ params: siteParams }), stored)
        const conditions = yield* api.sites.listSiteAdaptiveTemplateConditions({ params: siteParams })
        assert.isAbove(conditions.items.length, 0)
        assert.isTrue(conditions.items.every((c) => c.condition.includes("visitor.claims") && c.description !== ""))
        assert.isTrue(conditions.items.some((c) => c.condition.includes("beta")))

        const profile = yield* api.sites.getPublishedContentSite({ params: siteParams, query: {} })
        assert.strictEqual(profile.object, "published-content-site")
        assert.strictEqual(profile.site.id, site.id)
        assert.strictEqual(profile.structure.type, "siteSpaces")
        assert.strictEqual(profile.structure.structure.length, 1)
        // Each site space's settings, as GitBook's renderer looks them up: the site's, none overridden.
        assert.deepStrictEqual(profile.customizations.siteSpaces, { [profile.structure.structure[0]!.id]: profile.customizations.site })
        assert.deepStrictEqual(profile.scripts, [])
        const missing = yield* api.sites.getPublishedContentSite({ params: { organizationId, siteId: "nope" }, query: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(missing), 404)

        const auth = yield* api.sites.getSitePublishingAuthById({ params: siteParams })
        assert.strictEqual(auth.object, "publishing-auth")
        assert.isAtLeast(auth.privateKey.length, 32)
        assert.strictEqual((yield* api.sites.getSitePublishingAuthById({ params: siteParams })).privateKey, auth.privateKey)
        const rotated = yield* api.sites.regenerateSitePublishingAuthById({ params: siteParams })
        assert.notStrictEqual(rotated.privateKey, auth.privateKey)
        assert.strictEqual((yield* api.sites.getSitePublishingAuthById({ params: siteParams })).privateKey, rotated.privateKey)
        assert.isUndefined(rotated.fallbackURL)
        // The sign-in fallback URL: set, kept across reads and key rotation, left alone when absent, removed with null.
        const withFallback = yield* api.sites.updateSitePublishingAuthById({
          params: siteParams,
          payload: { backend: "custom", fallbackURL: "https://auth.example.com/login?app=docs" }
        })
        assert.strictEqual(withFallback.fallbackURL, "https://auth.example.com/login?app=docs")
        assert.strictEqual(withFallback.privateKey, rotated.privateKey)
        assert.strictEqual((yield* api.sites.regenerateSitePublishingAuthById({ params: siteParams })).fallbackURL, "https://auth.example.com/login?app=docs")
        const unchanged = yield* api.sites.updateSitePublishingAuthById({ params: siteParams, payload: { backend: "custom" } })
        assert.strictEqual(unchanged.fallbackURL, "https://auth.example.com/login?app=docs")
        assert.strictEqual((yield* api.sites.getSitePublishingAuthById({ params: siteParams })).fallbackURL, "https://auth.example.com/login?app=docs")
        const removed = yield* api.sites.updateSitePublishingAuthById({ params: siteParams, payload: { backend: "custom", fallbackURL: null } })
        assert.isUndefined(removed.fallbackURL)
        assert.isUndefined((yield* api.sites.getSitePublishingAuthById({ params: siteParams })).fallbackURL)

        const initial = yield* api.sites.getSiteCustomizationById({ params: siteParams, query: {} })
        assert.isUndefined(initial.updatedAt)
        const customized = yield* api.sites.updateSiteCustomizationById({
          params: siteParams,
          payload: {
            title: "Handbook docs",
            styling: { primaryColor: { light: "#346DDB", dark: "#7aa2f7" }, corners: "rounded" },
            themes: { default: "dark", toggeable: true },
            socialAccounts: [{ platform: "github", handle: "quire", display: { footer: true, header: false } }]
          }
        })
        assert.strictEqual(customized.title, "Handbook docs")
        assert.deepStrictEqual(customized.socialAccounts, [{ platform: "github", handle: "quire", display: { footer: true, header: false } }])
        assert.deepStrictEqual(customized.styling?.primaryColor, { light: "#346DDB", dark: "#7aa2f7" })
        assert.isString(customized.updatedAt)
        const read = yield* api.sites.getSiteCustomizationById({ params: siteParams, query: {} })
        assert.deepStrictEqual(read.themes, { default: "dark", toggeable: true })
        // What a read answered, `updatedAt` included, is accepted back as it is; the server sets the time.
        const sentBack = yield* send(alice.token, "PUT", `/v1/orgs/${organizationId}/sites/${site.id}/customization`, { ...read, updatedAt: "2001-01-01T00:00:00.000Z" })
        assert.strictEqual(sentBack.status, 200)
        const again = yield* api.sites.getSiteCustomizationById({ params: siteParams, query: {} })
        assert.deepStrictEqual({ ...again, updatedAt: undefined }, { ...read, updatedAt: undefined })
        assert.notStrictEqual(again.updatedAt, "2001-01-01T00:00:00.000Z")
        const reprofile = yield* api.sites.getPublishedContentSite({ params: siteParams, query: {} })
        assert.strictEqual(reprofile.customizations.site.title, "Handbook docs")
        // What the site set, over GitBook's default of each other setting, field by field.
        assert.deepInclude(reprofile.customizations.site.styling, { primaryColor: { light: "#346DDB", dark: "#7aa2f7" }, font: "Inter", depth: "subtle" })
        assert.deepStrictEqual(reprofile.customizations.site.themes, { default: "dark", toggeable: true })
        assert.strictEqual(reprofile.customizations.site.socialAccounts?.[0]?.handle, "quire")
        const badAccount = yield* send(alice.token, "PUT", `/v1/orgs/${organizationId}/sites/${site.id}/customization`, {
          socialAccounts: [{ platform: "myspace", handle: "quire", display: { footer: true, header: false } }]
        })
        assert.strictEqual(badAccount.status, 400)
        assert.include(messageOf(badAccount.body), "socialAccounts[0].platform")
        const badColor = yield* send(alice.token, "PUT", `/v1/orgs/${organizationId}/sites/${site.id}/customization`, { styling: { primaryColor: { light: "red;}", dark: "#000" } } })
        assert.strictEqual(badColor.status, 400)
        assert.include(messageOf(badColor.body), "styling.primaryColor.light")
      }))

    it.effect("members read sites, admins change them, outsiders see nothing", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId, site, siteParams, spaces } = yield* siteWith(1, ["read", "create"])
        const api = alice.api
        const section = yield* api.siteSections.addSectionToSite({ params: siteParams, payload: { spaceId: spaces[0]!.id, title: "Main" } })
        const group = yield* api.siteSectionGroups.addSectionGroupToSite({ params: siteParams, payload: { title: "G" } })
        const link = yield* api.siteShareLinks.createSiteShareLink({ params: siteParams, payload: { name: "L" } })
        const siteSpaceId = section.siteSpaces[0]!.id

        for (const member of [members.read!, members.create!]) {
          const seen = yield* member.api.sites.getSiteById({ params: siteParams })
          assert.isTrue(seen.permissions.view)
          assert.isFalse(seen.permissions.admin)
          assert.isFalse(seen.permissions.editAdaptiveSchema)
          assert.strictEqual((yield* member.api.sites.listSites({ params: { organizationId }, query: {} })).items.length, 1)
          assert.strictEqual((yield* member.api.siteSections.listSiteSections({ params: siteParams, query: {} })).items.length, 2)
          assert.strictEqual((yield* member.api.siteSpaces.listSiteSpaces({ params: siteParams, query: {} })).items.length, 2)
          assert.strictEqual((yield* member.api.siteSectionGroups.listSiteSectionGroups({ params: siteParams, query: {} })).items.length, 1)
          yield* member.api.sites.getSiteStructure({ params: siteParams, query: {} })
          yield* member.api.sites.getPublishedContentSite({ params: siteParams, query: {} })
          yield* member.api.sites.getSiteCustomizationById({ params: siteParams, query: {} })

          const refusals = [
            member.api.sites.createSite({ params: { organizationId }, payload: { title: "Mine" } }),
            member.api.sites.updateSiteById({ params: siteParams, payload: { title: "Mine" } }),
            member.api.sites.deleteSiteById({ params: siteParams }),
            member.api.sites.publishSite({ params: siteParams }),
            member.api.sites.unpublishSite({ params: siteParams }),
            member.api.sites.updateSiteAdaptiveSchema({ params: siteParams, payload: { jsonSchema: { type: "object", properties: {}, additionalProperties: false } } }),
            member.api.sites.getSitePublishingAuthById({ params: siteParams }),
            member.api.sites.regenerateSitePublishingAuthById({ params: siteParams }),
            member.api.sites.updateSiteCustomizationById({ params: siteParams, payload: { title: "Mine" } }),
            member.api.siteSections.addSectionToSite({ params: siteParams, payload: { spaceId: spaces[0]!.id } }),
            member.api.siteSections.updateSiteSectionById({ params: { ...siteParams, siteSectionId: section.id }, payload: { title: "Mine" } }),
            member.api.siteSections.deleteSiteSectionById({ params: { ...siteParams, siteSectionId: section.id } }),
            member.api.siteSections.moveSiteSection({ params: { ...siteParams, siteSectionId: section.id }, payload: { position: { before: { type: "site-section", siteSection: section.id } } } }),
            member.api.siteSectionGroups.addSectionGroupToSite({ params: siteParams, payload: { title: "Mine" } }),
            member.api.siteSectionGroups.updateSiteSectionGroupById({ params: { ...siteParams, siteSectionGroupId: group.id }, payload: { title: "Mine" } }),
            member.api.siteSectionGroups.deleteSiteSectionGroupById({ params: { ...siteParams, siteSectionGroupId: group.id } }),
            member.api.siteSectionGroups.addSectionToSiteSectionGroup({ params: { ...siteParams, siteSectionGroupId: group.id }, payload: { sectionId: section.id } }),
            member.api.siteSpaces.addSpaceToSite({ params: siteParams, payload: { spaceId: spaces[0]!.id } }),
            member.api.siteSpaces.updateSiteSpaceById({ params: { ...siteParams, siteSpaceId }, payload: { path: "mine" } }),
            member.api.siteSpaces.deleteSiteSpaceById({ params: { ...siteParams, siteSpaceId } }),
            member.api.siteShareLinks.listSiteShareLinks({ params: siteParams, query: {} }),
            member.api.siteShareLinks.createSiteShareLink({ params: siteParams, payload: { name: "Mine" } }),
            member.api.siteShareLinks.updateSiteShareLinkById({ params: { ...siteParams, shareLinkId: link.id }, payload: { active: false } }),
            member.api.siteShareLinks.deleteSiteShareLinkById({ params: { ...siteParams, shareLinkId: link.id } })
          ]
          for (const [i, attempt] of refusals.entries()) {
            const error = yield* Effect.flip(attempt as Effect.Effect<unknown, unknown>)
            assert.strictEqual(errorCode(error), 403, `attempt ${i}: ${JSON.stringify(error)}`)
          }
        }
        assert.strictEqual((yield* api.siteSections.listSiteSections({ params: siteParams, query: {} })).items.length, 2)
        assert.isTrue((yield* api.siteShareLinks.listSiteShareLinks({ params: siteParams, query: {} })).items[0]!.active)

        const outsider = yield* newUser("Olivia")
        const hidden = [
          outsider.api.sites.getSiteById({ params: siteParams }),
          outsider.api.sites.listSites({ params: { organizationId }, query: {} }),
          outsider.api.sites.getPublishedContentSite({ params: siteParams, query: {} }),
          outsider.api.sites.getSiteStructure({ params: siteParams, query: {} }),
          outsider.api.sites.getSiteAdaptiveSchema({ params: siteParams }),
          outsider.api.sites.getSiteCustomizationById({ params: siteParams, query: {} }),
          outsider.api.sites.updateSiteById({ params: siteParams, payload: { title: "Theirs" } }),
          outsider.api.siteSections.listSiteSections({ params: siteParams, query: {} }),
          outsider.api.siteSpaces.listSiteSpaces({ params: siteParams, query: {} }),
          outsider.api.siteSectionGroups.listSiteSectionGroups({ params: siteParams, query: {} }),
          outsider.api.siteShareLinks.listSiteShareLinks({ params: siteParams, query: {} })
        ]
        for (const [i, attempt] of hidden.entries()) {
          const error = yield* Effect.flip(attempt as Effect.Effect<unknown, unknown>)
          assert.strictEqual(errorCode(error), 404, `attempt ${i}: ${JSON.stringify(error)}`)
        }
        const outsiderDelete = yield* send(outsider.token, "DELETE", `/v1/orgs/${organizationId}/sites/${site.id}`)
        assert.strictEqual(outsiderDelete.status, 204)
        assert.strictEqual((yield* api.sites.getSiteById({ params: siteParams })).id, site.id)
      }))

    it.effect("refuses bad input with a 400 naming the field", () =>
      Effect.gen(function*() {
        const { alice, organizationId, site, spaces } = yield* siteWith(1)
        const base = `/v1/orgs/${organizationId}/sites/${site.id}`
        const section = yield* alice.api.siteSections.addSectionToSite({ params: { organizationId, siteId: site.id }, payload: { spaceId: spaces[0]!.id, title: "Main" } })
        const siteSpaceId = section.siteSpaces[0]!.id
        const group = yield* alice.api.siteSectionGroups.addSectionGroupToSite({ params: { organizationId, siteId: site.id }, payload: { title: "G" } })
        const link = yield* alice.api.siteShareLinks.createSiteShareLink({ params: { organizationId, siteId: site.id }, payload: { name: "L" } })
        const cases: ReadonlyArray<readonly [string, string, unknown, string]> = [
          ["POST", `/v1/orgs/${organizationId}/sites`, { title: "A" }, "title"],
          ["POST", `/v1/orgs/${organizationId}/sites`, { title: long(129) }, "title"],
          ["POST", `/v1/orgs/${organizationId}/sites`, { visibility: "secret" }, "visibility"],
          ["POST", `/v1/orgs/${organizationId}/sites`, { type: "gold" }, "type"],
          ["POST", `/v1/orgs/${organizationId}/sites`, { spaces: ["a b"] }, "spaces"],
          ["PATCH", base, { hostname: "acme.com" }, "hostname"],
          ["PATCH", base, { hostname: "Docs.Acme.com" }, "hostname"],
          ["PATCH", base, { hostname: "docs.-acme.com" }, "hostname"],
          ["PATCH", base, { proxy: "https://acme.com/docs" }, "proxy"],
          ["PATCH", base, { proxy: "acme.com" }, "proxy"],
          ["PATCH", base, { basename: "" }, "basename"],
          ["PATCH", base, { basename: long(101) }, "basename"],
          ["PATCH", base, { agentsContext: "maybe" }, "agentsContext"],
          ["PATCH", base, { adaptiveContent: { enabled: "yes" } }, "adaptiveContent.enabled"],
          ["PATCH", base, { visibility: "private" }, "visibility"],
          ["PUT", `${base}/adaptive-schema`, { jsonSchema: "object" }, "jsonSchema"],
          ["POST", `${base}/sections`, { title: "Main" }, "spaceId"],
          ["POST", `${base}/sections`, { spaceId: spaces[0]!.id, title: "A" }, "title"],
          ["POST", `${base}/sections`, { spaceId: spaces[0]!.id, title: long(129) }, "title"],
          ["POST", `${base}/sections`, { spaceId: spaces[0]!.id, icon: long(51) }, "icon"],
          ["PATCH", `${base}/sections/${section.id}`, { path: "" }, "path"],
          ["PATCH", `${base}/sections/${section.id}`, { path: long(101) }, "path"],
          ["PATCH", `${base}/sections/${section.id}`, { path: "a/b" }, "path"],
          ["PATCH", `${base}/sections/${section.id}`, { condition: "" }, "condition"],
          ["PATCH", `${base}/sections/${section.id}`, { condition: long(1025) }, "condition"],
          ["PATCH", `${base}/sections/${section.id}`, { condition: "visitor.claims.(" }, "condition"],
          ["PATCH", `${base}/sections/${section.id}`, { description: long(257) }, "description"],
          ["PATCH", `${base}/sections/${section.id}`, { icon: long(51) }, "icon"],
          ["POST", `${base}/sections/${section.id}/move`, { position: { before: { type: "site-space", siteSection: section.id } } }, "position"],
          ["POST", `${base}/section-groups`, { title: "" }, "title"],
          ["POST", `${base}/section-groups`, { title: long(101) }, "title"],
          ["POST", `${base}/section-groups`, { icon: "box" }, "title"],
          ["PATCH", `${base}/section-groups/${group.id}`, { icon: long(51) }, "icon"],
          ["POST", `${base}/section-groups/${group.id}/sections`, {}, "sectionId"],
          ["POST", `${base}/site-spaces`, {}, "spaceId"],
          ["PATCH", `${base}/site-spaces/${siteSpaceId}`, { path: long(101) }, "path"],
          ["PATCH", `${base}/site-spaces/${siteSpaceId}`, { condition: long(1025) }, "condition"],
          ["PATCH", `${base}/site-spaces/${siteSpaceId}`, { condition: "visitor.claims.plan ===" }, "condition"],
          ["POST", `${base}/share-links`, { name: long(51) }, "name"],
          ["POST", `${base}/share-links`, {}, "name"],
          ["PATCH", `${base}/share-links/${link.id}`, {}, "active"],
          ["PATCH", `${base}/publishing/auth`, { backend: "custom", fallbackURL: "http://auth.example.com/login" }, "fallbackURL"],
          ["PATCH", `${base}/publishing/auth`, { backend: "custom", fallbackURL: "/login" }, "fallbackURL"],
          ["PATCH", `${base}/publishing/auth`, { backend: "custom", fallbackURL: "https://user:secret@auth.example.com/" }, "fallbackURL"],
          ["PATCH", `${base}/publishing/auth`, { backend: "custom", fallbackURL: `https://a.example.com/${long(2048)}` }, "fallbackURL"],
          ["PATCH", `${base}/publishing/auth`, { backend: "integration", fallbackURL: "https://auth.example.com/" }, "backend"],
          ["PATCH", `${base}/share-links/${link.id}`, { active: "no" }, "active"],
          ["PUT", `${base}/customization`, { themes: { default: "sepia", toggeable: true } }, "themes.default"],
          ["GET", `/v1/orgs/${organizationId}/sites?limit=1001`, undefined, "limit"],
          ["GET", `${base}/site-spaces?default=maybe`, undefined, "default"]
        ]
        for (const [method, path, body, field] of cases) {
          const answer = yield* send(alice.token, method, path, body)
          assert.strictEqual(answer.status, 400, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`)
          const error = (answer.body as { error: { code: number; message: string } }).error
          assert.strictEqual(error.code, 400)
          assert.include(error.message, field, `${method} ${path} ${JSON.stringify(body)}`)
        }
        // None of them changed anything.
        const unchanged = yield* alice.api.sites.getSiteById({ params: { organizationId, siteId: site.id } })
        assert.strictEqual(unchanged.title, "Handbook")
        assert.isUndefined(unchanged.hostname)
      }))
  })
}
