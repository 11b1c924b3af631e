/** The OpenAPI specs operations through the real router and the typed client, on every backend, with sources served on loopback. */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect, Option, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { Specs } from "@quire/specs"
import { OpenApiSources } from "@quire/testkit"
import { backends, baseUrl, type Client, errorCode, errorMessage, newUser, organizationWith, publicUrl, raw, spaceWith, withSettings } from "./Harness.ts"

const settings = {
  // A source that does not answer fails fast here (20 s in production).
  QUIRE_SPECS_FETCH_TIMEOUT_MS: 1500,
  // URL sources are due again after a second (an hour in production), so a test can poll them.
  QUIRE_SPECS_POLL_SECONDS: 1
}

const { deepJson, doc31, laughs, petSchema, sources, swagger2, tagSchema } = OpenApiSources

/** Waits until the spec's processing is complete and returns it. */
const settled = (api: Client, organizationId: string, specSlug: string) =>
  api.openAPISpecs.getOpenAPISpecBySlug({ params: { organizationId, specSlug } }).pipe(
    Effect.flatMap((spec) => spec.processingState === "complete" ? Effect.succeed(spec) : Effect.fail("pending" as const)),
    Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 150 }),
    Effect.orDie
  )

/**
 * Waits until the spec has been processed again since `after` and returns it. The server's own
 * every-minute `specs.poll` job may take a due spec before the test's poll does: either way it is
 * processed again, which is what is checked.
 */
const processedAfter = (api: Client, organizationId: string, specSlug: string, after: string) =>
  api.openAPISpecs.getOpenAPISpecBySlug({ params: { organizationId, specSlug } }).pipe(
    Effect.flatMap((spec) =>
      spec.processingState === "complete" && Date.parse(spec.lastProcessedAt!) > Date.parse(after)
        ? Effect.succeed(spec)
        : Effect.fail("pending" as const)
    ),
    Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 150 }),
    Effect.orDie
  )

type Answer<A> = Promise<{ readonly status: number; readonly data: A }>
interface SpecData {
  readonly slug: string
  readonly processingState: string
  readonly visibility?: string
  readonly lastVersion?: string
  readonly urls: { readonly published?: string }
}

/** The part of GitBook's client used here (its published typings do not resolve under NodeNext). */
interface GitBookSpecsClient {
  readonly orgs: {
    createOpenApiSpec(organizationId: string, body: { slug: string; source: { text: string } | { url: string } }): Answer<SpecData>
    createOrUpdateOpenApiSpecBySlug(organizationId: string, slug: string, body: { source: { text: string } | { url: string } }): Answer<SpecData>
    getOpenApiSpecBySlug(organizationId: string, slug: string): Answer<SpecData>
    listOpenApiSpecs(organizationId: string): Answer<{ readonly items: ReadonlyArray<SpecData> }>
    updateOpenApiSpecBySlug(organizationId: string, slug: string, body: { visibility: "public" | "private" }): Answer<SpecData>
    listOpenApiSpecVersions(organizationId: string, slug: string): Answer<{ readonly items: ReadonlyArray<{ readonly id: string }> }>
    getLatestOpenApiSpecVersion(organizationId: string, slug: string): Answer<{ readonly id: string; readonly object: string }>
    getLatestOpenApiSpecVersionContent(organizationId: string, slug: string): Answer<{ readonly filesystem: ReadonlyArray<SpecFileData>; readonly url: string }>
    getOpenApiSpecVersionContentById(organizationId: string, slug: string, versionId: string): Answer<{ readonly filesystem: ReadonlyArray<SpecFileData>; readonly url: string }>
    deleteOpenApiSpecBySlug(organizationId: string, slug: string): Promise<{ readonly status: number }>
  }
}

/** One file of a version's content, as the answer gives it. */
interface SpecFileData { readonly dir: string; readonly filename: string; readonly isEntrypoint: boolean; readonly references: ReadonlyArray<string>; readonly specification: unknown }

/** The parsed content of the file `filename` of a version's content. */
const fileOf = (content: { readonly filesystem: ReadonlyArray<SpecFileData> }, filename: string): unknown =>
  content.filesystem.find((file) => file.filename === filename)?.specification

/** A GET of a Quire URL on the test server (its public URL is not where it listens). */
const fetchPublished = Effect.fnUntraced(function*(url: string) {
  const base = yield* baseUrl
  assert.isTrue(url.startsWith(publicUrl), url)
  return yield* Effect.promise(async () => {
    const response = await fetch(`${base}${url.slice(publicUrl.length)}`)
    return { status: response.status, type: response.headers.get("content-type") ?? "", text: await response.text() }
  })
})

