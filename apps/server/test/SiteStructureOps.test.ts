/**
 * A site's structure beyond sections (issue 61): external links (in the structure and as tabs of the
 * published site), sorting any item, a variant's own look (over the site's, on the variant's pages
 * only), duplicating a variant, the template, search warm-up and channels; roles, validation and
 * outsiders. GitBook's own client calls each operation.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { backends, baseUrl, inviteAndAccept, memory, newUser, raw } from "./Harness.ts"
import { get, localPath, publishedSite } from "./SiteFixtures.ts"

type Res<T> = Promise<{ status: number; data: T }>
interface Link { readonly object: string; readonly id: string; readonly title: string; readonly url: string; readonly draft: boolean; readonly sectionGroup?: string }
interface Channel { readonly object: string; readonly id: string; readonly type: string; readonly role: string; readonly status: string; readonly setupSettings: Record<string, ReadonlyArray<string>> }
/** The part of GitBook's client this test uses (its typings cannot be followed under NodeNext; see GitBookClient.test.ts). */
interface GitBookOrgs {
  readonly orgs: {
    addExternalLinkToSite(o: string, s: string, data: { title: string; url: string; parent?: string; draft?: boolean }): Res<Link>
    updateSiteExternalLinkById(o: string, s: string, l: string, data: { title?: string; url?: string }): Res<Link>
    deleteSiteExternalLinkById(o: string, s: string, l: string): Res<void>
    sortSiteStructure(o: string, s: string, data: { item: { type: string; id: string }; position: { before?: { type: string; id: string }; after?: { type: string; id: string } } }): Res<{ object: string; id: string }>
    getSiteSpaceCustomizationById(o: string, s: string, ss: string): Res<{ title?: string; styling?: { primaryColor?: { light: string } } }>
    overrideSiteSpaceCustomizationById(o: string, s: string, ss: string, data: Record<string, unknown>): Res<{ title?: string; styling?: { primaryColor?: { light: string } } }>
    deleteSiteSpaceCustomizationById(o: string, s: string, ss: string): Res<void>
    duplicateSiteSpace(o: string, s: string, ss: string, data: { draft?: boolean }): Res<{ object: string; id: string; section?: string; space: { title: string } }>
    applyTemplateToSite(o: string, s: string): Res<void>
    prewarmSiteSearch(o: string, s: string): Res<void>
    listSiteChannels(o: string, s: string): Res<{ items: ReadonlyArray<Channel> }>
    createSiteChannel(o: string, s: string, data: { type: string; setupSettings: Record<string, ReadonlyArray<string>>; role?: string }): Res<Channel>
    getSiteChannelById(o: string, s: string, c: string): Res<Channel>
    updateSiteChannelById(o: string, s: string, c: string, data: { role?: string }): Res<Channel>
    deleteSiteChannelById(o: string, s: string, c: string): Res<void>
  }
}

const messageOf = (answer: { body: unknown }) => (answer.body as { error: { message: string } }).error.message
const call = <T>(f: () => Promise<T>) => Effect.promise(f)

