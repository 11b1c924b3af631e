/**
 * What GitBook's site renderer asks of Quire: a published URL resolved for a visitor with a token
 * that reads only what the site shows them, the site's search, its events, embeds and a page's
 * meta links and document; through the typed client on memory and PostgreSQL.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { VisitorToken } from "@quire/sites"
import { client, errorCode, memoryAndPostgres, organizationWith, publicUrl, raw } from "./Harness.ts"
import { publishedSite, write } from "./SiteFixtures.ts"

const event = (type: string, extra: Record<string, unknown> = {}) => ({
  type,
  session: { visitorId: "v1", sessionId: "s1", cookies: {}, userAgent: "test", language: null, referrer: null },
  location: { url: "http://quire.test/", siteSection: null, siteSpace: null, siteShareKey: null, space: null, revision: null, page: null },
  ...extra
})

/** The titles of a published site's sections, in order (a group's in its place). */
const sectionsOf = (profile: { readonly structure: { readonly type: string; readonly structure: ReadonlyArray<unknown> } }) =>
  profile.structure.structure.flatMap((item) => {
    const entry = item as { readonly title?: string; readonly sections?: ReadonlyArray<{ readonly title: string }> }
    return entry.sections === undefined ? [entry.title] : entry.sections.map((x) => x.title)
  })

/** A site reader's token's payload, read as GitBook's renderer reads it (`jwtDecode`): it is signed, not encrypted. */
const payloadOf = (token: string): Record<string, unknown> => {
  const parts = token.split(".")
  assert.strictEqual(parts.length, 3, "a compact JWT")
  return JSON.parse(Buffer.from(parts[1]!, "base64url").toString()) as Record<string, unknown>
}

/** When a site reader's token expires. */
const expOf = (token: string): number => payloadOf(token)["exp"] as number