for (const backend of backends) {
  layer(withSettings(backend.layer, settings), { timeout: 180_000, excludeTestServices: true })(`OpenAPI specs API on ${backend.name}`, (it) => {
    it.effect("creates a spec from a URL, processes it with its external $ref, and versions it only on change", () =>
      Effect.gen(function*() {
        const { state, origin } = yield* sources
        const { alice, organizationId } = yield* organizationWith()
        const api = alice.api
        const created = yield* api.openAPISpecs.createOpenAPISpec({
          params: { organizationId },
          payload: { slug: "pets", source: { url: `${origin}/openapi.json` } }
        })
        assert.strictEqual(created.object, "openapi-spec")
        assert.strictEqual(created.slug, "pets")
        assert.strictEqual(created.processingState, "pending")
        assert.strictEqual(created.sourceURL, `${origin}/openapi.json`)
        assert.strictEqual(created.visibility, "private")
        assert.deepStrictEqual(created.permissions, { view: true, edit: true })
        assert.strictEqual(created.urls.location, `${publicUrl}/v1/orgs/${organizationId}/openapi/pets`)
        assert.isUndefined(created.urls.published)
        assert.strictEqual(created.lastProcessedErrorCount, 0)

        const done = yield* settled(api, organizationId, "pets")
        assert.isUndefined(done.lastProcessErrorCode)
        assert.isString(done.lastVersion)
        assert.isString(done.lastProcessedAt)

        const params = { organizationId, specSlug: "pets" }
        const latest = yield* api.openAPISpecs.getLatestOpenAPISpecVersion({ params })
        assert.strictEqual(latest.object, "openapi-spec-version")
        assert.strictEqual(latest.id, done.lastVersion)
        assert.strictEqual(latest.url, `${origin}/openapi.json`)
        assert.strictEqual(latest.urls.location, `${publicUrl}/v1/orgs/${organizationId}/openapi/pets/versions/${latest.id}`)
        const byId = yield* api.openAPISpecs.getOpenAPISpecVersionById({ params: { ...params, versionId: latest.id } })
        assert.deepStrictEqual(byId, latest)

        const content = yield* api.openAPISpecs.getLatestOpenAPISpecVersionContent({ params })
        // `filesystem` is Scalar's filesystem, as GitBook answers it and its renderer reads it (`filesystem.find`):
        // each file with its name, folder, whether it is the entry document and what it references; `url` where the document is.
        assert.isTrue(Array.isArray(content.filesystem))
        assert.deepStrictEqual(content.filesystem.map((f) => [f.filename, f.dir, f.isEntrypoint]).toSorted(), [["openapi", "/", true], ["schemas/pet.json", "/schemas", false], ["tag.json", "/", false]])
        assert.deepStrictEqual(fileOf(content, "openapi"), doc31("Pets"))
        assert.deepStrictEqual(fileOf(content, "schemas/pet.json"), petSchema)
        assert.deepStrictEqual(fileOf(content, "tag.json"), tagSchema)
        assert.includeMembers([...content.filesystem.find((f) => f.isEntrypoint)!.references], ["schemas/pet.json"])
        // The author's key order is kept (jsonb stored keys shortest first: `info, paths, openapi`).
        assert.deepStrictEqual(Object.keys(fileOf(content, "openapi") as object), Object.keys(doc31("Pets")))
        assert.strictEqual(content.url, `${origin}/openapi.json`)
        assert.strictEqual(content.urls.source, `${origin}/openapi.json`)
        assert.isNull(content.urls.public)
        const contentById = yield* api.openAPISpecs.getOpenAPISpecVersionContentById({ params: { ...params, versionId: latest.id } })
        assert.deepStrictEqual(contentById, content)

        // The same source again: processed, no new version.
        const again = yield* api.openAPISpecs.createOrUpdateOpenAPISpecBySlug({ params, payload: { source: { url: `${origin}/openapi.json` } } })
        assert.strictEqual(again.processingState, "pending")
        const unchanged = yield* settled(api, organizationId, "pets")
        assert.strictEqual(unchanged.lastVersion, latest.id)
        assert.strictEqual((yield* api.openAPISpecs.listOpenAPISpecVersions({ params, query: {} })).count, 1)

        // The document changes at its URL: a new version.
        state.title = "Pets v2"
        yield* api.openAPISpecs.createOrUpdateOpenAPISpecBySlug({ params, payload: { source: { url: `${origin}/openapi.json` } } })
        const changed = yield* settled(api, organizationId, "pets")
        assert.notStrictEqual(changed.lastVersion, latest.id)
        const versions = yield* api.openAPISpecs.listOpenAPISpecVersions({ params, query: {} })
        assert.deepStrictEqual(versions.items.map((v) => v.id), [changed.lastVersion!, latest.id])
        const newest = yield* api.openAPISpecs.getLatestOpenAPISpecVersionContent({ params })
        assert.deepStrictEqual(fileOf(newest, "openapi"), doc31("Pets v2"))
        // Old versions keep their content.
        const old = yield* api.openAPISpecs.getOpenAPISpecVersionContentById({ params: { ...params, versionId: latest.id } })
        assert.deepStrictEqual(fileOf(old, "openapi"), doc31("Pets"))
        const paged = yield* api.openAPISpecs.listOpenAPISpecVersions({ params, query: { limit: 1 } })
        assert.strictEqual(paged.count, 1)
        assert.isString(paged.next?.page)
      }))

    it.effect("re-polls URL sources once their interval has passed, with a new version only when the document changed", () =>
      Effect.gen(function*() {
        const { state, origin } = yield* sources
        const { alice, organizationId } = yield* organizationWith()
        yield* alice.api.openAPISpecs.createOpenAPISpec({ params: { organizationId }, payload: { slug: "polled", source: { url: `${origin}/openapi.json` } } })
        const first = yield* settled(alice.api, organizationId, "polled")
        yield* Effect.sleep("1100 millis")
        yield* Specs.use((specs) => specs.pollDue)
        const same = yield* processedAfter(alice.api, organizationId, "polled", first.lastProcessedAt!)
        assert.strictEqual(same.lastVersion, first.lastVersion)
        state.title = "Polled v2"
        yield* Effect.sleep("1100 millis")
        yield* Specs.use((specs) => specs.pollDue)
        const changed = yield* processedAfter(alice.api, organizationId, "polled", same.lastProcessedAt!)
        assert.notStrictEqual(changed.lastVersion, first.lastVersion)
        const versions = yield* alice.api.openAPISpecs.listOpenAPISpecVersions({ params: { organizationId, specSlug: "polled" }, query: {} })
        assert.strictEqual(versions.count, 2)
      }))

    it.effect("GitBook's own client creates, replaces, reads, publishes, lists versions and deletes a spec", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith()
        const endpoint = yield* baseUrl
        const gitbook = new GitBookAPI({ endpoint, authToken: alice.token }) as unknown as GitBookSpecsClient
        const created = yield* Effect.promise(() => gitbook.orgs.createOpenApiSpec(organizationId, { slug: "client", source: { text: swagger2 } }))
        assert.strictEqual(created.status, 201)
        assert.strictEqual(created.data.processingState, "pending")
        const done = yield* settled(alice.api, organizationId, "client")
        const result = yield* Effect.promise(async () => {
          const replaced = await gitbook.orgs.createOrUpdateOpenApiSpecBySlug(organizationId, "client", { source: { text: swagger2 } })
          const made = await gitbook.orgs.createOrUpdateOpenApiSpecBySlug(organizationId, "client-two", { source: { text: swagger2 } })
          const listed = await gitbook.orgs.listOpenApiSpecs(organizationId)
          const published = await gitbook.orgs.updateOpenApiSpecBySlug(organizationId, "client", { visibility: "public" })
          const versions = await gitbook.orgs.listOpenApiSpecVersions(organizationId, "client")
          const latest = await gitbook.orgs.getLatestOpenApiSpecVersion(organizationId, "client")
          const content = await gitbook.orgs.getLatestOpenApiSpecVersionContent(organizationId, "client")
          const contentById = await gitbook.orgs.getOpenApiSpecVersionContentById(organizationId, "client", latest.data.id)
          const deleted = await gitbook.orgs.deleteOpenApiSpecBySlug(organizationId, "client-two")
          return { replaced, made, listed, published, versions, latest, content, contentById, deleted }
        })
        assert.strictEqual(result.replaced.status, 200)
        assert.strictEqual(result.made.status, 201)
        assert.deepStrictEqual(result.listed.data.items.map((s) => s.slug), ["client", "client-two"])
        assert.strictEqual(result.published.data.visibility, "public")
        assert.isString(result.published.data.urls.published)
        assert.deepStrictEqual(result.versions.data.items.map((v) => v.id), [done.lastVersion!])
        assert.strictEqual(result.latest.data.object, "openapi-spec-version")
        // GitBook's OpenAPISpecContent: `filesystem` Scalar's filesystem (an array of files), `url` where the version's document is.
        assert.isTrue(Array.isArray(result.content.data.filesystem))
        assert.strictEqual((result.content.data.filesystem.find((f) => f.isEntrypoint)!.specification as { swagger?: string }).swagger, "2.0")
        assert.strictEqual(result.content.data.url, `${publicUrl}/v1/orgs/${organizationId}/openapi/client/versions/${result.latest.data.id}/content`)
        assert.deepStrictEqual(result.contentById.data, result.content.data)
        assert.strictEqual(result.deleted.status, 204)
      }))

    it.effect("creates with PUT (201), replaces with PUT (200), takes text sources, lists and deletes", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith()
        const put = yield* raw("PUT", `/v1/orgs/${organizationId}/openapi/legacy`, { token: alice.token, body: JSON.stringify({ source: { text: swagger2 } }) })
        assert.strictEqual(put.status, 201)
        assert.strictEqual((put.body as { processingState: string }).processingState, "pending")
        const legacy = yield* settled(alice.api, organizationId, "legacy")
        assert.isUndefined(legacy.sourceURL)
        assert.isUndefined(legacy.lastProcessErrorCode)
        const replaced = yield* raw("PUT", `/v1/orgs/${organizationId}/openapi/legacy`, {
          token: alice.token,
          body: JSON.stringify({ source: { text: JSON.stringify({ ...doc31("Inline"), paths: {} }) } })
        })
        assert.strictEqual(replaced.status, 200)
        const inline = yield* settled(alice.api, organizationId, "legacy")
        assert.notStrictEqual(inline.lastVersion, legacy.lastVersion)
        yield* alice.api.openAPISpecs.createOpenAPISpec({ params: { organizationId }, payload: { slug: "second", source: { text: swagger2 } } })
        const list = yield* alice.api.openAPISpecs.listOpenAPISpecs({ params: { organizationId }, query: {} })
        assert.deepStrictEqual(list.items.map((s) => s.slug), ["legacy", "second"])
        assert.strictEqual(list.count, 2)

        const duplicate = yield* Effect.flip(
          alice.api.openAPISpecs.createOpenAPISpec({ params: { organizationId }, payload: { slug: "second", source: { text: swagger2 } } })
        )
        assert.strictEqual(errorCode(duplicate), 409)

        yield* alice.api.openAPISpecs.deleteOpenAPISpecBySlug({ params: { organizationId, specSlug: "second" } })
        yield* alice.api.openAPISpecs.deleteOpenAPISpecBySlug({ params: { organizationId, specSlug: "second" } })
        const gone = yield* Effect.flip(alice.api.openAPISpecs.getOpenAPISpecBySlug({ params: { organizationId, specSlug: "second" } }))
        assert.strictEqual(errorCode(gone), 404)
        const noVersions = yield* Effect.flip(alice.api.openAPISpecs.listOpenAPISpecVersions({ params: { organizationId, specSlug: "second" }, query: {} }))
        assert.strictEqual(errorCode(noVersions), 404)
      }))

    it.effect("records why processing failed: timeout, HTTP error, unparsable and invalid documents", () =>
      Effect.gen(function*() {
        const { origin } = yield* sources
        const { alice, organizationId } = yield* organizationWith()
        const cases = [
          ["slow", "/slow", "FETCH_TIMEOUT", "TIMEOUT"],
          ["broken", "/broken", "FETCH_ERROR", "HTTP_ERROR"],
          ["garbage", "/garbage", "PARSE_ERROR", "UNPARSABLE"],
          ["invalid", "/invalid.json", "PARSE_ERROR", "INVALID_DOCUMENT"],
          // A referenced file that cannot be fetched fails the run as its source would.
          ["dangling", "/dangling.json", "FETCH_ERROR", "HTTP_ERROR"]
        ] as const
        for (const [slug, path] of cases) {
          yield* alice.api.openAPISpecs.createOpenAPISpec({ params: { organizationId }, payload: { slug, source: { url: `${origin}${path}` } } })
        }
        for (const [slug, , code, detail] of cases) {
          const spec = yield* settled(alice.api, organizationId, slug)
          assert.strictEqual(spec.lastProcessErrorCode, code, slug)
          assert.strictEqual(spec.lastProcessedErrors?.[0]?.code, detail, slug)
          assert.isAbove(spec.lastProcessedErrorCount, 0)
          assert.isUndefined(spec.lastVersion)
          const none = yield* Effect.flip(alice.api.openAPISpecs.getLatestOpenAPISpecVersion({ params: { organizationId, specSlug: slug } }))
          assert.strictEqual(errorCode(none), 404)
        }
        // A Swagger 2.0 document in YAML is valid.
        yield* alice.api.openAPISpecs.createOpenAPISpec({ params: { organizationId }, payload: { slug: "yaml", source: { url: `${origin}/swagger.yaml` } } })
        const yaml = yield* settled(alice.api, organizationId, "yaml")
        assert.isUndefined(yaml.lastProcessErrorCode)
        assert.isString(yaml.lastVersion)
      }))

    it.effect("bounds what a spec stores: a YAML alias bomb or a 100,000-level document is refused at write (400) or fails its run naming the limit", () =>
      Effect.gen(function*() {
        const { origin } = yield* sources
        const { alice, organizationId } = yield* organizationWith()
        const post = (slug: string, text: string) =>
          raw("POST", `/v1/orgs/${organizationId}/openapi`, { token: alice.token, body: JSON.stringify({ slug, source: { text } }) })
        // Text given directly: what it expands to is known at once.
        const bomb = yield* post("bomb", laughs)
        assert.strictEqual(bomb.status, 400)
        assert.include(errorMessage(bomb.body), "source.text")
        assert.include(errorMessage(bomb.body), "8 MiB")
        const deep = yield* post("deep", deepJson)
        assert.strictEqual(deep.status, 400)
        assert.include(errorMessage(deep.body), "source.text")
        assert.include(errorMessage(deep.body), "100 levels")
        // The source itself: at most 10 MiB.
        const huge = yield* post("huge", `openapi: 3.1.0\nx: "${"a".repeat(10 * 1024 * 1024)}"\n`)
        assert.strictEqual(huge.status, 400)
        assert.include(errorMessage(huge.body), "source")
        const put = yield* raw("PUT", `/v1/orgs/${organizationId}/openapi/bomb`, { token: alice.token, body: JSON.stringify({ source: { text: laughs } }) })
        assert.strictEqual(put.status, 400)
        assert.strictEqual(errorCode(yield* Effect.flip(alice.api.openAPISpecs.getOpenAPISpecBySlug({ params: { organizationId, specSlug: "bomb" } }))), 404)

        // Behind a URL: the run ends (complete, with the error naming the limit) and stores no version.
        for (const [slug, path, detail, limit] of [["laughs", "/laughs.yaml", "TOO_LARGE", "8 MiB"], ["nested", "/deep.json", "TOO_DEEP", "100 levels"]] as const) {
          yield* alice.api.openAPISpecs.createOpenAPISpec({ params: { organizationId }, payload: { slug, source: { url: `${origin}${path}` } } })
          const spec = yield* settled(alice.api, organizationId, slug)
          assert.strictEqual(spec.lastProcessErrorCode, "PARSE_ERROR", slug)
          assert.strictEqual(spec.lastProcessedErrors?.[0]?.code, detail, slug)
          assert.include(spec.lastProcessedErrors?.[0]?.message, limit, slug)
          assert.isUndefined(spec.lastVersion, slug)
        }
        // Every later call still answers.
        const listed = yield* alice.api.openAPISpecs.listOpenAPISpecs({ params: { organizationId }, query: {} })
        assert.deepStrictEqual(listed.items.map((s) => s.slug), ["laughs", "nested"])
        assert.strictEqual(errorCode(yield* Effect.flip(alice.api.openAPISpecs.getLatestOpenAPISpecVersion({ params: { organizationId, specSlug: "laughs" } }))), 404)
      }))

    it.effect("a run that fails on the document itself fails its job permanently (not retried) and leaves the spec complete with the error", () =>
      Effect.gen(function*() {
        const { origin } = yield* sources
        const { alice, organizationId } = yield* organizationWith()
        yield* alice.api.openAPISpecs.createOpenAPISpec({ params: { organizationId }, payload: { slug: "invalid", source: { url: `${origin}/invalid.json` } } })
        const spec = yield* settled(alice.api, organizationId, "invalid")
        const specs = yield* Specs
        const failure = yield* Effect.flip(specs.process(spec.id))
        assert.strictEqual(failure._tag, "PermanentJobFailure")
        const after = yield* alice.api.openAPISpecs.getOpenAPISpecBySlug({ params: { organizationId, specSlug: "invalid" } })
        assert.strictEqual(after.processingState, "complete")
        assert.strictEqual(after.lastProcessErrorCode, "PARSE_ERROR")
        // A source that is only unreachable may answer later: that run is recorded, not failed for good.
        yield* alice.api.openAPISpecs.createOpenAPISpec({ params: { organizationId }, payload: { slug: "broken", source: { url: `${origin}/broken` } } })
        const broken = yield* settled(alice.api, organizationId, "broken")
        yield* specs.process(broken.id)
        assert.strictEqual((yield* settled(alice.api, organizationId, "broken")).lastProcessErrorCode, "FETCH_ERROR")
      }))

    it.effect("credentials in a source URL are stored sealed, fetched with, and never shown in sourceURL, versions, errors or listings", () =>
      Effect.gen(function*() {
        const { origin } = yield* sources
        const { alice, organizationId } = yield* organizationWith()
        const withUser = origin.replace("http://", "http://user:s3cret-pass@")
        const secrets = ["s3cret-pass", "tok-abc123", "tok-xyz789", "@127.0.0.1"]
        const noSecret = (label: string, value: unknown) => {
          const text = JSON.stringify(value)
          for (const secret of secrets) assert.notInclude(text, secret, `${label} shows ${secret}`)
        }
        const basic = yield* alice.api.openAPISpecs.createOpenAPISpec({ params: { organizationId }, payload: { slug: "basic", source: { url: `${withUser}/private.json` } } })
        assert.strictEqual(basic.sourceURL, `${origin}/private.json`)
        noSecret("created", basic)
        const token = yield* raw("PUT", `/v1/orgs/${organizationId}/openapi/token`, {
          token: alice.token,
          body: JSON.stringify({ source: { url: `${origin}/token.json?v=2&token=tok-abc123` } })
        })
        assert.strictEqual(token.status, 201)
        assert.strictEqual((token.body as { sourceURL: string }).sourceURL, `${origin}/token.json?v=2&token=***`)
        noSecret("put", token.body)
        // The fetches use them: both sources answer only with their credentials.
        for (const [slug, title] of [["basic", "Private"], ["token", "Token"]] as const) {
          const done = yield* settled(alice.api, organizationId, slug)
          assert.isUndefined(done.lastProcessErrorCode, JSON.stringify(done.lastProcessedErrors))
          noSecret(slug, done)
          const params = { organizationId, specSlug: slug }
          const version = yield* alice.api.openAPISpecs.getLatestOpenAPISpecVersion({ params })
          noSecret(`${slug} version`, version)
          const content = yield* alice.api.openAPISpecs.getLatestOpenAPISpecVersionContent({ params })
          assert.deepStrictEqual(fileOf(content, "openapi"), doc31(title))
          noSecret(`${slug} content`, { url: content.url, urls: content.urls })
          noSecret(`${slug} versions`, yield* alice.api.openAPISpecs.listOpenAPISpecVersions({ params, query: {} }))
        }
        // A failed fetch's error names the URL without them.
        yield* alice.api.openAPISpecs.createOpenAPISpec({ params: { organizationId }, payload: { slug: "failing", source: { url: `${withUser}/broken?token=tok-xyz789` } } })
        const failing = yield* settled(alice.api, organizationId, "failing")
        assert.strictEqual(failing.lastProcessErrorCode, "FETCH_ERROR")
        assert.include(failing.lastProcessedErrors?.[0]?.message, "/broken")
        noSecret("failing", failing)
        noSecret("listing", yield* alice.api.openAPISpecs.listOpenAPISpecs({ params: { organizationId }, query: {} }))
        // Stored sealed: the database holds no credential in clear.
        const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
        if (Option.isSome(sql)) {
          const rows = yield* sql.value<{ readonly text: string }>`SELECT source::text || last_processed_errors::text AS text FROM specs_specs`.pipe(Effect.orDie)
          const versions = yield* sql.value<{ readonly url: string | null }>`SELECT url FROM specs_versions`.pipe(Effect.orDie)
          noSecret("stored specs", rows)
          noSecret("stored versions", versions)
          assert.isTrue(rows.some((row) => row.text.includes("sealedUrl")))
          // A spec stored before sealing, with its credentials in clear, is sealed by its next run.
          const legacy = yield* alice.api.openAPISpecs.getOpenAPISpecBySlug({ params: { organizationId, specSlug: "basic" } })
          yield* sql.value`UPDATE specs_specs SET source = ${JSON.stringify({ url: `${withUser}/private.json` })}::jsonb WHERE id = ${legacy.id}`.pipe(Effect.orDie)
          assert.strictEqual((yield* alice.api.openAPISpecs.getOpenAPISpecBySlug({ params: { organizationId, specSlug: "basic" } })).sourceURL, `${origin}/private.json`)
          yield* (yield* Specs).process(legacy.id)
          const resealed = yield* sql.value<{ readonly text: string }>`SELECT source::text AS text FROM specs_specs WHERE id = ${legacy.id}`.pipe(Effect.orDie)
          noSecret("resealed spec", resealed)
          assert.include(resealed[0]!.text, "sealedUrl")
          assert.isUndefined((yield* settled(alice.api, organizationId, "basic")).lastProcessErrorCode)
        }
      }))

    it.effect("serves a public spec's latest version as JSON and YAML without a token, a private one never", () =>
      Effect.gen(function*() {
        const { origin } = yield* sources
        const { alice, organizationId } = yield* organizationWith()
        const params = { organizationId, specSlug: "pets" }
        yield* alice.api.openAPISpecs.createOpenAPISpec({ params: { organizationId }, payload: { slug: "pets", source: { url: `${origin}/openapi.json` } } })
        yield* settled(alice.api, organizationId, "pets")
        const json = `${publicUrl}/~openapi/${organizationId}/pets/openapi.json`
        assert.strictEqual((yield* fetchPublished(json)).status, 404)
        const made = yield* alice.api.openAPISpecs.updateOpenAPISpecBySlug({ params, payload: { visibility: "public" } })
        assert.strictEqual(made.visibility, "public")
        assert.strictEqual(made.urls.published, json)
        const served = yield* fetchPublished(json)
        assert.strictEqual(served.status, 200)
        assert.match(served.type, /application\/json/)
        assert.deepStrictEqual(JSON.parse(served.text), doc31("Pets"))
        const yaml = yield* fetchPublished(json.replace(/json$/, "yaml"))
        assert.strictEqual(yaml.status, 200)
        assert.match(yaml.type, /application\/yaml/)
        assert.include(yaml.text, "openapi: 3.1.0")
        const content = yield* alice.api.openAPISpecs.getLatestOpenAPISpecVersionContent({ params })
        assert.strictEqual(content.urls.public, json)
        yield* alice.api.openAPISpecs.updateOpenAPISpecBySlug({ params, payload: { visibility: "private" } })
        assert.strictEqual((yield* fetchPublished(json)).status, 404)
        assert.strictEqual((yield* fetchPublished(json.replace(/json$/, "yaml"))).status, 404)
      }))

    it.effect("lists the pages of the organization's sites that show a spec, to members only", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId, space } = yield* spaceWith(["read"])
        const api = alice.api
        yield* api.openAPISpecs.createOpenAPISpec({ params: { organizationId }, payload: { slug: "pets", source: { text: swagger2 } } })
        const params = { organizationId, specSlug: "pets" }
        assert.deepStrictEqual((yield* api.openAPISpecs.listOpenAPISpecUsages({ params })).items, [])
        const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Reference" } })
        yield* api.changeRequestContent.updateChangeRequestContent({
          params: { spaceId: space.id, changeRequestId: cr.id },
          payload: {
            changes: [
              { operation: "insert_page", title: "Intro", slug: "intro", document: { markdown: "No API here; spec=\"pets\" in prose is not a block.\n" } },
              { operation: "insert_page", title: "Pets", slug: "pets", document: { markdown: `{% openapi-operation spec="pets" path="/pets" method="get" %}\n{% endopenapi-operation %}\n` } },
              { operation: "insert_page", title: "Other", slug: "other", document: { markdown: `{% swagger spec="other" path="/x" method="get" %}\n{% endswagger %}\n` } }
            ]
          }
        })
        yield* api.changeRequests.mergeChangeRequest({ params: { spaceId: space.id, changeRequestId: cr.id } })
        // Not on a site yet: not used.
        assert.deepStrictEqual((yield* api.openAPISpecs.listOpenAPISpecUsages({ params })).items, [])
        const site = yield* api.sites.createSite({ params: { organizationId }, payload: { title: "Developers" } })
        yield* api.siteSpaces.addSpaceToSite({ params: { organizationId, siteId: site.id }, payload: { spaceId: space.id } })
        const used = yield* api.openAPISpecs.listOpenAPISpecUsages({ params })
        assert.deepStrictEqual(used.items.map((u) => [u.site.title, u.space.title, u.page.title, u.page.path]), [["Developers", "Docs", "Pets", "pets"]])
        assert.strictEqual(used.items[0]!.site.published, false)
        assert.strictEqual(used.items[0]!.urls.app, `${publicUrl}/s/${space.id}/pets`)
        assert.strictEqual(used.items[0]!.urls.site, `${publicUrl}/o/${organizationId}/sites/${site.id}`)
        assert.deepStrictEqual((yield* members.read!.api.openAPISpecs.listOpenAPISpecUsages({ params })).items.map((u) => u.page.id), used.items.map((u) => u.page.id))

        const outsider = yield* newUser("Mallory")
        assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.openAPISpecs.listOpenAPISpecUsages({ params }))), 404)
        assert.strictEqual(errorCode(yield* Effect.flip(api.openAPISpecs.listOpenAPISpecUsages({ params: { organizationId, specSlug: "missing" } }))), 404)
        const badSlug = yield* raw("GET", `/v1/orgs/${organizationId}/openapi/not%20a%20slug/usages`, { token: alice.token })
        assert.strictEqual(badSlug.status, 400)
        assert.include(errorMessage(badSlug.body), "specSlug")
      }))

    it.effect("checks fields (400 naming the field), roles and outsiders (404)", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["read", "create"])
        const post = (token: string, body: unknown) =>
          raw("POST", `/v1/orgs/${organizationId}/openapi`, { token, body: JSON.stringify(body) })
        const badSlug = yield* post(alice.token, { slug: "not a slug", source: { text: swagger2 } })
        assert.strictEqual(badSlug.status, 400)
        assert.include(errorMessage(badSlug.body), "slug")
        const longSlug = yield* post(alice.token, { slug: "a".repeat(101), source: { text: swagger2 } })
        assert.strictEqual(longSlug.status, 400)
        const longUrl = yield* post(alice.token, { slug: "long", source: { url: `https://example.com/${"a".repeat(2048)}` } })
        assert.strictEqual(longUrl.status, 400)
        assert.include(errorMessage(longUrl.body), "source")
        const noSource = yield* post(alice.token, { slug: "nosource" })
        assert.strictEqual(noSource.status, 400)
        assert.include(errorMessage(noSource.body), "source")
        const badVisibility = yield* raw("PATCH", `/v1/orgs/${organizationId}/openapi/x`, { token: alice.token, body: JSON.stringify({ visibility: "secret" }) })
        assert.strictEqual(badVisibility.status, 400)
        assert.include(errorMessage(badVisibility.body), "visibility")

        const creator = members.create!
        const mine = yield* creator.api.openAPISpecs.createOpenAPISpec({ params: { organizationId }, payload: { slug: "by-creator", source: { text: swagger2 } } })
        assert.deepStrictEqual(mine.permissions, { view: true, edit: true })
        const params = { organizationId, specSlug: "by-creator" }
        const reader = members.read!
        const seen = yield* reader.api.openAPISpecs.getOpenAPISpecBySlug({ params })
        assert.deepStrictEqual(seen.permissions, { view: true, edit: false })
        assert.strictEqual((yield* reader.api.openAPISpecs.listOpenAPISpecs({ params: { organizationId }, query: {} })).count, 1)
        const readerCreate = yield* Effect.flip(reader.api.openAPISpecs.createOpenAPISpec({ params: { organizationId }, payload: { slug: "nope", source: { text: swagger2 } } }))
        assert.strictEqual(errorCode(readerCreate), 403)
        const readerPatch = yield* Effect.flip(reader.api.openAPISpecs.updateOpenAPISpecBySlug({ params, payload: { visibility: "public" } }))
        assert.strictEqual(errorCode(readerPatch), 403)
        const readerPut = yield* Effect.flip(reader.api.openAPISpecs.createOrUpdateOpenAPISpecBySlug({ params, payload: { source: { text: swagger2 } } }))
        assert.strictEqual(errorCode(readerPut), 403)
        const readerDelete = yield* Effect.flip(reader.api.openAPISpecs.deleteOpenAPISpecBySlug({ params }))
        assert.strictEqual(errorCode(readerDelete), 403)

        const outsider = yield* newUser("Mallory")
        const attempts: ReadonlyArray<Effect.Effect<unknown, unknown>> = [
          outsider.api.openAPISpecs.getOpenAPISpecBySlug({ params }),
          outsider.api.openAPISpecs.listOpenAPISpecs({ params: { organizationId }, query: {} }),
          outsider.api.openAPISpecs.createOpenAPISpec({ params: { organizationId }, payload: { slug: "x", source: { text: swagger2 } } }),
          outsider.api.openAPISpecs.listOpenAPISpecVersions({ params, query: {} }),
          outsider.api.openAPISpecs.getLatestOpenAPISpecVersion({ params })
        ]
        for (const attempt of attempts) {
          assert.strictEqual(errorCode(yield* Effect.flip(attempt)), 404)
        }
        const missing = yield* Effect.flip(alice.api.openAPISpecs.getOpenAPISpecBySlug({ params: { organizationId, specSlug: "missing" } }))
        assert.strictEqual(errorCode(missing), 404)
        const missingVersion = yield* Effect.flip(alice.api.openAPISpecs.getOpenAPISpecVersionById({ params: { ...params, versionId: "nope" } }))
        assert.strictEqual(errorCode(missingVersion), 404)
      }))
  })
}