// The memory layer too: its adapters must behave as the SQL ones.
for (const backend of [memory, ...backends]) {
  layer(backend.layer, { timeout: 300_000, excludeTestServices: true })(`site structure operations on ${backend.name}`, (it) => {
    it.effect("GitBook's client: external links in the structure and on the site, sort, a variant's look, duplicate, template, prewarm, channels", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        const { organizationId: o, siteId } = s.siteParams
        const gb = (new GitBookAPI({ endpoint: yield* baseUrl, authToken: s.token }) as unknown as GitBookOrgs).orgs

        // An external link: at the end of the top level, then moved first.
        const added = yield* call(() => gb.addExternalLinkToSite(o, siteId, { title: "Status page", url: "https://status.example.com/" }))
        assert.strictEqual(added.status, 201)
        assert.strictEqual(added.data.object, "site-external-link")
        assert.strictEqual(added.data.draft, false)
        const renamed = yield* call(() => gb.updateSiteExternalLinkById(o, siteId, added.data.id, { title: "System status" }))
        assert.strictEqual(renamed.data.title, "System status")
        const structure = (yield* raw("GET", `/v1/orgs/${o}/sites/${siteId}/structure`, { token: s.token })).body as { structure: ReadonlyArray<{ object: string; id: string }> }
        assert.deepStrictEqual(structure.structure.at(-1), { ...renamed.data })
        const moved = yield* call(() =>
          gb.sortSiteStructure(o, siteId, { item: { type: "site-external-link", id: added.data.id }, position: { before: { type: "site-section", id: s.guidesSection.id } } }))
        assert.strictEqual(moved.data.id, added.data.id)
        const after = (yield* raw("GET", `/v1/orgs/${o}/sites/${siteId}/structure`, { token: s.token })).body as { structure: ReadonlyArray<{ id: string }> }
        assert.deepStrictEqual(after.structure.map((i) => i.id).slice(0, 2), [added.data.id, s.guidesSection.id])
        // A section moved after the link, through the same operation.
        const sectionMoved = yield* call(() =>
          gb.sortSiteStructure(o, siteId, { item: { type: "site-section", id: s.guidesSection.id }, position: { before: { type: "site-external-link", id: added.data.id } } }))
        assert.strictEqual(sectionMoved.data.object, "site-section")
        // A variant moves among its section's variants; a section placed beside a grouped one joins its group.
        const variantFirst = yield* call(() =>
          gb.sortSiteStructure(o, siteId, { item: { type: "site-space", id: s.variant.id }, position: { before: { type: "site-space", id: s.guidesSection.siteSpaces[0]!.id } } }))
        assert.strictEqual(variantFirst.data.object, "site-space")
        const sections = (yield* raw("GET", `/v1/orgs/${o}/sites/${siteId}/sections`, { token: s.token })).body as { items: ReadonlyArray<{ id: string; sectionGroup?: string; siteSpaces: ReadonlyArray<{ id: string }> }> }
        assert.strictEqual(sections.items.find((x) => x.id === s.guidesSection.id)!.siteSpaces[0]!.id, s.variant.id)
        yield* call(() => gb.sortSiteStructure(o, siteId, { item: { type: "site-section", id: s.betaSection.id }, position: { after: { type: "site-section", id: s.apiSection.id } } }))
        const regrouped = (yield* raw("GET", `/v1/orgs/${o}/sites/${siteId}/sections`, { token: s.token })).body as typeof sections
        assert.strictEqual(regrouped.items.find((x) => x.id === s.betaSection.id)!.sectionGroup, s.group.id)

        // The published site shows the link as a tab opening its URL.
        const home = yield* get(s.path)
        assert.strictEqual(home.status, 200)
        assert.include(home.text, `href="https://status.example.com/"`)
        assert.include(home.text, "System status")

        // A variant's own look: shown on its pages only.
        const siteSpaces = (yield* raw("GET", `/v1/orgs/${o}/sites/${siteId}/site-spaces`, { token: s.token })).body as { items: ReadonlyArray<{ id: string; urls: { published?: string } }> }
        const variant = siteSpaces.items.find((x) => x.id === s.variant.id)!
        const overridden = yield* call(() =>
          gb.overrideSiteSpaceCustomizationById(o, siteId, variant.id, { title: "Handbook v2", styling: { primaryColor: { light: "#abcdef", dark: "#abcdef" } } }))
        assert.strictEqual(overridden.status, 200)
        assert.strictEqual(overridden.data.title, "Handbook v2")
        assert.strictEqual(overridden.data.styling?.primaryColor?.light, "#abcdef")
        const read = yield* call(() => gb.getSiteSpaceCustomizationById(o, siteId, variant.id))
        assert.strictEqual(read.data.styling?.primaryColor?.light, "#abcdef")
        const variantPage = yield* get(localPath(variant.urls.published!))
        assert.strictEqual(variantPage.status, 200)
        assert.include(variantPage.text, "#abcdef")
        assert.include(variantPage.text, "Handbook v2")
        const defaultPage = yield* get(s.path)
        assert.notInclude(defaultPage.text, "#abcdef")
        // null resets one field of the override; DELETE resets it all.
        const reset = yield* call(() => gb.overrideSiteSpaceCustomizationById(o, siteId, variant.id, { title: null }))
        assert.strictEqual(reset.data.title, undefined)
        assert.strictEqual(reset.data.styling?.primaryColor?.light, "#abcdef")
        assert.strictEqual((yield* call(() => gb.deleteSiteSpaceCustomizationById(o, siteId, variant.id))).status, 205)
        assert.strictEqual((yield* call(() => gb.deleteSiteSpaceCustomizationById(o, siteId, variant.id))).status, 204)
        // The variant's look is the site's again (GitBook's defaults where the site set nothing).
        assert.strictEqual((yield* call(() => gb.getSiteSpaceCustomizationById(o, siteId, variant.id))).data.styling?.primaryColor?.light, "#346DDB")

        // Duplicate a variant: a copy of its space in the same section.
        const copy = yield* call(() => gb.duplicateSiteSpace(o, siteId, variant.id, {}))
        assert.strictEqual(copy.status, 201)
        assert.strictEqual(copy.data.object, "site-space")
        assert.strictEqual(copy.data.section, s.guidesSection.id)
        assert.include(copy.data.space.title, "Guides v2")
        assert.notStrictEqual(copy.data.id, variant.id)

        assert.strictEqual((yield* call(() => gb.applyTemplateToSite(o, siteId))).status, 200)
        const customization = (yield* raw("GET", `/v1/orgs/${o}/sites/${siteId}/customization`, { token: s.token })).body as { styling?: { font?: unknown } }
        assert.isDefined(customization.styling?.font)
        assert.strictEqual((yield* call(() => gb.prewarmSiteSearch(o, siteId))).status, 204)

        // Channels.
        const channel = yield* call(() => gb.createSiteChannel(o, siteId, { type: "builtin:slack", setupSettings: { allowedChannels: ["support-*"] } }))
        assert.strictEqual(channel.status, 201)
        assert.strictEqual(channel.data.object, "site-channel")
        assert.strictEqual(channel.data.role, "support")
        assert.strictEqual(channel.data.status, "pending")
        assert.deepStrictEqual((yield* call(() => gb.listSiteChannels(o, siteId))).data.items.map((c) => c.id), [channel.data.id])
        assert.deepStrictEqual((yield* call(() => gb.getSiteChannelById(o, siteId, channel.data.id))).data.setupSettings, { allowedChannels: ["support-*"] })
        assert.strictEqual((yield* call(() => gb.updateSiteChannelById(o, siteId, channel.data.id, { role: "collaborator" }))).data.role, "collaborator")
        assert.strictEqual((yield* call(() => gb.deleteSiteChannelById(o, siteId, channel.data.id))).status, 205)
        assert.strictEqual((yield* raw("GET", `/v1/orgs/${o}/sites/${siteId}/channels/${channel.data.id}`, { token: s.token })).status, 404)

        assert.strictEqual((yield* call(() => gb.deleteSiteExternalLinkById(o, siteId, added.data.id))).status, 205)
        assert.strictEqual((yield* call(() => gb.deleteSiteExternalLinkById(o, siteId, added.data.id))).status, 204)
        assert.notInclude((yield* get(s.path)).text, "status.example.com")
      }))

    it.effect("roles, validation naming the field, outsiders, drafts and links in a group", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        const { organizationId: o, siteId } = s.siteParams
        const base = `/v1/orgs/${o}/sites/${siteId}`
        const post = (path: string, body: unknown, token = s.token) => raw("POST", `${base}${path}`, { token, body: JSON.stringify(body) })
        const patch = (path: string, body: unknown, token = s.token) => raw("PATCH", `${base}${path}`, { token, body: JSON.stringify(body) })

        // Validation: a 400 naming the field.
        const cases: ReadonlyArray<readonly [ReturnType<typeof post>, string]> = [
          [post("/external-links", { title: "Bad", url: "ftp://files.example.com" }), "url"],
          [post("/external-links", { title: "Bad", url: "https://x.example.com", parent: "nogroup" }), "parent"],
          [post("/external-links", { title: "Bad", url: "https://x.example.com", condition: "visitor.claims.(" }), "condition"],
          [post("/channels", { type: "builtin:irc", setupSettings: {} }), "type"],
          [post("/channels", { type: "builtin:slack", setupSettings: { allowedChannels: ["has space"] } }), "setupSettings.allowedChannels[0]"],
          [post("/channels", { type: "builtin:github", setupSettings: { allowedRepositories: ["norepo"] } }), "setupSettings.allowedRepositories[0]"],
          [patch(`/site-spaces/${s.variant.id}/customization`, { styling: { primaryColor: { light: "red", dark: "red" } } }), "styling.primaryColor"],
          [patch("/structure/sort", { item: { type: "site-section-group", id: s.group.id }, position: { before: { type: "site-section", id: s.apiSection.id } } }), "position.before"]
        ]
        for (const [request, field] of cases) {
          const answer = yield* request
          assert.strictEqual(answer.status, 400, JSON.stringify(answer.body))
          assert.include(messageOf(answer), field)
        }

        // A link in a group, a draft link: the structure shows both, the published site the live one only.
        const grouped = yield* post("/external-links", { title: "API status", url: "https://api-status.example.com/", parent: s.group.id })
        assert.strictEqual(grouped.status, 201)
        assert.strictEqual((grouped.body as Link).sectionGroup, s.group.id)
        const draft = yield* post("/external-links", { title: "Coming soon", url: "https://soon.example.com/", draft: true })
        assert.strictEqual(draft.status, 201)
        const structure = (yield* raw("GET", `${base}/structure`, { token: s.token })).body as { structure: ReadonlyArray<{ id: string; children?: ReadonlyArray<{ id: string }> }> }
        assert.isTrue(structure.structure.find((i) => i.id === s.group.id)!.children!.some((c) => c.id === (grouped.body as Link).id))
        assert.isTrue(structure.structure.some((i) => i.id === (draft.body as Link).id))
        const home = yield* get(s.path)
        assert.include(home.text, "https://api-status.example.com/")
        assert.notInclude(home.text, "soon.example.com")
        // Deleting the group leaves its link at the top level, where the group stood.
        assert.strictEqual((yield* raw("DELETE", `${base}/section-groups/${s.group.id}`, { token: s.token })).status, 204)
        const flat = (yield* raw("GET", `${base}/structure`, { token: s.token })).body as { structure: ReadonlyArray<{ id: string; object: string; sectionGroup?: string }> }
        const ids = flat.structure.map((i) => i.id)
        const groupedId = (grouped.body as Link).id
        assert.strictEqual(flat.structure.find((i) => i.id === groupedId)?.sectionGroup, undefined)
        assert.strictEqual(ids.indexOf(groupedId), ids.indexOf(s.apiSection.id) + 1)

        // A reader of the organization reads but cannot change; an outsider sees nothing.
        const reader = yield* newUser("Reader")
        yield* inviteAndAccept(s.api, o, reader, "read")
        assert.strictEqual((yield* raw("GET", `${base}/channels`, { token: reader.token })).status, 200)
        assert.strictEqual((yield* raw("GET", `${base}/site-spaces/${s.variant.id}/customization`, { token: reader.token })).status, 200)
        for (const [method, path, body] of [
          ["POST", "/external-links", { title: "Nope", url: "https://nope.example.com" }],
          ["PATCH", `/site-spaces/${s.variant.id}/customization`, { title: "Nope" }],
          ["POST", "/channels", { type: "builtin:slack", setupSettings: { allowedChannels: [] } }],
          ["POST", "/template", undefined],
          ["PATCH", "/structure/sort", { item: { type: "site-section", id: s.apiSection.id }, position: {} }]
        ] as const) {
          const answer = yield* raw(method, `${base}${path}`, { token: reader.token, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
          assert.strictEqual(answer.status, 403, `${method} ${path}: ${JSON.stringify(answer.body)}`)
        }
        // A reader of the organization made an editor of this site changes its structure.
        const editor = yield* newUser("Editor")
        yield* inviteAndAccept(s.api, o, editor, "read")
        yield* s.api.sitePermissions.inviteToSite({ params: s.siteParams, payload: { role: "edit", users: [editor.user.id] } })
        assert.strictEqual((yield* post("/external-links", { title: "Editor's", url: "https://editor.example.com" }, editor.token)).status, 201)
        const outsider = yield* newUser("Mallory")
        for (const path of ["/channels", `/site-spaces/${s.variant.id}/customization`]) {
          assert.strictEqual((yield* raw("GET", `${base}${path}`, { token: outsider.token })).status, 404)
        }
        assert.strictEqual((yield* post("/external-links", { title: "Nope", url: "https://nope.example.com" }, outsider.token)).status, 404)
        assert.strictEqual((yield* post("/search/prewarm", undefined, outsider.token)).status, 404)
        // Another organization's site space is not a variant of this site.
        const other = yield* publishedSite("public")
        assert.strictEqual((yield* raw("GET", `${base}/site-spaces/${other.variant.id}/customization`, { token: s.token })).status, 404)
        assert.strictEqual((yield* raw("GET", `/v1/orgs/${other.organizationId}/sites/${other.siteId}/channels`, { token: s.token })).status, 404)
      }))
  })
}
