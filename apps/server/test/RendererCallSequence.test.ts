/**
 * GitBook's open-source renderer (GitbookIO/gitbook, `packages/gitbook`) drawing a Quire site: the
 * calls it makes for a request, in its order, with its arguments (read from its `lib/data/lookup.ts`,
 * `lib/data/api.ts`, `lib/context.ts`, `app/utils.ts` and `lib/adaptive.ts`), through GitBook's own
 * client, each answer checked against GitBook's spec and for what the renderer reads of it unchecked.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { responseSchema, schemas, violations } from "@quire/testkit/GitbookSchemas"
import { backends, baseUrl, publicUrl } from "./Harness.ts"
import { publishedSite, write } from "./SiteFixtures.ts"

type Reply<A = Record<string, unknown>> = Promise<{ data: A; status: number }>
type Json = Record<string, unknown>

/** The operations the renderer calls, as GitBook's client spells them (its typings cannot be followed by NodeNext). */
interface Renderer {
  readonly urls: {
    resolvePublishedContentByUrl(body: { url: string; visitor?: Json; redirectOnError: boolean; cacheBust?: string }): Reply
  }
  readonly spaces: {
    getSpaceById(spaceId: string, query: { shareKey?: string }): Reply
    getRevisionById(spaceId: string, revisionId: string, query: { metadata: boolean }): Reply
    getPageInRevisionByPath(spaceId: string, revisionId: string, pagePath: string, query: Json): Reply
    getPageInRevisionById(spaceId: string, revisionId: string, pageId: string, query: Json): Reply
    getPageDocumentInRevisionById(spaceId: string, revisionId: string, pageId: string, query: Json): Reply
    listRevisionPageMetaLinks(spaceId: string, revisionId: string, pageId: string): Reply
    getEmbedByUrlInSpace(spaceId: string, query: { url: string }): Reply
  }
  readonly orgs: {
    getPublishedContentSite(organizationId: string, siteId: string, query: { shareKey?: string }): Reply
    getSiteRedirectBySource(organizationId: string, siteId: string, query: { shareKey?: string; source: string }): Reply
    searchSiteContent(organizationId: string, siteId: string, body: { query: string; scope?: Json }): Reply
    trackEventsInSiteById(organizationId: string, siteId: string, body: { events: Array<Json> }): Reply
  }
}

/** GitBook's client as the renderer makes it: without a token for the lookup, then with the site's. */
const rendererClient = (endpoint: string, authToken?: string): Renderer =>
  new GitBookAPI(authToken === undefined ? { endpoint } : { endpoint, authToken }) as unknown as Renderer

/** What `jwtDecode` (jwt-decode 4, the renderer's) reads of a token: its second part, base64url JSON. */
const jwtDecode = (token: string): Json => {
  const part = token.split(".")[1]
  if (part === undefined) throw new Error("Invalid token specified: missing part #2")
  return JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Json
}

/** Where an answer breaks the schema GitBook's spec gives for `operationId`. */
const offSpec = (operationId: string, value: unknown): Array<string> => violations(value, responseSchema(operationId), operationId)

/** Every block, inline, text and fragment of a document (the nodes the renderer reads a `key` from). */
const nodesOf = (nodes: ReadonlyArray<unknown>): Array<Json> =>
  nodes.flatMap((node) => {
    const n = node as Json & { nodes?: ReadonlyArray<unknown>; fragments?: ReadonlyArray<unknown> }
    return [n, ...nodesOf(n.nodes ?? []), ...nodesOf(n.fragments ?? [])]
  })

const tabsPage = [
  "Choose your package manager.",
  "",
  "{% tabs %}",
  "{% tab title=\"npm\" %}",
  "```bash",
  "npm i tool",
  "```",
  "{% endtab %}",
  "{% tab title=\"yarn\" %}",
  "```bash",
  "yarn add tool",
  "```",
  "{% endtab %}",
  "{% endtabs %}",
  "",
  "* [ ] a task"
].join("\n")