for (const backend of memoryAndPostgres) {
  layer(backend.layer, { timeout: 180_000, excludeTestServices: true })(`published content API on ${backend.name}`, (it) => {
    it.effect("resolves a published URL to its section, site space, space, revision and page path", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        const root = `${publicUrl}/~sites/${s.siteId}/`
        const guides = yield* s.api.spaceContent.getCurrentRevision({ params: { spaceId: s.guides.id }, query: {} })
        const page = yield* s.api.urls.resolvePublishedContentByUrl({ payload: { url: `${root}install/docker` } })
        assert.isTrue("space" in page)
        if (!("space" in page)) return
        assert.strictEqual(page.site, s.siteId)
        assert.strictEqual(page.organization, s.organizationId)
        assert.strictEqual(page.siteSection, s.guidesSection.id)
        assert.strictEqual(page.space, s.guides.id)
        assert.strictEqual(page.revision, guides.id)
        assert.strictEqual(page.pathname, "install/docker")
        assert.strictEqual(page.basePath, `/~sites/${s.siteId}/`)
        assert.strictEqual(page.siteBasePath, `/~sites/${s.siteId}/`)
        assert.strictEqual(page.canonicalUrl, `${root}install/docker`)
        // The Guides section has a second variant a further segment could name.
        assert.isFalse(page.complete)
        // GitBook's `SiteAPIToken`, which its renderer decodes for the visitor's claims and the expiry.
        const [header, payload] = [JSON.parse(Buffer.from(page.apiToken.split(".")[0]!, "base64url").toString()), payloadOf(page.apiToken)]
        assert.deepStrictEqual(header, { alg: "HS256", typ: "JWT" })
        assert.deepInclude(payload, {
          kind: "site",
          organization: s.organizationId,
          site: s.siteId,
          siteSection: s.guidesSection.id,
          siteSpace: page.siteSpace,
          space: s.guides.id,
          claims: {}
        })
        assert.includeMembers(payload["spaces"] as Array<string>, [s.guides.id, s.apiSpace.id])
        assert.notInclude(payload["spaces"] as Array<string>, s.beta.id)
        assert.isAbove(payload["exp"] as number, Date.now() / 1000 + 3000)

        // GitBook's renderer asks `https://` for every URL; the server serves its sites over http here.
        const overHttps = yield* s.api.urls.resolvePublishedContentByUrl({ payload: { url: `${root.replace(/^http:/, "https:")}install/docker` } })
        assert.isTrue("space" in overHttps && overHttps.space === s.guides.id && overHttps.pathname === "install/docker")
        assert.isTrue("canonicalUrl" in overHttps && overHttps.canonicalUrl === `${root}install/docker`)

        const api = yield* s.api.urls.resolvePublishedContentByUrl({ payload: { url: `${root}api/endpoints` } })
        assert.isTrue("space" in api && api.space === s.apiSpace.id && api.pathname === "endpoints" && api.basePath === `/~sites/${s.siteId}/api/`)
        assert.isTrue("complete" in api && api.complete)

        // The Beta section shows only to visitors whose unsigned claims say so.
        const beta = yield* s.api.urls.resolvePublishedContentByUrl({
          payload: { url: `${root}beta/features`, visitor: { unsignedClaims: { beta: true } } }
        })
        assert.isTrue("space" in beta && beta.space === s.beta.id && beta.pathname === "features")
        const noBeta = yield* s.api.urls.resolvePublishedContentByUrl({ payload: { url: `${root}beta/features` } })
        assert.isTrue("space" in noBeta && noBeta.space === s.guides.id)

        // A site's own hostname serves it at `/`.
        const hostname = `docs-${s.siteId.toLowerCase().replaceAll(/[^a-z0-9]/g, "")}.example.com`
        yield* s.api.sites.updateSiteById({ params: s.siteParams, payload: { hostname } })
        const onHost = yield* s.api.urls.resolvePublishedContentByUrl({ payload: { url: `https://${hostname}/api/endpoints` } })
        assert.isTrue("space" in onHost)
        if (!("space" in onHost)) return
        assert.deepStrictEqual(
          [onHost.space, onHost.pathname, onHost.basePath, onHost.siteBasePath, onHost.canonicalUrl],
          [s.apiSpace.id, "endpoints", "/api/", "/", `https://${hostname}/api/endpoints`]
        )

        const unknown = yield* Effect.flip(s.api.urls.resolvePublishedContentByUrl({ payload: { url: `${publicUrl}/~sites/site_nope/` } }))
        assert.strictEqual(errorCode(unknown), 404)
        // Without a token, as GitBook's renderer asks: the same answer, no more than the site shows anyone.
        const anonymous = yield* raw("POST", "/v1/urls/published", { body: JSON.stringify({ url: `${root}install` }) })
        assert.strictEqual(anonymous.status, 200, JSON.stringify(anonymous.body))
        assert.strictEqual((anonymous.body as { space: string }).space, s.guides.id)
        const anonymousReader = (anonymous.body as { apiToken: string }).apiToken
        const outside = yield* raw("GET", `/v1/spaces/${s.guides.id}/change-requests`, { token: anonymousReader })
        assert.strictEqual(outside.status, 401)
        const otherOperation = yield* raw("GET", "/v1/orgs")
        assert.strictEqual(otherOperation.status, 401)
        const bad = yield* raw("POST", "/v1/urls/published", { token: s.token, body: JSON.stringify({ url: "not a url" }) })
        assert.strictEqual(bad.status, 400)
        assert.deepInclude(bad.body as object, { error: { code: 400, message: "url: is not an absolute URL", field: "url" } })
      }))

    it.effect("the apiToken reads what the site shows that visitor and nothing more", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        const root = `${publicUrl}/~sites/${s.siteId}/`
        const found = yield* s.api.urls.resolvePublishedContentByUrl({ payload: { url: `${root}install` } })
        if (!("apiToken" in found)) return assert.fail("no content")
        const reader = yield* client(found.apiToken)
        const revision = found.revision!
        const page = yield* reader.revisions.getPageInRevisionByPath({
          params: { spaceId: found.space, revisionId: revision, pagePath: "install/docker" },
          query: { format: "markdown" }
        })
        assert.include(JSON.stringify(page), "giraffes")
        const document = yield* reader.revisions.getPageDocumentInRevisionById({
          params: { spaceId: found.space, revisionId: revision, pageId: page.id },
          query: { evaluated: "deterministic-only", dereferenced: "reusable-contents" }
        })
        assert.strictEqual(document.object, "document")
        assert.include(JSON.stringify(document.nodes), "giraffes")
        const space = yield* reader.spaces.getSpaceById({ params: { spaceId: found.space }, query: {} })
        assert.strictEqual(space.id, s.guides.id)
        assert.isFalse(space.permissions.edit)
        const meta = yield* reader.revisions.listRevisionPageMetaLinks({ params: { spaceId: found.space, revisionId: revision, pageId: page.id } })
        assert.deepStrictEqual(meta, { alternates: [] })

        // The site as its renderer reads it: the sections this visitor sees, Beta not among them.
        const profile = yield* reader.sites.getPublishedContentSite({ params: s.siteParams, query: {} })
        assert.deepStrictEqual(sectionsOf(profile), ["Guides", "API"])
        // Every setting GitBook's renderer reads is there, GitBook's default where the site set none.
        const settings = profile.customizations.site
        assert.deepInclude(settings.styling, { theme: "clean", font: "Inter", corners: "rounded", search: "prominent" })
        assert.deepStrictEqual(settings.styling?.sidebar, { background: "default", list: "default" })
        assert.deepStrictEqual(settings.header, { preset: "default", links: [] })
        assert.deepStrictEqual(
          [settings.footer, settings.themes, settings.socialAccounts, settings.internationalization, settings.favicon],
          [{ groups: [] }, { default: "system", toggeable: true }, [], { locale: "en" }, {}]
        )
        assert.deepStrictEqual(profile.customizations.siteSpaces[found.siteSpace], settings)
        const asMember = yield* s.api.sites.getPublishedContentSite({ params: s.siteParams, query: {} })
        assert.deepStrictEqual(sectionsOf(asMember), ["Guides", "Beta", "API"])
        const betaLookup = yield* s.api.urls.resolvePublishedContentByUrl({ payload: { url: `${root}beta/`, visitor: { unsignedClaims: { beta: true } } } })
        if (!("apiToken" in betaLookup)) return assert.fail("no content")
        const betaProfile = yield* (yield* client(betaLookup.apiToken)).sites.getPublishedContentSite({ params: s.siteParams, query: {} })
        assert.deepStrictEqual(sectionsOf(betaProfile), ["Guides", "Beta", "API"])
        const otherSite = yield* s.api.sites.createSite({ params: { organizationId: s.organizationId }, payload: { title: "Other" } })
        const notTheirs = yield* Effect.flip(reader.sites.getPublishedContentSite({ params: { ...s.siteParams, siteId: otherSite.id }, query: {} }))
        assert.strictEqual(errorCode(notTheirs), 404)

        // Beta is not shown to this visitor; another space of the organization is on no site.
        const beta = yield* s.api.spaceContent.getCurrentRevision({ params: { spaceId: s.beta.id }, query: {} })
        const hidden = yield* Effect.flip(reader.revisions.getRevisionById({ params: { spaceId: s.beta.id, revisionId: beta.id }, query: {} }))
        assert.strictEqual(errorCode(hidden), 404)
        // The payload is readable, not writable: a token whose payload names Beta no longer verifies.
        const [head, , signature] = found.apiToken.split(".")
        const widened = Buffer.from(JSON.stringify({ ...payloadOf(found.apiToken), spaces: [s.beta.id] })).toString("base64url")
        const altered = yield* raw("GET", `/v1/spaces/${s.beta.id}/revisions/${beta.id}`, { token: `${head}.${widened}.${signature}` })
        assert.strictEqual(altered.status, 401)
        const other = yield* s.api.spaces.createSpace({ params: { organizationId: s.organizationId }, payload: { title: "Internal" } })
        const internal = yield* Effect.flip(reader.revisions.getRevisionById({ params: { spaceId: other.id, revisionId: other.revision }, query: {} }))
        assert.strictEqual(errorCode(internal), 404)
        // Another organization's space, read with the same ids as its owner would.
        const outsider = yield* organizationWith()
        const theirs = yield* outsider.alice.api.spaces.createSpace({ params: { organizationId: outsider.organizationId }, payload: { title: "Theirs" } })
        const foreign = yield* Effect.flip(reader.revisions.getRevisionById({ params: { spaceId: theirs.id, revisionId: theirs.revision }, query: {} }))
        assert.strictEqual(errorCode(foreign), 404)
        // Nothing but what a site's renderer reads: no change requests, no organizations, no history.
        const listing = yield* Effect.flip(reader.changeRequests.listChangeRequestsForSpace({ params: { spaceId: found.space }, query: {} }))
        assert.strictEqual(errorCode(listing), 401)
        const orgs = yield* Effect.flip(reader.sites.listSites({ params: { organizationId: s.organizationId }, query: {} }))
        assert.strictEqual(errorCode(orgs), 401)
        // A past revision of the space is not what the site shows.
        yield* s.api.changeRequests.createChangeRequest({ params: { spaceId: found.space }, payload: { subject: "Later" } })
        const first = (yield* s.api.revisions.listRevisionsInSpace({ params: { spaceId: found.space }, query: {} })).items.at(-1)!
        const past = yield* Effect.flip(reader.revisions.getRevisionById({ params: { spaceId: found.space, revisionId: first.id }, query: {} }))
        assert.strictEqual(errorCode(past), 404)

        // A space the site stops publishing is not read with a token issued before.
        const v2 = yield* s.api.spaceContent.getCurrentRevision({ params: { spaceId: s.guidesV2.id }, query: {} })
        const before = yield* reader.revisions.getRevisionById({ params: { spaceId: s.guidesV2.id, revisionId: v2.id }, query: {} })
        assert.strictEqual(before.id, v2.id)
        yield* s.api.siteSpaces.deleteSiteSpaceById({ params: { ...s.siteParams, siteSpaceId: s.variant.id } })
        const removed = yield* Effect.flip(reader.revisions.getRevisionById({ params: { spaceId: s.guidesV2.id, revisionId: v2.id }, query: {} }))
        assert.strictEqual(errorCode(removed), 404)

        // An unpublished site resolves to nothing, and its tokens stop reading.
        yield* s.api.sites.unpublishSite({ params: s.siteParams })
        const gone = yield* Effect.flip(s.api.urls.resolvePublishedContentByUrl({ payload: { url: `${root}install` } }))
        assert.strictEqual(errorCode(gone), 404)
        const after = yield* Effect.flip(reader.revisions.getRevisionById({ params: { spaceId: found.space, revisionId: revision }, query: {} }))
        assert.strictEqual(errorCode(after), 401)
      }))

    it.effect("a share-link site needs its key; a visitor-auth site the visitor's token", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("share-link")
        const root = `${publicUrl}/~sites/${s.siteId}/`
        const refused = yield* Effect.flip(s.api.urls.resolvePublishedContentByUrl({ payload: { url: `${root}install` } }))
        assert.strictEqual(errorCode(refused), 403)
        const link = yield* s.api.siteShareLinks.createSiteShareLink({ params: s.siteParams, payload: { name: "Partners" } })
        const secret = new URL(link.urls.published ?? "").searchParams.get("share")!
        const shared = yield* s.api.urls.resolvePublishedContentByUrl({ payload: { url: `${root}install?share=${secret}` } })
        assert.isTrue("shareKey" in shared && shared.shareKey === secret && shared.pathname === "install")

        const v = yield* publishedSite("visitor-auth")
        const vroot = `${publicUrl}/~sites/${v.siteId}/`
        yield* v.api.siteSections.updateSiteSectionById({
          params: { ...v.siteParams, siteSectionId: v.betaSection.id },
          payload: { condition: `visitor.claims.plan === "pro"` }
        })
        yield* write(v.api, v.guides.id, [{
          operation: "insert_page",
          title: "Plans",
          slug: "plans",
          document: { markdown: "Everyone reads this.\n\n{% if visitor.claims.plan === \"pro\" %}\nPro zebras only.\n{% endif %}\n" }
        }])
        const missing = yield* Effect.flip(v.api.urls.resolvePublishedContentByUrl({ payload: { url: `${vroot}install` } }))
        assert.strictEqual(errorCode(missing), 403)
        const forged = yield* VisitorToken.sign({ plan: "pro" }, VisitorToken.newKey(), 3600)
        const bad = yield* Effect.flip(v.api.urls.resolvePublishedContentByUrl({ payload: { url: `${vroot}install`, visitor: { jwtToken: forged } } }))
        assert.strictEqual(errorCode(bad), 403)
        // The token's claims open the section they show, and the apiToken reads it.
        const pro = yield* VisitorToken.sign({ plan: "pro" }, v.key, 3600)
        const beta = yield* v.api.urls.resolvePublishedContentByUrl({ payload: { url: `${vroot}beta/features`, visitor: { jwtToken: pro } } })
        if (!("apiToken" in beta)) return assert.fail("no content")
        assert.strictEqual(beta.space, v.beta.id)
        const reader = yield* client(beta.apiToken)
        const page = yield* reader.revisions.getPageInRevisionByPath({
          params: { spaceId: beta.space, revisionId: beta.revision!, pagePath: beta.pathname },
          query: { format: "markdown" }
        })
        assert.include(JSON.stringify(page), "okapis")
        // The token reads no longer than the visitor's own token does.
        const brief = yield* VisitorToken.sign({ plan: "pro" }, v.key, 60)
        const briefLookup = yield* v.api.urls.resolvePublishedContentByUrl({ payload: { url: `${vroot}install`, visitor: { jwtToken: brief } } })
        if (!("apiToken" in briefLookup)) return assert.fail("no content")
        assert.isAtMost(expOf(briefLookup.apiToken), Math.floor(Date.now() / 1000) + 61)
        assert.isAtLeast(expOf(beta.apiToken), Math.floor(Date.now() / 1000) + 3000)
        const free = yield* VisitorToken.sign({ plan: "free" }, v.key, 3600)
        const freeLookup = yield* v.api.urls.resolvePublishedContentByUrl({ payload: { url: `${vroot}install`, visitor: { jwtToken: free } } })
        if (!("apiToken" in freeLookup)) return assert.fail("no content")
        const freeReader = yield* client(freeLookup.apiToken)
        const refusedBeta = yield* Effect.flip(freeReader.revisions.getRevisionById({ params: { spaceId: v.beta.id, revisionId: beta.revision! }, query: {} }))
        assert.strictEqual(errorCode(refusedBeta), 404)
        // A page's `{% if %}` blocks are evaluated for the token's visitor, as the published page does.
        const plansFor = (api: typeof reader, lookup: typeof freeLookup) =>
          Effect.gen(function*() {
            if (!("space" in lookup)) return ""
            const plans = yield* api.revisions.getPageInRevisionByPath({
              params: { spaceId: v.guides.id, revisionId: lookup.revision!, pagePath: "plans" },
              query: { format: "document" }
            })
            const document = yield* api.revisions.getPageDocumentInRevisionById({
              params: { spaceId: v.guides.id, revisionId: lookup.revision!, pageId: plans.id },
              query: { evaluated: true }
            })
            return JSON.stringify([plans, document])
          })
        const proPlans = yield* v.api.urls.resolvePublishedContentByUrl({ payload: { url: `${vroot}plans`, visitor: { jwtToken: pro } } })
        const freePlans = yield* v.api.urls.resolvePublishedContentByUrl({ payload: { url: `${vroot}plans`, visitor: { jwtToken: free } } })
        if (!("apiToken" in proPlans) || !("apiToken" in freePlans)) return assert.fail("no content")
        const seenByPro = yield* plansFor(yield* client(proPlans.apiToken), proPlans)
        const seenByFree = yield* plansFor(yield* client(freePlans.apiToken), freePlans)
        assert.include(seenByPro, "Pro zebras only.")
        assert.include(seenByFree, "Everyone reads this.")
        assert.notInclude(seenByFree, "Pro zebras")

        // With redirectOnError, a site with a sign-in fallback URL answers where to send the visitor.
        yield* v.api.sites.updateSitePublishingAuthById({
          params: v.siteParams,
          payload: { backend: "custom", fallbackURL: "https://auth.example.com/login" }
        })
        const redirect = yield* v.api.urls.resolvePublishedContentByUrl({ payload: { url: `${vroot}install`, redirectOnError: true } })
        assert.deepStrictEqual(redirect, { target: "external", site: v.siteId, redirect: "https://auth.example.com/login?location=%2Finstall" })
      }))

    it.effect("searches the site's content as its visitor sees it", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        // A hidden page is not in the site's search, as the published site's own search leaves it out.
        yield* write(s.api, s.guides.id, [
          { operation: "insert_page", title: "Secret giraffes", slug: "secret", hidden: true, document: { markdown: "Hidden giraffes." } }
        ])
        const found = yield* s.api.urls.resolvePublishedContentByUrl({ payload: { url: `${publicUrl}/~sites/${s.siteId}/` } })
        if (!("apiToken" in found)) return assert.fail("no content")
        const reader = yield* client(found.apiToken)
        const params = s.siteParams
        const all = yield* reader.search.searchSiteContent({ params, query: {}, payload: { query: "giraffes", scope: { mode: "all" } } })
        assert.deepStrictEqual(all.items.map((space) => [space.id, space.pages.map((p) => p.title)]), [[s.guides.id, ["Docker"]]])
        const space = yield* s.api.search.searchSpaceContent({ params: { spaceId: s.guides.id }, query: { query: "giraffes" } })
        assert.strictEqual(space.items.length, 2)
        // Beta's pages are hidden from this visitor, not from a member.
        const asReader = yield* reader.search.searchSiteContent({ params, query: {}, payload: { query: "okapis", scope: { mode: "all" } } })
        assert.strictEqual(asReader.items.length, 0)
        const asMember = yield* s.api.search.searchSiteContent({ params, query: {}, payload: { query: "okapis", scope: { mode: "all" } } })
        assert.deepStrictEqual(asMember.items.map((space) => space.id), [s.beta.id])
        const narrowed = yield* s.api.search.searchSiteContent({
          params,
          query: {},
          payload: { query: "giraffes", scope: { mode: "specific", siteSpaceIds: [s.variant.id] } }
        })
        assert.strictEqual(narrowed.items.length, 0)
        // The default scope: each section's default site space, the current one standing for its own section's.
        const scoped = (query: string, scope: Record<string, unknown>) =>
          Effect.map(
            s.api.search.searchSiteContent({ params, query: {}, payload: { query, scope: scope as never } }),
            (found) => found.items.map((space) => space.id)
          )
        assert.deepStrictEqual(yield* scoped("giraffes", { mode: "default" }), [s.guides.id])
        assert.deepStrictEqual(yield* scoped("giraffes", { mode: "default", currentSiteSpace: s.variant.id }), [])
        assert.deepStrictEqual(yield* scoped("version", { mode: "default", currentSiteSpace: s.variant.id }), [s.guidesV2.id])
        assert.deepStrictEqual(yield* scoped("endpoints", { mode: "default", currentSiteSpace: s.variant.id, restrictTo: "currentSiteSpace" }), [])
        assert.deepStrictEqual(yield* scoped("endpoints", { mode: "default", currentSiteSpace: s.variant.id, restrictTo: "otherSiteSpaces" }), [s.apiSpace.id])
        const noCurrent = yield* raw("POST", `/v1/orgs/${s.organizationId}/sites/${s.siteId}/search`, {
          token: s.token,
          body: JSON.stringify({ query: "x", scope: { mode: "default", restrictTo: "currentSiteSpace" } })
        })
        assert.strictEqual(noCurrent.status, 400)
        assert.strictEqual((noCurrent.body as { error: { field: string } }).error.field, "scope.currentSiteSpace")
        const legacy = yield* raw("POST", `/v1/orgs/${s.organizationId}/sites/${s.siteId}/search`, {
          token: s.token,
          body: JSON.stringify({ query: "x", mode: "current" })
        })
        assert.strictEqual(legacy.status, 400)
        assert.strictEqual((legacy.body as { error: { field: string } }).error.field, "siteSpaceId")
        const bad = yield* raw("POST", `/v1/orgs/${s.organizationId}/sites/${s.siteId}/search`, {
          token: s.token,
          body: JSON.stringify({ query: "x", siteSpaceIds: ["sitesp_nope"] })
        })
        assert.strictEqual(bad.status, 400)
        assert.strictEqual((bad.body as { error: { field: string } }).error.field, "scope.siteSpaceIds")
        // Another organization's member learns nothing of the site.
        const outsider = yield* organizationWith()
        const hidden = yield* Effect.flip(outsider.alice.api.search.searchSiteContent({ params, query: {}, payload: { query: "giraffes" } }))
        assert.strictEqual(errorCode(hidden), 404)
      }))

    it.effect("takes a site's events, refusing malformed ones; resolves embeds from the URL alone", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        const found = yield* s.api.urls.resolvePublishedContentByUrl({ payload: { url: `${publicUrl}/~sites/${s.siteId}/` } })
        if (!("apiToken" in found)) return assert.fail("no content")
        const path = `/v1/orgs/${s.organizationId}/sites/${s.siteId}/insights/events`
        const ok = yield* raw("POST", path, {
          token: found.apiToken,
          body: JSON.stringify({ events: [event("page_view"), event("search_type_query", { query: "zebra" })] })
        })
        assert.strictEqual(ok.status, 204)
        const missing = yield* raw("POST", path, { token: found.apiToken, body: JSON.stringify({ events: [event("search_type_query")] }) })
        assert.strictEqual(missing.status, 400)
        const late = yield* raw("POST", path, {
          token: s.token,
          body: JSON.stringify({ events: [event("page_view", { timestamp: "2020-01-01T00:00:00Z" })] })
        })
        assert.strictEqual(late.status, 400)
        assert.strictEqual((late.body as { error: { field: string } }).error.field, "events.0.timestamp")

        const reader = yield* client(found.apiToken)
        const video = yield* reader.spaceEmbeds.getEmbedByUrlInSpace({ params: { spaceId: s.guides.id }, query: { url: "https://youtu.be/dQw4w9WgXcQ" } })
        // A provider Quire plays is GitBook's rich embed: its player in a frame, not a link card.
        assert.deepStrictEqual({ ...video, html: undefined }, { type: "rich", title: "https://youtu.be/dQw4w9WgXcQ", site: "YouTube", html: undefined })
        assert.match(video.type === "rich" ? video.html : "", /^<iframe src="https:\/\/www\.youtube-nocookie\.com\/embed\/dQw4w9WgXcQ[^"]*" title="YouTube"[^>]*><\/iframe>$/)
        const page = yield* s.api.spaceEmbeds.getEmbedByUrlInSpace({ params: { spaceId: s.guides.id }, query: { url: "https://www.example.com/a" } })
        assert.deepStrictEqual([page.type, page.site], ["link", "example.com"])
        const bad = yield* raw("GET", `/v1/spaces/${s.guides.id}/embed?url=${encodeURIComponent("ftp://example.com/")}`, { token: s.token })
        assert.strictEqual(bad.status, 400)
        assert.strictEqual((bad.body as { error: { field: string } }).error.field, "url")
      }))
  })
}
