/**
 * GitBook's content lookups through the real router, GitBook's own client and the typed client:
 * content computed from an OpenAPI spec without being stored, a document by id, a page's meta
 * links (main and a change request), what an app URL, a published URL and an embed URL are, the
 * raw text of a spec, a notifications token and the API's version; roles, validation and an
 * outsider, who learns nothing of another organization's content.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect, Schedule } from "effect"
import { responseSchema, violations } from "@quire/testkit/GitbookSchemas"
import { baseUrl, type Client, errorCode, memoryAndPostgres, newUser, publicUrl, raw, spaceWith } from "./Harness.ts"
import { publishedSite } from "./SiteFixtures.ts"

interface Reply<T> {
  readonly status: number
  readonly data: T
}
interface Doc { readonly object: string; readonly nodes: ReadonlyArray<{ readonly type: string; readonly key?: string; readonly data?: Record<string, unknown> }> }
interface Page { readonly id: string; readonly title: string; readonly type: string; readonly path: string; readonly document?: Doc; readonly pages?: ReadonlyArray<Page> }
/** The part of GitBook's client this test uses (its typings cannot be followed under NodeNext; see GitBookClient.test.ts). */
interface GitBookLookups {
  getApiInformation(): Promise<Reply<{ version: string; build: string }>>
  readonly user: { createUserNotificationsToken(): Promise<Reply<{ token: string }>> }
  readonly spaces: {
    getComputedDocument(spaceId: string, body: unknown, query?: { schema?: string }): Promise<Reply<Doc>>
    getComputedRevision(spaceId: string, body: unknown): Promise<Reply<{ pages: ReadonlyArray<Page>; files: ReadonlyArray<unknown>; reusableContents: ReadonlyArray<unknown> }>>
    getDocumentById(spaceId: string, documentId: string, query?: { schema?: string }): Promise<Reply<Doc>>
    listSpacePageMetaLinks(spaceId: string, pageId: string): Promise<Reply<{ canonical?: unknown; alternates?: ReadonlyArray<unknown> }>>
    listChangeRequestPageMetaLinks(spaceId: string, changeRequestId: string, pageId: string): Promise<Reply<{ canonical?: unknown; alternates?: ReadonlyArray<unknown> }>>
  }
  readonly urls: {
    getContentByUrl(query: { url: string }): Promise<Reply<{ space?: { id: string }; changeRequest?: { id: string }; page?: { id: string; title: string }; collection?: { id: string } }>>
    getEmbedByUrl(query: { url: string }): Promise<Reply<{ type: string; site: string; html?: string }>>
    getPublishedContentByUrl(query: { url: string; visitorAuthToken?: string }): Promise<Reply<{ site: string; space: string; pathname: string; apiToken: string }>>
  }
  readonly orgs: {
    getLatestOpenApiSpecVersionContentRaw(organizationId: string, specSlug: string): Promise<Reply<{ text: string; format: string }>>
    generateStorageUploadUrl(organizationId: string, body: { file: { name: string; type: string; size: number }; kind: string }): Promise<Reply<{ object: string; url: string; key: string }>>
  }
}

const petstore = JSON.stringify({
  openapi: "3.0.3",
  info: { title: "Pet store", version: "1.0.0", description: "Pets, sold." },
  tags: [{ name: "pets", description: "Everything about pets." }, { name: "store" }],
  paths: {
    "/pets": {
      get: { tags: ["pets"], summary: "List pets", responses: { "200": { description: "OK" } } },
      post: { tags: ["pets"], summary: "Add a pet", responses: { "201": { description: "Created" } } }
    },
    "/orders": { get: { tags: ["store"], summary: "List orders", responses: { "200": { description: "OK" } } } }
  },
  components: { schemas: { Pet: { type: "object" }, Order: { type: "object" } } }
}, null, 2)

const openapiSource = (props: Record<string, unknown>, spec = "pets") => ({
  type: "builtin:openapi",
  dependencies: { spec: { ref: { kind: "openapi", spec } } },
  props
})

