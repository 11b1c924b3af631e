/** GitBook's own client (`@gitbook/api`) pointed at Quire's sites operations. */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { adminToken, backends, baseUrl, publicUrl } from "./Harness.ts"

interface Site {
  readonly id: string
  readonly title: string
  readonly visibility: string
  readonly published: boolean
  readonly siteSpaces: number
  readonly urls: { readonly published?: string }
}
interface SiteSpace {
  readonly id: string
  readonly default: boolean
  readonly space: { readonly id: string; readonly title: string }
  readonly urls: { readonly published?: string }
}
type Destination = { kind: string; [key: string]: unknown }
interface Redirect {
  readonly object: string
  readonly id: string
  readonly source: string
  readonly draft: boolean
  readonly permanent: boolean
  readonly destination: Destination
  readonly updatedAt?: string
}
type Reply<A> = Promise<{ data: A; status: number }>

/**
 * The part of GitBook's client this test uses. Its published typings import `./client` without an
 * extension, which NodeNext resolution cannot follow, so the methods are typed here.
 */
interface GitBookClient {
  readonly orgs: {
    createOrganization(body: { title: string }): Reply<{ id: string }>
    createSpace(organizationId: string, body: { title: string }): Reply<{ id: string; title: string }>
    createSite(organizationId: string, body: { title: string; visibility?: string; spaces?: Array<string> }): Reply<Site>
    listSites(organizationId: string, query?: { title?: string; published?: boolean }): Reply<{ items: Array<Site> }>
    updateSiteById(organizationId: string, siteId: string, body: { title?: string }): Reply<Site>
    publishSite(organizationId: string, siteId: string): Reply<Site>
    addSpaceToSite(organizationId: string, siteId: string, body: { spaceId: string }): Reply<SiteSpace>
    listSiteSpaces(organizationId: string, siteId: string, query?: { shareKey?: string; default?: boolean }): Reply<{ items: Array<SiteSpace> }>
    addSectionToSite(organizationId: string, siteId: string, body: { spaceId: string; title?: string }): Reply<{ id: string; title: string; default: boolean }>
    listSiteSections(organizationId: string, siteId: string, query?: { shareKey?: string }): Reply<{ items: Array<{ id: string; title: string; urls: { published?: string } }> }>
    createSiteShareLink(organizationId: string, siteId: string, body: { name: string }): Reply<{ id: string; active: boolean; urls: { published: string } }>
    updateSiteShareLinkById(organizationId: string, siteId: string, shareLinkId: string, body: { active: boolean }): Reply<{ active: boolean }>
    getPublishedContentSite(organizationId: string, siteId: string, query?: { shareKey?: string }): Reply<{ object: string; site: Site; structure: { type: string } }>
    getSiteAdaptiveSchema(organizationId: string, siteId: string): Reply<unknown>
    deleteSiteById(organizationId: string, siteId: string): Reply<unknown>
    createSiteRedirect(organizationId: string, siteId: string, body: { source: string; permanent?: boolean; captureWildcard?: boolean; destination: Destination }): Reply<Redirect>
    bulkUpsertSiteRedirects(organizationId: string, siteId: string, body: { redirects: Array<{ source: string; intent?: string; destination?: Destination | null }> }): Reply<{ results: Array<{ status: string; source: string; draft: boolean; id?: string }> }>
    listSiteRedirects(organizationId: string, siteId: string, query?: { draft?: boolean; orderBy?: string; search?: string; limit?: number; page?: string }): Reply<{ items: Array<Redirect>; next?: { page: string }; count: number }>
    updateSiteRedirectById(organizationId: string, siteId: string, siteRedirectId: string, body: { source?: string; permanent?: boolean }): Reply<Redirect>
    deleteSiteRedirectById(organizationId: string, siteId: string, siteRedirectId: string): Reply<unknown>
    getSiteRedirectBySource(organizationId: string, siteId: string, query: { source: string }): Reply<{ redirect: Redirect; target: string }>
  }
}

