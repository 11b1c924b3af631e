/**
 * The OpenAPI document as a developer reads it at `/openapi.json` and `/docs`: every operation
 * summarized and described, the bearer scheme declared where a token is needed, finite numbers,
 * request examples the operations accept, a valid OpenAPI 3.1 document; and `/` leads to `/docs`.
 */
import { assert, layer } from "@effect/vitest"
import { Context, Effect, Exit, Option, Schema } from "effect"
import { HttpApi, OpenApi } from "effect/http-api"
import { Api } from "@quire/api"
import { Validator } from "@seriousme/openapi-schema-validator"
import { baseUrl, memory, publicUrl } from "./Harness.ts"

type Spec = Record<string, any>

const httpMethods = new Set(["get", "put", "post", "delete", "patch"])

/**
 * The `"<group>.<endpoint>"` key of an operation: its GitBook operationId after the contract group
 * the document names in `x-quire-group` (an id two groups share keeps its `group.` prefix), or for a
 * top-level group's operation (`health`) its tag.
 */
const operationKey = (operation: Spec): string => {
  const id = String(operation["operationId"])
  return id.includes(".") ? id : `${operation["x-quire-group"] ?? operation["tags"]?.[0]}.${id}`
}

const operationsOf = (spec: Spec) =>
  Object.entries<Spec>(spec["paths"]).flatMap(([path, item]) =>
    Object.entries<Spec>(item).filter(([method]) => httpMethods.has(method)).map(([method, operation]) => ({
      path,
      method,
      operation,
      key: operationKey(operation)
    }))
  )

/** The JSON payload schema of each operation, and the operations whose endpoint carries a summary, by `group.endpoint`. */
const { payloadSchemas, summarized } = (() => {
  const schemas = new Map<string, Schema.Top>()
  const keys: Array<string> = []
  HttpApi.reflect(Api, {
    onGroup() {},
    onEndpoint({ endpoint, group }) {
      const key = `${group.identifier}.${endpoint.identifier}`
      const json = endpoint.payload.get("application/json")
      if (json !== undefined && "schemas" in json) schemas.set(key, json.schemas[0])
      if (Option.isSome(Context.getOption(endpoint.annotations, OpenApi.Summary))) keys.push(key)
    }
  })
  return { payloadSchemas: schemas, summarized: keys }
})()

/** Every place in a JSON value where `predicate` holds, as paths. */
const findAll = (value: unknown, predicate: (node: Spec) => boolean, path = "$"): Array<string> => {
  if (typeof value !== "object" || value === null) return []
  const here = !Array.isArray(value) && predicate(value as Spec) ? [path] : []
  return here.concat(Object.entries(value).flatMap(([key, child]) => findAll(child, predicate, `${path}.${key}`)))
}

/** The writes a developer meets first; each shows an example body in the document. */
const mainWrites = [
  "organizations.createOrganization",
  "organizations.updateOrganizationById",
  "spaces.createSpace",
  "spaces.updateSpaceById",
  "collections.createCollection",
  "collections.updateCollectionById",
  "changeRequests.createChangeRequest",
  "changeRequests.updateChangeRequestById",
  "changeRequestContent.updateChangeRequestContent",
  "comments.postCommentInSpace",
  "comments.updateCommentInSpace",
  "comments.postCommentReplyInSpace",
  "changeRequestComments.postCommentInChangeRequest",
  "sites.createSite",
  "sites.updateSiteById"
]

