/**
 * GitBook's renderer shown what Quire's own site serves (issue 58): through GitBook's own client,
 * as the renderer calls it, a path the space's `.gitbook.yaml` redirects reads the page it leads
 * to, the published profile's page actions are those the site serves, a site open to everyone
 * takes the events the renderer posts without a token (within the sender's budget), and a page's
 * markdown has its reusable contents in place, as the site's own `.md`.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect, Schedule } from "effect"
import { bareRepository } from "./GitRepositories.ts"
import { responseSchema, violations } from "@quire/testkit/GitbookSchemas"
import { baseUrl, everyBackend, memory, publicUrl, spaceWith, withSettings } from "./Harness.ts"
import { get, publishedSite, write } from "./SiteFixtures.ts"

type Json = Record<string, unknown>
type Reply = Promise<{ data: Json; status: number }>

/** The operations these tests make, as GitBook's client spells them. */
interface Renderer {
  readonly urls: {
    resolvePublishedContentByUrl(body: { url: string; visitor?: Json; redirectOnError: boolean }): Reply
  }
  readonly spaces: {
    getPageInRevisionByPath(spaceId: string, revisionId: string, pagePath: string, query: Json): Reply
    getPageInRevisionById(spaceId: string, revisionId: string, pageId: string, query: Json): Reply
  }
  readonly orgs: {
    getPublishedContentSite(organizationId: string, siteId: string, query: Json): Reply
    trackEventsInSiteById(organizationId: string, siteId: string, body: { events: Array<Json> }): Reply
  }
}

const rendererClient = (endpoint: string, authToken?: string): Renderer =>
  new GitBookAPI(authToken === undefined ? { endpoint } : { endpoint, authToken }) as unknown as Renderer

/** The status GitBook's client failed with (it throws a `GitBookAPIError` carrying it). */
const statusOf = (promise: Promise<{ status: number }>): Promise<number> =>
  promise.then((reply) => reply.status, (error: { code?: number }) => error.code ?? -1)

/** A page answer's JSON document as text, to look for a block type or words in it. */
const documentText = (page: Json): string => JSON.stringify(page["document"])

const offSpec = (operationId: string, value: unknown): Array<string> => violations(value, responseSchema(operationId), operationId)

/** The renderer's lookup of a site's URL, without a token: the site, its space and revision, and the reader token. */
const lookup = (endpoint: string, url: string) =>
  Effect.promise(async () => {
    const { data } = await rendererClient(endpoint).urls.resolvePublishedContentByUrl({ url, visitor: {}, redirectOnError: false })
    return data as Json & { apiToken: string; organization: string; site: string; siteSpace: string; space: string; revision: string }
  })

/** An event as GitBook's renderer posts it (InsightsProvider's `transformEvents`). */
const rendererEvent = (type: string, url: string, extra: Json = {}): Json => ({
  type,
  session: { visitorId: "visitor-1", sessionId: "session-1", cookies: {}, userAgent: "GitBook-Open/2.0.0", language: "en", referrer: "" },
  location: { url, siteSection: null, siteSpace: null, siteShareKey: null, space: null, revision: null, page: null },
  ...extra
})

// A sender may record 5 events on a site in a window (docs/insights.md, "Limits").
const limited = { QUIRE_INSIGHTS_LIMIT: 5, QUIRE_INSIGHTS_SITE_LIMIT: 100, QUIRE_FEEDBACK_LIMIT: 2, QUIRE_FEEDBACK_SITE_LIMIT: 100 }