for (const backend of backends) {
  layer(backend.layer, { timeout: 180_000, excludeTestServices: true })(`GitBook's renderer on a Quire site, on ${backend.name}`, (it) => {
    it.effect("a page request: the URL resolved without a token over https, then the site, space, revision, page, document and meta links with the site's token", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        yield* write(s.api, s.guides.id, [{ operation: "insert_page", title: "Tabs", slug: "tabs", document: { markdown: tabsPage } }])
        const endpoint = yield* baseUrl
        // The renderer asks `https://<host>/<path>` whatever the site is served over (here http).
        const siteUrl = `${publicUrl.replace(/^http:/, "https:")}/~sites/${s.siteId}/`
        const result = yield* Effect.promise(async () => {
          const anonymous = rendererClient(endpoint)
          // lookup.ts: the URL and its shorter alternatives, at once; the primary answers.
          const [primary, root] = await Promise.all([
            anonymous.urls.resolvePublishedContentByUrl({ url: `${siteUrl}tabs`, visitor: {}, redirectOnError: false }),
            anonymous.urls.resolvePublishedContentByUrl({ url: siteUrl, visitor: {}, redirectOnError: false })
          ])
          // lookup.ts again, when the token it got was expired: the same call with a cache buster.
          const busted = await anonymous.urls.resolvePublishedContentByUrl({ url: `${siteUrl}tabs`, redirectOnError: false, cacheBust: "x1" })
          const found = primary.data as Json & { apiToken: string; organization: string; site: string; siteSpace: string; space: string; revision: string; pathname: string }
          const site = rendererClient(endpoint, found.apiToken)
          // context.ts: the site and the space at once, then the revision (with its metadata) and the page by its path.
          const [profile, space] = await Promise.all([
            site.orgs.getPublishedContentSite(found.organization, found.site, {}),
            site.spaces.getSpaceById(found.space, {})
          ])
          const revision = await site.spaces.getRevisionById(found.space, found.revision, { metadata: true })
          const page = await site.spaces.getPageInRevisionByPath(found.space, found.revision, encodeURIComponent(found.pathname), {})
          const pageId = String(page.data["id"])
          const [document, meta, markdown] = await Promise.all([
            site.spaces.getPageDocumentInRevisionById(found.space, found.revision, pageId, { evaluated: "deterministic-only", dereferenced: "reusable-contents" }),
            site.spaces.listRevisionPageMetaLinks(found.space, found.revision, pageId),
            // The page's "copy as markdown" action.
            site.spaces.getPageInRevisionById(found.space, found.revision, pageId, { format: "markdown", "format.markdown.refs": "stable" })
          ])
          return { found, root: root.data, busted: busted.data, profile: profile.data, space: space.data, revision: revision.data, page: page.data, document: document.data, meta: meta.data, markdown: markdown.data }
        })
        const { found } = result
        assert.deepStrictEqual(offSpec("resolvePublishedContentByUrl", found), [])
        assert.deepStrictEqual([found.space, found.pathname, found["canonicalUrl"]], [s.guides.id, "tabs", `${publicUrl}/~sites/${s.siteId}/tabs`])
        assert.strictEqual(result.root["space"], s.guides.id)
        assert.strictEqual(result.busted["space"], s.guides.id)

        // app/utils.ts and adaptive.ts: the token is a JWT whose claims and expiry the renderer reads.
        const token = jwtDecode(found.apiToken)
        assert.deepStrictEqual(token["claims"], {})
        assert.isAbove(token["exp"] as number, Date.now() / 1000 + 120, "the renderer refuses a token that expires within two minutes")
        assert.deepInclude(token, { kind: "site", organization: s.organizationId, site: s.siteId, siteSpace: found.siteSpace, space: s.guides.id })
        assert.deepStrictEqual(violations(token, schemas["SiteAPIToken"]!, "token"), [])

        // context.ts reads the settings of the current site space without looking whether they are there.
        assert.deepStrictEqual(offSpec("getPublishedContentSite", result.profile), [])
        const customizations = result.profile["customizations"] as { site: Json; siteSpaces: Record<string, Json> }
        assert.isDefined(customizations.siteSpaces[found.siteSpace])
        assert.deepStrictEqual(violations(customizations.siteSpaces[found.siteSpace], schemas["SiteCustomizationSettings"]!, "settings"), [])
        assert.deepStrictEqual(offSpec("getSpaceById", result.space), [])
        // A merge revision answers without GitBook's `mergedFrom` (the change request, which is not the
        // site's to show its visitors; the renderer reads it only for change-request previews): checked as an edit.
        assert.strictEqual(result.revision["type"], "merge")
        assert.deepStrictEqual(offSpec("getRevisionById", { ...result.revision, type: "edits" }), [])
        assert.deepStrictEqual(offSpec("getPageInRevisionByPath", result.page), [])
        assert.strictEqual(result.page["title"], "Tabs")
        assert.deepStrictEqual(offSpec("getPageDocumentInRevisionById", result.document), [])
        assert.deepStrictEqual(offSpec("listRevisionPageMetaLinks", result.meta), [])
        assert.include(String(result.markdown["markdown"]), "{% tabs %}")

        // Tabs.tsx throws on a tabs block or tab without a key; ListItem.tsx names a task's checkbox by it.
        const nodes = nodesOf((result.document as { nodes: ReadonlyArray<unknown> }).nodes)
        assert.deepStrictEqual(nodes.filter((n) => typeof n["key"] !== "string").map((n) => n["object"]), [])
        const tabs = nodes.filter((n) => n["type"] === "tabs-item").map((n) => (n["meta"] as { id?: string } | undefined)?.id)
        assert.deepStrictEqual(tabs, ["npm", "yarn"])
      }))

    it.effect("search, a redirect for a path with no page, an embed and the site's events, with the site's token", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        const pages = yield* s.api.spaceContent.getCurrentRevision({ params: { spaceId: s.guides.id }, query: {} })
        const docker = (pages.pages.find((p) => p.title === "Install")!.pages ?? []).find((p) => p.title === "Docker")!
        const siteSpaces = yield* s.api.siteSpaces.listSiteSpaces({ params: s.siteParams, query: {} })
        const guidesSiteSpace = siteSpaces.items.find((x) => x.space.id === s.guides.id)!
        yield* s.api.siteRedirects.createSiteRedirect({
          params: s.siteParams,
          payload: { source: "/old-docker", destination: { kind: "site-page", siteSpaceId: guidesSiteSpace.id, pageId: docker.id } }
        })
        const endpoint = yield* baseUrl
        const result = yield* Effect.promise(async () => {
          const { data } = await rendererClient(endpoint).urls.resolvePublishedContentByUrl({
            url: `${publicUrl.replace(/^http:/, "https:")}/~sites/${s.siteId}/old-docker`,
            visitor: {},
            redirectOnError: false
          })
          const found = data as Json & { apiToken: string; organization: string; site: string; siteSpace: string; space: string }
          const site = rendererClient(endpoint, found.apiToken)
          // A path with no page: the renderer asks for a redirect of the path below the site's base.
          const redirect = await site.orgs.getSiteRedirectBySource(found.organization, found.site, { source: "/old-docker" })
          const search = await site.orgs.searchSiteContent(found.organization, found.site, {
            query: "giraffes",
            scope: { mode: "default", currentSiteSpace: found.siteSpace, restrictTo: "currentSiteSpace" }
          })
          const embed = await site.spaces.getEmbedByUrlInSpace(found.space, { url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" })
          const events = await site.orgs.trackEventsInSiteById(found.organization, found.site, {
            events: [{
              type: "page_view",
              session: { visitorId: "v", sessionId: "s", cookies: {}, userAgent: "GitBook-Open/2.0.0", language: "en", referrer: "" },
              location: { url: `${publicUrl}/~sites/${s.siteId}/`, siteSection: null, siteSpace: found.siteSpace, siteShareKey: null, space: found.space, revision: null, page: null }
            }]
          })
          return { found, redirect: redirect.data, search: search.data, embed: embed.data, events: events.status }
        })
        assert.strictEqual(result.found["pathname"], "old-docker")
        assert.deepStrictEqual(offSpec("getSiteRedirectBySource", result.redirect), [])
        assert.strictEqual(result.redirect["target"], `${publicUrl}/~sites/${s.siteId}/install/docker`)
        assert.deepStrictEqual(offSpec("searchSiteContent", result.search), [])
        const items = result.search["items"] as ReadonlyArray<{ id: string; pages: ReadonlyArray<{ title: string }> }>
        assert.deepStrictEqual(items.map((i) => [i.id, i.pages.map((p) => p.title)]), [[s.guides.id, ["Docker"]]])
        assert.deepStrictEqual(offSpec("getEmbedByUrlInSpace", result.embed), [])
        assert.deepStrictEqual([result.embed["type"], result.embed["site"]], ["rich", "YouTube"])
        assert.strictEqual(result.events, 204)
      }))
  })
}