const connect = (endpoint: string): GitBookClient =>
  new GitBookAPI({ endpoint, authToken: adminToken }) as unknown as GitBookClient

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`@gitbook/api sites on ${backend.name}`, (it) => {
    it.effect("creates a site, adds spaces and sections, publishes it and shares it", () =>
      Effect.gen(function*() {
        const gitbook = connect(yield* baseUrl)
        const result = yield* Effect.promise(async () => {
          const { orgs } = gitbook
          const { data: org } = await orgs.createOrganization({ title: "Compat Sites" })
          const { data: guide } = await orgs.createSpace(org.id, { title: "Guide" })
          const { data: reference } = await orgs.createSpace(org.id, { title: "Reference" })
          const created = await orgs.createSite(org.id, { title: "Public docs", visibility: "share-link", spaces: [guide.id] })
          const site = created.data
          const added = await orgs.addSpaceToSite(org.id, site.id, { spaceId: reference.id })
          const { data: renamed } = await orgs.updateSiteById(org.id, site.id, { title: "Docs" })
          const { data: published } = await orgs.publishSite(org.id, site.id)
          const { data: listed } = await orgs.listSites(org.id, { published: true })
          const { data: siteSpaces } = await orgs.listSiteSpaces(org.id, site.id, { default: false })
          const section = await orgs.addSectionToSite(org.id, site.id, { spaceId: reference.id, title: "API" })
          const link = await orgs.createSiteShareLink(org.id, site.id, { name: "Partners" })
          const secret = new URL(link.data.urls.published).searchParams.get("share") ?? ""
          const { data: sections } = await orgs.listSiteSections(org.id, site.id, { shareKey: secret })
          const { data: profile } = await orgs.getPublishedContentSite(org.id, site.id, { shareKey: secret })
          const { data: off } = await orgs.updateSiteShareLinkById(org.id, site.id, link.data.id, { active: false })
          const { data: unshared } = await orgs.listSiteSections(org.id, site.id, { shareKey: secret })
          const noSchema = await orgs.getSiteAdaptiveSchema(org.id, site.id).then(() => "found", (error: Error) => error.message)
          const deleted = await orgs.deleteSiteById(org.id, site.id)
          return { created, added, renamed, published, listed, siteSpaces, section, link, secret, sections, profile, off, unshared, noSchema, deleted }
        })
        const siteId = result.created.data.id
        const root = `${publicUrl}/~sites/${siteId}/`
        assert.strictEqual(result.created.status, 201)
        assert.strictEqual(result.created.data.siteSpaces, 1)
        assert.strictEqual(result.added.status, 201)
        assert.strictEqual(result.added.data.space.title, "Reference")
        assert.strictEqual(result.renamed.title, "Docs")
        assert.isTrue(result.published.published)
        assert.strictEqual(result.published.urls.published, root)
        assert.deepStrictEqual(result.listed.items.map((s) => s.id), [siteId])
        assert.deepStrictEqual(result.siteSpaces.items.map((s) => s.space.title), ["Reference"])
        assert.strictEqual(result.section.status, 201)
        assert.strictEqual(result.section.data.title, "API")
        assert.strictEqual(result.link.status, 201)
        assert.isTrue(result.link.data.active)
        assert.isAtLeast(result.secret.length, 32)
        assert.strictEqual(result.sections.items[0]!.urls.published, `${root}?share=${encodeURIComponent(result.secret)}`)
        assert.strictEqual(result.profile.object, "published-content-site")
        assert.strictEqual(result.profile.structure.type, "sections")
        assert.strictEqual(result.profile.site.urls.published, `${root}?share=${encodeURIComponent(result.secret)}`)
        assert.isFalse(result.off.active)
        assert.strictEqual(result.unshared.items[0]!.urls.published, root)
        assert.match(result.noSchema, /not found|adaptive schema/i)
        assert.strictEqual(result.deleted.status, 204)
      }))

    it.effect("manages a site's redirects and resolves one by its source", () =>
      Effect.gen(function*() {
        const gitbook = connect(yield* baseUrl)
        const result = yield* Effect.promise(async () => {
          const { orgs } = gitbook
          const { data: org } = await orgs.createOrganization({ title: "Compat Redirects" })
          const { data: site } = await orgs.createSite(org.id, { title: "Docs" })
          await orgs.publishSite(org.id, site.id)
          const created = await orgs.createSiteRedirect(org.id, site.id, { source: "/old", permanent: true, destination: { kind: "external", url: "https://example.com/new" } })
          const bulk = await orgs.bulkUpsertSiteRedirects(org.id, site.id, {
            redirects: [
              { source: "/a", destination: { kind: "external", url: "https://example.com/a" } },
              { source: "/b", intent: "draft", destination: { kind: "external", url: "https://example.com/b" } },
              { source: "/b", intent: "publish" }
            ]
          })
          const firstPage = await orgs.listSiteRedirects(org.id, site.id, { orderBy: "source", limit: 2 })
          const secondPage = await orgs.listSiteRedirects(org.id, site.id, { orderBy: "source", limit: 2, page: firstPage.data.next?.page ?? "" })
          const updated = await orgs.updateSiteRedirectById(org.id, site.id, created.data.id, { source: "/older" })
          const resolved = await orgs.getSiteRedirectBySource(org.id, site.id, { source: "/older" })
          const missing = await orgs.getSiteRedirectBySource(org.id, site.id, { source: "/old" }).then(() => 200, (error: { code?: number; message: string }) => error.code ?? error.message)
          const deleted = await orgs.deleteSiteRedirectById(org.id, site.id, created.data.id)
          const again = await orgs.deleteSiteRedirectById(org.id, site.id, created.data.id)
          return { created, bulk, firstPage, secondPage, updated, resolved, missing, deleted, again }
        })
        assert.strictEqual(result.created.status, 201)
        assert.strictEqual(result.created.data.object, "site-redirect")
        assert.deepStrictEqual(result.bulk.data.results.map((r) => [r.status, r.source, r.draft]), [["created", "/a", false], ["created", "/b", true], ["published", "/b", false]])
        assert.deepStrictEqual(result.firstPage.data.items.map((r) => r.source), ["/a", "/b"])
        assert.deepStrictEqual(result.secondPage.data.items.map((r) => r.source), ["/old"])
        assert.strictEqual(result.updated.data.source, "/older")
        assert.isString(result.updated.data.updatedAt)
        assert.strictEqual(result.resolved.data.redirect.id, result.created.data.id)
        assert.strictEqual(result.resolved.data.target, "https://example.com/new")
        assert.strictEqual(result.missing, 404)
        assert.strictEqual(result.deleted.status, 205)
        assert.strictEqual(result.again.status, 204)
      }))
  })
}