// The redirects and events are read and kept through ports: on memory, PostgreSQL and PGlite.
for (const backend of [memory, ...everyBackend]) {
  layer(withSettings(backend.layer, limited), { timeout: 180_000, excludeTestServices: true })(`GitBook's renderer shown what Quire's site serves, on ${backend.name}`, (it) => {
    it.effect("getPageInRevisionByPath answers the page a path of the space's .gitbook.yaml redirects to, as the site follows it", () =>
      Effect.gen(function*() {
        const repository = yield* bareRepository({
          ".gitbook.yaml": "root: ./docs/\n\nredirects:\n  old/guide: guides/new.md\n  gone: missing.md\n",
          "docs/README.md": "# Home\n\nWelcome.\n",
          "docs/SUMMARY.md": "# Summary\n\n* [Home](README.md)\n* [Guides](guides/README.md)\n  * [New guide](guides/new.md)\n",
          "docs/guides/README.md": "# Guides\n\nAll of them.\n",
          "docs/guides/new.md": "# New guide\n\nMoved here.\n"
        })
        const { alice, organizationId, space } = yield* spaceWith()
        const spaceId = space.id
        yield* alice.api.git.importGitRepository({ params: { spaceId }, payload: { url: repository.url, ref: "refs/heads/main" } })
        const info = yield* alice.api.git.getSpaceGitInfo({ params: { spaceId } }).pipe(
          Effect.filterOrFail((i) => i.lastImport !== null && i.lastImport.status !== "running" && i.lastImport.status !== "pending", () => new Error("import still running")),
          Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 300 }),
          Effect.orDie
        )
        assert.strictEqual(info.lastImport?.status, "succeeded")
        const site = yield* alice.api.sites.createSite({ params: { organizationId }, payload: { title: "Docs", spaces: [spaceId] } })
        yield* alice.api.sites.publishSite({ params: { organizationId, siteId: site.id } })
        // Quire's own site follows the redirect to the page.
        assert.strictEqual((yield* get(`/~sites/${site.id}/old/guide`)).headers.get("location"), `/~sites/${site.id}/guides/new`)

        const endpoint = yield* baseUrl
        const found = yield* lookup(endpoint, `${publicUrl.replace(/^http:/, "https:")}/~sites/${site.id}/old/guide`)
        const result = yield* Effect.promise(async () => {
          const reader = rendererClient(endpoint, found.apiToken)
          const byPath = (path: string) => reader.spaces.getPageInRevisionByPath(found.space, found.revision, encodeURIComponent(path), { metadata: false })
          return {
            moved: (await byPath("old/guide")).data,
            // A slash around the path is the same path, as the site reads it.
            slashed: (await byPath("/old/guide/")).data,
            // A redirect to a file that is no page, and a path no redirect names, are no page.
            gone: await statusOf(byPath("gone")),
            nowhere: await statusOf(byPath("old")),
            member: (await rendererClient(endpoint, alice.token).spaces.getPageInRevisionByPath(spaceId, found.revision, "old%2Fguide", {})).data
          }
        })
        assert.deepStrictEqual(offSpec("getPageInRevisionByPath", result.moved), [])
        assert.deepStrictEqual([result.moved["title"], result.moved["path"]], ["New guide", "guides/new"])
        assert.strictEqual(result.slashed["id"], result.moved["id"])
        assert.deepStrictEqual([result.gone, result.nowhere], [404, 404])
        assert.strictEqual(result.member["id"], result.moved["id"])
      }))

    it.effect("the published profile's page actions are what the site serves: its markdown and its MCP server, unless it chose others", () =>
      Effect.gen(function*() {
        const endpoint = yield* baseUrl
        const profileOf = (siteId: string) =>
          Effect.gen(function*() {
            const found = yield* lookup(endpoint, `${publicUrl}/~sites/${siteId}/`)
            return yield* Effect.promise(async () => (await rendererClient(endpoint, found.apiToken).orgs.getPublishedContentSite(found.organization, found.site, {})).data)
          })
        const mcpStatus = (path: string) =>
          Effect.promise(async () =>
            (await fetch(`${endpoint}${path}~gitbook/mcp`, {
              method: "POST",
              headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
              body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } })
            })).status)

        const plain = yield* publishedSite("public")
        const profile = yield* profileOf(plain.siteId)
        assert.deepStrictEqual(offSpec("getPublishedContentSite", profile), [])
        const customizations = profile["customizations"] as { site: Json; siteSpaces: Record<string, Json> }
        assert.deepStrictEqual(customizations.site["pageActions"], { items: ["markdown", "mcp"] })
        for (const settings of Object.values(customizations.siteSpaces)) assert.deepStrictEqual(settings["pageActions"], { items: ["markdown", "mcp"] })
        // What the actions lead to is there: the page's markdown and the MCP server.
        assert.strictEqual((yield* get(`${plain.path}install.md`)).status, 200)
        assert.strictEqual(yield* mcpStatus(plain.path), 200)

        // A site that chose its actions is reported as it chose, and serves no MCP server without `mcp`.
        const chosen = yield* publishedSite("public", { pageActions: { items: ["markdown"] } } as never)
        const chosenCustomizations = (yield* profileOf(chosen.siteId))["customizations"] as { site: Json }
        assert.deepStrictEqual(chosenCustomizations.site["pageActions"], { items: ["markdown"] })
        assert.strictEqual(yield* mcpStatus(chosen.path), 404)
      }))

    it.effect("a site open to everyone takes the events the renderer posts without a token, within the sender's budget; another site does not", () =>
      Effect.gen(function*() {
        const endpoint = yield* baseUrl
        const site = yield* publishedSite("public", { insights: { trackingCookie: false }, feedback: { enabled: true } } as never)
        const url = `${publicUrl}${site.path}install`
        const anonymous = rendererClient(endpoint)
        const post = (siteId: string, events: Array<Json>) => Effect.promise(() => statusOf(anonymous.orgs.trackEventsInSiteById(site.organizationId, siteId, { events })))

        // The renderer's InsightsProvider posts with no Authorization header.
        assert.strictEqual(yield* post(site.siteId, [rendererEvent("page_view", url), rendererEvent("search_type_query", url, { query: "zebra" })]), 204)
        assert.strictEqual(yield* post(site.siteId, [rendererEvent("page_post_feedback", url, { feedback: { rating: "good" } })]), 204)
        const counts = yield* site.api.siteInsights.aggregateSiteEvents({
          params: site.siteParams,
          payload: { range: "last24Hours", groupBy: [{ column: "eventType" }], select: [{ column: "eventType" }, { column: "eventsCount" }] } as never
        })
        const byType = Object.fromEntries(counts.columns[0]!.values.map((type, i) => [String(type), counts.columns[1]!.values[i]]))
        assert.deepStrictEqual(byType, { page_view: 1, search_type_query: 1, page_post_feedback: 1 })

        // A malformed event is still a 400 naming it.
        const malformed = yield* Effect.promise(() => fetch(`${endpoint}/v1/orgs/${site.organizationId}/sites/${site.siteId}/insights/events`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ events: [rendererEvent("search_type_query", url)] })
        }).then(async (response) => ({ status: response.status, body: await response.json() as { error: { field?: string } } })))
        assert.strictEqual(malformed.status, 400)
        assert.include(String(malformed.body.error.field), "events")

        // The anonymous sender spends its address's budget: 2 of its 5 events are spent, 3 more pass, then 429.
        assert.strictEqual(yield* post(site.siteId, [rendererEvent("page_view", url), rendererEvent("page_view", url), rendererEvent("page_view", url)]), 204)
        assert.strictEqual(yield* post(site.siteId, [rendererEvent("page_view", url)]), 429)

        // A site that admits only some readers, an unpublished one, or one of another organization takes nothing anonymous.
        const shared = yield* publishedSite("share-link", { insights: { trackingCookie: false } } as never)
        assert.strictEqual(yield* Effect.promise(() => statusOf(anonymous.orgs.trackEventsInSiteById(shared.organizationId, shared.siteId, { events: [rendererEvent("page_view", url)] }))), 404)
        assert.strictEqual(yield* post("site_nope", [rendererEvent("page_view", url)]), 404)
        const other = yield* publishedSite("public", { insights: { trackingCookie: false } } as never)
        assert.strictEqual(yield* post(other.siteId, [rendererEvent("page_view", url)]), 404)
        // Every other operation still needs a token.
        const profile = yield* Effect.promise(() => statusOf(anonymous.orgs.getPublishedContentSite(site.organizationId, site.siteId, {})))
        assert.strictEqual(profile, 401)
      }))

    it.effect("an OpenAPI block's spec is read with the site's token when a page of the site names it (private too, as the site draws it); any other is not found, which the renderer draws as nothing", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        const organizationId = s.organizationId
        const text = JSON.stringify({ openapi: "3.0.3", info: { title: "Pets", version: "1" }, paths: { "/pets": { get: { summary: "List the pets", responses: { "200": { description: "The pets" } } } } } })
        const ready = (specSlug: string) =>
          s.api.openAPISpecs.getOpenAPISpecBySlug({ params: { organizationId, specSlug } }).pipe(
            Effect.flatMap((found) => found.processingState === "complete" && found.lastVersion !== undefined ? Effect.succeed(found) : Effect.fail("pending" as const)),
            Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 150 }),
            Effect.orDie
          )
        for (const slug of ["pets", "internal"]) {
          yield* s.api.openAPISpecs.createOpenAPISpec({ params: { organizationId }, payload: { slug, source: { text } } })
          yield* ready(slug)
        }
        yield* write(s.api, s.apiSpace.id, [{
          operation: "insert_page",
          title: "Pets",
          slug: "pets",
          document: { markdown: "The pets API.\n\n{% openapi-operation spec=\"pets\" path=\"/pets\" method=\"get\" %}\n{% endopenapi-operation %}\n" }
        }])
        const endpoint = yield* baseUrl
        const found = yield* lookup(endpoint, `${publicUrl.replace(/^http:/, "https:")}/~sites/${s.siteId}/api/pets`)
        const read = (org: string, slug: string, token: string) =>
          Effect.promise(async () => {
            const response = await fetch(`${endpoint}/v1/orgs/${org}/openapi/${slug}/versions/latest/content`, { headers: { authorization: `Bearer ${token}` } })
            return { status: response.status, body: (await response.json()) as Json }
          })
        const shown = yield* read(organizationId, "pets", found.apiToken)
        assert.strictEqual(shown.status, 200)
        assert.deepStrictEqual(offSpec("getLatestOpenAPISpecVersionContent", shown.body), [])
        // The renderer reads Scalar's filesystem: `filesystem.find((file) => file.isEntrypoint)` (an object made it answer 500).
        const files = shown.body["filesystem"] as ReadonlyArray<{ readonly isEntrypoint: boolean; readonly specification: { readonly paths: Record<string, unknown> } }>
        assert.isTrue(Array.isArray(files))
        assert.include(JSON.stringify(files.find((file) => file.isEntrypoint)!.specification.paths), "List the pets")
        // A spec no page of the site names, one that does not exist, another organization's: not found.
        assert.strictEqual((yield* read(organizationId, "internal", found.apiToken)).status, 404)
        assert.strictEqual((yield* read(organizationId, "absent", found.apiToken)).status, 404)
        const other = yield* publishedSite("public")
        assert.strictEqual((yield* read(other.organizationId, "pets", found.apiToken)).status, 404)
        // A member reads both, as before.
        assert.strictEqual((yield* read(organizationId, "internal", s.token)).status, 200)
        // What a revision shows is kept per revision: once a page names "internal", the space's new revision shows it.
        yield* write(s.api, s.apiSpace.id, [{
          operation: "insert_page",
          title: "Internal",
          slug: "internal",
          document: { markdown: "{% openapi-operation spec=\"internal\" path=\"/pets\" method=\"get\" %}\n{% endopenapi-operation %}\n" }
        }])
        assert.strictEqual((yield* read(organizationId, "internal", found.apiToken)).status, 200)
        assert.strictEqual((yield* read(organizationId, "pets", found.apiToken)).status, 200)
      }))

    it.effect("format=markdown read with the site's token has the reusable contents a page includes in place, as the site's .md; a member's with dereferenced", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        const spaceId = s.guides.id
        const cr = yield* s.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Support" } })
        const reusable = yield* s.api.reusableContents.createReusableContentInChangeRequest({
          params: { spaceId, changeRequestId: cr.id },
          payload: { title: "Support", markdown: "Write to the narwhal desk.\n" }
        })
        yield* s.api.changeRequestContent.updateChangeRequestContent({
          params: { spaceId, changeRequestId: cr.id },
          payload: { changes: [{ operation: "insert_page", title: "Support", slug: "support", document: { markdown: `Help.\n\n{% include "/reusable-content/${reusable.id}" %}\n` } }] }
        })
        yield* s.api.changeRequests.mergeChangeRequest({ params: { spaceId, changeRequestId: cr.id } })
        const own = yield* get(`${s.path}support.md`)
        assert.include(own.text, "Write to the narwhal desk.")

        const endpoint = yield* baseUrl
        const found = yield* lookup(endpoint, `${publicUrl.replace(/^http:/, "https:")}/~sites/${s.siteId}/support`)
        const result = yield* Effect.promise(async () => {
          const reader = rendererClient(endpoint, found.apiToken)
          const page = (await reader.spaces.getPageInRevisionByPath(found.space, found.revision, "support", {})).data
          const pageId = String(page["id"])
          const query = { format: "markdown", "format.markdown.refs": "stable" }
          return {
            byId: (await reader.spaces.getPageInRevisionById(found.space, found.revision, pageId, query)).data,
            byPath: (await reader.spaces.getPageInRevisionByPath(found.space, found.revision, "support", query)).data,
            member: (await rendererClient(endpoint, s.token).spaces.getPageInRevisionById(found.space, found.revision, pageId, query)).data,
            // GitBook's `dereferenced` on a page read: a member asks for the contents in place.
            memberDereferenced: (await rendererClient(endpoint, s.token).spaces.getPageInRevisionById(found.space, found.revision, pageId, { ...query, dereferenced: "reusable-contents" })).data,
            memberDocument: (await rendererClient(endpoint, s.token).spaces.getPageInRevisionById(found.space, found.revision, pageId, {})).data,
            memberDocumentDereferenced: (await rendererClient(endpoint, s.token).spaces.getPageInRevisionById(found.space, found.revision, pageId, { dereferenced: true })).data
          }
        })
        assert.deepStrictEqual(offSpec("getPageInRevisionById", result.byId), [])
        for (const answer of [result.byId, result.byPath]) {
          assert.include(String(answer["markdown"]), "Write to the narwhal desk.")
          assert.notInclude(String(answer["markdown"]), "{% include")
        }
        // A member reads the page as it is written: the include stays a reference, unless dereferenced.
        assert.include(String(result.member["markdown"]), `{% include "/reusable-content/${reusable.id}" %}`)
        assert.include(String(result.memberDereferenced["markdown"]), "Write to the narwhal desk.")
        assert.notInclude(String(result.memberDereferenced["markdown"]), "{% include")
        assert.include(documentText(result.memberDocument), "\"reusable-content\"")
        assert.notInclude(documentText(result.memberDocumentDereferenced), "\"reusable-content\"")
        assert.include(documentText(result.memberDocumentDereferenced), "narwhal desk")
        for (const page of [result.memberDereferenced, result.memberDocumentDereferenced]) assert.deepStrictEqual(offSpec("getPageInRevisionById", page), [])
      }))
  })
}