/** A space with a page "Guide" in main and in an open change request, a collection, a spec "pets" given as text, a reader, an outsider. */
const setup = Effect.fnUntraced(function*() {
  const s = yield* spaceWith(["read"])
  const api = s.alice.api
  const spaceId = s.space.id
  const seed = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Seed" } })
  yield* api.changeRequestContent.updateChangeRequestContent({
    params: { spaceId, changeRequestId: seed.id },
    payload: { changes: [{ operation: "insert_page", title: "Guide", document: { markdown: "# Guide\n\nInstall it with **care**." } }] }
  })
  yield* api.changeRequests.mergeChangeRequest({ params: { spaceId, changeRequestId: seed.id } })
  const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Later" } })
  const current = yield* api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
  const guide = current.pages.find((p) => p.title === "Guide")!
  const collection = yield* api.collections.createCollection({ params: { organizationId: s.organizationId }, payload: { title: "Shelf" } })
  yield* api.openAPISpecs.createOpenAPISpec({ params: { organizationId: s.organizationId }, payload: { slug: "pets", source: { text: petstore } } })
  yield* settled(api, s.organizationId, "pets")
  const outsider = yield* newUser("Mallory")
  return { ...s, spaceId, guide, cr, collection, outsider }
})

const settled = (api: Client, organizationId: string, specSlug: string) =>
  api.openAPISpecs.getOpenAPISpecBySlug({ params: { organizationId, specSlug } }).pipe(
    Effect.flatMap((spec) => spec.processingState === "complete" && spec.lastVersion !== undefined ? Effect.succeed(spec) : Effect.fail("pending" as const)),
    Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 150 }),
    Effect.orDie
  )

/** A PUT of `bytes` to a signed upload URL, sent to the test server (its public URL is not where it listens). */
const put = Effect.fnUntraced(function*(url: string, bytes: Uint8Array, length = bytes.byteLength) {
  const base = yield* baseUrl
  const response = yield* Effect.promise(() =>
    fetch(url.replace(publicUrl, base), { method: "PUT", headers: { "content-type": "application/zip", "content-length": String(length) }, body: bytes })
  )
  const text = yield* Effect.promise(() => response.text())
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) as unknown }
})

/** A body of generateStorageUploadURL. */
const uploadBody = (kind: string, size = 10) => JSON.stringify({ file: { name: "a.zip", type: "application/zip", size }, kind })

/** Where an answer departs from GitBook's published schema of the operation's answer. */
const offSpec = (operationId: string, value: unknown, status = "200"): Array<string> => violations(value, responseSchema(operationId, status), operationId)

const fieldOf = (body: unknown) => (body as { readonly error?: { readonly field?: unknown } } | undefined)?.error?.field