layer(memory.layer, { timeout: 120_000, excludeTestServices: true })("the OpenAPI document served at /openapi.json", (it) => {
  const served = Effect.gen(function*() {
    const base = yield* baseUrl
    const response = yield* Effect.promise(() => fetch(`${base}/openapi.json`))
    assert.strictEqual(response.status, 200)
    return (yield* Effect.promise(() => response.json())) as Spec
  })

  it.effect("every operation has a summary and a description, and every documented operation exists", () =>
    Effect.gen(function*() {
      const spec = yield* served
      const operations = operationsOf(spec)
      assert.isAbove(operations.length, 150)
      const undocumented = operations
        .filter(({ operation }) => typeof operation.summary !== "string" || operation.summary.trim() === "" || typeof operation.description !== "string" || operation.description.trim() === "")
        .map(({ key, method, path }) => `${key} (${method.toUpperCase()} ${path})`)
      assert.deepStrictEqual(undocumented, [], "annotate these endpoints with OpenApi.annotations({ summary, description })")
      const known = new Set(operations.map(({ key }) => key))
      assert.deepStrictEqual(summarized.filter((key) => !known.has(key)), [], "summarized endpoints missing from the document")
      const summaries = operations.map(({ operation }) => operation.summary as string)
      assert.isTrue(summaries.every((summary) => summary.length <= 60), "summaries are short")
    }))

  it.effect("the bearer scheme is declared and required by every operation but /health, the API's version and the Git webhook", () =>
    Effect.gen(function*() {
      const spec = yield* served
      const bearer = spec["components"]["securitySchemes"]["bearer"]
      assert.strictEqual(bearer.type, "http")
      assert.strictEqual(bearer.scheme, "bearer")
      assert.include(bearer.description, "Authorization: Bearer")
      const open = new Set(["system.health", "system.getApiInformation", "gitWebhook.receiveSpaceGitWebhook"])
      for (const { key, operation } of operationsOf(spec)) {
        if (open.has(key)) assert.deepStrictEqual(operation.security, [], key)
        else assert.deepStrictEqual(operation.security, [{ bearer: [] }], key)
      }
    }))

  it.effect("numbers are finite: no field admits Infinity or NaN", () =>
    Effect.gen(function*() {
      const spec = yield* served
      const nonFinite = findAll(spec, (node) => Array.isArray(node["enum"]) && node["enum"].some((v: unknown) => v === "Infinity" || v === "NaN"))
      assert.deepStrictEqual(nonFinite, [])
      assert.isAbove(findAll(spec, (node) => node["type"] === "number").length, 20)
    }))

  it.effect("the main writes show an example body, and every example is a body the operation accepts", () =>
    Effect.gen(function*() {
      const spec = yield* served
      const byKey = new Map(operationsOf(spec).map((entry) => [entry.key, entry.operation]))
      for (const key of mainWrites) {
        const example = byKey.get(key)?.requestBody?.content?.["application/json"]?.example
        assert.isDefined(example, `${key} has a request example`)
      }
      for (const [key, operation] of byKey) {
        const example = operation.requestBody?.content?.["application/json"]?.example
        if (example === undefined) continue
        const schema = payloadSchemas.get(key)
        assert.isDefined(schema, `${key} takes a JSON body`)
        const decoded = Schema.decodeUnknownExit(schema as Schema.Codec<unknown, unknown>, { onExcessProperty: "error" })(example)
        assert.isTrue(Exit.isSuccess(decoded), `${key}'s example decodes: ${Exit.isFailure(decoded) ? String(decoded.cause) : ""}`)
      }
    }))

  // From the sources, the first /docs has a worker thread make the reference's document: tens of seconds on a loaded machine.
  it.effect("GET /docs is the API reference: a small page loading Scalar and the document from this server, compressed and cached by hash", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const docs = yield* Effect.promise(() => fetch(`${base}/docs`))
      assert.strictEqual(docs.status, 200)
      assert.strictEqual(docs.headers.get("cache-control"), "no-cache")
      const html = yield* Effect.promise(() => docs.text())
      assert.isBelow(html.length, 4000)
      assert.include(html, `"withDefaultFonts":false`)
      const script = /<script src="(\/docs\/scalar\.[0-9a-f]{12}\.js)"><\/script>/.exec(html)?.[1]
      const documentUrl = /"url":"(\/docs\/openapi\.[0-9a-f]{12}\.json)"/.exec(html)?.[1]
      assert.isDefined(script, "Scalar from this server, by a hashed name")
      assert.isDefined(documentUrl, "the document by a hashed name")
      // The page's policy runs only this server's scripts and the page's own start-up (by hash).
      assert.match(docs.headers.get("content-security-policy") ?? "", /script-src 'self' 'sha256-[^']+'(;|$)/)

      const bundle = yield* Effect.promise(() => fetch(`${base}${script}`, { headers: { "accept-encoding": "br" } }))
      assert.strictEqual(bundle.status, 200)
      assert.strictEqual(bundle.headers.get("content-encoding"), "br")
      assert.strictEqual(bundle.headers.get("cache-control"), "public, max-age=31536000, immutable")
      const bundleText = yield* Effect.promise(() => bundle.text())
      assert.include(bundleText, "createApiReference")
      // The document is made with @scalar/workspace-store 0.24.7, the store of this Scalar: a new Scalar from effect needs the store it uses.
      assert.include(bundleText.slice(0, 400), "@scalar/api-reference@1.43.5/")

      const readers = yield* Effect.promise(() => fetch(`${base}${documentUrl}`).then((r) => r.json() as Promise<Spec>))
      const spec = yield* served
      assert.deepStrictEqual(Object.keys(readers["paths"]), Object.keys(spec["paths"]), "the same operations as /openapi.json")
      // Without the Idempotency-Key parameter Scalar showed empty on every write; the introduction describes it.
      const create = readers["paths"]["/v1/orgs/{organizationId}/spaces"]["post"]
      assert.strictEqual(create["summary"], "Create a space")
      assert.notInclude(JSON.stringify(create["parameters"] ?? []), "IdempotencyKey")
      assert.include(JSON.stringify(spec["paths"]["/v1/orgs/{organizationId}/spaces"]["post"]["parameters"]), "IdempotencyKey")
      assert.include(readers["info"]["description"], "Idempotency-Key")
      // Scalar's sidebar comes with the document, so the browser does not build it: every tag and every operation is in it.
      const entries: Array<Spec> = []
      const walk = (entry: Spec) => {
        entries.push(entry)
        for (const child of entry["children"] ?? []) walk(child)
      }
      walk(readers["x-scalar-navigation"])
      const operations = new Set(entries.filter((e) => e["type"] === "operation").map((e) => `${e["method"]} ${e["path"]}`))
      const expected = Object.entries<Spec>(spec["paths"]).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`))
      assert.deepStrictEqual([...operations].toSorted(), expected.toSorted(), "the sidebar lists every operation")
      const tags = new Set(entries.filter((e) => e["type"] === "tag").map((e) => e["name"]))
      for (const tag of spec["tags"] as Array<Spec>) assert.isTrue(tags.has(tag["name"]), `the sidebar has the tag ${tag["name"]}`)
      // This server's public URL as the only server: Scalar's code samples need an absolute one, and fill it in only when Scalar builds the sidebar itself.
      assert.deepStrictEqual(readers["servers"], [{ url: publicUrl }])

      const missing = yield* Effect.promise(() => fetch(`${base}/docs/scalar.000000000000.js`))
      assert.strictEqual(missing.status, 404)
    }), { timeout: 240_000 })

  it.effect("is a valid OpenAPI 3.1 document (the specification's own JSON schema)", () =>
    Effect.gen(function*() {
      const spec = yield* served
      const result = yield* Effect.promise(() => new Validator().validate(spec as Record<string, unknown>))
      assert.deepStrictEqual(result.errors ?? [], [], "the document follows the OpenAPI 3.1 schema")
      assert.isTrue(result.valid)
    }))
})