for (const backend of memoryAndPostgres) {
  layer(backend.layer, { timeout: 180_000, excludeTestServices: true })(`content lookups on ${backend.name}`, (it) => {
    it.effect("GitBook's client: computed document and revision, a document by id, meta links, URL lookups, raw spec text, a notifications token, the API's version", () =>
      Effect.gen(function*() {
        const s = yield* setup()
        const endpoint = yield* baseUrl
        const gitbook = new GitBookAPI({ endpoint, authToken: s.alice.token }) as unknown as GitBookLookups
        const got = yield* Effect.promise(async () => {
          const info = await gitbook.getApiInformation()
          const operations = await gitbook.spaces.getComputedDocument(s.spaceId, { seed: "ref", source: openapiSource({ doc: "operations", page: "pets" }) }, { schema: "current" })
          const again = await gitbook.spaces.getComputedDocument(s.spaceId, { seed: "ref", source: openapiSource({ doc: "operations", page: "pets" }) })
          const models = await gitbook.spaces.getComputedDocument(s.spaceId, { seed: "ref", source: openapiSource({ doc: "models" }) })
          const one = await gitbook.spaces.getComputedDocument(s.spaceId, { seed: "ref", source: openapiSource({ doc: "operation", page: "/orders", method: "get" }) })
          const revision = await gitbook.spaces.getComputedRevision(s.spaceId, { seed: "ref", source: openapiSource({ models: true }) })
          const byOperation = await gitbook.spaces.getComputedRevision(s.spaceId, { seed: "ref", source: openapiSource({ models: false, grouping: "by-operation" }) })
          const document = await gitbook.spaces.getDocumentById(s.spaceId, s.guide.id)
          const metaLinks = await gitbook.spaces.listSpacePageMetaLinks(s.spaceId, s.guide.id)
          const crMetaLinks = await gitbook.spaces.listChangeRequestPageMetaLinks(s.spaceId, s.cr.id, s.guide.id)
          const page = await gitbook.urls.getContentByUrl({ url: `${publicUrl}/s/${s.spaceId}/${s.guide.slug}` })
          const inCr = await gitbook.urls.getContentByUrl({ url: `${publicUrl}/s/${s.spaceId}/~/changes/${s.cr.number}/${s.guide.slug}` })
          const collection = await gitbook.urls.getContentByUrl({ url: `${publicUrl}/o/${s.organizationId}/c/${s.collection.id}` })
          const video = await gitbook.urls.getEmbedByUrl({ url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" })
          const link = await gitbook.urls.getEmbedByUrl({ url: "https://example.org/a/page" })
          const rawSpec = await gitbook.orgs.getLatestOpenApiSpecVersionContentRaw(s.organizationId, "pets")
          const token = await gitbook.user.createUserNotificationsToken()
          return { info, operations, again, models, one, revision, byOperation, document, metaLinks, crMetaLinks, page, inCr, collection, video, link, rawSpec, token }
        })
        // Each answer is GitBook's shape.
        const answers: ReadonlyArray<readonly [string, unknown]> = [
          ["getApiInformation", got.info.data], ["getComputedDocument", got.operations.data], ["getComputedRevision", got.revision.data],
          ["getComputedRevision", got.byOperation.data], ["getDocumentById", got.document.data], ["listSpacePageMetaLinks", got.metaLinks.data],
          ["listChangeRequestPageMetaLinks", got.crMetaLinks.data], ["getContentByUrl", got.page.data], ["getContentByUrl", got.inCr.data],
          ["getContentByUrl", got.collection.data], ["getEmbedByUrl", got.video.data], ["getEmbedByUrl", got.link.data],
          ["getLatestOpenAPISpecVersionContentRaw", got.rawSpec.data], ["createUserNotificationsToken", got.token.data]
        ]
        assert.deepStrictEqual(answers.flatMap(([operationId, value]) => offSpec(operationId, value)), [])
        assert.strictEqual(got.info.status, 200)
        assert.isString(got.info.data.version)
        assert.isFalse(Number.isNaN(Date.parse(got.info.data.build)))

        // The tag's operations, as the blocks a page shows them with; the same seed draws the same keys.
        assert.strictEqual(got.operations.data.object, "document")
        assert.deepStrictEqual(got.operations.data.nodes.map((n) => [n.type, n.data?.["method"], n.data?.["path"]]), [["openapi-operation", "get", "/pets"], ["openapi-operation", "post", "/pets"]])
        assert.deepStrictEqual(got.again.data, got.operations.data)
        assert.deepStrictEqual(got.models.data.nodes.map((n) => n.data?.["schemas"]), [["Pet", "Order"]])
        assert.deepStrictEqual(got.one.data.nodes.map((n) => n.data?.["path"]), ["/orders"])
        assert.deepStrictEqual(got.revision.data.pages.map((p) => [p.title, p.path]), [["pets", "pets"], ["store", "store"], ["Models", "models"]])
        assert.deepStrictEqual(got.revision.data.files, [])
        assert.strictEqual(got.revision.data.pages[0]!.document!.nodes.filter((n) => n.type === "openapi-operation").length, 2)
        assert.deepStrictEqual(got.byOperation.data.pages[0]!.pages!.map((p) => [p.title, p.path]), [["List pets", "pets/list-pets"], ["Add a pet", "pets/add-a-pet"]])
        assert.strictEqual(got.byOperation.data.pages[0]!.type, "group")

        assert.strictEqual(got.document.data.object, "document")
        assert.include(JSON.stringify(got.document.data), "Install it with ")
        assert.deepStrictEqual(got.metaLinks.data, { alternates: [] })
        assert.deepStrictEqual(got.crMetaLinks.data, { alternates: [] })

        assert.strictEqual(got.page.data.space?.id, s.spaceId)
        assert.strictEqual(got.page.data.page?.title, "Guide")
        assert.strictEqual(got.inCr.data.changeRequest?.id, s.cr.id)
        assert.strictEqual(got.inCr.data.page?.id, s.guide.id)
        assert.strictEqual(got.collection.data.collection?.id, s.collection.id)
        assert.strictEqual(got.video.data.type, "rich")
        assert.include(got.video.data.html ?? "", "<iframe")
        assert.deepInclude(got.link.data, { type: "link", site: "example.org" })
        assert.deepStrictEqual(got.rawSpec.data, { text: petstore, format: "json" })

        // `/v1/` is the API's version, also without a token; the routes below it answer as before.
        const version = yield* raw("GET", "/v1/")
        assert.strictEqual(version.status, 200)
        assert.deepStrictEqual(Object.keys(version.body as object).toSorted(), ["build", "version"])
        const health = yield* raw("GET", "/health")
        assert.strictEqual(health.status, 200)
        const me = yield* raw("GET", "/v1/user", { token: s.alice.token })
        assert.strictEqual(me.status, 200)

        // The notifications token opens the notifications, and nothing else.
        const count = yield* raw("GET", "/v1/user/notifications/count", { token: got.token.data.token })
        assert.strictEqual(count.status, 200)
        assert.deepStrictEqual(count.body, { unread: 0 })
        const other = yield* raw("GET", `/v1/spaces/${s.spaceId}`, { token: got.token.data.token })
        assert.strictEqual(other.status, 401)
      }))

    it.effect("GitBook's client resolves a published URL by GET, without a token, as the POST form does", () =>
      Effect.gen(function*() {
        const site = yield* publishedSite("public")
        const url = `${publicUrl}/~sites/${site.siteId}/install/docker`
        const anonymous = new GitBookAPI({ endpoint: yield* baseUrl }) as unknown as GitBookLookups
        const found = yield* Effect.promise(() => anonymous.urls.getPublishedContentByUrl({ url }))
        const posted = yield* site.api.urls.resolvePublishedContentByUrl({ payload: { url } })
        assert.strictEqual(found.status, 200)
        assert.deepStrictEqual(offSpec("getPublishedContentByUrl", found.data), [])
        assert.isTrue("space" in posted)
        if (!("space" in posted)) return
        assert.strictEqual(found.data.space, posted.space)
        assert.strictEqual(found.data.pathname, "install/docker")
        assert.isString(found.data.apiToken)
        const missing = yield* raw("GET", `/v1/urls/published?url=${encodeURIComponent(`${publicUrl}/~sites/nosuchsite/`)}`)
        assert.strictEqual(missing.status, 404)
      }))

    it.effect("GitBook's client: a signed upload URL takes the file's bytes once, for the key it named; roles, limits and an outsider", () =>
      Effect.gen(function*() {
        const s = yield* setup()
        const bytes = new TextEncoder().encode("PK fake zip bytes")
        const gitbook = new GitBookAPI({ endpoint: yield* baseUrl, authToken: s.alice.token }) as unknown as GitBookLookups
        const signed = yield* Effect.promise(() =>
          gitbook.orgs.generateStorageUploadUrl(s.organizationId, { file: { name: "export.zip", type: "application/zip", size: bytes.byteLength }, kind: "import_file" }))
        assert.strictEqual(signed.status, 201)
        assert.deepStrictEqual(offSpec("generateStorageUploadURL", signed.data, "201"), [])
        assert.strictEqual(signed.data.object, "storage-signed-url")
        assert.isTrue(signed.data.url.startsWith(`${publicUrl}/~storage/upload/`))

        const wrongLength = yield* put(signed.data.url, bytes.slice(0, 4))
        assert.strictEqual(wrongLength.status, 400)
        assert.strictEqual(fieldOf(wrongLength.body), "content-length")
        const stored = yield* put(signed.data.url, bytes)
        assert.strictEqual(stored.status, 200)
        assert.deepInclude(stored.body as object, { key: signed.data.key, name: "export.zip", size: bytes.byteLength })
        const twice = yield* put(signed.data.url, bytes)
        assert.strictEqual(twice.status, 400)
        assert.strictEqual(fieldOf(twice.body), "key")
        const forged = yield* put(signed.data.url.replace(/.$/, (c) => (c === "A" ? "B" : "A")), bytes)
        assert.strictEqual(forged.status, 403)

        // The key names the file in an import run, as an uploaded file's key does: its page arrives in the space.
        const markdown = new TextEncoder().encode("# Uploaded guide\n\nWords sent to a signed URL.\n")
        const forImport = yield* s.alice.api.storage.generateStorageUploadURL({
          params: { organizationId: s.organizationId },
          payload: { file: { name: "uploaded.md", type: "text/markdown", size: markdown.byteLength }, kind: "import_file" }
        })
        assert.strictEqual((yield* put(forImport.url, markdown)).status, 200)
        const started = yield* s.alice.api.imports.startImportRun({
          params: { organizationId: s.organizationId },
          payload: { source: { type: "file", files: [forImport.key] }, target: { space: s.spaceId } }
        })
        const run = yield* s.alice.api.imports.getImportRun({ params: { organizationId: s.organizationId, importRunId: started.id } }).pipe(
          Effect.flatMap((r) => r.status === "pending" || r.status === "in-progress" ? Effect.fail("running" as const) : Effect.succeed(r)),
          Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 300 }),
          Effect.orDie
        )
        assert.strictEqual(run.status, "completed", run.reason ?? "")

        const path = `/v1/orgs/${s.organizationId}/storage/upload`
        const byReader = yield* raw("POST", path, { token: s.members.read!.token, body: uploadBody("import_file") })
        assert.strictEqual(byReader.status, 403)
        const font = yield* raw("POST", path, { token: s.alice.token, body: uploadBody("customization_font") })
        assert.strictEqual(font.status, 201)
        const tooLarge = yield* raw("POST", path, { token: s.alice.token, body: uploadBody("import_file", 10 ** 12) })
        assert.strictEqual(tooLarge.status, 400)
        assert.strictEqual(fieldOf(tooLarge.body), "file.size")
        const badKind = yield* raw("POST", path, { token: s.alice.token, body: uploadBody("avatar") })
        assert.strictEqual(badKind.status, 400)
        assert.include(JSON.stringify(badKind.body), "kind")
        const outsider = yield* raw("POST", path, { token: s.outsider.token, body: uploadBody("import_file") })
        assert.strictEqual(outsider.status, 404)
      }))

    it.effect("roles, validation naming the field, and an outsider who learns nothing", () =>
      Effect.gen(function*() {
        const s = yield* setup()
        const reader = s.members.read!
        // A reader reads: computed content and documents need view permission only.
        const computed = yield* reader.api.spaceDocuments.getComputedDocument({
          params: { spaceId: s.spaceId },
          query: {},
          payload: { seed: "r", source: { type: "builtin:openapi", dependencies: { spec: { ref: { kind: "openapi", spec: "pets" } } }, props: { doc: "tag", page: "pets" } } }
        })
        assert.strictEqual(computed.nodes[0] !== undefined && (computed.nodes[0] as { type: string }).type, "paragraph")
        const found = yield* reader.api.spaceDocuments.getDocumentById({ params: { spaceId: s.spaceId, documentId: s.guide.id }, query: {} })
        assert.strictEqual(found.object, "document")

        const post = (path: string, body: unknown, token = s.alice.token) => raw("POST", path, { body: JSON.stringify(body), token })
        const computedPath = `/v1/spaces/${s.spaceId}/content/computed/document`
        const integration = yield* post(computedPath, { seed: "x", source: { type: "integration:acme:pages", props: {} } })
        assert.strictEqual(integration.status, 400)
        assert.strictEqual(fieldOf(integration.body), "source.type")
        const noSeed = yield* post(computedPath, { source: openapiSource({ doc: "models" }) })
        assert.strictEqual(noSeed.status, 400)
        assert.include(JSON.stringify(noSeed.body), "seed")
        const noTag = yield* post(computedPath, { seed: "x", source: openapiSource({ doc: "operations", page: "unicorns" }) })
        assert.strictEqual(noTag.status, 400)
        assert.strictEqual(fieldOf(noTag.body), "source.props.page")
        const noSpec = yield* post(computedPath, { seed: "x", source: openapiSource({ doc: "models" }, "nosuchspec") })
        assert.strictEqual(noSpec.status, 404)
        const badUrl = yield* raw("GET", `/v1/urls/content?url=${encodeURIComponent("not a url")}`, { token: s.alice.token })
        assert.strictEqual(badUrl.status, 400)
        assert.strictEqual(fieldOf(badUrl.body), "url")
        const badEmbed = yield* raw("GET", `/v1/urls/embed?url=${encodeURIComponent("ftp://example.org/file")}`, { token: s.alice.token })
        assert.strictEqual(badEmbed.status, 400)
        assert.strictEqual(fieldOf(badEmbed.body), "url")
        const noDocument = yield* raw("GET", `/v1/spaces/${s.spaceId}/documents/nosuchdocument`, { token: s.alice.token })
        assert.strictEqual(noDocument.status, 404)
        const noPage = yield* raw("GET", `/v1/spaces/${s.spaceId}/content/page/nosuchpage/meta-links`, { token: s.alice.token })
        assert.strictEqual(noPage.status, 404)
        const noEmbedToken = yield* raw("GET", `/v1/urls/embed?url=${encodeURIComponent("https://example.org")}`)
        assert.strictEqual(noEmbedToken.status, 401)

        // The outsider: every lookup of the organization's content answers 404, as if nothing were there.
        const outsider = s.outsider.token
        const refusals = [
          yield* post(computedPath, { seed: "x", source: openapiSource({ doc: "models" }) }, outsider),
          yield* post(`/v1/spaces/${s.spaceId}/content/computed/revision`, { seed: "x", source: openapiSource({ models: true }) }, outsider),
          yield* raw("GET", `/v1/spaces/${s.spaceId}/documents/${s.guide.id}`, { token: outsider }),
          yield* raw("GET", `/v1/spaces/${s.spaceId}/content/page/${s.guide.id}/meta-links`, { token: outsider }),
          yield* raw("GET", `/v1/spaces/${s.spaceId}/change-requests/${s.cr.id}/content/page/${s.guide.id}/meta-links`, { token: outsider }),
          yield* raw("GET", `/v1/urls/content?url=${encodeURIComponent(`${publicUrl}/s/${s.spaceId}/${s.guide.slug}`)}`, { token: outsider }),
          yield* raw("GET", `/v1/urls/content?url=${encodeURIComponent(`${publicUrl}/o/${s.organizationId}/c/${s.collection.id}`)}`, { token: outsider }),
          yield* raw("GET", `/v1/orgs/${s.organizationId}/openapi/pets/versions/latest/content/raw`, { token: outsider })
        ]
        assert.deepStrictEqual(refusals.map((r) => r.status), refusals.map(() => 404))
        assert.isTrue(refusals.every((r) => !JSON.stringify(r.body).includes("Install it")))

        // The outsider's own space does not let them compute from this organization's spec.
        const own = yield* s.outsider.api.organizations.createOrganization({ payload: { title: "Elsewhere" } })
        const ownSpace = yield* s.outsider.api.spaces.createSpace({ params: { organizationId: own.id }, payload: { title: "Mine" } })
        const crossed = yield* post(`/v1/spaces/${ownSpace.id}/content/computed/document`, { seed: "x", source: openapiSource({ doc: "models" }) }, outsider)
        assert.strictEqual(crossed.status, 404)
        const ownErr = errorCode(crossed.body)
        assert.strictEqual(ownErr, 404)
      }))
  })
}
